"""The data a diary template shows, as plain dicts and strings (no markup is built here).

:func:`diary_context` turns a :class:`~campaign.report.days.Diary` into the context of
``campaign/templates/diary.html.j2`` and ``diary.md.j2``: the cover (scenario, order of
battle with named commanders, glossary), one part per day (a summary, the narrative, the
battles with their odds and bound-by-bound logs), per-division histories, the losses from
start to end and the result. The writers add the pictures (inline SVG or PNG file names).
"""

from __future__ import annotations

from typing import Any

from campaign.events import (
    BattleFought,
    CampaignEnded,
    CampaignStarted,
    DivisionRaised,
    Halted,
    MarchArrived,
    MarchBegun,
    Ordered,
    RoughRoadTest,
    Sighted,
)
from campaign.maps.model import SIDES, CampaignMap
from campaign.printers.battle_story import faced_overnight
from campaign.printers.folding import fold, fold_stops, rough_line
from campaign.printers.narrative import Narrator, OddsSource
from campaign.printers.phrases import (
    division_order,
    objective_held,
    possessive,
    side_noun,
    verb,
)
from campaign.report.aar import commander_fates, infantry_box, losses_by_arm, luck
from campaign.report.days import Day, Diary, Mark
from campaign.report.dispatch import dispatch
from campaign.report.history import division_histories, losses_table, order_of_battle

__all__ = ["GLOSSARY", "diary_context"]

#: Terms of the diary, explained once (RULES.md sections in brackets).
GLOSSARY: tuple[tuple[str, str], ...] = (
    (
        "division",
        "a side's manoeuvre unit on the campaign map: several infantry units, a "
        "cavalry unit and a battery, raised by a d100 roll (§2.1).",
    ),
    (
        "box",
        "one hit a unit can still take before it is destroyed; a division's strength is the "
        "sum of its units' boxes (§1.2).",
    ),
    ("actual hit", "a hit that gets through the morale test and stays on the unit (§4)."),
    ("bound", "one side's half of a battle turn (§6); the log gives each battle's length."),
    (
        "movement card",
        "a side's deck shrinks with every bad thing that happens to it; a side "
        "down to its last card loses the battle (§3).",
    ),
    (
        "withdrawal check",
        "a test made by a side that has suffered: each withdrawal factor "
        "(flags lost, batteries lost, units retiring, losses …) adds or removes a die; rolling "
        "the withdrawal total or more on those dice means the side withdraws (§7).",
    ),
    (
        "rough road",
        "a road a division may only take after a percentage roll; on a failure it "
        "stays where it is (§8.2).",
    ),
    (
        "fall back",
        "the loser of a battle retires along the roads towards its base, or "
        "surrenders if it is cut off (§8.5).",
    ),
)


def _place(narrator: Narrator, mark: Mark) -> str:
    if mark.junction is not None:
        return narrator.j(mark.junction)
    a, b = mark.road  # type: ignore[misc]
    return f"on the road from {narrator.j(a)} to {narrator.j(b)}"


def _positions(diary: Diary, narrator: Narrator, day: Day) -> list[dict[str, str]]:
    return [
        {
            "division": narrator.div(m.division),
            "side": diary.side_name(m.side),
            "where": _place(narrator, m),
            "units": "?" if m.units is None else str(m.units),
            "boxes": "?" if m.boxes is None else str(m.boxes),
            "seen": m.seen or "",
        }
        for m in day.marks
    ]


