"""The battle's rules as a validated model (every number of RULES.md §0–§7).

The defaults live in ``config/rules.yaml`` under ``battle:``; this module only declares their
shape. Unknown keys are errors, so a typo in a config or variant never passes silently.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from battle.dice import DiceExpression, parse_dice
from battle.errors import DiceExpressionError

__all__ = [
    "BattleRules",
    "ChargeRules",
    "DeckRules",
    "DoctrineRules",
    "FormationChangeRules",
    "MoraleRules",
    "WithdrawalRules",
]


#: the formations the quick battle models, by unit type (RULES.md §1, §1.6)
_FORMATIONS = {
    "infantry": ("line", "column", "square"),
    "cavalry": ("line", "column"),
    "artillery": ("limbered", "unlimbered"),
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class UnitTypeRules(_Strict):
    """RULES.md §1: a unit type's stands and formations (the battle models a fixed set)."""

    stands: int = Field(ge=1)
    formations: list[str]
    default_formation: str

    @model_validator(mode="after")
    def _default_is_a_formation(self) -> UnitTypeRules:
        if self.default_formation not in self.formations:
            raise ValueError(
                f"default_formation {self.default_formation!r} is not one of its formations "
                f"({', '.join(self.formations)})"
            )
        return self


class CombatDivisors(_Strict):
    """RULES.md §1.1 combat divisors (the smaller, the more potent)."""

    infantry: int = Field(ge=1)
    cavalry: int = Field(ge=1)
    artillery_unlimbered: int = Field(ge=1)
    artillery_limbered: int = Field(ge=1)


class MoraleRules(_Strict):
    """RULES.md §1.3, §1.5, §4.3: morale in percent."""

    base: int = Field(ge=0, le=100)
    by_grade: dict[
        Literal["raw", "regular", "veteran", "elite"], Annotated[int, Field(ge=0, le=100)]
    ]
    uniform: bool = False
    model: Literal["per-test", "cumulative"] = "per-test"
    shaken_penalty: int = Field(ge=0)

    @field_validator("by_grade")
    @classmethod
    def _every_grade(cls, value: dict[str, int]) -> dict[str, int]:
        missing = [g for g in ("raw", "regular", "veteran", "elite") if g not in value]
        if missing:
            raise ValueError(
                f"no morale for {', '.join(missing)}; give every training grade a morale in "
                "percent (RULES.md §1.3), e.g. {raw: 70, regular: 80, veteran: 85, elite: 90}"
            )
        return value


class FormationEffects(_Strict):
    """RULES.md §1.6 (house) formation multipliers."""

    column_fire_cd_multiplier: int = Field(ge=1)
    square_fire_cd_multiplier: int = Field(ge=1)
    cavalry_vs_square_cd_multiplier: int = Field(ge=1)
    cavalry_charge_bonus_multiplier: int = Field(ge=1)


class DeckRules(_Strict):
    """RULES.md §3 movement-card decks."""

    lose_at_cards: int = Field(ge=0)
    removal: Literal["highest", "random"] = "highest"
    draw: Literal["reshuffle", "draw-through"] = "reshuffle"
    explicit: dict[int, list[int]] = Field(default_factory=dict)

    @field_validator("explicit")
    @classmethod
    def _decks_of_u_plus_1(cls, value: dict[int, list[int]]) -> dict[int, list[int]]:
        """An explicit deck for U units holds U + 1 cards of 1..U each (RULES.md §3.1)."""
        for units, cards in value.items():
            if units < 1:
                raise ValueError(f"a deck is for 1 unit or more, not {units}")
            if len(cards) != units + 1 or not all(1 <= c <= units for c in cards):
                raise ValueError(
                    f"the deck for {units} units must have {units + 1} cards, each from 1 to "
                    f"{units} (RULES.md §3.1), not {cards}"
                )
        return value


class FormationChangeRules(_Strict):
    """RULES.md §5.2 reaction-test totals for completing a formation change."""

    line_column: int
    line_square: int
    column_square: int
    limber_unlimber: int
    hit_by_fire: int
    raw_irregular_or_shaken: int
    charge_target: int
    light_from_skirmish: int
    other_from_skirmish: int
    veteran_or_elite: int


class ChargeRules(_Strict):
    """RULES.md §6.4 charges (inches and percent)."""

    reach_bonus_inches: float = Field(ge=0)
    bonus: int = Field(ge=0)
    failed_drop_back_inches: float = Field(ge=0)
    target_disordered_morale_bonus: int
    fire_and_charge: bool = False


class LossStep(_Strict):
    percent: float = Field(ge=0, le=100)
    factors: int


class WithdrawalRules(_Strict):
    """RULES.md §7.2 withdrawal factor table."""

    threshold_percent: float = Field(ge=0, le=100)
    flag: int
    battery: int
    retiring_shaken: int
    off_table: int
    subordinate_general: int
    commander_in_chief: int
    objective: int
    primary_road: int
    losses: list[LossStep]
    surrendered_casualty_fraction: float = Field(ge=0, le=1)


