"""Split a view's events into campaign days: each day's marches, battles and evening positions.

:func:`build_diary` replays the events a view knows of (:mod:`campaign.report.view`) and
returns a :class:`Diary`: the scenario header, one :class:`Day` per campaign day (the map's
contents at nightfall, or at the end on the last day), the strength of each side over time as
the view knows it, and the final result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from campaign import events as ev
from campaign.clock import Clock, clock_of
from campaign.events import CampaignEvent
from campaign.maps.model import SIDES
from campaign.report.view import Knowledge, check_view, side_view

__all__ = ["DIARY_HANDLED", "Day", "Diary", "March", "Mark", "build_diary"]

#: How the diary uses each event type besides narrating it (a test checks that every type
#: of campaign/events.py is listed, so a new type is placed deliberately).
DIARY_HANDLED: dict[type[CampaignEvent], str] = {
    ev.CampaignStarted: "the cover: scenario, sides, bases",
    ev.DivisionRaised: "order of battle; division marks on the maps",
    ev.RoughRoadTest: "narrative",
    ev.MarchBegun: "march arrows on the day's map and the final map",
    ev.MarchArrived: "division marks on the maps",
    ev.Halted: "narrative",
    ev.Ordered: "narrative (the strategy's decisions and reasons)",
    ev.Reinforced: "narrative (their divisions come in by DivisionRaised)",
    ev.Sighted: "enemy marks on a side's maps",
    ev.StrengthLearned: "enemy strengths on a side's maps and charts",
    ev.MeetingOnRoad: "narrative",
    ev.Forked: "narrative (the rules, doctrines and dice from a fork on)",
    ev.BattleFought: "battle sections, battle sites on the maps, charts, histories",
    ev.FellBack: "narrative; division histories",
    ev.Surrendered: "division marks removed; histories",
    ev.FallBackCaught: "narrative; division histories",
    ev.DivisionDestroyed: "narrative; division histories",
    ev.ReturnBegun: "narrative; division histories",
    ev.MarchResumed: "narrative",
    ev.WithdrawalCheck: "narrative (evening checks)",
    ev.DayEnded: "nightfall tally; cuts the days",
    ev.CampaignEnded: "the result, the losses table",
}


@dataclass(frozen=True)
class March:
    """A march the view saw begin: ``own`` is False for an enemy march it only glimpsed."""

    t: int
    side: str
    division: str
    origin: str
    destination: str
    kind: str
    own: bool


@dataclass(frozen=True)
class Mark:
    """A division on a day's map.

    ``junction`` is set when it stands at a junction; otherwise it is on the road
    ``road`` = (a, b) at ``fraction`` of the way from a to b. ``boxes`` is None when the view
    does not know its strength; ``seen`` is the time label of the last sighting of an enemy
    division (empty for divisions the view always knows).
    """

    division: str
    side: str
    own: bool
    junction: str | None
    road: tuple[str, str] | None
    fraction: float
    boxes: int | None
    units: int | None
    seen: str = ""
    stale: bool = False


@dataclass
class Day:
    """One campaign day of a view."""

    number: int
    events: list[CampaignEvent] = field(default_factory=list)
    marches: list[March] = field(default_factory=list)
    battles: list[ev.BattleFought] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    strength: dict[str, int | None] = field(default_factory=dict)
    snapshot_t: int = 0
    tally: ev.DayEnded | None = None


@dataclass
class Diary:
    """Everything a diary shows for one view."""

    view: str
    clock: Clock
    header: ev.CampaignStarted | None
    days: list[Day]
    series: list[tuple[int, dict[str, int | None]]]
    battles: list[ev.BattleFought]
    end: ev.CampaignEnded | None
    events: list[CampaignEvent]
    #: actual hits that destroy a unit: a fresh unit's boxes (``battle.destroyed_at_hits``,
    #: RULES.md §1.2)
    destroyed_at: int

    def side_name(self, side: str | None) -> str:
        """Display name of a side (``French``), ``Umpire`` for the umpire, ``nobody`` for None."""
        if side == "umpire":
            return "Umpire"
        if side is None:
            return "nobody"
        names = self.header.side_names if self.header else {}
        return names.get(side, side.capitalize())


def _marks(k: Knowledge, day: int, t: int, clock: Clock) -> list[Mark]:
    out = []
    for d in k.present():
        if d.where[0] == "at":
            junction, road, fraction = d.where[1], None, 0.0
        else:
            _, a, b, t0, minutes = d.where
            junction, road = None, (a, b)
            moment = t if d.own else d.seen_t
            fraction = 0.5 if minutes <= 0 else min(max((moment - t0) / minutes, 0.1), 0.9)
        seen = "" if d.own else clock.label(d.seen_t)
        stale = not d.own and clock.day(d.seen_t) != day
        out.append(
            Mark(d.id, d.side, d.own, junction, road, fraction, d.boxes, d.units, seen, stale)
        )
    return out


def _strength(k: Knowledge) -> dict[str, int | None]:
    return {s: k.strength(s) for s in SIDES}


def build_diary(
    events: Sequence[CampaignEvent],
    view: str = "umpire",
    clock: Clock | None = None,
    *,
    destroyed_at: int,
) -> Diary:
    """Replay ``events`` as ``view`` knows them and cut them into campaign days.

    Parameters
    ----------
    events : sequence of CampaignEvent
        The whole event stream of one campaign (as recorded or read back from JSON lines).
    view : str
        ``"umpire"``, ``"red"`` or ``"blue"``.
    clock : Clock or None
        Campaign clock (default: the stream's own, :func:`campaign.clock.clock_of`).
    destroyed_at : int
        ``battle.destroyed_at_hits`` of the rules the campaign was fought under (RULES.md
        §1.2): strengths in boxes are this minus the actual hits, per unit.

    Returns
    -------
    Diary
        One :class:`Day` for every day from 1 to the last day of the campaign.
    """
    check_view(view)
    clock = clock or clock_of(events)
    stream = side_view(events, view)
    seen = sorted(stream, key=lambda e: e.t)
    header = next((e for e in seen if isinstance(e, ev.CampaignStarted)), None)
    end = next((e for e in seen if isinstance(e, ev.CampaignEnded)), None)
    last_day = max([clock.day(e.t) for e in seen] + [end.days if end else 1])
    days = {n: Day(n) for n in range(1, last_day + 1)}
    cuts = _nightfall_cuts(stream, clock, last_day)
    k = Knowledge(view, destroyed_at=destroyed_at)
    series: list[tuple[int, dict[str, int | None]]] = []
    battles: list[ev.BattleFought] = []
    snap = 1
    for key, e in sorted((((e.t, i), e) for i, e in enumerate(stream)), key=lambda r: r[0]):
        while snap <= last_day and key >= cuts[snap]:  # nightfall of day ``snap`` has passed
            _close(days[snap], k, clock, cuts[snap][0])
            snap += 1
        k.apply(e)
        if isinstance(e, ev.CampaignStarted):
            continue
        _file(days[clock.day(e.t)], e, k, battles)
        _note_strength(series, e, k)
    for n in range(snap, last_day + 1):
        final = end is not None and n == last_day
        _close(days[n], k, clock, end.t if final and end else cuts[n][0])
    if end is not None:
        series.append((end.t, _strength(k)))
    return Diary(view, clock, header, list(days.values()), series, battles, end, seen, destroyed_at)


def _file(day: Day, e: CampaignEvent, k: Knowledge, battles: list[ev.BattleFought]) -> None:
    """Put the event in its day: among its events, and its marches (as the view knows the
    marching side), battles (also the diary's) or nightly tally."""
    day.events.append(e)
    if isinstance(e, ev.MarchBegun):
        day.marches.append(
            March(e.t, e.side, e.division, e.origin, e.destination, e.kind, k.knows_all(e.side))
        )
    elif isinstance(e, ev.BattleFought):
        day.battles.append(e)
        battles.append(e)
    elif isinstance(e, ev.DayEnded):
        day.tally = e


def _note_strength(
    series: list[tuple[int, dict[str, int | None]]], e: CampaignEvent, k: Knowledge
) -> None:
    """After an event that changes a side's known strength, the sides' strengths at its time
    (one point per minute: a later event of the same minute replaces it)."""
    if isinstance(e, (ev.DivisionRaised, ev.BattleFought, ev.StrengthLearned, ev.Surrendered)):
        point = (e.t, _strength(k))
        if series and series[-1][0] == e.t:
            series[-1] = point
        else:
            series.append(point)


def _nightfall_cuts(
    events: Sequence[CampaignEvent], clock: Clock, last_day: int
) -> dict[int, tuple[int, float]]:
    """Per day, the ``(t, index)`` key before which events count for the nightfall map.

    The umpire's :class:`DayEnded` tally marks the exact place in the stream; events at
    nightfall that came before it belong to the day's map, those after it to the night.
    """
    marks = {e.day: i for i, e in enumerate(events) if isinstance(e, ev.DayEnded)}
    return {
        n: (int(clock.nightfall((n - 1) * 1440)), marks.get(n, float("inf")))
        for n in range(1, last_day + 1)
    }


def _close(day: Day, k: Knowledge, clock: Clock, t: float) -> None:
    day.snapshot_t = int(t)
    day.marks = _marks(k, day.number, int(t), clock)
    day.strength = _strength(k)
