"""Cheaper strategy decisions (issue 15): cached routes, enemy groups worked out again only
when the sightings change, and a side's view that shares the campaign's dicts answer
exactly what the plain definitions answer (RULES.md §8.6, §8.8)."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest

from campaign.config import load_rules
from campaign.maps import load_map
from campaign.strategy import EnemyGroup, Order, OwnDivision, SideView, Strategist
from campaign.strategy.routing import PricedRoutes


@pytest.mark.parametrize("map_name", [None, "waterloo-1815"])
def test_cached_routes_are_the_routes_of_path_and_path_avoiding(map_name):
    """``route`` and ``route_avoiding`` (read-only tuples, kept once asked) give the very
    junctions ``path`` and ``path_avoiding`` give, asked once or again, with or without
    junctions to avoid, including no route at all."""
    graph = load_map(map_name).graph
    junctions = sorted(graph.nodes)
    rng = np.random.default_rng(150)
    priced = PricedRoutes(graph, 70, 60, 1.0)
    fresh = PricedRoutes(graph, 70, 60, 1.0)
    detours = cut = 0
    for _ in range(200):
        a, b = (str(j) for j in rng.choice(junctions, 2, replace=False))
        many = int(rng.integers(0, len(junctions) // 2))
        avoid = {str(j) for j in rng.choice(junctions, many, replace=False)}
        path, _ = fresh.path_avoiding(a, b, avoid)
        for _ in range(2):  # a second question is answered from the cache
            assert priced.route(a, b) == tuple(fresh.path(a, b))
            assert priced.route_avoiding(a, b, avoid) == tuple(path)
        detours += tuple(path) != priced.route(a, b)
        cut += not path
    assert detours and cut  # some questions go round, some have no way round
    with pytest.raises(nx.NodeNotFound):
        priced.route("nowhere", junctions[0])
    with pytest.raises(nx.NodeNotFound):
        priced.route(junctions[0], "nowhere")


def _line() -> nx.Graph:
    """a - b - c - d - e - f, three hours a road (the bases are a and f)."""
    g = nx.Graph()
    for x, y in (("a", "b"), ("b", "c"), ("c", "d"), ("d", "e"), ("e", "f")):
        g.add_edge(x, y, hours=3.0, kind="normal")
    return g


def _view(own, positions, boxes, now):
    return SideView("red", now, tuple(own), positions, boxes, "a", "f", {}, {}, 70)


def _strategist(graph: nx.Graph) -> Strategist:
    cr = load_rules().rules.campaign
    return Strategist("red", cr.doctrines["aggressive"], graph, cr, np.random.default_rng(0))


def test_a_view_sharing_changing_dicts_decides_as_fresh_copies_do():
    """The campaign hands its own sightings and strengths to each view (no copies); the
    strategist keeps the enemy groups between decisions. When those dicts change in place
    between decisions (the enemy moves, a strength is learned), the decisions are those of
    a strategist given fresh copies every time."""
    g = _line()
    shared_positions: dict[str, str] = {}
    shared_boxes: dict[str, int] = {}
    live, copies = _strategist(g), _strategist(g)
    own = [OwnDivision("R1", "c", None, 60, True)]
    steps = [  # the enemy stays over 4 hours from the base: no guard
        ({"B1": "e"}, {}),  # estimated at 70: aggressive attacks at 0.6 x 70 = 42 <= 60
        ({"B1": "e"}, {"B1": 150}),  # fought: 150 boxes, too strong to attack
        ({"B1": "d"}, {"B1": 150}),  # it moves, still too strong
        ({"B1": "d", "B2": "e"}, {"B1": 30}),  # weakened; a second division seen
        ({}, {"B1": 30}),  # both out of sight
        ({"B2": "d"}, {"B1": 30}),
    ]
    codes = []
    for minute, (positions, boxes) in enumerate(steps):
        shared_positions.clear()
        shared_positions.update(positions)
        shared_boxes.clear()
        shared_boxes.update(boxes)
        got = live.decide("R1", "c", _view(own, shared_positions, shared_boxes, minute * 60.0))
        want = copies.decide("R1", "c", _view(own, dict(positions), dict(boxes), minute * 60.0))
        assert got == want
        assert shared_positions == positions and shared_boxes == boxes  # read-only
        codes.append(got.code)
    assert codes[0] == "attack" and codes[1] != "attack"  # the cache followed the change
    assert codes[3] == "attack" and codes[4] != "attack" and codes[5] == "attack"


def test_orders_and_views_are_values():
    """Order, OwnDivision and EnemyGroup compare, hash and print by their fields."""
    order = Order("attack", "c", "b", enemy_at="c", enemies=("B1",), friends=("R2",))
    same = Order("attack", "c", "b", "c", ("B1",), ("R2",), None)
    assert order == same and hash(order) == hash(same)
    assert order != Order("attack", "c", "b", enemy_at="c", enemies=("B1",))
    assert repr(order) == (
        "Order(code='attack', goal='c', step='b', enemy_at='c', enemies=('B1',), "
        "friends=('R2',), aim=None, trigger='', cause='')"
    )
    div = OwnDivision("R1", "c", None, 60, True)
    assert div == OwnDivision("R1", "c", None, 60, True) != OwnDivision("R1", "c", None, 59, True)
    assert repr(div) == "OwnDivision(id='R1', at='c', heading=None, boxes=60, free=True)"
    group = EnemyGroup("c", ("B1", "B2"), 140)
    assert {group, EnemyGroup("c", ("B1", "B2"), 140)} == {group}
    view = _view([div], {"B1": "c", "B2": "c", "B3": "b"}, {"B2": 50}, 0.0)
    assert view.enemy_groups() == {
        "b": EnemyGroup("b", ("B3",), 70),
        "c": EnemyGroup("c", ("B1", "B2"), 70 + 50),
    }
    assert view.strength_at("c") == 60 and math.isclose(view.now, 0.0)


@pytest.mark.parametrize("map_name", [None, "waterloo-1815"])
def test_objectives_are_tried_nearest_first_as_the_plain_sort_orders_them(map_name):
    """RULES.md §8.8: objectives not held are tried nearest first by expected hours, ties
    to the one nearer the own base, then by id. The order kept per junction is the plain
    sort's, for the campaign's objectives and for other objectives or another base given
    later (the kept orders are then dropped)."""
    cmap = load_map(map_name)
    graph = cmap.graph
    s = _strategist(graph)
    priced = s.priced
    junctions = sorted(graph.nodes)
    objectives = {j: 1 for j in junctions[::3]}
    fewer = {j: 2 for j in junctions[1::4]}
    for own_base in (junctions[0], junctions[-1]):
        for objs in (objectives, dict(objectives), fewer):
            view = SideView("red", 0.0, (), {}, {}, own_base, junctions[1], objs, {}, 70)
            for at in junctions:
                expected = sorted(
                    (j for j in objs if j not in (own_base, at) and priced.cost(at, j) < math.inf),
                    key=lambda j, at=at, base=own_base: (
                        priced.cost(at, j),
                        priced.cost(j, base),
                        j,
                    ),
                )
                assert list(s._objectives_from(at, view)) == expected


def test_nearer_and_runs_through_are_the_tuple_and_slice_tests_they_spell_out():
    """``nearer`` is the tuple comparison ``(hours, tie, id) < (best...)`` of RULES.md §8.8's
    nearest junction, ties included; ``runs_through`` is ``any(j in junctions for j in
    route[1:-1])`` (the doctrine's no-tuple forms, issue 15)."""
    from campaign.strategy.routing import nearer, runs_through

    rng = np.random.default_rng(15)
    hours = [0.0, 1.5, 3.0, math.inf]
    ids = ["a", "b", "c"]
    for _ in range(2_000):
        h, bh = (hours[int(i)] for i in rng.integers(len(hours), size=2))
        t, bt = (hours[int(i)] for i in rng.integers(len(hours), size=2))
        j, b = (ids[int(i)] for i in rng.integers(len(ids), size=2))
        assert nearer(h, t, j, bh, bt, b) == ((h, t, j) < (bh, bt, b))
        route = tuple(ids[int(i)] for i in rng.integers(len(ids), size=int(rng.integers(5))))
        junctions = {ids[int(i)] for i in rng.integers(len(ids), size=int(rng.integers(3)))}
        assert runs_through(route, junctions) == any(x in junctions for x in route[1:-1])
