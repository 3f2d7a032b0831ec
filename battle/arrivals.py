"""Late arrivals: units that join a side during a battle (RULES.md §8.4); the kernel joins
them (:func:`battle.kernel.bound.join_due`).

The battle knows nothing of campaigns: whoever calls :func:`battle.engine.fight` says, as data,
which units join which side at the start of which bound (:class:`Arrival`). At the start of
that bound they are deployed at their own baseline (as every unit is at the start, §6.1); the
side's deck is rebuilt for its new number of units (§3.1) less one highest card for each card
it has already lost to a bad thing (§3.3); and its casualty base (§7.1) grows by their boxes.

"Its new number of units" counts every unit the side brought to the battle, those already gone
included *(house)*: a deck rebuilt only from the units left could shrink when help arrives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter

from battle.errors import ForceError
from battle.units import ID, Force, UnitSpec

__all__ = ["Arrival", "check_arrivals", "due_arrivals"]

_BOUND = attrgetter("bound")


@dataclass(frozen=True, slots=True)
class Arrival:
    """Units that join ``side`` (0 or 1) at the start of bound ``bound`` (1-based; the
    battle's bounds are counted over both sides, 15 minutes each, RULES.md §8.3)."""

    bound: int
    side: int
    units: tuple[UnitSpec, ...]


def check_arrivals(arrivals: Sequence[Arrival], taken: set[str], limit: int) -> None:
    """Refuse arrivals the battle cannot take.

    ``taken`` holds the ids of the units already in the battle (it is extended); ``limit`` is
    ``battle.max_units_per_force``, checked per arrival.

    Raises
    ------
    ForceError
        If a side is not 0 or 1, a bound is below 1, an arrival has no unit or more than
        ``limit``, or a unit id repeats.
    """
    for a in arrivals:
        if a.side not in (0, 1) or a.bound < 1 or not a.units or len(a.units) > limit:
            raise ForceError(
                f"an arrival must name side 0 or 1, a bound of 1 or more and 1 to {limit} "
                f"units; got side {a.side}, bound {a.bound}, {len(a.units)} units",
                fix="Give each Arrival a side (0 or 1), a bound >= 1 and its units.",
            )
        for u in a.units:
            if u.id in taken:
                raise ForceError(f"unit ids repeat: {u.id}", fix="Give every unit its own id.")
            taken.add(u.id)


def due_arrivals(
    arrivals: Sequence[Arrival], forces: tuple[Force, Force], limit: int
) -> list[Arrival]:
    """The ``arrivals`` in bound order, checked (:func:`check_arrivals`) against the ids of
    the ``forces`` already in the battle; ``limit`` is ``battle.max_units_per_force``.

    Raises
    ------
    ForceError
        As :func:`check_arrivals`.
    """
    if not arrivals:
        return []
    due = sorted(arrivals, key=_BOUND)
    taken = set(map(ID, forces[0].units))
    taken.update(map(ID, forces[1].units))
    check_arrivals(due, taken, limit)
    return due
