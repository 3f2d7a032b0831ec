"""The diary's order of battle, per-division histories and the losses from start to end.

All three are built from a view's :class:`~campaign.report.days.Diary`, so a side's diary
lists its own divisions in full and enemy divisions only as it saw them (RULES.md §8.6).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from campaign.events import (
    BattleFought,
    CampaignEvent,
    DivisionAtEnd,
    DivisionDestroyed,
    DivisionRaised,
    FallBackCaught,
    FellBack,
    MarchArrived,
    MarchBegun,
    RaisedUnit,
    ReturnBegun,
    RoughRoadTest,
    Sighted,
    StrengthLearned,
    Surrendered,
)
from campaign.maps.model import SIDES
from campaign.printers.narrative import Narrator
from campaign.printers.phrases import division_order, figures
from campaign.report.days import Diary

__all__ = ["division_histories", "losses_table", "order_of_battle"]

_PLURAL = {"infantry": "infantry", "cavalry": "cavalry", "artillery": "batteries"}
_SINGLE = {"infantry": "infantry", "cavalry": "cavalry", "artillery": "battery"}


def _side_of(division: str) -> str:
    return "red" if division.startswith("R") else "blue"


def _units_text(units: tuple[RaisedUnit, ...]) -> str:
    kinds = [u.kind for u in units]
    return ", ".join(
        f"{kinds.count(k)} {(_PLURAL if kinds.count(k) > 1 else _SINGLE).get(k, k)}"
        for k in dict.fromkeys(kinds)
    )


def _divisions_of(e: CampaignEvent) -> list[str]:
    if isinstance(e, DivisionRaised | MarchBegun | MarchArrived | RoughRoadTest):
        return [e.division]
    if isinstance(e, FellBack | Surrendered | FallBackCaught | DivisionDestroyed | ReturnBegun):
        return [e.division]
    if isinstance(e, Sighted | StrengthLearned):
        return [e.enemy]
    if isinstance(e, BattleFought):
        return [d for ids in e.divisions.values() for d in ids]
    return []


def order_of_battle(diary: Diary, narrator: Narrator) -> list[dict[str, Any]]:
    """Per side: its divisions with commander, start, units and boxes (as the view knew)."""
    raised = {e.division: e for e in diary.events if isinstance(e, DivisionRaised)}
    first_seen: dict[str, str] = {}
    learned: dict[str, StrengthLearned] = {}
    for e in diary.events:
        for d in _divisions_of(e):
            if d not in raised and d not in first_seen:
                where = str(getattr(e, "junction", None) or getattr(e, "place", ""))
                first_seen[d] = f"first seen {diary.clock.label(e.t)} at {narrator.j(where)}"
        if isinstance(e, StrengthLearned) and e.enemy not in learned:
            learned[e.enemy] = e
    out = []
    for side in SIDES:
        rows = []
        for d, e in sorted(raised.items(), key=lambda r: division_order(r[1].side, r[0])):
            if e.side != side:
                continue
            enters = diary.clock.day(e.t)  # a reserve is raised the day it enters (§8.9)
            at = (
                f"at {narrator.j(e.junction)}"
                if enters <= 1
                else (f"in reserve, enters on day {enters} at {narrator.j(e.junction)}")
            )
            rows.append(
                {
                    "division": d,
                    "commander": narrator.commanders.full(d) if narrator.commanders else "",
                    "text": f"{at}: {_units_text(e.units)}",
                    "units": ", ".join(u.id for u in e.units),
                    "boxes": diary.destroyed_at * len(e.units),
                }
            )
        for d in sorted(first_seen):
            if _side_of(d) != side:
                continue
            s = learned.get(d)
            # learned by fighting it: the strength after the battle that began at s.t (the
            # boxes follow in the template, once)
            known = (
                f"; strength learned in the battle of {diary.clock.label(s.t)}: {s.units} "
                f"units after it"
                if s
                else "; strength never learned"
            )
            rows.append(
                {
                    "division": d,
                    "commander": "",
                    "text": first_seen[d] + known,
                    "units": "",
                    "boxes": "?" if s is None else s.boxes,
                }
            )
        out.append(
            {
                "side": diary.side_name(side),
                "key": side,
                "complete": diary.view in ("umpire", side),
                "divisions": rows,
            }
        )
    return out


def _route(names: list[str]) -> str:
    if len(names) == 2:
        return f"marched from {names[0]} to {names[1]}"
    return f"marched from {names[0]} by {', '.join(names[1:-1])} to {names[-1]}"


def _raised(e: DivisionRaised, narrator: Narrator) -> str:
    return f"raised at {narrator.j(e.junction)} ({_units_text(e.units)})"


def _stopped(e: RoughRoadTest, narrator: Narrator) -> str | None:
    """A rough road test failed (RULES.md §8.2); a passed one says nothing."""
    if e.passed:
        return None
    return f"was stopped by the rough road to {narrator.j(e.destination)} (rolled {e.roll})"


def _at(template: str, where: Callable[[Any], str]) -> Callable[[Any, Narrator], str]:
    """The phrase ``template`` with the junction ``where(event)`` named in it."""
    return lambda e, narrator: template.format(narrator.j(where(e)))


#: What a division's day says of an event, by the event's kind (a battle's phrase needs the
#: battle's number and the division's side: :func:`_battle_phrase`).
_PHRASES: tuple[tuple[type, Callable[[Any, Narrator], str | None]], ...] = (
    (DivisionRaised, _raised),
    (RoughRoadTest, _stopped),
    (FellBack, _at("fell back toward {}", lambda e: e.path[-1])),
    (FallBackCaught, _at("was caught at {}", attrgetter("junction"))),
    (ReturnBegun, _at("went back to {} after a draw", attrgetter("destination"))),
    (Surrendered, _at("surrendered at {}", attrgetter("junction"))),
    (DivisionDestroyed, _at("was destroyed at {}", attrgetter("place"))),
    (Sighted, _at("was seen at {}", attrgetter("junction"))),
)


def _battle_phrase(e: BattleFought, division: str, numbers: dict[int, int]) -> str:
    """``fought battle #N at PLACE (won|drew|lost)``, as the division's side saw it."""
    side = _side_of(division)
    result = "won" if e.winner == side else ("drew" if e.winner is None else "lost")
    return f"fought battle #{numbers[id(e)]} at {e.place_name} ({result})"


