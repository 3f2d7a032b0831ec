"""Units, forces and their state during a battle (RULES.md §1, §2).

A :class:`UnitSpec` describes a unit as a campaign keeps it (type, training grade, actual hits
carried); a :class:`Force` is what one side brings to a battle. :class:`Unit` is the mutable
state of one unit inside :func:`battle.engine.fight` and is not part of the public API.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from battle.tables import FormationNumbers, TypeNumbers

__all__ = ["GRADES", "ID", "Force", "Unit", "UnitSpec"]

GRADES = ("raw", "regular", "veteran", "elite")
#: sort key: a unit's or unit spec's id (RULES.md §6.9 ties go to the lowest id)
ID = attrgetter("id")
Grade = Literal["raw", "regular", "veteran", "elite"]


@dataclass(frozen=True, slots=True)
class UnitSpec:
    """One unit as a force lists it.

    Attributes
    ----------
    id
        Unique within the battle, e.g. ``"R-I1"``; orders ties (RULES.md §6.9).
    kind
        A unit type of ``battle.units`` in config/rules.yaml: ``infantry``, ``cavalry``,
        ``artillery`` (a battery), ``light_infantry`` ... (RULES.md §1).
    grade
        Training grade (RULES.md §1.4); sets morale (§1.3) and the §5.2 test.
    hits
        Actual hits already carried, 0..9 (a unit with 10 is destroyed, §1.2).
    """

    id: str
    kind: str
    grade: Grade = "regular"
    irregular: bool = False
    light: bool = False
    hits: int = 0
    formation: str | None = None


@dataclass(frozen=True, slots=True)
class Force:
    """What one side brings to a battle: a name and its units (at least one)."""

    name: str
    units: tuple[UnitSpec, ...] = field(default_factory=tuple)

    def boxes(self, destroyed_at: int) -> int:
        """Boxes (hits it can still take) of all its units: the sum of ``destroyed_at``
        (``battle.destroyed_at_hits``, 10 by RULES.md §1.2) minus each unit's hits."""
        return sum(destroyed_at - u.hits for u in self.units)


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
        # the formation's numbers, as set_formation sets them (written out: a battle makes
        # a unit per side and type, on the batch runs' hot path)
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
        ) = numbers

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
