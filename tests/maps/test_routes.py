"""Routes and fall-back paths agree with networkx (RULES.md §8.5)."""

from __future__ import annotations

import itertools
import math
import pickle

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.maps import Routes, load_map, retreat_path


def _path_hours(graph: nx.Graph, path: list[str]) -> float:
    return sum(graph.edges[a, b]["hours"] for a, b in itertools.pairwise(path))


@st.composite
def road_maps(draw, max_junctions: int = 9) -> nx.Graph:
    """Random small simple graphs with positive march hours on every road."""
    n = draw(st.integers(2, max_junctions))
    ids = [f"j{i}" for i in range(n)]
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    for a, b in chosen:
        hours = draw(st.integers(1, 8)) / 2
        kind = draw(st.sampled_from(["normal", "rough"]))
        graph.add_edge(a, b, hours=hours, kind=kind, primary_of=None, source_kind=kind)
    return graph


@pytest.mark.parametrize("name", ["default", "waterloo-1815"])
def test_routes_agree_with_networkx_on_shipped_maps(name: str) -> None:
    graph = load_map(name).graph
    routes = Routes(graph)
    lengths = dict(nx.all_pairs_dijkstra_path_length(graph, weight="hours"))
    for a in sorted(graph):
        for b in sorted(graph):
            assert routes.hours(a, b) == pytest.approx(lengths[a][b])
            path = routes.path(a, b)
            assert path[0] == a and path[-1] == b
            assert _path_hours(graph, path) == pytest.approx(lengths[a][b])
            assert routes.next_step(a, b) == (path[1] if a != b else None)


@settings(max_examples=60, deadline=None)
@given(road_maps())
def test_routes_agree_with_networkx_on_random_maps(graph: nx.Graph) -> None:
    routes = Routes(graph)
    for a in sorted(graph):
        for b in sorted(graph):
            if nx.has_path(graph, a, b):
                expected = nx.shortest_path_length(graph, a, b, weight="hours")
                assert routes.hours(a, b) == pytest.approx(expected)
                assert _path_hours(graph, routes.path(a, b)) == pytest.approx(expected)
                step = routes.next_step(a, b)
                assert step is None if a == b else graph.has_edge(a, step)
            else:
                assert math.isinf(routes.hours(a, b))
                assert routes.path(a, b) == [] and routes.next_step(a, b) is None


def test_routes_reject_unknown_junctions_and_pickle() -> None:
    routes = load_map().routes
    with pytest.raises(nx.NodeNotFound):
        routes.hours("vauclair", "atlantis")
    copy = pickle.loads(pickle.dumps(routes))
    assert copy.path("vauclair", "steinbruck") == routes.path("vauclair", "steinbruck")


def _retreat_case(
    graph: nx.Graph, data: st.DataObject
) -> tuple[str, str, set[str], tuple[tuple[str, str], ...]]:
    """A fall back to draw on ``graph``: start, base, up to 3 enemy-held junctions and
    perhaps the enemy's road."""
    nodes = sorted(graph)
    start = data.draw(st.sampled_from(nodes))
    base = data.draw(st.sampled_from(nodes))
    blocked = set(data.draw(st.lists(st.sampled_from(nodes), max_size=3)))
    edges = sorted(graph.edges)
    blocked_edges = tuple(data.draw(st.lists(st.sampled_from(edges), max_size=2))) if edges else ()
    return start, base, blocked, blocked_edges


@settings(max_examples=80, deadline=None)
@given(road_maps(), st.data())
def test_retreat_path_avoids_blocked_junctions_and_road(graph: nx.Graph, data) -> None:
    start, base, blocked, blocked_edges = _retreat_case(graph, data)
    path = retreat_path(graph, start, base, blocked, blocked_edges)
    allowed = graph.copy()
    allowed.remove_nodes_from(blocked - {start})
    for edge in blocked_edges:  # every road the enemy came by (RULES.md §8.5)
        if allowed.has_edge(*edge):
            allowed.remove_edge(*edge)
    if base not in allowed or not nx.has_path(allowed, start, base):
        assert path is None
        return
    assert path is not None and path[0] == start and path[-1] == base
    assert not (set(path[1:]) & blocked)
    steps = list(itertools.pairwise(path))
    for edge in blocked_edges:
        assert set(edge) not in [set(step) for step in steps]
    expected = nx.shortest_path_length(allowed, start, base, weight="hours")
    assert _path_hours(graph, path) == pytest.approx(expected)


def test_retreat_path_on_the_default_map() -> None:
    graph = load_map().graph
    # Beaten at La Croisée, the enemy holding Glotz and having come from Kressheim.
    path = retreat_path(graph, "la_croisee", "vauclair", {"glotz"}, (("kressheim", "la_croisee"),))
    assert path is not None and "glotz" not in path and path[-1] == "vauclair"
    # A dead end facing the enemy: no path at all.
    assert retreat_path(graph, "glotz", "vauclair", {"vauclair"}) is None
    everything = set(graph) - {"la_croisee"}
    assert retreat_path(graph, "la_croisee", "vauclair", everything) is None
    assert retreat_path(graph, "vauclair", "vauclair", set()) == ["vauclair"]


@settings(max_examples=120, deadline=None)
@given(road_maps(), st.data())
def test_retreat_path_is_the_path_of_the_map_without_the_enemy(graph: nx.Graph, data) -> None:
    """The very path (ties included: half-hour roads tie often) that networkx finds on a view
    of the map without the enemy-held junctions and the enemy's road: the search hides them
    with its weight function instead of building the view, and must not pick another of
    equally short paths (campaigns would change)."""
    start, base, blocked, blocked_edges = _retreat_case(graph, data)
    hidden = blocked - {start}
    cut = {e for edge in blocked_edges for e in (edge, edge[::-1])}
    view = nx.subgraph_view(
        graph, filter_node=lambda n: n not in hidden, filter_edge=lambda a, b: (a, b) not in cut
    )
    try:
        expected = nx.shortest_path(view, start, base, weight="hours") if base in view else None
    except nx.NetworkXNoPath:
        expected = None
    assert retreat_path(graph, start, base, blocked, blocked_edges) == expected