def _phrase(
    e: CampaignEvent, division: str, narrator: Narrator, numbers: dict[int, int]
) -> str | None:
    """The event in a division's day (None: it says nothing there)."""
    if isinstance(e, BattleFought):
        return _battle_phrase(e, division, numbers)
    for kind, phrase in _PHRASES:
        if isinstance(e, kind):
            return phrase(e, narrator)
    return None


@dataclass
class _Days:
    """Each division's days in phrases, in the order the divisions first appear; a march
    over several roads is gathered into one route until the division does something else,
    starts from elsewhere, or the day ends."""

    narrator: Narrator
    days: dict[str, dict[int, list[str]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list))
    )
    routes: dict[str, list[str]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    last_day: dict[str, int] = field(default_factory=dict)

    def flush(self, d: str, day: int) -> None:
        """The division's route so far, if it went anywhere, as a phrase of ``day``."""
        route = self.routes.pop(d, [])
        if len(route) >= 2:
            self.days[d][day].append(_route(route))

    def turn_to(self, d: str, day: int) -> None:
        """The division appears on ``day``: its route of an earlier day ends there."""
        if d not in self.order:
            self.order.append(d)
        if self.last_day.get(d, day) != day:
            self.flush(d, self.last_day[d])
        self.last_day[d] = day

    def march(self, d: str, day: int, e: MarchBegun) -> None:
        """A road marched: the route goes on, or a new one starts where the march did."""
        origin = self.narrator.j(e.origin)
        route = self.routes.setdefault(d, [origin])
        if route[-1] != origin:
            self.flush(d, day)
            route = self.routes.setdefault(d, [origin])
        route.append(self.narrator.j(e.destination))

    def close(self) -> None:
        """End every route still open, on its division's last day."""
        for d, day in self.last_day.items():
            self.flush(d, day)


def _days_of(diary: Diary, narrator: Narrator, numbers: dict[int, int]) -> _Days:
    """Every division's days in the diary's events."""
    book = _Days(narrator)
    for e in diary.events:
        day = diary.clock.day(e.t)
        for d in _divisions_of(e):
            book.turn_to(d, day)
            if isinstance(e, MarchBegun):
                book.march(d, day, e)
                continue
            if isinstance(e, MarchArrived | StrengthLearned):
                continue
            book.flush(d, day)
            phrase = _phrase(e, d, narrator, numbers)
            if phrase is not None:
                book.days[d][day].append(phrase)
    book.close()
    return book


def _ending(row: DivisionAtEnd, narrator: Narrator) -> str:
    """``At the end: STATE at PLACE (N units, M boxes).`` (strength unknown: said so)."""
    place = row.place
    where = f" at {narrator.j(place)}" if place not in ("", "-") else ""
    size = (
        f"{figures(row.units, 'unit')}, {figures(row.boxes, 'box', 'boxes')}"
        if row.units is not None and row.boxes is not None
        else "strength unknown"
    )
    return f"At the end: {row.state}{where} ({size})."


def division_histories(
    diary: Diary, narrator: Narrator, numbers: dict[int, int]
) -> list[dict[str, Any]]:
    """Per division the view knew of: its days in short sentences, then how it ended."""
    book = _days_of(diary, narrator, numbers)
    ends = {row.division: row for row in diary.end.divisions} if diary.end else {}
    out = []
    for d in sorted(book.order, key=lambda x: (_side_of(x) != "red", len(x), x)):
        lines = [
            f"Day {n}: {'; '.join(phrases)}."
            for n, phrases in sorted(book.days[d].items())
            if phrases
        ]
        row = ends.get(d)
        if row is not None:
            lines.append(_ending(row, narrator))
        out.append(
            {
                "division": narrator.div(d),
                "side": diary.side_name(_side_of(d)),
                "key": _side_of(d),
                "lines": lines,
            }
        )
    return out


#: (units, boxes) of a division; None where the view does not know it
_Strength = tuple[int | None, int | None]


def _starts(diary: Diary) -> dict[str, tuple[int, int]]:
    """Each division's units and boxes when raised (``destroyed_at`` boxes a unit)."""
    return {
        e.division: (len(e.units), diary.destroyed_at * len(e.units))
        for e in diary.events
        if isinstance(e, DivisionRaised)
    }


def _ends(diary: Diary) -> dict[str, tuple[int | None, int | None, str]]:
    """Each division's units, boxes and state at the end, as the view knows them."""
    if not diary.end:
        return {}
    return {row.division: (row.units, row.boxes, row.state) for row in diary.end.divisions}


def _loss_row(
    diary: Diary, narrator: Narrator, d: str, start: _Strength, end: tuple[Any, ...]
) -> dict[str, Any]:
    """A division's row: start and end ``units / boxes``, boxes lost and their share."""
    su, sb = start
    eu, eb, state = end
    lost = None if sb is None or eb is None else sb - eb
    pct = "" if lost is None or not sb else f"{100 * lost / sb:.0f}%"
    return {
        "division": narrator.div(d),
        "side": diary.side_name(_side_of(d)),
        "start": "?" if su is None else f"{su} / {sb}",
        "end": "?" if eu is None else f"{eu} / {eb}",
        "lost": "?" if lost is None else str(lost),
        "percent": pct,
        "state": state,
        "total": False,
    }


def _add_up(total: list[int], values: tuple[int | None, ...]) -> bool:
    """Add ``values`` into ``total`` where known; whether all were known."""
    complete = True
    for i, v in enumerate(values):
        if v is None:
            complete = False
        else:
            total[i] += v
    return complete


def _total_row(diary: Diary, side: str, total: list[int], known: bool) -> dict[str, Any]:
    """The side's row in all: its divisions' sums (``?`` unless ``known``)."""
    lost = total[1] - total[3]
    return {
        "division": f"{diary.side_name(side)} in all",
        "side": diary.side_name(side),
        "start": f"{total[0]} / {total[1]}" if known else "?",
        "end": f"{total[2]} / {total[3]}" if known else "?",
        "lost": str(lost) if known else "?",
        "percent": f"{100 * lost / total[1]:.0f}%" if known and total[1] else "",
        "state": "",
        "total": True,
    }


def losses_table(diary: Diary, narrator: Narrator) -> list[dict[str, Any]]:
    """Per division (and per side in total): units and boxes at the start and the end.

    Enemy divisions in a side's view show ``?`` where the side never learned the figure.
    """
    start = _starts(diary)
    end = _ends(diary)
    rows = []
    for side in SIDES:
        total = [0, 0, 0, 0]
        complete = True
        ids = sorted(
            {d for d in list(start) + list(end) if _side_of(d) == side},
            key=lambda x: (len(x), x),
        )
        for d in ids:
            su, sb = start.get(d, (None, None))
            eu, eb, state = end.get(d, (None, None, ""))
            rows.append(_loss_row(diary, narrator, d, (su, sb), (eu, eb, state)))
            complete = _add_up(total, (su, sb, eu, eb)) and complete
        if ids:
            known = complete and diary.view in ("umpire", side)
            rows.append(_total_row(diary, side, total, known))
    return rows
