"""The battle's rules as a validated model (every number of RULES.md §0–§7).

The defaults live in ``config/rules.yaml`` under ``battle:``; this module only declares their
shape. Unknown keys are errors, so a typo in a config or variant never passes silently.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from battle.dice import DiceExpression, parse_dice
from battle.errors import DiceExpressionError
from battle.ranges import Range

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


# Ranges (battle/ranges.py). RULES.md states the percentages (0..100, §0.2) and the d100;
# every other bound below is (house): wide enough for any variant, narrow enough that the
# kernel's 64-bit products and the exact odds stay bounded (multipliers x divisors x dice).
_Inches = Annotated[float, Range(0, 10_000)]  # (house) a distance on the table, inches
_Multiplier = Annotated[int, Range(1, 100)]  # (house) a combat-divisor multiplier (§1.6, §6.10)
_Divisor = Annotated[int, Range(1, 1_000)]  # (house) a combat divisor (§1.1)
_Die = Annotated[
    int, Range(2, 100)
]  # (house) faces of a reaction, withdrawal or initiative die (§0.3, §0.4)
_Total = Annotated[
    int, Range(-100, 100)
]  # (house) a reaction-test total or a withdrawal factor (§5.2, §7.2)
_Percent = Annotated[float, Range(0, 100)]  # §0.2 a percentage
#: (house) the largest roll of the hit dice D (§4.1): the shipped rules roll at most 40
MAX_HIT_DICE = 1_000_000
_Hits = Annotated[int, Range(0, 1_000)]  # (house) hits (§1.2, §4.4)


class FormationRules(_Strict):
    """One formation of a unit type (RULES.md §1.1, §1.6, §1.7, §6.6): a table row.

    ``move`` in inches per bound; multipliers apply to the type's combat divisor (CD);
    ``combat_divisor`` and ``range_inches`` (inches) override the type's when given.
    """

    move: _Inches
    fire_cd_multiplier: _Multiplier = 1
    melee_cd_multiplier: _Multiplier = 1
    fired_at_cd_multiplier: _Multiplier = 1
    combat_divisor: _Divisor | None = None
    range_inches: _Inches | None = None
    fires: bool = True
    can_charge: bool = True
    square: bool = False
    skirmish: bool = False
    may_not_form: list[str] = Field(default_factory=list)


class UnitTypeRules(_Strict):
    """RULES.md §1: one unit type as data — its numbers, flags and one table per formation."""

    letter: str = Field(pattern=r"^[a-z]$")
    id_prefix: str = Field(pattern=r"^[A-Z]+$")
    stands: Annotated[int, Range(1, 100)]  # (house)
    combat_divisor: _Divisor
    range_inches: _Inches
    default_formation: str
    lost_as: Literal["flag", "battery"]
    mounted: bool = False
    foot: bool = False
    light: bool = False
    can_charge: bool = True
    deploys_to: str | None = None
    vs_square_melee_cd_multiplier: _Multiplier = 1
    charge_bonus_vs_foot_multiplier: _Multiplier = 1
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

    base: Annotated[int, Range(0, 100)]
    by_grade: dict[Literal["raw", "regular", "veteran", "elite"], Annotated[int, Range(0, 100)]]
    uniform: bool = False
    model: Literal["per-test", "cumulative"] = "per-test"
    shaken_penalty: Annotated[int, Range(0, 100)]  # §1.5 percent

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

    lose_at_cards: Annotated[int, Range(0, 1_000)]  # (house)
    removal: Literal["highest", "random"] = "highest"
    draw: Literal["reshuffle", "draw-through"] = "reshuffle"
    explicit: dict[int, list[int]] = Field(default_factory=dict)  # (house)

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
    costs: dict[str, _Total]
    hit_by_fire: _Total
    raw_irregular_or_shaken: _Total
    charge_target: _Total
    light_from_skirmish: _Total
    other_from_skirmish: _Total
    veteran_or_elite: _Total


class ChargeRules(_Strict):
    """RULES.md §6.4 charges (inches and percent)."""

    reach_bonus_inches: _Inches
    bonus: Annotated[int, Range(0, 1_000)]  # (house) added to D (§6.4)
    failed_drop_back_inches: _Inches
    target_disordered_morale_bonus: Annotated[int, Range(-100, 100)]  # §6.4 percent
    fire_and_charge: bool = False
    no_charge_after_fail: bool = False


class OptionRules(_Strict):
    """RULES.md §6.10 source 002's options, each a named variant (off by default)."""

    countercharge: bool = False
    pursuit: bool = False
    pursuit_target_cd_multiplier: _Multiplier
    free_attack: bool = False
    free_attack_cd_multiplier: _Multiplier
    move_and_fire: bool = False
    move_and_fire_cd_multiplier: _Multiplier
    move_and_fire_move_fraction: Annotated[float, Range(0, 1, open_low=True)]


