"""Campaigns for the campaign referee: each one's event stream as JSON dicts, and its map as
the referee's plain :class:`campaign_referee.MapData` (the map is input data, read through
the project's loader as a user's file is; the rules stay the referee's own)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from campaign_referee import MapData

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import event_to_dict
from campaign.maps import load_map

PROJECT = Path(__file__).resolve().parents[2]
SHARED = Path("/work/shared/maps")
TEMPERS = ("aggressive", "cautious", "balanced", "raider")
#: every ordered pair of tempers: 16 pairings
PAIRINGS = tuple((r, b) for r in TEMPERS for b in TEMPERS)


def map_data(cmap, loaded) -> MapData:
    """The map of ``cmap`` as plain data, with the rules' daylight and rough-road wait."""
    g = cmap.graph
    roads = {}
    for a, b, attrs in g.edges(data=True):
        roads[(a, b)] = roads[(b, a)] = (attrs["kind"], float(attrs["hours"]))
    objectives = {j: int(a["value"]) for j, a in g.nodes(data=True) if a.get("objective")}
    c = loaded.rules.campaign
    reinforcements = tuple(
        (r.side, r.junction, int((r.day - 1) * 1440 + (r.hour - 6) * 60))
        for r in cmap.reinforcements
    )
    return MapData(
        objectives=objectives,
        roads=roads,
        bases={s: cmap.sides[s].base for s in ("red", "blue")},
        primary={s: cmap.sides[s].primary_road for s in ("red", "blue")},
        daylight=int(c.day_end_minutes - c.day_start_minutes),
        rough_wait=int(c.rough_road_retry_minutes),
        reinforcements=reinforcements,
    )


def streams(
    map_name: str, seeds: range, pairings=PAIRINGS
) -> Iterator[tuple[int, tuple[str, str], list[dict]]]:
    """(seed, doctrines, events) of each campaign: seed i plays pairing i mod len(pairings)."""
    cmap, loaded = load_map(map_name), load_rules()
    for seed in seeds:
        red, blue = pairings[seed % len(pairings)]
        result = run_campaign(cmap, loaded, seed, {"red": red, "blue": blue})
        yield seed, (red, blue), [json.loads(json.dumps(event_to_dict(e))) for e in result.events]


def load(map_name: str):
    cmap, loaded = load_map(map_name), load_rules()
    return cmap, loaded, map_data(cmap, loaded)
