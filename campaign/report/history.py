"""The diary's order of battle, per-division histories and the losses from start to end.

All three are built from a view's :class:`~campaign.report.days.Diary`, so a side's diary
lists its own divisions in full and enemy divisions only as it saw them (RULES.md §8.6).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from campaign.events import (
    BattleFought,
    CampaignEvent,
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


def division_histories(
    diary: Diary, narrator: Narrator, numbers: dict[int, int]
) -> list[dict[str, Any]]:
    """Per division the view knew of: its days in short sentences, then how it ended."""
    days: dict[str, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    routes: dict[str, list[str]] = {}
    order: list[str] = []

    def flush(d: str, day: int) -> None:
        route = routes.pop(d, [])
        if len(route) >= 2:
            days[d][day].append(_route(route))

    last_day: dict[str, int] = {}
    for e in diary.events:
        day = diary.clock.day(e.t)
        for d in _divisions_of(e):
            if d not in order:
                order.append(d)
            if last_day.get(d, day) != day:
                flush(d, last_day[d])
            last_day[d] = day
            if isinstance(e, MarchBegun):
                route = routes.setdefault(d, [narrator.j(e.origin)])
                if route[-1] != narrator.j(e.origin):
                    flush(d, day)
                    route = routes.setdefault(d, [narrator.j(e.origin)])
                route.append(narrator.j(e.destination))
                continue
            if isinstance(e, MarchArrived | StrengthLearned):
                continue
            flush(d, day)
            if isinstance(e, DivisionRaised):
                days[d][day].append(f"raised at {narrator.j(e.junction)} ({_units_text(e.units)})")
            elif isinstance(e, RoughRoadTest) and not e.passed:
                days[d][day].append(
                    f"was stopped by the rough road to {narrator.j(e.destination)} "
                    f"(rolled {e.roll})"
                )
            elif isinstance(e, BattleFought):
                side = _side_of(d)
                result = "won" if e.winner == side else ("drew" if e.winner is None else "lost")
                days[d][day].append(f"fought battle #{numbers[id(e)]} at {e.place_name} ({result})")
            elif isinstance(e, FellBack):
                days[d][day].append(f"fell back toward {narrator.j(e.path[-1])}")
            elif isinstance(e, FallBackCaught):
                days[d][day].append(f"was caught at {narrator.j(e.junction)}")
            elif isinstance(e, ReturnBegun):
                days[d][day].append(f"went back to {narrator.j(e.destination)} after a draw")
            elif isinstance(e, Surrendered):
                days[d][day].append(f"surrendered at {narrator.j(e.junction)}")
            elif isinstance(e, DivisionDestroyed):
                days[d][day].append(f"was destroyed at {narrator.j(e.place)}")
            elif isinstance(e, Sighted):
                days[d][day].append(f"was seen at {narrator.j(e.junction)}")
    for d, day in last_day.items():
        flush(d, day)
    ends = {row.division: row for row in diary.end.divisions} if diary.end else {}
    out = []
    for d in sorted(order, key=lambda x: (_side_of(x) != "red", len(x), x)):
        lines = [
            f"Day {n}: {'; '.join(phrases)}." for n, phrases in sorted(days[d].items()) if phrases
        ]
        row = ends.get(d)
        if row is not None:
            place = row.place
            where = f" at {narrator.j(place)}" if place not in ("", "-") else ""
            size = (
                f"{figures(row.units, 'unit')}, {figures(row.boxes, 'box', 'boxes')}"
                if row.units is not None and row.boxes is not None
                else "strength unknown"
            )
            lines.append(f"At the end: {row.state}{where} ({size}).")
        out.append(
            {
                "division": narrator.div(d),
                "side": diary.side_name(_side_of(d)),
                "key": _side_of(d),
                "lines": lines,
            }
        )
    return out


def losses_table(diary: Diary, narrator: Narrator) -> list[dict[str, Any]]:
    """Per division (and per side in total): units and boxes at the start and the end.

    Enemy divisions in a side's view show ``?`` where the side never learned the figure.
    """
    start = {
        e.division: (len(e.units), diary.destroyed_at * len(e.units))
        for e in diary.events
        if isinstance(e, DivisionRaised)
    }
    end = (
        {row.division: (row.units, row.boxes, row.state) for row in diary.end.divisions}
        if diary.end
        else {}
    )
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
            lost = None if sb is None or eb is None else sb - eb
            pct = "" if lost is None or not sb else f"{100 * lost / sb:.0f}%"
            for i, v in enumerate((su, sb, eu, eb)):
                if v is None:
                    complete = False
                else:
                    total[i] += v
            rows.append(
                {
                    "division": narrator.div(d),
                    "side": diary.side_name(side),
                    "start": "?" if su is None else f"{su} / {sb}",
                    "end": "?" if eu is None else f"{eu} / {eb}",
                    "lost": "?" if lost is None else str(lost),
                    "percent": pct,
                    "state": state,
                    "total": False,
                }
            )
        if ids:
            known = complete and diary.view in ("umpire", side)
            lost = total[1] - total[3]
            rows.append(
                {
                    "division": f"{diary.side_name(side)} in all",
                    "side": diary.side_name(side),
                    "start": f"{total[0]} / {total[1]}" if known else "?",
                    "end": f"{total[2]} / {total[3]}" if known else "?",
                    "lost": str(lost) if known else "?",
                    "percent": f"{100 * lost / total[1]:.0f}%" if known and total[1] else "",
                    "state": "",
                    "total": True,
                }
            )
    return rows