class LossStep(_Strict):
    percent: _Percent
    factors: _Total


class WithdrawalRules(_Strict):
    """RULES.md §7.2 withdrawal factor table."""

    threshold_percent: _Percent
    flag: _Total
    battery: _Total
    retiring_shaken: _Total
    off_table: _Total
    subordinate_general: _Total
    commander_in_chief: _Total
    objective: _Total
    primary_road: _Total
    losses: list[LossStep] = Field(max_length=100)
    surrendered_casualty_fraction: Annotated[float, Range(0, 1)]


class DoctrineRules(_Strict):
    """RULES.md §6.7 a tactical doctrine as data (read by battle/kernel/orders.py)."""

    #: "shaken" or unit type names (battle.units); types not listed come last
    activation_order: list[str]
    advance_formation: Literal["column", "line"] = "column"
    form_line_within_inches: _Inches
    fire_formation: str = "line"
    square_vs_cavalry: bool = True
    unlimber_within_inches: _Inches
    hold_in_range: bool = True
    advance_when_defending: bool = False
    charge_when: list[Literal["disordered", "shaken", "steady"]]
    charge_min_strength_ratio: Annotated[float, Range(0, 1_000)]  # (house)
    cavalry_charges_infantry_in_square: bool = False
    cavalry_wait_inches: _Inches
    rally_shaken: bool = True
    #: §1.7, §5.2: foot in skirmish order forms ``fire_formation`` once an enemy is this
    #: close (None: it keeps skirmish order; the shipped doctrines never leave it)
    leave_skirmish_within_inches: _Inches | None = None
    #: §1.7 (a drill, for the referee): a skirmisher that enemy cavalry threatens is ordered
    #: into square, which §1.7 refuses (skirmish -> column or line first)
    square_from_skirmish: bool = False
    #: §5.2, §6.7: an advancing battery deployed to fire limbers up again once no enemy is
    #: within this gap (None: never); at least ``unlimber_within_inches``
    limber_beyond_inches: _Inches | None = None

    @model_validator(mode="after")
    def _limber_past_unlimber(self) -> DoctrineRules:
        """A battery that limbered would unlimber again at once (RULES.md §6.7)."""
        beyond = self.limber_beyond_inches
        if beyond is not None and beyond < self.unlimber_within_inches:
            raise ValueError(
                f"limber_beyond_inches ({beyond:g}) must be at least unlimber_within_inches "
                f"({self.unlimber_within_inches:g}), or a battery limbers and unlimbers by turns"
            )
        return self


class BattleRules(_Strict):
    """Every number of the abstract battle (RULES.md §0–§7); defaults in config/rules.yaml."""

    hit_dice: str
    percentage_dice: Literal[100]  # §0.2 percentage tests are always rolled on a d100
    reaction_die: _Die
    withdrawal_die: _Die
    withdrawal_success_total: Annotated[int, Range(1, 1_000)]  # (house)
    units: dict[str, UnitTypeRules] = Field(min_length=1)
    destroyed_at_hits: Annotated[int, Range(1, 1_000)]  # (house)
    half_strength_hits: Annotated[int, Range(1, 1_000)]  # (house)
    morale: MoraleRules
    deck: DeckRules
    casualty_test_per_morale_hit: Annotated[int, Range(0, 100)]  # (house)
    hits_on_casualty_pass: _Hits
    hits_on_casualty_fail: _Hits
    formation_change: FormationChangeRules
    ground_depth_inches: Annotated[float, Range(0, 10_000, open_low=True)]  # (house)
    deploy_inches: _Inches
    bound_minutes: Annotated[int, Range(1, 1_440)]  # (house) at most a day
    max_turns: Annotated[int, Range(1, 1_000)]  # (house)
    turn_limit_from: Literal["start", "first-check"] = "start"
    max_turns_cap: Annotated[int, Range(1, 1_000)]  # (house)
    initiative: Literal["attacker", "roll"] = "attacker"
    initiative_die: _Die
    charge: ChargeRules
    options: OptionRules
    advance_stop_short_inches: _Inches
    fall_back_inches: _Inches
    withdrawal: WithdrawalRules
    doctrines: dict[str, DoctrineRules] = Field(min_length=1)

    max_units_per_force: Annotated[int, Range(1, 100_000)] = 200  # (house)

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
        high = parse_dice(value).bounds()[1]
        if high > MAX_HIT_DICE:
            raise ValueError(
                f"{value!r} can roll {high}, more than the limit of {MAX_HIT_DICE} (house); "
                "use smaller numbers, e.g. 20 + 2*d10"
            )
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