def _battle(
    diary: Diary, narrator: Narrator, number: int, b: BattleFought, full: bool
) -> dict[str, Any]:
    """A battle's section; ``full`` adds its units table and bound-by-bound log."""
    name = diary.side_name
    entry = narrator.one(b, diary.clock.day(b.t))
    assert entry is not None
    return {
        "number": number,
        "anchor": f"battle-{number}",
        "time": diary.clock.label(b.t),
        "place": narrator.battle_place(b),
        "text": entry.text,
        "details": entry.details,
        # the summary's lines: the odds before it and how it ended (battle_story.py's first)
        "brief": [d for d in entry.details if d.startswith(("Before the battle", "After "))],
        # the summary's opening: the text less the place its heading gives already, and
        # less how the attacker was chosen (the full diary tells it)
        "opening": _opening(entry.text, f"Battle at {narrator.battle_place(b)}: "),
        "short": [_short_odds(narrator, b), *(d for d in entry.details if d.startswith("After "))],
        "hits": "Hits taken: "
        + ", ".join(
            f"{name(s)} {b.hits.get(s, 0)} ({b.casualty_percent.get(s, 0.0):.0f}%)" for s in SIDES
        ),
        "sides": [
            {
                "side": name(s),
                "divisions": narrator.divs(b.divisions.get(s, ())),
                "cards_lost": b.cards_lost.get(s, 0),
                "cards_left": b.cards_left.get(s, 0),
                "hits": b.hits.get(s, 0),
                "casualty_percent": f"{b.casualty_percent.get(s, 0.0):.0f}",
            }
            for s in SIDES
        ],
        "units": [
            {
                "id": u.id,
                "side": name(u.side),
                "kind": u.kind,
                "state": u.state,
                "before": u.hits_before,
                "taken": u.hits_taken,
                "total": u.total_hits,
            }
            for u in (b.units if full else ())
        ],
        "log": list(b.log) if full else [],
    }


def _opening(text: str, place: str) -> str:
    """``text`` less its opening ``place`` (``Battle at Glotz: ``) and anything after its
    first semicolon (how the attacker was chosen), capitalised."""
    rest = text.removeprefix(place).split("; ")[0]
    return rest[:1].upper() + rest[1:]


def _short_odds(narrator: Narrator, b: BattleFought) -> str:
    """``Odds before: Red 42%, Blue 57%, drawn 1%.`` ('' where the view has no odds, or
    for forces that faced each other overnight: :func:`battle_story.battle_details`)."""
    odds = narrator.odds(b) if narrator.odds else None
    if odds is None or faced_overnight(b):
        return ""
    sides = ", ".join(f"{narrator.side(s)} {odds.chance(s):.0%}" for s in SIDES)
    return f"Odds before: {sides}, drawn {odds.chance(None):.0%}."


#: Events the day's timeline leaves to the movements and scouting paragraphs (or the cover).
_SUMMED_UP = (DivisionRaised, MarchBegun, MarchArrived, Sighted)


def _narrative(narrator: Narrator, day: Day, numbers: dict[int, int]) -> list[dict[str, str]]:
    """The day's notable events in order: battles, rough roads (each division's tries on one
    road folded into one line), holds (each reason once per division), falls back,
    surrenders, the evening; marches and sightings are summed up, and a plan repeated at
    each rough-road try is told once."""
    rows = []
    holds: set[tuple[str, str]] = set()
    folds = fold(day.events, narrator.clock.day, marches=False)
    for e in day.events:
        if isinstance(e, _SUMMED_UP):
            continue
        if isinstance(e, Halted):
            if (e.division, e.reason) in holds:
                continue
            holds.add((e.division, e.reason))
        if isinstance(e, Ordered) and id(e) in folds.hidden:
            narrator.one(e, day.number)  # the narrator keeps its record of orders
            continue
        if isinstance(e, RoughRoadTest):
            if id(e) in folds.rough:
                last, tries = folds.rough[id(e)]
                time = narrator.clock.label(e.t)[-5:]
                text = rough_line(narrator, last, tries)
                rows.append({"time": time, "text": text, "kind": "event", "anchor": ""})
            continue
        entry = narrator.one(e, day.number)
        if entry is None or entry.kind in ("day", "header", "end"):
            continue
        anchor = f"battle-{numbers[id(e)]}" if isinstance(e, BattleFought) else ""
        rows.append({"time": entry.time, "text": entry.text, "kind": entry.kind, "anchor": anchor})
    return rows