class DoctrineRules(_Strict):
    """RULES.md §6.7 a tactical doctrine as data (read by battle/doctrine.py)."""

    activation_order: list[Literal["shaken", "artillery", "infantry", "cavalry"]]
    advance_formation: Literal["column", "line"] = "column"
    form_line_within_inches: float = Field(ge=0)
    square_vs_cavalry: bool = True
    unlimber_within_inches: float = Field(ge=0)
    hold_in_range: bool = True
    advance_when_defending: bool = False
    charge_when: list[Literal["disordered", "shaken", "steady"]]
    charge_min_strength_ratio: float = Field(ge=0)
    cavalry_charges_infantry_in_square: bool = False
    cavalry_wait_inches: float = Field(ge=0)
    rally_shaken: bool = True


class BattleRules(_Strict):
    """Every number of the abstract battle (RULES.md §0–§7); defaults in config/rules.yaml."""

    hit_dice: str
    percentage_dice: Literal[100]  # §0.2 percentage tests are always rolled on a d100
    reaction_die: int = Field(ge=2)
    withdrawal_die: int = Field(ge=2)
    withdrawal_success_total: int = Field(ge=1)
    units: dict[Literal["infantry", "cavalry", "artillery"], UnitTypeRules]
    combat_divisor: CombatDivisors
    destroyed_at_hits: int = Field(ge=1)
    half_strength_hits: int = Field(ge=1)
    morale: MoraleRules
    formation_effects: FormationEffects
    deck: DeckRules
    casualty_test_per_morale_hit: int = Field(ge=0)
    hits_on_casualty_pass: int = Field(ge=0)
    hits_on_casualty_fail: int = Field(ge=0)
    formation_change: FormationChangeRules
    ground_depth_inches: float = Field(gt=0)
    deploy_inches: float = Field(ge=0)
    bound_minutes: int = Field(ge=1)
    max_turns: int = Field(ge=1, le=1000)
    initiative: Literal["attacker", "roll"] = "attacker"
    moves_inches: dict[str, dict[str, float]]
    ranges_inches: dict[
        Literal["infantry", "cavalry", "artillery_unlimbered"], Annotated[float, Field(ge=0)]
    ]
    charge: ChargeRules
    advance_stop_short_inches: float = Field(ge=0)
    fall_back_inches: float = Field(ge=0)
    withdrawal: WithdrawalRules
    doctrines: dict[str, DoctrineRules] = Field(min_length=1)

    max_units_per_force: int = Field(default=200, ge=1, le=100_000)

    @field_validator("hit_dice", mode="before")
    @classmethod
    def _dice_number(cls, value: object) -> object:
        """A bare number (``--set battle.hit_dice=20``) is a valid dice expression."""
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        return value

    @field_validator("hit_dice")
    @classmethod
    def _dice_parse(cls, value: str) -> str:
        try:
            low = parse_dice(value).bounds()[0]
        except DiceExpressionError as exc:  # reported by pydantic with its key path
            raise ValueError(exc.what) from None
        if low < 1:
            raise ValueError(
                f"the hit dice D must always be at least 1 (RULES.md §4.1), but {value!r} "
                f"can roll {low}; use an expression whose smallest roll is 1 or more, "
                "e.g. 20 + 2*d10"
            )
        return value

    @field_validator("moves_inches")
    @classmethod
    def _every_formation_moves(
        cls, value: dict[str, dict[str, float]]
    ) -> dict[str, dict[str, float]]:
        """Every formation of every unit type needs a move, 0 or more (RULES.md §6.6)."""
        unknown = [k for k in value if k not in _FORMATIONS] + [
            f"{k}.{f}"
            for k, fs in value.items()
            if k in _FORMATIONS
            for f in fs
            if f not in _FORMATIONS[k]
        ]
        if unknown:
            raise ValueError(
                f"{', '.join(unknown)}: the quick battle models only "
                + "; ".join(f"{k}: {', '.join(fs)}" for k, fs in _FORMATIONS.items())
            )
        for kind, formations in _FORMATIONS.items():
            given = value.get(kind, {})
            missing = [f for f in formations if f not in given]
            if missing:
                raise ValueError(
                    f"{kind} has no move for {', '.join(missing)}; give inches per "
                    f"bound for each of {', '.join(formations)}, e.g. "
                    f"{{{', '.join(f'{f}: 6' for f in formations)}}}"
                )
            negative = [f for f in formations if given[f] < 0]
            if negative:
                raise ValueError(f"{kind}.{negative[0]} must be 0 or more inches")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> BattleRules:
        """Numbers that only make sense together (RULES.md §1, §6.1, §6.3)."""
        for kind, formations in _FORMATIONS.items():
            unit = self.units.get(kind)  # type: ignore[call-overload]
            if unit is None:
                raise ValueError(f"units.{kind} is missing; every unit type needs its entry")
            if sorted(unit.formations) != sorted(formations):
                raise ValueError(
                    f"units.{kind}.formations must be {', '.join(formations)}: the quick "
                    "battle models exactly these"
                )
        if self.half_strength_hits > self.destroyed_at_hits:
            raise ValueError(
                f"half_strength_hits ({self.half_strength_hits}) must not exceed "
                f"destroyed_at_hits ({self.destroyed_at_hits})"
            )
        if self.deploy_inches * 2 >= self.ground_depth_inches:
            raise ValueError(
                f"deploy_inches ({self.deploy_inches:g}) must be less than half of "
                f"ground_depth_inches ({self.ground_depth_inches:g}), or the armies start in "
                "contact (RULES.md §6.1)"
            )
        return self

    def hit_dice_expression(self) -> DiceExpression:
        """The parsed §4.1 hit-dice expression."""
        return parse_dice(self.hit_dice)
