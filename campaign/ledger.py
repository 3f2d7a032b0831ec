"""The campaign's ledger: one explicit record of what happened (RULES.md §7.2, §7.6, §8.7).

The battle desk (:mod:`campaign.battles`) writes to it — losses, lost battles, fall backs,
surrenders, who occupies a junction — and the evening check (:mod:`campaign.endgame`) and the
summary read from it. Nothing else keeps a tally.

* **Control of objectives** (RULES.md §7.2, source 000 h–j): an army controls a junction it
  occupies alone or was the last to occupy alone; a contested junction (both sides there) is
  controlled by neither and its last holder counts it as **lost**. A **lost** objective is one
  the army controlled at any time and the enemy now controls (or contests); a **gained** one
  is one the army controls now that it did not control when the campaign began, or one of its
  own it lost and then regained.
* **Losses** (:meth:`Ledger.apply_losses`): every change of a division's actual hits goes
  through one step, whatever caused it (a battle today, attrition tomorrow).
* **Withdrawal counts** (§7.6): divisions lost, batteries destroyed, divisions that lost a
  battle, divisions that fell back onto their base or were cut off — and, for variant
  ``unit-scale-withdrawal``, the old unit-scale counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from battle.withdrawal import SideTally
from campaign.events import SIDES

if TYPE_CHECKING:
    from campaign.army import Division

__all__ = ["Ledger", "Losses", "SideRecord"]


def _enemy(side: str) -> str:
    return "blue" if side == "red" else "red"


class Losses:
    """What one :meth:`Ledger.apply_losses` step did to one division.

    ``hits`` is the actual hits taken (>= 0); ``destroyed`` the ids and types of the units
    that reached ``destroyed_at`` hits, in the division's unit order. (A plain class, not a
    dataclass: compiled, its constructor runs in C, campaign.native.)
    """

    division: str
    hits: int
    destroyed: tuple[tuple[str, str], ...]

    def __init__(self, division: str, hits: int, destroyed: tuple[tuple[str, str], ...]) -> None:
        self.division = division
        self.hits = hits
        self.destroyed = destroyed

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Losses):
            return NotImplemented
        return (self.division, self.hits, self.destroyed) == (
            other.division,
            other.hits,
            other.destroyed,
        )

    def __hash__(self) -> int:
        return hash((self.division, self.hits, self.destroyed))

    def __repr__(self) -> str:
        return f"Losses({self.division!r}, {self.hits!r}, {self.destroyed!r})"


class SideRecord:
    """Counts of what happened to one army over the campaign (RULES.md §7.6 rows), all 0 at
    the start. Compared and hashed by identity.

    (A plain class with class-level defaults, not a dataclass: compiled, its constructor
    sets them in C, where a dataclass's generated ``__init__`` stays interpreted; every
    campaign makes two, campaign.native.)"""

    initial_boxes: int = 0
    hits: int = 0  # actual hits taken over the campaign
    surrendered_boxes: float = 0.0  # §7.5: boxes of surrendered divisions x 25%
    units_destroyed: int = 0  # infantry and cavalry units destroyed in battle
    batteries_destroyed: int = 0  # artillery units destroyed in battle
    divisions_destroyed: int = 0
    divisions_surrendered: int = 0
    battles_lost: int = 0  # battles this army lost (once per battle)
    division_defeats: int = 0  # divisions that lost a battle (once per division per battle)
    onto_base: int = 0  # divisions that fell back onto their own base
    cut_off: int = 0  # divisions cut off (they surrendered)
    fall_backs: int = 0  # fall backs of any length


class Ledger:
    """What happened in one campaign (see the module docstring).

    Parameters
    ----------
    objectives
        Objective junction id -> value (RULES.md §8.1).
    primary_roads
        Side -> the two junction ids of its primary road, or None.
    """

    objectives: dict[str, int]
    primary_roads: dict[str, tuple[str, str] | None]
    sides: dict[str, SideRecord]
    #: junction -> side that controls it (None while contested or never occupied alone)
    owner: dict[str, str | None]
    #: junction -> the side that controlled it last before it was contested
    last_holder: dict[str, str]
    start_owner: dict[str, str | None]
    #: side -> junctions it has controlled at any time (first-seen order)
    ever_held: dict[str, dict[str, None]]
    #: side -> junctions it controlled and then lost to the enemy (first-lost order)
    ever_lost: dict[str, dict[str, None]]
    #: division id -> number of battles it fought
    battles_of: dict[str, int]

    def __init__(
        self,
        objectives: dict[str, int],
        primary_roads: dict[str, tuple[str, str] | None],
    ) -> None:
        self.objectives = objectives
        self.primary_roads = primary_roads
        self.sides = {s: SideRecord() for s in SIDES}
        self.owner = {}
        self.last_holder = {}
        self.start_owner = {}
        self.ever_held = {s: {} for s in SIDES}
        self.ever_lost = {s: {} for s in SIDES}
        self.battles_of = {}

    # ------------------------------------------------------------------ control (§7.2)
    def begin(self, bases: Mapping[str, str], occupied: Mapping[str, Iterable[str]]) -> None:
        """Record who controls what when the campaign begins: each side's base, and each
        junction one side alone occupies (``occupied``: junction -> sides there)."""
        for side in SIDES:
            self._control(bases[side], side)
        for junction in sorted(occupied):
            self.occupy(junction, occupied[junction])
        self.start_owner = dict(self.owner)

    def occupy(self, junction: str, sides_there: Iterable[str]) -> None:
        """The junction's occupants changed (an arrival, a departure, a surrender).

        One side alone takes control; both sides there contest it (controlled by neither);
        nobody there changes nothing (the last to occupy alone keeps it).
        """
        present = set(sides_there)
        self.occupied(junction, "red" in present, "blue" in present)

    def occupied(self, junction: str, red: bool, blue: bool) -> None:
        """:meth:`occupy`, told whether red and blue divisions are there."""
        if red != blue:
            self._control(junction, "red" if red else "blue")
        elif red:  # both: contested, controlled by neither
            holder = self.owner.get(junction)
            if holder is not None:
                self.last_holder[junction] = holder
                self.ever_lost[holder].setdefault(junction, None)
            self.owner[junction] = None

    def _control(self, junction: str, side: str) -> None:
        previous = self.owner.get(junction)
        if previous == side:  # already its own: nothing to record (asked at every march)
            return
        if previous is None:
            previous = self.last_holder.get(junction)
        if previous is not None and previous != side:
            self.ever_lost[previous].setdefault(junction, None)
        self.owner[junction] = side
        self.last_holder.pop(junction, None)
        self.ever_held[side].setdefault(junction, None)

    def controls(self, junction: str, side: str) -> bool:
        return self.owner.get(junction) == side

    def objective_value(self, side: str) -> int:
        """Value of the objectives ``side`` controls (RULES.md §8.7 time-limit decision)."""
        total = 0
        for j, v in self.objectives.items():  # (a loop: a compiled generator is an object)
            if self.owner.get(j) == side:
                total += v
        return total

    def _lost_now(self, side: str, junction: str) -> bool:
        owner = self.owner.get(junction)
        if owner == _enemy(side):
            return junction in self.ever_held[side]
        return owner is None and self.last_holder.get(junction) == side

    def objectives_lost(self, side: str) -> int:
        """Objectives ``side`` controlled at some time that the enemy now controls or
        contests (RULES.md §7.2)."""
        n = 0
        for j in self.objectives:
            if self._lost_now(side, j):
                n += 1
        return n

    def objectives_gained(self, side: str) -> int:
        """Objectives ``side`` controls now that it did not control at the start, or that
        it lost and regained (RULES.md §7.2)."""
        n = 0
        lost = self.ever_lost[side]
        for j in self.objectives:
            if self.owner.get(j) == side and (self.start_owner.get(j) != side or j in lost):
                n += 1
        return n

    def primary_objectives(self, side: str) -> list[str]:
        """The objectives on ``side``'s primary road: the primary road's junction(s) of RULES.md
        §7.2 (a road end that is no objective counts nothing)."""
        road = self.primary_roads.get(side)
        return [j for j in road if j in self.objectives] if road else []

    def primary_road_lost(self, side: str) -> bool:
        """``side`` has lost its primary road's junction (RULES.md §7.2: it counts 4, in place
        of its 1 as an objective, once): an objective of the road the enemy took or contests."""
        return self._primary_lost_count(side) > 0

    def _primary_lost_count(self, side: str) -> int:
        n = 0
        for j in self.primary_objectives(side):
            if self._lost_now(side, j):
                n += 1
        return n

    def _primary_gained_count(self, side: str) -> int:
        """Objectives on the enemy's primary road that ``side`` has gained."""
        n = 0
        lost = self.ever_lost[side]
        for j in self.primary_objectives(_enemy(side)):
            if self.owner.get(j) == side and (self.start_owner.get(j) != side or j in lost):
                n += 1
        return n

    # ------------------------------------------------------------------ losses
    def begin_army(self, side: str, boxes: int) -> None:
        """The boxes ``side`` began the campaign with (the §7.6 casualty base)."""
        self.sides[side].initial_boxes += boxes

    def apply_losses(
        self,
        division: Division,
        totals: Mapping[str, int],
        destroyed_at: int,
        lost_as: dict[str, str] | None = None,
    ) -> Losses:
        """Set a division's units to their new total actual hits and record the losses.

        The one "apply losses" step of the campaign (RULES.md §1.2, §7.6): a battle's result,
        or any future attrition rule, comes through here. ``totals`` maps unit id -> total
        actual hits (units not named keep theirs; hits never go down). Units at
        ``destroyed_at`` or more are removed; a division with no unit left is destroyed.
        ``lost_as`` maps a unit type to what losing it counts as, ``"flag"`` or
        ``"battery"`` (``battle.units.TYPE.lost_as``, §7.2); by default artillery is a
        battery and every other type a flag.
        """
        record = self.sides[division.side]
        hits = totals if isinstance(totals, dict) else dict(totals)
        taken, lost = division.take_hits(hits, destroyed_at)
        destroyed = tuple([(u.id, u.kind) for u in lost])
        record.hits += taken
        for _, kind in destroyed:
            counts_as = lost_as.get(kind) if lost_as is not None else None
            if counts_as is None:
                counts_as = "battery" if kind == "artillery" else "flag"
            if counts_as == "battery":
                record.batteries_destroyed += 1
            else:
                record.units_destroyed += 1
        if not division.alive and not division.surrendered:
            record.divisions_destroyed += 1
        return Losses(division.id, taken, destroyed)

    def surrendered(self, division: Division, casualty_fraction: float) -> None:
        """A division surrendered (cut off, RULES.md §8.5): a flag, and 25% casualties (§7.5)."""
        record = self.sides[division.side]
        record.divisions_surrendered += 1
        record.cut_off += 1
        record.surrendered_boxes += casualty_fraction * division.boxes

    def fought(self, divisions: list[Division]) -> None:
        """Each division fought one more battle."""
        for d in divisions:
            self.battles_of[d.id] = self.battles_of.get(d.id, 0) + 1

    def battle_lost(self, side: str, divisions: list[Division]) -> None:
        """``side`` lost a battle with these divisions (RULES.md §7.6, once per battle)."""
        record = self.sides[side]
        record.battles_lost += 1
        record.division_defeats += len(divisions)

    def fell_back(self, side: str, onto_base: bool) -> None:
        """A division of ``side`` fell back (RULES.md §8.5); onto its base counts for §7.6."""
        record = self.sides[side]
        record.fall_backs += 1
        if onto_base:
            record.onto_base += 1

    # ------------------------------------------------------------------ reading
    def casualty_percent(self, side: str) -> float:
        """RULES.md §7.6/§7.1: hits taken (+25% of surrendered boxes) over the boxes the army
        began the campaign with, in percent (0 for an army with no boxes)."""
        r = self.sides[side]
        return 100.0 * (r.hits + r.surrendered_boxes) / r.initial_boxes if r.initial_boxes else 0.0

    def tally(self, side: str, scale: str, batteries_per_factor: int) -> SideTally:
        """The §7.2 counts of ``side`` for the evening withdrawal check.

        ``scale="division"`` (RULES.md §7.6): a flag per division destroyed or surrendered;
        one battery per ``batteries_per_factor`` batteries destroyed; one unit retiring shaken
        per division that lost a battle (once per battle); two off the table per division
        that fell back onto its base or was cut off. ``scale="unit"`` (variant
        ``unit-scale-withdrawal``): a flag per infantry or cavalry unit destroyed and per
        division surrendered, a battery per battery destroyed, one retiring shaken per battle
        lost, one off the table per surrender or fall back onto the base.

        Raises
        ------
        ValueError
            On an unknown ``scale``.
        """
        r = self.sides[side]
        # (SideTally's fields in order, given positionally: flags, batteries, retiring
        # shaken, off the table, objectives lost, primary roads lost)
        # objectives lost: the primary road's junction counts in its own row, not also here
        primary = self._primary_lost_count(side)
        objectives = self.objectives_lost(side) - primary
        if scale == "division":
            return SideTally(
                r.divisions_destroyed + r.divisions_surrendered,
                r.batteries_destroyed // max(batteries_per_factor, 1),
                r.division_defeats,
                r.onto_base + r.cut_off,
                objectives,
                int(primary > 0),  # primary_road_lost
            )
        if scale == "unit":
            return SideTally(
                r.units_destroyed + r.divisions_surrendered,
                r.batteries_destroyed,
                r.battles_lost,
                r.cut_off + r.onto_base,
                objectives,
                int(primary > 0),  # primary_road_lost
            )
        raise ValueError(f"unknown withdrawal scale {scale!r}: expected division or unit")

    def withdrawal_tallies(
        self, side: str, scale: str, batteries_per_factor: int
    ) -> tuple[SideTally, SideTally]:
        """``(own, enemy's)`` columns of the §7.6 table for ``side``.

        The enemy's column is what happened to the enemy, except that its objectives are the
        ones ``side`` **gained** (§7.2: captured outside its starting area, or regained).
        """
        own = self.tally(side, scale, batteries_per_factor)
        enemy = self.tally(_enemy(side), scale, batteries_per_factor)
        primary = self._primary_gained_count(side)  # the enemy's primary road's junction
        enemy.objectives_lost = self.objectives_gained(side) - primary
        enemy.primary_roads_lost = int(primary > 0)
        return own, enemy