def _sightings(places: list[str]) -> str:
    if len(places) > 9:
        places = [*places[:4], f"… {len(places) - 7} more …", *places[-3:]]
    return ", ".join(places)


def _movements(
    diary: Diary, narrator: Narrator, day: Day, major: frozenset[str] = frozenset()
) -> list[str]:
    """One line per division that marched: its stops in order, with the hours."""
    legs: dict[str, list[list[str]]] = {}
    times: dict[str, list[int]] = {}
    for m in day.marches:
        chain = legs.setdefault(m.division, [])
        origin, dest = narrator.j(m.origin), narrator.j(m.destination)
        if not chain or chain[-1][-1] != origin:
            chain.append([origin])
        chain[-1].append(dest)
        times.setdefault(m.division, []).append(m.t)
    lines = []
    for d in sorted(legs, key=lambda x: (times[x][0], x)):
        route = "; then ".join(fold_stops(leg, major) for leg in legs[d])
        first, last = diary.clock.label(times[d][0])[-5:], diary.clock.label(times[d][-1])[-5:]
        when = f"set out at {first}" if first == last else f"legs begun {first} to {last}"
        seen = "" if diary.view in ("umpire", _side(d)) else " (as seen)"
        lines.append(f"{narrator.div(d)}{seen}: {route} ({when})")
    return lines


def _side(division: str) -> str:
    return "red" if division.startswith("R") else "blue"


def _scouting(diary: Diary, narrator: Narrator, day: Day) -> list[str]:
    """Per side and enemy division: where its scouts saw it during the day."""
    seen: dict[tuple[str, str], list[str]] = {}
    for e in day.events:
        if isinstance(e, Sighted):
            places = seen.setdefault((e.side, e.enemy), [])
            spot = f"{narrator.j(e.junction)} ({diary.clock.label(e.t)[-5:]})"
            if not places or places[-1] != spot:
                places.append(spot)
    return [
        f"{side_noun(diary.side_name(side), start=True)} saw {narrator.div(enemy)} at "
        f"{_sightings(places)}"
        for (side, enemy), places in sorted(seen.items())
    ]


def _summary(diary: Diary, narrator: Narrator, day: Day, numbers: dict[int, int]) -> str:
    """One paragraph: the day's marches, battles and the evening's strength."""
    parts = []
    marches = {s: sum(1 for m in day.marches if m.side == s) for s in SIDES}
    moved = [
        f"{diary.side_name(s)} {marches[s]} march{'es' if marches[s] != 1 else ''}"
        for s in SIDES
        if marches[s]
    ]
    if moved:
        parts.append("On the roads: " + ", ".join(moved) + ".")
    if day.battles:
        fights = []
        for b in day.battles:
            won = f"{side_noun(diary.side_name(b.winner))} won" if b.winner else "a draw"
            fights.append(f"#{numbers[id(b)]} at {b.place_name} ({won})")
        word = "battle" if len(day.battles) == 1 else "battles"
        parts.append(f"{len(day.battles)} {word}: " + "; ".join(fights) + ".")
    else:
        parts.append("No battle was fought.")
    strength = []
    for s in SIDES:
        v = day.strength.get(s)
        if v is None:
            strength.append(f"{diary.side_name(s)} unknown")
        elif diary.view in ("umpire", s):
            strength.append(f"{diary.side_name(s)} {v} boxes")
        else:
            strength.append(f"{diary.side_name(s)} {v} boxes in the divisions fought")
    parts.append(
        f"Strength at {diary.clock.label(day.snapshot_t).split(' ')[-1]}: "
        + ", ".join(strength)
        + "."
    )
    if day.tally is not None:
        parts.append(
            "Objective value held: "
            + ", ".join(
                f"{diary.side_name(s)} {objective_held(day.tally.objectives, s)}" for s in SIDES
            )
            + "."
        )
    return " ".join(parts)


