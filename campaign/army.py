"""Divisions and how they are raised (RULES.md §2), and their state during a campaign."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from battle.dice import Dice
from battle.units import Force, UnitSpec

if TYPE_CHECKING:
    import simpy

    from campaign.config import CampaignRules

__all__ = ["Division", "raise_division"]

_LETTER = {"infantry": "I", "cavalry": "C", "artillery": "A"}


@dataclass(eq=False)
class Division:
    """One division in the campaign.

    ``location`` is the junction it is at (None while on a road); ``road`` is
    ``(origin, destination, depart_minutes, arrive_minutes)`` while marching.
    ``units`` carry their actual hits (RULES.md §1.2); destroyed units are removed.
    """

    id: str
    side: str
    units: list[UnitSpec]
    location: str | None
    came_from: str | None = None
    road: tuple[str, str, float, float] | None = None
    busy_until: float = -1.0
    arrived_at: float = -1.0
    orders: list[tuple[str, object]] = field(default_factory=list)
    alive: bool = True
    surrendered: bool = False
    halted_reason: str = ""
    #: (a, b) while held on the road from a to b after a battle there (neither at a junction
    #: nor marching); ``road_walked`` is then (minutes walked from a, minutes left to b)
    on_road: tuple[str, str] | None = None
    road_walked: tuple[float, float] = (0.0, 0.0)
    process: simpy.Process | None = None

    @property
    def boxes(self) -> int:
        """Hits it can still take: sum of 10 - actual hits over its units."""
        return sum(10 - u.hits for u in self.units)

    @property
    def last_junction(self) -> str | None:
        """The junction it left, while it is held on a road."""
        return self.on_road[0] if self.on_road else None

    @property
    def place(self) -> str:
        """Where it is, as a display key: a junction id, or ``"a~b"`` on the road from a to b
        (read ``location``, ``road`` and ``on_road`` rather than splitting it)."""
        if self.location:
            return self.location
        if self.road:
            return f"{self.road[0]}~{self.road[1]}"
        return "~".join(self.on_road) if self.on_road else ""

    def force(self, name: str) -> Force:
        return Force(name, tuple(self.units))

    def apply_hits(self, totals: dict[str, int], destroyed_at: int) -> int:
        """Set each unit's actual hits from a battle; drop destroyed units.

        Returns the number of units destroyed.
        """
        kept = []
        lost = 0
        for u in self.units:
            hits = totals.get(u.id, u.hits)
            if hits >= destroyed_at:
                lost += 1
            else:
                kept.append(u if hits == u.hits else replace(u, hits=hits))
        self.units = kept
        if not kept:
            self.alive = False
        return lost


def raise_division(
    side: str, number: int, junction: str, rules: CampaignRules, dice: Dice
) -> tuple[Division, int]:
    """Raise one division by the d100 table (RULES.md §2.1): N infantry + cavalry + battery.

    Returns ``(division, roll)``. Unit ids are ``R1-I1`` (side letter, division number,
    unit type letter and number).
    """
    roll = dice.d(100)
    infantry = next(row.infantry for row in rules.division_infantry_table if roll <= row.max_roll)
    div_id = f"{side[0].upper()}{number}"
    counts = (
        ("infantry", infantry),
        ("cavalry", rules.division_cavalry),
        ("artillery", rules.division_artillery),
    )
    units = [
        UnitSpec(f"{div_id}-{_LETTER[kind]}{i}", kind)  # type: ignore[arg-type]
        for kind, n in counts
        for i in range(1, n + 1)
    ]
    return Division(div_id, side, units, junction), roll
