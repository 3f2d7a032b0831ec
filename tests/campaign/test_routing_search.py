"""The searches of campaign/strategy/routing.py and campaign/maps/routes.py, compiled
(campaign.native), give networkx's own answers, ties included (RULES.md §8.5, §8.8): the same
routes and hours as ``networkx.single_source_dijkstra`` / ``bidirectional_dijkstra`` with the
blocked junctions (and roads) hidden, on the shipped maps and on small maps full of ties."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import networkx as nx
import pytest

from campaign.maps import Routes, load_map, retreat_path
from campaign.maps.routes import RoadNet
from campaign.strategy.routing import PricedRoutes, cheapest_avoiding, runs_through


def networkx_avoiding(
    graph: nx.Graph, a: str, b: str, blocked: set[str]
) -> tuple[tuple[str, ...], float]:
    """The search :func:`cheapest_avoiding` replaces, as it was written with networkx."""

    def hours_unless_blocked(_: str, v: str, road: dict[str, float]) -> float | None:
        return None if v in blocked else road["hours"]

    try:
        hours, path = nx.single_source_dijkstra(graph, a, b, weight=hours_unless_blocked)
    except nx.NetworkXNoPath:
        return (), math.inf
    return tuple(path), float(hours)


def tie_maps(n_maps: int, rng: random.Random) -> Iterator[nx.Graph]:
    """Small random maps whose roads take 1 to 3 hours: many routes tie."""
    for _ in range(n_maps):
        n = rng.randint(2, 12)
        graph = nx.Graph()
        names = [f"j{k:02d}" for k in range(n)]
        rng.shuffle(names)
        graph.add_nodes_from(names)
        for _ in range(rng.randint(1, 3 * n)):
            a, b = rng.sample(names, 2)
            graph.add_edge(a, b, hours=float(rng.randint(1, 3)))
        yield graph


def test_the_search_around_blocked_junctions_is_networkxs_on_tied_maps() -> None:
    rng = random.Random(15)
    for graph in tie_maps(300, rng):
        net = RoadNet(graph)
        nodes = list(graph)
        for _ in range(30):
            a, b = rng.choice(nodes), rng.choice(nodes)
            blocked = set(rng.sample(nodes, rng.randint(0, len(nodes) // 2))) - {a, b}
            assert cheapest_avoiding(net, a, b, blocked) == networkx_avoiding(graph, a, b, blocked)


@pytest.mark.parametrize("map_name", ["default", "waterloo-1815"])
def test_the_search_around_blocked_junctions_is_networkxs_on_the_shipped_maps(
    map_name: str,
) -> None:
    graph = load_map(map_name).graph
    rng = random.Random(map_name)
    priced = PricedRoutes(graph, 70, 60, 1.0)
    nodes = sorted(graph)
    for _ in range(400):
        a, b = rng.choice(nodes), rng.choice(nodes)
        blocked = set(rng.sample(nodes, rng.randint(0, min(8, len(nodes) // 2)))) - {a, b}
        want = networkx_avoiding(priced.graph, a, b, blocked)
        assert cheapest_avoiding(priced.net, a, b, blocked) == want
        if runs_through(priced.route(a, b), blocked):
            assert priced.route_hours_avoiding(a, b, blocked) == want


def test_the_search_raises_as_networkx_for_an_unknown_start() -> None:
    graph = nx.Graph()
    graph.add_edge("a", "b", hours=1.0)
    net = RoadNet(graph)
    with pytest.raises(nx.NodeNotFound):
        cheapest_avoiding(net, "z", "a", set())
    assert cheapest_avoiding(net, "a", "z", set()) == ((), math.inf)
    assert cheapest_avoiding(net, "a", "a", {"a"}) == (("a",), 0.0)
    assert cheapest_avoiding(net, "a", "b", {"a"}) == networkx_avoiding(graph, "a", "b", {"a"})
    assert cheapest_avoiding(net, "a", "b", {"b"}) == networkx_avoiding(graph, "a", "b", {"b"})


def test_the_fall_back_search_is_networkxs_on_tied_maps() -> None:
    rng = random.Random(85)
    for graph in tie_maps(300, rng):
        routes = Routes(graph)
        nodes = list(graph)
        roads = list(graph.edges)
        for _ in range(30):
            start, base = rng.choice(nodes), rng.choice(nodes)
            blocked = set(rng.sample(nodes, rng.randint(0, len(nodes) // 3)))
            cut = tuple(rng.sample(roads, rng.randint(0, min(3, len(roads)))))
            assert routes.retreat(start, base, blocked, cut) == retreat_path(
                graph, start, base, blocked, cut
            )


@pytest.mark.parametrize("map_name", ["default", "waterloo-1815"])
def test_the_fall_back_search_is_networkxs_on_the_shipped_maps(map_name: str) -> None:
    graph = load_map(map_name).graph
    routes = Routes(graph)
    rng = random.Random(map_name)
    nodes = sorted(graph)
    roads = sorted(graph.edges)
    for _ in range(400):
        start, base = rng.choice(nodes), rng.choice(nodes)
        blocked = set(rng.sample(nodes, rng.randint(0, 6)))
        cut = tuple(rng.sample(roads, rng.randint(0, 2)))
        assert routes.retreat(start, base, blocked, cut) == retreat_path(
            graph, start, base, blocked, cut
        )