def _end(diary: Diary, narrator: Narrator, end: CampaignEnded | None) -> dict[str, Any] | None:
    if end is None:
        return None
    name = diary.side_name
    entry = narrator.one(end, end.days)
    assert entry is not None
    rows = []
    for row in sorted(end.divisions, key=lambda r: division_order(r.side, r.division)):
        rows.append(
            {
                "division": narrator.div(row.division),
                "side": name(row.side),
                "where": narrator.j(row.place) if row.place not in ("-", "") else "",
                "units": "?" if row.units is None else row.units,
                "boxes": "?" if row.boxes is None else row.boxes,
                "state": row.state,
            }
        )
    return {
        "winner": f"Victory for {side_noun(name(end.winner))}" if end.winner else "A draw",
        "reason": narrator.end_reason(end),
        "time": diary.clock.label(end.t),
        "days": end.days,
        "battles": end.battles,
        "summary": " ".join(entry.details),
        "sides": [
            {
                "side": name(s),
                "losses": end.losses.get(s, 0),
                "divisions_left": "?"
                if end.divisions_left.get(s) is None
                else end.divisions_left.get(s),
                "objective_value": end.objective_value.get(s, 0),
            }
            for s in SIDES
        ],
        "divisions": rows,
    }


def _narrator(diary: Diary, cmap: CampaignMap, odds: OddsSource | None) -> Narrator:
    """The diary's narrator: the map's junction names and terrain, the view, the odds; told
    the campaign's start when the stream has it."""
    names = {n: d.get("name", n) for n, d in cmap.graph.nodes(data=True)}
    terrain = {n: str(d["terrain"]) for n, d in cmap.graph.nodes(data=True) if d.get("terrain")}
    narrator = Narrator(names, diary.clock, diary.view, odds, cmap.naming, terrain)
    if diary.header is not None:
        narrator.start(diary.header)
    return narrator


def _major_places(cmap: CampaignMap, h: CampaignStarted | None) -> frozenset[str]:
    """The names of the objectives and the bases: the places a day's movements name."""
    bases = set(h.bases.values()) if h is not None else set()
    return frozenset(
        cmap.graph.nodes[n].get("name", n)
        for n, d in cmap.graph.nodes(data=True)
        if d.get("objective") or n in bases
    )


def _scenario(diary: Diary, narrator: Narrator, h: CampaignStarted | None) -> list[tuple[str, str]]:
    """The scenario's label/value rows: map, rules, strategy, bases, seed and notes."""
    if h is None:
        return []
    return [
        ("Map", f"{h.map_name} ({h.map_source})"),
        ("Rules", f"{h.rules} (hash {h.rules_hash})"),
        (
            "Strategy",
            ", ".join(f"{diary.side_name(s)} {h.doctrines.get(s, '?')}" for s in SIDES),
        ),
        (
            "Bases",
            ", ".join(f"{diary.side_name(s)} at {narrator.j(h.bases.get(s, '?'))}" for s in SIDES),
        ),
        ("Seed", str(h.seed)),
        *(("Note", n) for n in h.notes),
    ]


def _whose(diary: Diary) -> str:
    """Whose diary it is and what it tells (RULES.md §8.6)."""
    if diary.view == "umpire":
        return "the umpire's diary: everything that happened"
    name = diary.side_name(diary.view)
    return (
        f"{possessive(name)} diary: only what {side_noun(name)} "
        f"knew, when {verb(name, 'it', 'they')} learned it"
    )


def _day(
    diary: Diary,
    narrator: Narrator,
    day: Day,
    numbers: dict[int, int],
    major: frozenset[str],
    full: bool,
) -> dict[str, Any]:
    """A day's part of the context: summary, dispatch, positions, narrative, movements,
    scouting and battles (``full``: with units and bound-by-bound logs)."""
    return {
        "number": day.number,
        "summary": _summary(diary, narrator, day, numbers),
        "dispatch": dispatch(diary, narrator, day, numbers),
        "positions": _positions(diary, narrator, day),
        "narrative": _narrative(narrator, day, numbers),
        "movements": _movements(diary, narrator, day, major),
        "scouting": _scouting(diary, narrator, day),
        "battles": [_battle(diary, narrator, numbers[id(b)], b, full) for b in day.battles],
        "at": diary.clock.label(day.snapshot_t),
    }


