"""The lean campaign loop (issue 15): events off, per-map tables and route caches change
nothing a campaign does."""

from __future__ import annotations

import dataclasses

import networkx as nx
import pytest

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import CampaignEnded
from campaign.lookups import map_tables
from campaign.maps import load_map
from campaign.strategy.routing import PricedRoutes


def _summary(result):
    fields = dataclasses.asdict(result)
    fields.pop("events")
    return fields


@pytest.mark.parametrize(
    ("map_name", "doctrines"),
    [
        (None, None),
        (None, {"red": "aggressive", "blue": "cautious"}),
        (None, {"red": "raider", "blue": "aggressive"}),
        ("waterloo-1815", None),
    ],
)
def test_events_off_gives_the_whole_same_result(rules, map_name, doctrines):
    """Every field of the result (battle rows, counts, losses...) is the same with events
    off, where the loop builds no event objects, as with every event recorded."""
    cmap = load_map(map_name)
    for seed in range(6):
        full = run_campaign(cmap, rules, seed, doctrines)
        lean = run_campaign(cmap, rules, seed, doctrines, record_events=False)
        assert _summary(lean) == _summary(full)
        assert [type(e) for e in lean.events] == [CampaignEnded]
        assert lean.events[0] == full.events[-1]


def test_event_cap_ends_at_the_same_event_with_events_off(default_map):
    """Events that are not built are still counted toward ``campaign.max_events``."""
    capped = load_rules(None, {"campaign.max_events": 100})
    for seed in range(3):
        full = run_campaign(default_map, capped, seed)
        lean = run_campaign(default_map, capped, seed, record_events=False)
        assert full.reason == "event cap reached: a draw"
        assert len(full.events) == 101  # the cap, then the final CampaignEnded
        assert _summary(lean) == _summary(full)


def test_map_tables_match_the_graph_and_are_built_once(default_map):
    graph = default_map.graph
    tables = map_tables(graph)
    assert map_tables(graph) is tables
    assert len(tables.roads) == 2 * graph.number_of_edges()
    for a, b, data in graph.edges(data=True):
        assert tables.roads[a, b] == tables.roads[b, a] == (data["hours"], data["kind"])
    sight = tables.neighbourhood(2)
    assert tables.neighbourhood(2) is sight
    for j in graph.nodes:
        assert sight[j] == set(nx.single_source_shortest_path_length(graph, j, 2))
    assert tables.objectives == {
        j: int(d.get("value", 0)) for j, d in graph.nodes(data=True) if d.get("objective")
    }
    other = graph.copy()
    assert map_tables(other) is not tables


def test_map_tables_are_per_graph():
    g = nx.Graph()
    g.add_edge("a", "b", hours=2.0, kind="rough")
    h = nx.Graph()
    h.add_edge("a", "b", hours=5.0, kind="normal")
    assert map_tables(g).roads["b", "a"] == (2.0, "rough")
    assert map_tables(h).roads["a", "b"] == (5.0, "normal")
    # asked in turn and twice running (the last tables are looked at first): never the
    # other graph's
    for graph, road in [(g, (2.0, "rough")), (g, (2.0, "rough")), (h, (5.0, "normal"))] * 2:
        assert map_tables(graph).roads["a", "b"] == road


def test_map_tables_of_a_graph_gone_serve_no_later_graph():
    """The last tables handed out hold their graph weakly: once it is gone, a new graph
    (even at the same address) gets tables of its own."""
    import gc

    for hours in (1.0, 2.0, 3.0):
        g = nx.Graph()
        g.add_edge("a", "b", hours=hours, kind="normal")
        assert map_tables(g).roads["a", "b"] == (hours, "normal")
        assert map_tables(g) is map_tables(g)
        del g
        gc.collect()


def test_cached_detours_equal_fresh_searches(default_map):
    """path_avoiding answers from its cache exactly what a fresh search answers, and a
    caller changing the returned route cannot change the cache."""
    graph = default_map.graph
    cached = PricedRoutes(graph, 70, 60, 1.0)
    junctions = sorted(graph.nodes)
    questions = [
        (a, b, {junctions[(i * 7 + k) % len(junctions)] for k in range(2)})
        for i, (a, b) in enumerate(zip(junctions, reversed(junctions), strict=True))
    ]
    for a, b, avoid in questions:
        first = cached.path_avoiding(a, b, avoid)
        first[0].append("scribble")
        fresh = PricedRoutes(graph, 70, 60, 1.0).path_avoiding(a, b, avoid)
        assert cached.path_avoiding(a, b, avoid) == fresh
        if fresh[0]:
            assert not (set(fresh[0][1:-1]) & avoid)


def test_clock_spelled_out_matches_the_plain_definitions():
    """The clock's hot-path methods give exactly what their definitions give (RULES.md §8.3)."""
    from campaign.clock import Clock

    clock = Clock(360, 1200)
    for t in [x * 7.5 for x in range(-10, 1500)] + [0.1, 839.999, 840.0, 1439.5]:
        absolute = t + 360
        day = int(absolute // 1440) + 1
        of_day = absolute % 1440
        assert clock.day(t) == day
        assert clock.time_of_day(t) == of_day
        assert clock.is_daylight(t) == (360 <= of_day < 1200)
        assert clock.nightfall(t) == (day - 1) * 1440 + 1200 - 360
        if of_day < 360:
            dawn = (day - 1) * 1440.0
        elif of_day < 1200:
            dawn = float(t)
        else:
            dawn = day * 1440.0
        assert clock.next_dawn(t) == dawn


def test_map_tables_do_not_keep_their_graph_alive():
    """A process that loads many maps (sensitivity runs, fuzzing) must not keep them all."""
    import gc
    import weakref

    g = nx.Graph()
    g.add_edge("a", "b", hours=1.0, kind="normal")
    map_tables(g).neighbourhood(1)
    gone = weakref.ref(g)
    del g
    gc.collect()
    assert gone() is None


def test_division_boxes_follow_every_change_of_its_units(rules):
    """boxes is summed once per units list: hits applied, units lost or replaced show."""
    import numpy as np

    from battle.dice import Dice
    from campaign.army import raise_division

    div, _ = raise_division("red", 1, "a", rules.rules, Dice(np.random.default_rng(3)))
    per_unit = div.destroyed_at
    assert div.boxes == per_unit * len(div.units)
    first, second = div.units[0], div.units[1]
    div.apply_hits({first.id: 3}, per_unit)
    assert div.boxes == per_unit * len(div.units) - 3
    div.apply_hits({second.id: per_unit}, per_unit)  # destroyed: gone from the division
    assert div.boxes == per_unit * len(div.units) - 3
    div.units = div.units[:1]
    assert div.boxes == per_unit - 3
    div.apply_hits({first.id: per_unit}, per_unit)
    assert div.boxes == 0 and not div.alive
