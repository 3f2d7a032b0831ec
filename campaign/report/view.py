"""One commander's view of a campaign, rebuilt from the event stream (RULES.md §8.6).

The umpire sees every event. A side sees only the events whose ``seen_by`` names it: its own
divisions always, enemy divisions only where it sighted them (a :class:`Sighted` event, or a
march or battle it saw), and an enemy division's strength only once it has fought it (a
:class:`StrengthLearned` event). :class:`Knowledge` replays such a filtered stream and holds
what the viewer knows at each moment.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from campaign import events as ev
from campaign.clock import Clock, default_clock
from campaign.errors import SimulatorError
from campaign.events import CampaignEvent, Place

__all__ = [
    "VIEWS",
    "DivisionState",
    "Knowledge",
    "check_view",
    "division_of",
    "enemy_of",
    "side_view",
    "visible_events",
]

#: The names ``--view`` accepts.
VIEWS: tuple[str, ...] = ("umpire", "red", "blue")


def check_view(view: str) -> str:
    """Return ``view`` if it is one of :data:`VIEWS`.

    Raises
    ------
    SimulatorError
        If it is not.
    """
    if view not in VIEWS:
        raise SimulatorError(
            f"unknown view {view!r}",
            key="--view",
            fix="Give --view red, --view blue or --view umpire.",
        )
    return view


def visible_events(events: Iterable[CampaignEvent], view: str) -> list[CampaignEvent]:
    """The events ``view`` knows of (:func:`side_view`), in campaign-time order (stable).

    Parameters
    ----------
    events : iterable of CampaignEvent
        The whole stream.
    view : str
        ``"umpire"`` (everything) or a side, ``"red"`` or ``"blue"``.

    Returns
    -------
    list of CampaignEvent
        The events whose ``seen_by`` includes the side (all of them for the umpire).
    """
    return sorted(side_view(events, view), key=lambda e: e.t)


def enemy_of(side: str) -> str:
    """The other side (``red`` ↔ ``blue``)."""
    return "blue" if side == "red" else "red"


def division_of(unit_id: str) -> str:
    """The division id of a unit id (``R1-I3`` → ``R1``)."""
    return unit_id.split("-", 1)[0]


@dataclass
class DivisionState:
    """What a viewer knows of one division.

    ``where`` is ``("at", junction)`` or ``("road", origin, destination, t0, minutes)``;
    ``seen_t`` is when the viewer last had sight of it; ``boxes`` / ``units`` are None
    while its strength is unknown to the viewer.
    """

    id: str
    side: str
    own: bool
    where: tuple[Any, ...] = ()
    seen_t: int = 0
    boxes: int | None = None
    units: int | None = None
    alive: bool = True
    unit_hits: dict[str, int] = field(default_factory=dict)


class Knowledge:
    """Replay of a view's events: positions and strengths as the viewer knows them.

    Parameters
    ----------
    view : str
        ``"umpire"``, ``"red"`` or ``"blue"``.
    destroyed_at : int or None
        Actual hits at which a unit is destroyed, ``battle.destroyed_at_hits`` of the rules
        the campaign was fought under (RULES.md §1.2): a unit's boxes are that minus its
        actual hits. None counts no boxes for the viewer's own divisions (the side filter,
        which needs only positions and what was learned). A unit is dropped when a battle
        reports it ``destroyed`` (the engine's word, RULES.md §1.2).
    """

    def __init__(self, view: str, *, destroyed_at: int | None) -> None:
        self.view = check_view(view)
        self.destroyed_at = destroyed_at
        self.clock = default_clock()  # the campaign's, once its CampaignStarted is applied
        self.divisions: dict[str, DivisionState] = {}
        self.now = 0
        #: the battle just before in the stream being filtered (the side filter's)
        self.last_battle: ev.BattleFought | None = None

    # ------------------------------------------------------------------ queries
    def knows_all(self, side: str) -> bool:
        """Whether the viewer sees every division of ``side`` (its own side, or the umpire)."""
        return self.view in ("umpire", side)

    def present(self) -> list[DivisionState]:
        """Living divisions the viewer has a position for, own side first, by id."""
        rows = [d for d in self.divisions.values() if d.alive and d.where]
        return sorted(rows, key=lambda d: (not d.own, d.side != "red", d.id))

    def strength(self, side: str) -> int | None:
        """Boxes of ``side`` as the viewer knows them (known enemy divisions only), or None."""
        known = [
            d.boxes
            for d in self.divisions.values()
            if d.side == side and d.alive and d.boxes is not None
        ]
        return sum(known) if known else None

    # ------------------------------------------------------------------ replay
    def apply_all(self, events: Sequence[CampaignEvent]) -> None:
        """Apply :meth:`apply` to each event in turn."""
        for e in events:
            self.apply(e)

    def _get(self, division: str, side: str) -> DivisionState:
        d = self.divisions.get(division)
        if d is None:
            own = self.knows_all(side)
            d = DivisionState(division, side, own)
            self.divisions[division] = d
        return d

    def apply(self, e: CampaignEvent) -> None:
        """Update the knowledge with one event of the view (see :func:`visible_events`)."""
        self.now = max(self.now, e.t)
        if isinstance(e, ev.CampaignStarted):
            self.clock = Clock(e.day_start, e.day_end)
        elif isinstance(e, ev.DivisionRaised):
            d = self._get(e.division, e.side)
            d.where = ("at", e.junction)
            d.unit_hits = {u.id: 0 for u in e.units}
            if d.own:
                self._recount(d)
        elif isinstance(e, ev.MarchBegun):
            d = self._get(e.division, e.side)
            d.where = ("road", e.origin, e.destination, e.t, round(e.hours * 60))
            d.seen_t = e.t
        elif isinstance(e, ev.MarchArrived):
            d = self._get(e.division, e.side)
            d.where = ("at", e.junction)
            d.seen_t = e.t
        elif isinstance(e, ev.Sighted):
            d = self._get(e.enemy, enemy_of(e.side))
            d.where = ("at", e.junction)
            d.seen_t = e.t
        elif isinstance(e, ev.StrengthLearned) and not self.knows_all(enemy_of(e.side)):
            d = self._get(e.enemy, enemy_of(e.side))
            d.boxes, d.units = e.boxes, e.units
            d.alive = e.units > 0
        elif isinstance(e, ev.BattleFought):
            self._battle(e)
        elif isinstance(e, ev.FellBack):
            d = self._get(e.division, e.side)
            d.seen_t = e.t
        elif isinstance(e, ev.Surrendered | ev.DivisionDestroyed):
            d = self._get(e.division, e.side)
            d.alive = False

    def _battle(self, e: ev.BattleFought) -> None:
        if e.road:  # a road meeting: its two junctions, never parsed from the id
            a, b = e.road
            place: tuple[Any, ...] = ("road", a, b, e.t, 0)
        else:
            place = ("at", e.place)
        for side, ids in e.divisions.items():
            for division in ids:
                d = self._get(division, side)
                d.seen_t = e.t
                if place[0] == "at" or not d.where or d.where[0] != "road":
                    d.where = place
        for u in e.units:
            known = self.divisions.get(division_of(u.id))
            if known is None or not known.own:
                continue
            d = known
            if u.state == "destroyed":
                d.unit_hits.pop(u.id, None)
            else:
                d.unit_hits[u.id] = u.total_hits
        for ids in e.divisions.values():
            for division in ids:
                d = self.divisions[division]
                if d.own:
                    self._recount(d)
                    d.alive = bool(d.unit_hits)

    def _recount(self, d: DivisionState) -> None:
        d.units = len(d.unit_hits)
        if self.destroyed_at is not None:
            d.boxes = sum(self.destroyed_at - h for h in d.unit_hits.values())


# ---------------------------------------------------------------------- the one side filter
#: ``(event, view, knowledge) -> event or None``: what ``view`` learns of one event.
Redactor = Callable[[CampaignEvent, str, "Knowledge"], CampaignEvent | None]


def _as_seen(e: CampaignEvent, view: str, k: Knowledge) -> CampaignEvent | None:
    """The event as it is, if ``seen_by`` names the view (the engine's own statement)."""
    return e if view in e.seen_by else None


def _evening_check(e: CampaignEvent, view: str, k: Knowledge) -> CampaignEvent | None:
    """The enemy's evening check is never seen (§7.6, §8.6): that it is rolled at all tells
    that the enemy has lost 25% of its strength. Only its outcome is learned, when it is
    seen: an army that withdraws ends the campaign (:class:`CampaignEnded` says so)."""
    assert isinstance(e, ev.WithdrawalCheck)
    return e if e.side == view else None


def _learned(e: CampaignEvent, view: str, k: Knowledge) -> CampaignEvent | None:
    """A strength is learned by fighting (§8.6) when the battle ends, not when it begins:
    the engine stamps it at the battle's start; the view moves it to the battle's end
    (:func:`side_view` holds it back until the stream reaches that time)."""
    assert isinstance(e, ev.StrengthLearned)
    if view not in e.seen_by:
        return None
    b = k.last_battle  # the engine writes a battle's strengths right after it
    if b is None or b.t != e.t or all(e.enemy not in ids for ids in b.divisions.values()):
        return e  # already placed (a side's own stream filtered again)
    end = b.t + b.minutes
    return e if end <= e.t else replace(e, t=end)


def _fell_back(e: CampaignEvent, view: str, k: Knowledge) -> CampaignEvent | None:
    """An enemy falling back is seen leaving the field, not where it goes (§8.5, §8.6)."""
    assert isinstance(e, ev.FellBack)
    if view not in e.seen_by:
        return None
    if e.side == view:
        return e
    return replace(e, path=e.path[:1], onto_base=False, seen_by=(view,))


def _nightfall(e: CampaignEvent, view: str, k: Knowledge) -> CampaignEvent | None:
    """The nightfall tally: own strength and positions; the enemy's only as fought (§8.6)."""
    assert isinstance(e, ev.DayEnded)
    enemy = enemy_of(view)
    strength = {view: e.strength.get(view), enemy: k.strength(enemy)}
    own = {d: p for d, p in e.positions.items() if d in k.divisions and k.divisions[d].own}
    # the objective value the enemy holds is its own count of places it holds, most never
    # seen by this side: not known (None), the side's own value exact (§8.6)
    objectives = {view: e.objectives.get(view, 0), enemy: None}
    return replace(e, strength=strength, positions=own, objectives=objectives, seen_by=(view,))


def _the_end(e: CampaignEvent, view: str, k: Knowledge) -> CampaignEvent | None:
    """The end: own divisions exactly; enemy divisions only as last seen and last learned."""
    assert isinstance(e, ev.CampaignEnded)
    rows = []
    for row in e.divisions:
        if row.side == view:
            rows.append(row)
            continue
        d = k.divisions.get(row.division)
        if d is None:
            continue  # an enemy division this side never saw
        where: Place = ""
        if d.where and d.where[0] == "at":
            where = d.where[1]
        elif d.where:
            where = (d.where[1], d.where[2])
        status = "known lost" if not d.alive else "last seen " + k.clock.label(d.seen_t).lower()
        rows.append(ev.DivisionAtEnd(row.division, row.side, where, d.units, d.boxes, status))
    left = {view: e.divisions_left.get(view), enemy_of(view): None}
    return replace(e, divisions=tuple(rows), divisions_left=left, seen_by=(view,))


#: What a side learns of each event type. Every type in :mod:`campaign.events` has an entry
#: (a test checks it): a new event type is hidden from the sides (umpire only) until its
#: entry says what they see.
REDACTORS: dict[type[CampaignEvent], Redactor] = {
    ev.CampaignStarted: _as_seen,
    ev.DivisionRaised: _as_seen,
    ev.RoughRoadTest: _as_seen,
    ev.MarchBegun: _as_seen,
    ev.MarchArrived: _as_seen,
    ev.Halted: _as_seen,
    ev.Ordered: _as_seen,  # a side's own decisions (RULES.md §8.8)
    ev.Reinforced: _as_seen,  # the enemy's only where sighted (§8.6, §8.9)
    ev.Sighted: _as_seen,
    ev.StrengthLearned: _learned,
    ev.MeetingOnRoad: _as_seen,
    ev.BattleFought: _as_seen,
    ev.FellBack: _fell_back,
    ev.Surrendered: _as_seen,
    ev.FallBackCaught: _as_seen,  # both sides: a battle is fought there
    ev.DivisionDestroyed: _as_seen,  # both sides: they fought it
    ev.ReturnBegun: _as_seen,  # the enemy's only where sighted (§8.6)
    ev.MarchResumed: _as_seen,  # the enemy's only where sighted (§8.6)
    ev.WithdrawalCheck: _evening_check,
    ev.Forked: _as_seen,  # both sides: their general's new orders come from the umpire
    ev.DayEnded: _nightfall,
    ev.CampaignEnded: _the_end,
}


def side_view(events: Iterable[CampaignEvent], view: str) -> list[CampaignEvent]:
    """The stream as ``view`` learned it, in stream order: THE side filter of every printer.

    The umpire gets every event unchanged. A side gets the events whose ``seen_by`` names it
    (its own divisions, enemies where sighted, strengths once fought; RULES.md §8.6), and the
    tallies the engine keeps for the umpire redacted by :data:`REDACTORS`: no evening
    withdrawal check of the enemy (only its outcome, the end, is seen), nightfall strengths of
    the enemy only as fought and its objective value not at all, the end table with enemy
    divisions as last seen. Each fact is placed at the time the side learned it: an enemy
    strength at the end of the battle it was fought in (the engine stamps it at the start),
    after every event of the stream before that minute. An event type with no entry is
    shown to a side only if its ``seen_by`` names it. Idempotent: filtering a side's own
    stream again changes nothing.

    Raises
    ------
    SimulatorError
        If ``view`` is not one of :data:`VIEWS`.
    """
    check_view(view)
    if view == "umpire":
        return list(events)
    k = Knowledge(view, destroyed_at=None)  # the redactors read no own strength
    out: list[CampaignEvent] = []
    later: list[tuple[int, int, CampaignEvent]] = []  # learned later than stamped: (t, n, e)
    for n, e in enumerate(events):
        while later and later[0][0] <= e.t:  # facts whose time has come, in time order
            due = heapq.heappop(later)[2]
            k.apply(due)
            out.append(due)
        if isinstance(e, ev.BattleFought):
            k.last_battle = e
        elif not isinstance(e, ev.StrengthLearned):
            k.last_battle = None
        shown = REDACTORS.get(type(e), _as_seen)(e, view, k)
        if shown is None:
            continue
        if shown.t > e.t:
            heapq.heappush(later, (shown.t, n, shown))
            continue
        k.apply(shown)
        out.append(shown)
    while later:
        shown = heapq.heappop(later)[2]
        k.apply(shown)
        out.append(shown)
    return out
