"""Units and forces (RULES.md §1, §2).

A :class:`UnitSpec` describes a unit as a campaign keeps it (type, training grade, actual hits
carried); a :class:`Force` is what one side brings to a battle. A unit's state during a battle
is a row of the kernel's arrays (:mod:`battle.kernel.layout`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Literal

__all__ = ["GRADES", "ID", "Force", "UnitSpec"]

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
