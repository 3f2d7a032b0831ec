"""The data a diary template shows, as plain dicts and strings (no markup is built here).

:func:`diary_context` turns a :class:`~campaign.report.days.Diary` into the context of
``campaign/templates/diary.html.j2`` and ``diary.md.j2``; the writers add the pictures
(inline SVG or PNG file names).
"""

from __future__ import annotations

from typing import Any

from campaign.events import BattleFought, CampaignEnded, DayEnded
from campaign.maps.model import SIDES, CampaignMap
from campaign.printers.narrative import Narrator
from campaign.report.days import Day, Diary, Mark

__all__ = ["diary_context"]

_REASONS = {
    "cards": "the loser was down to its last movement card",
    "both-cards": "both sides reached their last card together",
    "withdrawal": "the loser withdrew after a withdrawal check",
    "both-withdrew": "both sides withdrew",
    "no-units": "the loser had no unit left on the field",
    "turn-limit": "the turn limit was reached",
    "nightfall": "nightfall ended it",
}


def _place(narrator: Narrator, mark: Mark) -> str:
    if mark.junction is not None:
        return narrator.j(mark.junction)
    a, b = mark.road  # type: ignore[misc]
    return f"on the road {narrator.j(a)} → {narrator.j(b)}"


def _positions(diary: Diary, narrator: Narrator, day: Day) -> list[dict[str, str]]:
    rows = []
    for m in day.marks:
        rows.append(
            {
                "division": m.division,
                "side": diary.side_name(m.side),
                "where": _place(narrator, m),
                "units": "?" if m.units is None else str(m.units),
                "boxes": "?" if m.boxes is None else str(m.boxes),
                "seen": m.seen or "—",
            }
        )
    return rows


def _battle(diary: Diary, number: int, b: BattleFought) -> dict[str, Any]:
    clock = diary.clock
    name = diary.side_name
    h, m = divmod(b.minutes, 60)
    return {
        "number": number,
        "anchor": f"battle-{number}",
        "time": clock.label(b.t),
        "place": b.place_name,
        "attacker": name(b.attacker),
        "divisions": {name(s): ", ".join(b.divisions.get(s, ())) for s in SIDES},
        "winner": name(b.winner) if b.winner else "Draw",
        "reason": _REASONS.get(b.reason, b.reason),
        "length": f"{b.bounds} bounds, {h} h {m:02d} min",
        "roll_off": "-".join(map(str, b.roll_off)) if b.roll_off else "",
        "sides": [
            {
                "side": name(s),
                "cards_lost": b.cards_lost.get(s, 0),
                "cards_left": b.cards_left.get(s, 0),
                "hits": b.hits.get(s, 0),
                "casualty_percent": f"{b.casualty_percent.get(s, 0.0):.1f}",
            }
            for s in SIDES
        ],
        "units": [
            {
                "id": u[0],
                "side": name(u[1]),
                "kind": u[2],
                "state": u[3],
                "before": u[4],
                "taken": u[5],
                "total": u[6],
            }
            for u in b.units
        ],
        "checks": [
            {
                "side": name(side),
                "dice": total,
                "rolls": " ".join(map(str, rolls)),
                "sum": sum(rolls),
                "withdraws": "withdraws" if withdraws else "fights on",
            }
            for side, total, rolls, withdraws in b.withdrawal_checks
        ],
        "log": list(b.log),
    }


def _narrative(narrator: Narrator, day: Day, numbers: dict[int, int]) -> list[dict[str, str]]:
    rows = []
    battles = iter(day.battles)
    for entry in narrator.entries(day.events):
        if entry.kind in ("day", "header", "end"):
            continue
        anchor = ""
        if entry.kind == "battle":
            anchor = f"battle-{numbers[id(next(battles))]}"
        rows.append({"time": entry.time, "text": entry.text, "kind": entry.kind, "anchor": anchor})
    return rows


