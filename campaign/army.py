"""Divisions and how they are raised (RULES.md §2), and their state during a campaign."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from battle.dice import Dice
from battle.units import Force, UnitSpec

if TYPE_CHECKING:
    import simpy

    from campaign.config import CampaignRules, Rules
    from campaign.events import Place

__all__ = ["Division", "raise_division", "unknown_division_boxes"]


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
    #: scheduling state (campaign.engine): an interrupt is on its way to its process
    #: (``woken``); it is one of a battle's divisions, held until the battle ends and wakes
    #: it (``in_battle``); its process sleeps on no event until then (``asleep``); its
    #: contact check scheduled events it must let go first (``defer``); it arrived this
    #: minute and waits for its contact check to go on (``checking``)
    woken: bool = False
    checking: bool = False
    alarm: simpy.Event | None = None  # what it sleeps on (``asleep``)
    in_battle: bool = False
    asleep: bool = False
    defer: bool = False
    #: actual hits that destroy a unit (``battle.destroyed_at_hits``, RULES.md §1.2)
    destroyed_at: int = field(kw_only=True)
    #: the units list ``boxes`` was last summed for, and the sum (units are immutable and
    #: the list is only ever replaced, never changed in place: see apply_hits)
    _boxes_of: list[UnitSpec] | None = field(default=None, init=False, repr=False)
    _boxes: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        self._boxes_of = None
        self._boxes = 0

    @property
    def boxes(self) -> int:
        """Hits it can still take: ``destroyed_at`` (10, RULES.md §1.2) minus the actual hits
        of each of its units, summed."""
        units = self.units
        if units is not self._boxes_of:  # asked hundreds of times a campaign: summed once
            self._boxes = self.destroyed_at * len(units) - sum([u.hits for u in units])
            self._boxes_of = units
        return self._boxes

    @property
    def last_junction(self) -> str | None:
        """The junction it left, while it is held on a road."""
        return self.on_road[0] if self.on_road else None

    @property
    def place(self) -> Place:
        """Where it is: a junction id, or ``(a, b)`` on the road from a to b, ``""`` if
        nowhere (junction ids are free text: never joined into one string)."""
        if self.location:
            return self.location
        if self.road:
            return (self.road[0], self.road[1])
        return (self.on_road[0], self.on_road[1]) if self.on_road else ""

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


def _division_counts(rules: CampaignRules, infantry: int) -> list[tuple[str, int]]:
    """``(unit type, count)`` of a division with ``infantry`` line infantry (RULES.md §2.1;
    light infantry only where ``campaign.division_light_infantry`` asks for it)."""
    counts = [("infantry", infantry)]
    if rules.division_light_infantry:
        counts.append(("light_infantry", rules.division_light_infantry))
    counts += [("cavalry", rules.division_cavalry), ("artillery", rules.division_artillery)]
    return counts


def raise_division(
    side: str, number: int, junction: str, rules: Rules, dice: Dice
) -> tuple[Division, int]:
    """Raise one division by the d100 table (RULES.md §2.1): N infantry + cavalry + battery.

    Returns ``(division, roll)``. Unit ids are ``R1-I1`` (side letter, division number,
    the type's ``id_prefix`` in ``battle.units`` and number).
    """
    cr = rules.campaign
    roll = dice.d(rules.battle.percentage_dice)
    infantry = next(row.infantry for row in cr.division_infantry_table if roll <= row.max_roll)
    div_id = f"{side[0].upper()}{number}"
    types = rules.battle.units
    units = [
        UnitSpec(f"{div_id}-{types[kind].id_prefix}{i}", kind)
        for kind, n in _division_counts(cr, infantry)
        for i in range(1, n + 1)
    ]
    division = Division(div_id, side, units, junction, destroyed_at=rules.battle.destroyed_at_hits)
    return division, roll


def unknown_division_boxes(rules: Rules) -> int:
    """A doctrine's estimate of an unfought division's boxes (RULES.md §2.1, §8.8): the
    expected units of a division raised by the d100 table, rounded, times the boxes of a
    unit (``battle.destroyed_at_hits``). With the default tables: (4.99 → 5 infantry + 1 + 1)
    x 10 = 70.
    """
    cr = rules.campaign
    die = rules.battle.percentage_dice
    expected, low = 0.0, 0
    for row in cr.division_infantry_table:
        expected += row.infantry * (min(row.max_roll, die) - low) / die
        low = row.max_roll
    units = sum(n for _, n in _division_counts(cr, round(expected)))
    return units * rules.battle.destroyed_at_hits
