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


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FormationRules(_Strict):
    """One formation of a unit type (RULES.md §1.1, §1.6, §1.7, §6.6): a table row.

    ``move`` in inches per bound; multipliers apply to the type's combat divisor (CD);
    ``combat_divisor`` and ``range_inches`` (inches) override the type's when given.
    """

    move: float = Field(ge=0)
    fire_cd_multiplier: int = Field(default=1, ge=1)
    melee_cd_multiplier: int = Field(default=1, ge=1)
    fired_at_cd_multiplier: int = Field(default=1, ge=1)
    combat_divisor: int | None = Field(default=None, ge=1)
    range_inches: float | None = Field(default=None, ge=0)
    fires: bool = True
    can_charge: bool = True
    square: bool = False
    skirmish: bool = False
    may_not_form: list[str] = Field(default_factory=list)


class UnitTypeRules(_Strict):
    """RULES.md §1: one unit type as data — its numbers, flags and one table per formation."""

    letter: str = Field(pattern=r"^[a-z]$")
    id_prefix: str = Field(pattern=r"^[A-Z]+$")
    stands: int = Field(ge=1)
    combat_divisor: int = Field(ge=1)
    range_inches: float = Field(ge=0)
    default_formation: str
    lost_as: Literal["flag", "battery"]
    mounted: bool = False
    foot: bool = False
    light: bool = False
    can_charge: bool = True
    deploys_to: str | None = None
    vs_square_melee_cd_multiplier: int = Field(default=1, ge=1)
    charge_bonus_vs_foot_multiplier: int = Field(default=1, ge=1)
    formations: dict[str, FormationRules] = Field(min_length=1)

    @model_validator(mode="after")
    def _default_is_a_formation(self) -> UnitTypeRules:
        if self.default_formation not in self.formations:
            raise ValueError(
                f"default_formation {self.default_formation!r} is not one of its formations "
                f"({', '.join(self.formations)}); add a table for it under formations or "
                "choose one of those"
            )
        if self.deploys_to is not None and self.deploys_to not in self.formations:
            raise ValueError(
                f"deploys_to {self.deploys_to!r} is not one of its formations "
                f"({', '.join(self.formations)})"
            )
        return self


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

    #: the change's own total by pair of formations, ``"line-column"`` (either way)
    costs: dict[str, int]
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
    no_charge_after_fail: bool = False


class OptionRules(_Strict):
    """RULES.md §6.10 source 002's options, each a named variant (off by default)."""

    countercharge: bool = False
    pursuit: bool = False
    pursuit_target_cd_multiplier: int = Field(ge=1)
    free_attack: bool = False
    free_attack_cd_multiplier: int = Field(ge=1)
    move_and_fire: bool = False
    move_and_fire_cd_multiplier: int = Field(ge=1)
    move_and_fire_move_fraction: float = Field(gt=0, le=1)


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
    """RULES.md §6.7 a tactical doctrine as data (read by battle/kernel/orders.py)."""

    #: "shaken" or unit type names (battle.units); types not listed come last
    activation_order: list[str]
    advance_formation: Literal["column", "line"] = "column"
    form_line_within_inches: float = Field(ge=0)
    fire_formation: str = "line"
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
    units: dict[str, UnitTypeRules] = Field(min_length=1)
    destroyed_at_hits: int = Field(ge=1)
    half_strength_hits: int = Field(ge=1)
    morale: MoraleRules
    deck: DeckRules
    casualty_test_per_morale_hit: int = Field(ge=0)
    hits_on_casualty_pass: int = Field(ge=0)
    hits_on_casualty_fail: int = Field(ge=0)
    formation_change: FormationChangeRules
    ground_depth_inches: float = Field(gt=0)
    deploy_inches: float = Field(ge=0)
    bound_minutes: int = Field(ge=1)
    max_turns: int = Field(ge=1, le=1000)
    turn_limit_from: Literal["start", "first-check"] = "start"
    max_turns_cap: int = Field(ge=1, le=1000)
    initiative: Literal["attacker", "roll"] = "attacker"
    initiative_die: int = Field(ge=2)
    charge: ChargeRules
    options: OptionRules
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

    @model_validator(mode="after")
    def _consistent(self) -> BattleRules:
        """Numbers that only make sense together (RULES.md §1, §6.1, §6.3)."""
        self._check_unit_types()
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

    def _check_unit_types(self) -> None:
        """Letters and id prefixes unique; every formation named by a change or
        ``may_not_form`` known; doctrines name known types (RULES.md §1, §5.2, §6.7)."""
        letters: dict[str, str] = {}
        prefixes: dict[str, str] = {}
        known = {f for t in self.units.values() for f in t.formations}
        for name, t in self.units.items():
            for seen, value, what in (
                (letters, t.letter, "letter"),
                (prefixes, t.id_prefix, "id_prefix"),
            ):
                if value in seen:
                    raise ValueError(
                        f"units.{name}.{what} {value!r} is already used by "
                        f"units.{seen[value]}; give every unit type its own {what}"
                    )
                seen[value] = name
            for fname, f in t.formations.items():
                bad = [g for g in f.may_not_form if g not in known]
                if bad:
                    raise ValueError(
                        f"units.{name}.formations.{fname}.may_not_form names unknown "
                        f"formation {bad[0]!r}; use one of {', '.join(sorted(known))}"
                    )
        for pair in self.formation_change.costs:
            parts = pair.split("-")
            if len(parts) != 2 or not all(p in known for p in parts):
                raise ValueError(
                    f"formation_change.costs.{pair}: write two known formations joined by "
                    f"'-', e.g. line-column (known: {', '.join(sorted(known))})"
                )
        for dname, doc in self.doctrines.items():
            bad = [c for c in doc.activation_order if c != "shaken" and c not in self.units]
            if bad:
                raise ValueError(
                    f"doctrines.{dname}.activation_order names {bad[0]!r}, which is not a "
                    f"unit type; use shaken or one of {', '.join(self.units)}"
                )

    def hit_dice_expression(self) -> DiceExpression:
        """The parsed §4.1 hit-dice expression."""
        return parse_dice(self.hit_dice)