def _strength_line(diary: Diary, day: Day) -> str:
    parts = []
    for s in SIDES:
        v = day.strength.get(s)
        own = diary.view in ("umpire", s)
        if v is None:
            parts.append(f"{diary.side_name(s)} unknown")
        else:
            parts.append(f"{diary.side_name(s)} {v} boxes" + ("" if own else " (known)"))
    return "; ".join(parts)


def _tally(diary: Diary, tally: DayEnded | None) -> str:
    if tally is None:
        return ""
    return "Objective value held: " + ", ".join(
        f"{diary.side_name(s)} {tally.objectives.get(s, 0)}" for s in SIDES
    )


def _end(diary: Diary, narrator: Narrator, end: CampaignEnded | None) -> dict[str, Any] | None:
    if end is None:
        return None
    name = diary.side_name
    rows = []
    for div, side, place, units, boxes, state in end.divisions:
        if diary.view not in ("umpire", side) and not any(
            div in b.divisions.get(side, ()) for b in diary.battles
        ):
            continue  # an enemy division this view never fought stays unknown
        where = narrator.j(place) if place not in ("-", "") else "—"
        rows.append(
            {
                "division": div,
                "side": name(side),
                "where": where,
                "units": units,
                "boxes": boxes,
                "state": state,
            }
        )
    return {
        "winner": f"Victory for {name(end.winner)}" if end.winner else "A draw",
        "reason": end.reason,
        "time": diary.clock.label(end.t),
        "days": end.days,
        "battles": end.battles,
        "sides": [
            {
                "side": name(s),
                "losses": end.losses.get(s, 0),
                "divisions_left": end.divisions_left.get(s, 0),
                "objective_value": end.objective_value.get(s, 0),
            }
            for s in SIDES
        ],
        "divisions": rows,
    }


def diary_context(diary: Diary, cmap: CampaignMap) -> dict[str, Any]:
    """The template context of a diary (without pictures).

    Returns
    -------
    dict
        ``title``, ``view``, ``scenario`` (label/value rows), ``days`` (number, positions,
        narrative, battles, strength line, tally), ``end`` (or None) and ``battle_count``.
    """
    names = {n: d.get("name", n) for n, d in cmap.graph.nodes(data=True)}
    narrator = Narrator(names, diary.clock)
    h = diary.header
    if h is not None:
        narrator.sides = dict(h.side_names)
    numbers = {id(b): i for i, b in enumerate(diary.battles, start=1)}
    scenario: list[tuple[str, str]] = []
    if h is not None:
        scenario = [
            ("Map", h.map_name),
            ("Map file", h.map_source),
            ("Rules", f"{h.rules} (hash {h.rules_hash})"),
            (
                "Doctrines",
                ", ".join(f"{diary.side_name(s)}: {h.doctrines.get(s, '?')}" for s in SIDES),
            ),
            (
                "Bases",
                ", ".join(
                    f"{diary.side_name(s)}: {narrator.j(h.bases.get(s, '?'))}" for s in SIDES
                ),
            ),
            ("Seed", str(h.seed)),
            ("Code version", ", ".join(f"{k} {v}" for k, v in sorted(h.versions.items()))),
            *(("Note", n) for n in h.notes),
        ]
    view = (
        "Umpire (everything)"
        if diary.view == "umpire"
        else (
            f"{diary.side_name(diary.view)} (what {diary.side_name(diary.view)} knew at the time)"
        )
    )
    days = []
    for day in diary.days:
        days.append(
            {
                "number": day.number,
                "positions": _positions(diary, narrator, day),
                "narrative": _narrative(narrator, day, numbers),
                "battles": [_battle(diary, numbers[id(b)], b) for b in day.battles],
                "strength": _strength_line(diary, day),
                "tally": _tally(diary, day.tally),
                "at": diary.clock.label(day.snapshot_t),
            }
        )
    title = f"Campaign diary: {h.map_name}" if h else "Campaign diary"
    return {
        "title": title,
        "view": view,
        "view_key": diary.view,
        "scenario": scenario,
        "days": days,
        "end": _end(diary, narrator, diary.end),
        "battle_count": len(diary.battles),
        "side_names": {s: diary.side_name(s) for s in SIDES},
    }
