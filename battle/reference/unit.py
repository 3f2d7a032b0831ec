"""One unit's state during a reference battle (RULES.md §1, §1.5–§1.7, §6.6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from battle.units import UnitSpec

if TYPE_CHECKING:
    from battle.tables import FormationNumbers, Tables, TypeNumbers

__all__ = ["Unit"]


class Unit:
    """Mutable state of one unit in one battle (internal to the engine)."""

    __slots__ = (
        "activated",
        "advancing",
        "battery",
        "cd_fire",
        "cd_melee",
        "change_cost",
        "charge_bonus",
        "charge_declared",
        "charge_from",
        "charge_target_flag",
        "charge_vs_foot_x",
        "charged_by",
        "charging",
        "deploys_to",
        "destroyed",
        "disordered",
        "failed_change",
        "fire_range",
        "fired_at_x",
        "foot",
        "formation",
        "frozen",
        "grade",
        "half_move",
        "half_tested",
        "hit_by_fire",
        "hits",
        "hits_before",
        "id",
        "irregular",
        "kind",
        "light",
        "may_charge",
        "may_not_form",
        "melee",
        "morale",
        "mounted",
        "move",
        "no_charge",
        "off_table",
        "out",
        "pos",
        "reach",
        "retired_shaken",
        "routed",
        "shaken",
        "side",
        "square",
        "square_formation",
        "stood_by",
        "stood_vs",
        "total_hits",
        "vs_square_x",
    )

    def __init__(
        self,
        spec: UnitSpec,
        side: int,
        morale: int,
        formation: str,
        pos: float,
        kind: TypeNumbers,
        numbers: FormationNumbers,
        half_tested: bool,
    ):
        """``kind``: the type's compiled flags; ``numbers``: its formation's numbers
        (``Tables.unit_types``, ``Tables.formations``); ``half_tested``: already took its
        half-strength test (carries 6+ hits, RULES.md §6.3 step 6)."""
        self.id = spec.id
        self.kind = spec.kind
        self.grade = spec.grade
        self.irregular = spec.irregular
        self.side = side
        self.hits_before = self.total_hits = spec.hits  # total_hits = hits_before + hits
        self.hits = 0  # actual hits taken in this battle
        self.morale = morale
        self.formation = formation
        self.pos = pos
        self.shaken = self.disordered = self.failed_change = self.frozen = False
        self.routed = self.destroyed = self.off_table = False
        self.out = False  # routed, destroyed or off the table: no longer on the field
        self.melee: Unit | None = None
        self.charged_by: Unit | None = None
        self.charging: Unit | None = None  # the unit it charged, until that one tests to stand
        self.stood_vs: Unit | None = None  # the charger it stood against this bound, to fire at
        self.stood_by: Unit | None = None  # the unit that stood against its charge
        self.charge_bonus = self.change_cost = 0
        self.charge_from = 0.0  # where its charge move began (pursuit, RULES.md §6.10)
        self.charge_target_flag = self.hit_by_fire = self.retired_shaken = False
        self.activated = self.charge_declared = False  # this bound: has an order / charges
        self.advancing = False  # this bound: ordered to advance (move-and-fire, §6.10)
        self.half_move = False  # this bound: fired while advancing, moves half (§6.10)
        self.no_charge = False  # variant no-charge-after-fail (RULES.md §6.4)
        self.half_tested = half_tested
        # the type's flags (RULES.md §1, §1.6, §5.2, §6.7, §7.2), unpacked in one step (a
        # battle makes every unit afresh): battery, mounted, foot, light, CD multiplier against
        # a square, charge-bonus multiplier against foot, the formation it deploys to fire
        # ("" if none), its square formation ("" if none)
        (
            _name,
            _letter,
            _prefix,
            _default,
            self.battery,
            self.mounted,
            self.foot,
            self.light,
            self.vs_square_x,
            self.charge_vs_foot_x,
            _formations,
            self.deploys_to,
            self.square_formation,
        ) = kind
        self.set_formation(formation, numbers)  # the formation and its numbers

    def set_formation(self, formation: str, n: FormationNumbers) -> None:
        """Take up ``formation`` with its numbers (RULES.md §1.1, §1.6, §1.7, §6.6):
        combat divisors, fire range and move in inches, charge reach, and flags."""
        self.formation = formation
        (
            self.cd_fire,
            self.cd_melee,
            self.fire_range,
            self.move,
            self.reach,
            self.fired_at_x,
            self.may_charge,
            self.square,
            self.may_not_form,
        ) = n

    @property
    def state(self) -> str:
        """``destroyed``, ``routed``, ``off-table``, ``shaken``, ``disordered`` or ``steady``."""
        if self.destroyed:
            return "destroyed"
        if self.routed:
            return "routed"
        if self.off_table:
            return "off-table"
        if self.shaken:
            return "shaken"
        if self.disordered:
            return "disordered"
        return "steady"


def new_unit(t: Tables, spec: UnitSpec, side: int, pos: float) -> Unit:
    """A fresh :class:`Unit` for ``spec`` at ``pos`` inches from its baseline, in its own
    formation or its type's default (RULES.md §1), with its grade's morale (§1.3); a unit
    carrying ``half_strength_at`` hits or more has already taken its half-strength test
    (§6.3 step 6)."""
    kind = t.unit_types[spec.kind]
    formation = spec.formation or kind.default_formation
    return Unit(
        spec,
        side,
        t.morale[spec.grade],
        formation,
        pos,
        kind,
        t.formations[(spec.kind, formation)],
        spec.hits >= t.half_strength_at,
    )