def diary_context(
    diary: Diary, cmap: CampaignMap, odds: OddsSource | None = None, detail: str = "full"
) -> dict[str, Any]:
    """The template context of a diary (without pictures).

    Parameters
    ----------
    diary : Diary
        A view's diary (:func:`campaign.report.days.build_diary`).
    cmap : CampaignMap
        The campaign's map (junction names).
    odds : OddsSource or None
        Each battle's odds before it was fought; None leaves them out.
    detail : str
        ``"full"`` gives each battle's units and bound-by-bound log, ``"summary"`` neither.

    Returns
    -------
    dict
        ``title``, ``view``, ``scenario`` (label/value rows), ``oob`` (order of battle per
        side), ``glossary``, ``days`` (number, summary, positions, narrative, battles),
        ``histories``, ``losses``, ``end`` (or None), ``battle_count``, ``detail``, ``seed``
        and ``contents`` (the table of contents: anchor, label, sub-entries).
    """
    narrator = _narrator(diary, cmap, odds)
    h = diary.header
    numbers = {id(b): i for i, b in enumerate(diary.battles, start=1)}
    major = _major_places(cmap, h)
    scenario = _scenario(diary, narrator, h)
    view = _whose(diary)
    days = [_day(diary, narrator, day, numbers, major, detail == "full") for day in diary.days]
    title = h.map_name if h else "A campaign"
    versions = ", ".join(f"{k} {v}" for k, v in sorted(h.versions.items())) if h else ""
    return {
        "title": title,
        "view": view,
        "view_key": diary.view,
        "scenario": scenario,
        "versions": versions,
        "oob": order_of_battle(diary, narrator),
        "glossary": [{"term": t, "text": x} for t, x in GLOSSARY],
        "days": days,
        "histories": division_histories(diary, narrator, numbers),
        "losses": losses_table(diary, narrator),
        "end": _end(diary, narrator, diary.end),
        "battle_count": len(diary.battles),
        "side_names": {s: diary.side_name(s) for s in SIDES},
        "arms": losses_by_arm(diary),
        "fates": commander_fates(diary, narrator),
        "luck": luck(diary, odds),
        "men_per_box": infantry_box(),
        "detail": detail,
        "seed": "" if h is None else str(h.seed),
        "contents": _contents(days, detail == "full"),
    }


def _contents(days: list[dict[str, Any]], histories: bool) -> list[dict[str, Any]]:
    """The table of contents: each day with its battles, then the closing parts (anchors;
    ``page`` is filled in by a printed PDF, :func:`campaign.report.pdf.render_pdf`)."""
    rows: list[dict[str, Any]] = []
    for day in days:
        battles = [
            {
                "anchor": b["anchor"],
                "label": f"#{b['number']} {b['place']} ({b['time'][-5:]})",
                "page": "",
            }
            for b in day["battles"]
        ]
        rows.append(
            {
                "anchor": f"day-{day['number']}",
                "label": f"Day {day['number']}",
                "battles": battles,
                "page": "",
            }
        )
    rows.append({"anchor": "closing", "label": "The whole campaign", "battles": []})
    rows.append({"anchor": "result", "label": "Result and losses", "battles": []})
    rows.append({"anchor": "after-action", "label": "After-action report", "battles": []})
    if histories:
        rows.append({"anchor": "histories", "label": "The divisions' histories", "battles": []})
    rows.append({"anchor": "terms", "label": "Terms", "battles": []})
    for row in rows:
        row.setdefault("page", "")
    return rows
