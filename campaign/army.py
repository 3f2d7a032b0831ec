"""Divisions and how they are raised (RULES.md §2), and their state during a campaign."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Final

from battle.dice import Dice
from battle.units import Force, UnitSpec

if TYPE_CHECKING:
    from campaign.config import CampaignRules, Rules
    from campaign.events import Place
    from campaign.schedule import Alarm, Routine
    from campaign.strategy.knowledge import OwnDivision

__all__ = [
    "Division",
    "RaiseTable",
    "raise_division",
    "raise_table",
    "unknown_division_boxes",
    "with_hits",
]


class Division:
    """One division in the campaign.

    ``location`` is the junction it is at (None while on a road); ``road`` is
    ``(origin, destination, depart_minutes, arrive_minutes)`` while marching.
    ``units`` carry their actual hits (RULES.md §1.2); destroyed units are removed.

    Made at ``location`` (its junction) with no orders; every other attribute starts at the
    value given with it below (each immutable: a class-level default, read from the class
    until set, or set by the native constructor when compiled).

    A plain class with its own ``__init__`` (compiled with the module, campaign.native),
    not a dataclass: compiled, mypyc's dataclass leaves a field with ``init=False`` unset,
    and its generated ``__init__`` stays interpreted (every campaign raises its divisions
    anew: issue 15).
    """

    id: str
    side: str
    units: list[UnitSpec]
    location: str | None
    came_from: str | None = None
    road: tuple[str, str, float, float] | None = None
    busy_until: float = -1.0
    arrived_at: float = -1.0
    orders: list[tuple[str, object]]
    alive: bool = True
    surrendered: bool = False
    halted_reason: str = ""
    #: the (code, goal, enemy at, friends) of the hold order it last logged, while
    #: ``halted_reason`` says it holds (campaign.engine: logged once until it changes)
    held_for: tuple[str, str | None, str | None, tuple[str, ...]] | None = None
    #: (a, b) while held on the road from a to b after a battle there (neither at a junction
    #: nor marching); ``road_walked`` is then (minutes walked from a, minutes left to b)
    on_road: tuple[str, str] | None = None
    road_walked: tuple[float, float] = (0.0, 0.0)
    process: Routine | None = None
    #: scheduling state (campaign.engine): a wake-up is on its way to its process
    #: (``woken``); it is one of a battle's divisions, held until the battle ends and wakes
    #: it (``in_battle``); its process sleeps on no event until then (``asleep``); its
    #: contact check scheduled events it must let go first (``defer``); it arrived this
    #: minute and waits for its contact check to go on (``checking``)
    woken: bool = False
    checking: bool = False
    alarm: Alarm | None = None  # what it sleeps on (``asleep``)
    in_battle: bool = False
    asleep: bool = False
    defer: bool = False
    #: actual hits that destroy a unit (``battle.destroyed_at_hits``, RULES.md §1.2)
    destroyed_at: int
    #: what its side's last view showed of it (campaign.sightings.side_view shares it with
    #: the next view while none of its fields has changed)
    own_view: OwnDivision | None = None
    #: the units list ``boxes`` was last summed for, and the sum (units are immutable and
    #: the list is only ever replaced, never changed in place: see apply_hits)
    _boxes_of: list[UnitSpec] | None = None
    _boxes: int = 0

    def __init__(
        self,
        id: str,
        side: str,
        units: list[UnitSpec],
        location: str | None,
        *,
        destroyed_at: int,
    ) -> None:
        self.id = id
        self.side = side
        self.units = units
        self.location = location
        self.orders = []
        self.destroyed_at = destroyed_at

    def __repr__(self) -> str:
        return (
            f"Division(id={self.id!r}, side={self.side!r}, units={self.units!r}, "
            f"location={self.location!r}, alive={self.alive!r})"
        )

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
        return len(self.take_hits(totals, destroyed_at)[1])

    def take_hits(self, totals: dict[str, int], destroyed_at: int) -> tuple[int, list[UnitSpec]]:
        """:meth:`apply_hits` (``totals``: unit id -> total actual hits; units not named keep
        theirs), returning the actual hits taken — each unit's rise in hits, counted up to
        ``destroyed_at`` (RULES.md §1.2) — and the units destroyed, in unit order. One pass
        over the units (compiled, each attribute of a unit is a generic look-up)."""
        kept: list[UnitSpec] = []
        lost: list[UnitSpec] = []
        taken = 0
        kept_hits = 0  # (the boxes of what is kept, summed on the way: see boxes)
        for u in self.units:
            had = u.hits
            hits = totals.get(u.id, had)
            if hits > had:
                taken += (hits if hits < destroyed_at else destroyed_at) - had
            if hits >= destroyed_at:
                lost.append(u)
            else:
                kept.append(u if hits == had else with_hits(u, hits))
                kept_hits += hits
        self.units = kept
        self._boxes_of = kept
        self._boxes = self.destroyed_at * len(kept) - kept_hits
        if not kept:
            self.alive = False
        return taken, lost


def _division_counts(rules: CampaignRules, infantry: int) -> list[tuple[str, int]]:
    """``(unit type, count)`` of a division with ``infantry`` line infantry (RULES.md §2.1;
    light infantry only where ``campaign.division_light_infantry`` asks for it)."""
    counts = [("infantry", infantry)]
    if rules.division_light_infantry:
        counts.append(("light_infantry", rules.division_light_infantry))
    counts += [("cavalry", rules.division_cavalry), ("artillery", rules.division_artillery)]
    return counts


#: (id of a root unit, hits) -> (that unit, it with those hits); and id of a unit made here ->
#: (that unit, its root): the unit it was made from by changing hits only. See :func:`with_hits`
#: (each entry holds its units, so their ids are not reused while the entry lives).
_WITH_HITS: dict[tuple[int, int], tuple[UnitSpec, UnitSpec]] = {}
_ROOT: dict[int, tuple[UnitSpec, UnitSpec]] = {}
#: hits << _HITS_AT | id of any unit >> 4 -> (that unit, it with those hits): the one look-up
#: of a unit met before with those hits. Objects sit 16 bytes apart at addresses below 2**47,
#: so the key is unique for hits below 2**17, its low bits vary from unit to unit (a dict
#: places an int key by them), and the unit held is checked by identity anyway
_MADE: dict[int, tuple[UnitSpec, UnitSpec]] = {}
_HITS_AT: Final = 44
#: entries kept at most (a memo, cleared when full)
_WITH_HITS_MAX = 50_000


def with_hits(unit: UnitSpec, hits: int) -> UnitSpec:
    """``unit`` with ``hits`` actual hits (RULES.md §1.2): ``dataclasses.replace(unit,
    hits=hits)``, made once per process for each unit and hits and then shared (units are
    immutable values, raised from a shared table, :class:`RaiseTable`; a campaign's losses
    replace a few dozen). A unit made here is made from the unit it was first made from, so
    that units that differ in hits only share one unit per hits value; a unit met before
    with the same hits is found by one look-up keyed by a number."""
    key = (hits << _HITS_AT) | (id(unit) >> 4)
    found = _MADE.get(key)
    if found is not None and found[0] is unit:
        return found[1]
    if len(_MADE) >= _WITH_HITS_MAX or len(_WITH_HITS) >= _WITH_HITS_MAX:
        _MADE.clear()
        _WITH_HITS.clear()
        _ROOT.clear()
    root = unit
    made_from = _ROOT.get(id(unit))
    if made_from is not None and made_from[0] is unit:
        root = made_from[1]
    pair = _WITH_HITS.get((id(root), hits))
    if pair is not None and pair[0] is root:
        made = pair[1]
    else:
        made = replace(root, hits=hits)
        _WITH_HITS[(id(root), hits)] = (root, made)
        _ROOT[id(made)] = (made, root)
    if 0 <= hits < 1 << 17:
        _MADE[key] = (unit, made)
    return made


class RaiseTable:
    """What raising divisions needs of one rules object (RULES.md §2.1), read once per
    process: the d100 table, and each division's units by side, number and infantry; and
    what losing a unit of each type counts as, ``"flag"`` or ``"battery"`` (§7.2, read by
    each battle's losses).

    Built by :func:`raise_table`; read-only once built (units are immutable, and a
    division's units list is its own copy)."""

    rules: Rules
    die: int
    rows: list[tuple[int, int]]
    destroyed_at: int
    unknown_boxes: int
    units: dict[tuple[str, int, int], tuple[UnitSpec, ...]]
    #: the boxes of each division of ``units``, by the same key (Division.boxes when raised)
    boxes: dict[tuple[str, int, int], int]
    lost_as: dict[str, str]

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.die = rules.battle.percentage_dice
        self.rows = [(row.max_roll, row.infantry) for row in rules.campaign.division_infantry_table]
        self.destroyed_at = rules.battle.destroyed_at_hits
        self.unknown_boxes = unknown_division_boxes(rules)
        self.units = {}
        self.boxes = {}
        self.lost_as = {kind: unit.lost_as for kind, unit in rules.battle.units.items()}

    def infantry(self, roll: int) -> int:
        """Line infantry of a division raised with d100 ``roll`` (RULES.md §2.1)."""
        for max_roll, infantry in self.rows:  # (a loop: a compiled generator is an object)
            if roll <= max_roll:
                return infantry
        raise ValueError(f"no row of campaign.division_infantry_table covers a roll of {roll}")

    def division_units(self, side: str, number: int, infantry: int) -> tuple[UnitSpec, ...]:
        """The units of division ``number`` of ``side`` with ``infantry`` line infantry."""
        key = (side, number, infantry)
        found = self.units.get(key)
        if found is None:
            div_id = f"{side[0].upper()}{number}"
            types = self.rules.battle.units
            found = self.units[key] = tuple(
                UnitSpec(f"{div_id}-{types[kind].id_prefix}{i}", kind)
                for kind, n in _division_counts(self.rules.campaign, infantry)
                for i in range(1, n + 1)
            )
            self.boxes[key] = self.destroyed_at * len(found) - sum([u.hits for u in found])
        return found


#: id(rules) -> its table (the table holds the rules, so the id is not reused meanwhile)
_RAISE_TABLES: dict[int, RaiseTable] = {}


def raise_table(rules: Rules) -> RaiseTable:
    """The :class:`RaiseTable` of ``rules``, built the first time this rules object is seen in
    this process and shared after (rules are frozen models; at most 64 are kept)."""
    table = _RAISE_TABLES.get(id(rules))
    if table is None or table.rules is not rules:
        if len(_RAISE_TABLES) >= 64:
            _RAISE_TABLES.clear()
        table = _RAISE_TABLES[id(rules)] = RaiseTable(rules)
    return table


def raise_division(
    side: str, number: int, junction: str, rules: Rules, dice: Dice
) -> tuple[Division, int]:
    """Raise one division by the d100 table (RULES.md §2.1): N infantry + cavalry + battery.

    Returns ``(division, roll)``. Unit ids are ``R1-I1`` (side letter, division number,
    the type's ``id_prefix`` in ``battle.units`` and number).
    """
    table = raise_table(rules)
    roll = dice.d(table.die)
    infantry = table.infantry(roll)
    units = list(table.division_units(side, number, infantry))
    division = Division(
        f"{side[0].upper()}{number}", side, units, junction, destroyed_at=table.destroyed_at
    )
    division._boxes_of = units  # its boxes as the table summed them (Division.boxes)
    division._boxes = table.boxes[side, number, infantry]
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
