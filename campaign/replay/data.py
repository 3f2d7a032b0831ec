"""What the browser replay shows, extracted from the event stream as plain JSON-ready data.

The replay page (:mod:`campaign.replay.page`) draws nothing of its own invention: the map is
the campaign map's junctions and roads at their own positions (the layout of the diary's maps,
:mod:`campaign.report.maps`), and each view (umpire, red, blue) is the stream passed through
THE side filter, :func:`campaign.report.view.side_view`, then replayed by
:class:`campaign.report.view.Knowledge` (RULES.md §8.6). A side's data therefore holds only
what that side learned, and only the views asked for are written: a file for Red holds no
byte of Blue's knowledge.

The shapes (all lists, so the page's JSON stays small):

- ``map.junctions``: ``[id, name, x, y, objective value (0 for none), terrain]``;
- ``map.roads``: ``[index of a, index of b, kind ("normal"|"rough"), primary_of or ""]``;
- ``views[v].tracks[division]``: ``{"side", "own", "steps": [[t, where, seen_t, boxes, units,
  alive], ...]}``, one step each minute the view's knowledge of the division changed, with
  ``where`` = ``["at", junction]`` or ``["road", a, b, t0, minutes]`` (t in campaign minutes
  from the first dawn; boxes and units None while the view does not know them);
- ``views[v].log``: ``[t, kind, time label, text, details, battle number or -1]`` rows, the
  view's diary sentences (:func:`campaign.printers.narrative.narrate`) in order;
- ``views[v].battles``: the view's battles with their place, sentence, odds, details, unit
  table and bound-by-bound log.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campaign.clock import clock_of
from campaign.events import BattleFought, CampaignEnded, CampaignEvent, CampaignStarted
from campaign.maps.model import CampaignMap
from campaign.maps.naming import MapNaming
from campaign.printers.narrative import Entry, OddsSource, narrate
from campaign.report.view import Knowledge, check_view, side_view

__all__ = ["replay_data", "view_data"]

#: Version of the data layout the page's script reads.
DATA_VERSION = 1


def _map_data(cmap: CampaignMap, bases: dict[str, str]) -> dict[str, Any]:
    """Junctions and roads at the map's own positions (the diary maps' layout)."""
    g = cmap.graph
    ids = sorted(g.nodes)
    index = {j: i for i, j in enumerate(ids)}
    junctions = []
    for j in ids:
        d = g.nodes[j]
        x, y = (float(v) for v in d["pos"])
        value = int(d.get("value", 1) or 0) if d.get("objective") else 0
        junctions.append(
            [
                j,
                str(d.get("name", j)),
                round(x, 3),
                round(y, 3),
                value,
                str(d.get("terrain", "") or ""),
            ]
        )
    roads = []
    for a, b, d in sorted(g.edges(data=True), key=lambda r: (min(r[0], r[1]), max(r[0], r[1]))):
        roads.append(
            [index[a], index[b], str(d.get("kind", "normal")), str(d.get("primary_of") or "")]
        )
    return {"name": cmap.name, "junctions": junctions, "roads": roads, "bases": dict(bases)}


def _where(where: tuple[Any, ...]) -> list[Any]:
    if where[0] == "at":
        return ["at", where[1]]
    _, a, b, t0, minutes = where
    return ["road", a, b, int(t0), int(minutes)]


def _tracks(events: Sequence[CampaignEvent], view: str, destroyed_at: int) -> dict[str, Any]:
    """Each division's steps as the view knew it, one step per minute it changed."""
    k = Knowledge(view, destroyed_at=destroyed_at)
    tracks: dict[str, dict[str, Any]] = {}
    last: dict[str, list[Any]] = {}
    ordered = sorted(events, key=lambda e: e.t)  # stable: stream order within a minute
    i = 0
    while i < len(ordered):
        t = ordered[i].t
        while i < len(ordered) and ordered[i].t == t:
            k.apply(ordered[i])
            i += 1
        for d in k.divisions.values():
            if not d.where:
                continue
            step = [t, _where(d.where), int(d.seen_t), d.boxes, d.units, bool(d.alive)]
            if d.id not in tracks:
                tracks[d.id] = {"side": d.side, "own": d.own, "steps": []}
            if last.get(d.id, [None])[1:] != step[1:]:
                tracks[d.id]["steps"].append(step)
                last[d.id] = step
    return dict(sorted(tracks.items()))


def _time_rows(log: list[list[Any]]) -> None:
    """A day's heading takes the minute of the day's first row (it shows with it), and the
    rows' minutes never go back, so the page finds a moment's rows by bisection."""
    following = None
    for row in reversed(log):
        if row[1] == "day" and following is not None:
            row[0] = following
        following = row[0]
    latest = 0
    for row in log:
        latest = row[0] = max(latest, row[0])


