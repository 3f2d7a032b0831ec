"""Units, forces and their state during a battle (RULES.md §1, §2).

A :class:`UnitSpec` describes a unit as a campaign keeps it (type, training grade, actual hits
carried); a :class:`Force` is what one side brings to a battle. :class:`Unit` is the mutable
state of one unit inside :func:`battle.engine.fight` and is not part of the public API.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Literal

__all__ = ["GRADES", "ID", "UNIT_TYPES", "Force", "UnitSpec"]

UNIT_TYPES = ("infantry", "cavalry", "artillery")
GRADES = ("raw", "regular", "veteran", "elite")
#: sort key: a unit's or unit spec's id (RULES.md §6.9 ties go to the lowest id)
ID = attrgetter("id")
UnitType = Literal["infantry", "cavalry", "artillery"]
Grade = Literal["raw", "regular", "veteran", "elite"]


@dataclass(frozen=True, slots=True)
class UnitSpec:
    """One unit as a force lists it.

    Attributes
    ----------
    id
        Unique within the battle, e.g. ``"R-I1"``; orders ties (RULES.md §6.9).
    kind
        ``infantry``, ``cavalry`` or ``artillery`` (a battery) (RULES.md §1).
    grade
        Training grade (RULES.md §1.4); sets morale (§1.3) and the §5.2 test.
    hits
        Actual hits already carried, 0..9 (a unit with 10 is destroyed, §1.2).
    """

    id: str
    kind: UnitType
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

    @property
    def boxes(self) -> int:
        """Boxes (hits it can still take) of all its units: sum of 10 - hits."""
        return sum(10 - u.hits for u in self.units)


class Unit:
    """Mutable state of one unit in one battle (internal to the engine)."""

    __slots__ = (
        "activated",
        "cd_fire",
        "cd_melee",
        "change_cost",
        "charge_bonus",
        "charge_declared",
        "charge_target_flag",
        "charged_by",
        "charging",
        "destroyed",
        "disordered",
        "failed_change",
        "fire_range",
        "formation",
        "frozen",
        "grade",
        "half_tested",
        "hit_by_fire",
        "hits",
        "hits_before",
        "id",
        "irregular",
        "kind",
        "melee",
        "morale",
        "move",
        "off_table",
        "out",
        "pos",
        "reach",
        "retired_shaken",
        "routed",
        "shaken",
        "side",
        "stood_by",
        "stood_vs",
        "total_hits",
    )

    def __init__(
        self,
        spec: UnitSpec,
        side: int,
        morale: int,
        formation: str,
        pos: float,
        numbers: tuple[int, int, float, float, float],
        half_tested: bool,
    ):
        """``numbers``: the formation's fire CD, melee CD, fire range, move and charge reach
        (``Tables.formation_numbers``); ``half_tested``: already took its half-strength
        test (carries 6+ hits, RULES.md §6.3 step 6)."""
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
        self.charging: Unit | None = None  # the unit it charged this bound
        self.stood_vs: Unit | None = None  # the charger it stood against, to fire at
        self.stood_by: Unit | None = None  # the unit that stood against its charge
        self.charge_bonus = self.change_cost = 0
        self.charge_target_flag = self.hit_by_fire = self.retired_shaken = False
        self.activated = self.charge_declared = False  # this bound: has an order / charges
        self.half_tested = half_tested
        # numbers of the unit's current formation (kept up to date by the engine, RULES.md
        # §1.1, §6.6): combat divisors, fire range and move in inches, charge reach
        self.cd_fire, self.cd_melee, self.fire_range, self.move, self.reach = numbers

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