def _entry_t(entry: Entry, previous: int) -> int:
    if entry.event is not None:
        return int(entry.event.t)
    return previous


def view_data(
    events: Sequence[CampaignEvent],
    view: str,
    *,
    destroyed_at: int,
    junction_names: dict[str, str] | None = None,
    odds: OddsSource | None = None,
    naming: MapNaming | None = None,
    terrain: dict[str, str] | None = None,
) -> dict[str, Any]:
    """One view's part of the replay: tracks, log rows and battles (RULES.md §8.6).

    Parameters
    ----------
    events : sequence of CampaignEvent
        The campaign's whole stream (or a side's own stream, for that side's view).
    view : str
        ``"umpire"``, ``"red"`` or ``"blue"``; the stream is passed through
        :func:`campaign.report.view.side_view` first.
    destroyed_at : int
        ``battle.destroyed_at_hits`` of the campaign's rules (RULES.md §1.2), for strengths.
    junction_names : dict or None
        Junction id → name for the sentences.
    odds : OddsSource or None
        Each battle's odds before it was fought (shown in the umpire's view only).
    naming, terrain : the map's own names (``CampaignMap.naming``) and junction terrain, so
        the log speaks as the text log and the diary do.

    Raises
    ------
    SimulatorError
        If ``view`` is not one of umpire, red, blue.
    """
    check_view(view)
    shown = side_view(events, view)
    entries = narrate(
        shown,
        junction_names,
        battle_logs=True,
        view=view,
        odds=odds,
        naming=naming,
        terrain=terrain,
    )
    log: list[list[Any]] = []
    battles: list[dict[str, Any]] = []
    t = 0
    for entry in entries:
        t = _entry_t(entry, t)
        number = -1
        e = entry.event
        if isinstance(e, BattleFought):
            number = len(battles)
            battles.append(
                {
                    "t": int(e.t),
                    "place": list(e.road) if e.road else [e.place],
                    "name": e.place_name,
                    "text": entry.text,
                    "details": list(entry.details),
                    "table": [list(r) for r in entry.table],
                    "log": list(entry.log),
                    "winner": e.winner or "",
                }
            )
        log.append([t, entry.kind, entry.time, entry.text, list(entry.details), number])
    _time_rows(log)
    return {"tracks": _tracks(shown, view, destroyed_at), "log": log, "battles": battles}


def replay_data(
    events: Sequence[CampaignEvent],
    cmap: CampaignMap,
    views: Sequence[str],
    *,
    destroyed_at: int,
    odds: OddsSource | None = None,
) -> dict[str, Any]:
    """Everything the replay page needs, for the ``views`` it offers.

    Parameters
    ----------
    events : sequence of CampaignEvent
        The event stream of one campaign (the umpire's, or one side's own).
    cmap : CampaignMap
        The map it was fought on (its positions are the replay's layout).
    views : sequence of str
        The views to include, in the order the page offers them; the first is shown first.
    destroyed_at : int
        ``battle.destroyed_at_hits`` of the campaign's rules (RULES.md §1.2).
    odds : OddsSource or None
        Battle odds for the umpire's view.

    Returns
    -------
    dict
        ``{"version", "title", "seed", "side_names", "clock", "end", "dawns", "map",
        "views"}`` (see the module docstring), JSON-ready; ``seed`` is None unless the umpire's
        view is included (with the seed and the rules anyone can play the campaign again).
    """
    clock = clock_of(events)
    header = next((e for e in events if isinstance(e, CampaignStarted)), None)
    end = next((e for e in events if isinstance(e, CampaignEnded)), None)
    last = max([int(e.t) for e in events] + [0])
    t_end = int(end.t) if end is not None else last
    days = clock.day(t_end)
    names = {j: str(d.get("name", j)) for j, d in cmap.graph.nodes(data=True)}
    terrain = {j: str(d["terrain"]) for j, d in cmap.graph.nodes(data=True) if d.get("terrain")}
    bases = dict(header.bases) if header is not None else {}
    side_names = dict(header.side_names) if header is not None else {}
    return {
        "version": DATA_VERSION,
        "title": header.map_name if header is not None else cmap.name,
        # the seed replays the whole campaign, so only the umpire's file names it
        "seed": header.seed if header is not None and "umpire" in views else None,
        "side_names": {"red": side_names.get("red", "Red"), "blue": side_names.get("blue", "Blue")},
        "clock": {"day_start": clock.day_start, "day_end": clock.day_end},
        "end": t_end,
        "dawns": [(n - 1) * 1440 for n in range(1, days + 1)],
        "map": _map_data(cmap, bases),
        "views": {
            v: view_data(
                events,
                v,
                destroyed_at=destroyed_at,
                junction_names=names,
                odds=odds if v == "umpire" else None,
                naming=cmap.naming,
                terrain=terrain,
            )
            for v in views
        },
    }
