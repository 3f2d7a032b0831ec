"""Contraction keeps connectivity and every march-hour distance between kept junctions."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.maps import MapOptions, contract_junctions, load_map


@st.composite
def contractible_maps(draw) -> tuple[nx.Graph, set[str]]:
    """Random small road maps (long chains likely) and a random protected set."""
    n = draw(st.integers(2, 12))
    ids = [f"j{i:02d}" for i in range(n)]
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    for i in range(1, n):  # mostly chains, so there is much to contract
        if draw(st.booleans()) or draw(st.booleans()):
            graph.add_edge(ids[i - 1], ids[i])
    extra = draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids)), max_size=4))
    graph.add_edges_from((a, b) for a, b in extra if a != b)
    for a, b in graph.edges:
        kind = draw(st.sampled_from(["normal", "rough"]))
        graph.edges[a, b].update(
            hours=draw(st.integers(1, 10)) / 2, kind=kind, primary_of=None, source_kind=kind
        )
    protected = set(draw(st.lists(st.sampled_from(ids), max_size=3)))
    return graph, protected


def _check_contraction(graph: nx.Graph, small: nx.Graph, protected: set[str]) -> None:
    kept = set(small)
    assert protected <= kept <= set(graph)
    assert all(small.degree(n) != 2 for n in kept - protected)
    before = dict(nx.all_pairs_dijkstra_path_length(graph, weight="hours"))
    after = dict(nx.all_pairs_dijkstra_path_length(small, weight="hours"))
    for a in sorted(kept):
        for b in sorted(kept):
            assert (b in before[a]) == (b in after[a])  # same components
            if b in before[a]:
                assert after[a][b] == pytest.approx(before[a][b])
    for *_, attrs in small.edges(data=True):
        assert attrs["hours"] > 0 and attrs["kind"] in ("normal", "rough")


@settings(max_examples=150, deadline=None)
@given(contractible_maps())
def test_contraction_keeps_components_and_march_hours(case) -> None:
    graph, protected = case
    small, removed = contract_junctions(graph, protected)
    assert removed == graph.number_of_nodes() - small.number_of_nodes()
    assert not small.is_multigraph() and nx.number_of_selfloops(small) == 0
    _check_contraction(graph, small, protected)


def test_contracted_road_is_rough_if_any_part_was() -> None:
    graph = nx.Graph()
    for a, b, kind in [("a", "x", "normal"), ("x", "y", "rough"), ("y", "b", "normal")]:
        graph.add_edge(a, b, kind=kind, hours=2.0, primary_of=None, source_kind="road")
    small, removed = contract_junctions(graph, {"a", "b"})
    assert removed == 2
    assert dict(small.edges["a", "b"]) == {
        "kind": "rough",
        "hours": 6.0,
        "primary_of": None,
        "source_kind": "road",
    }


def test_contraction_keeps_the_shorter_of_parallel_roads() -> None:
    graph = nx.Graph()
    graph.add_edge("a", "b", kind="rough", hours=10.0, primary_of="red", source_kind="minor")
    graph.add_edge("a", "x", kind="normal", hours=2.0, primary_of=None, source_kind="road")
    graph.add_edge("x", "b", kind="normal", hours=2.0, primary_of=None, source_kind="road")
    small, _ = contract_junctions(graph, {"a", "b"})
    assert small.edges["a", "b"]["hours"] == 4.0
    assert small.edges["a", "b"]["primary_of"] == "red"


def test_default_map_contraction_keeps_protected_junctions() -> None:
    full = load_map()
    small = load_map(options=MapOptions(contract=True))
    protected = {n for n, o in full.graph.nodes(data="objective") if o}
    for setup in full.sides.values():
        protected |= {setup.base, *setup.starts, *(setup.primary_road or ())}
    _check_contraction(full.graph, small.graph, protected)
    assert small.sides == full.sides
    assert any(note.startswith("Contracted") for note in small.notes)


def test_shared_waterloo_road_net_contracts_without_changing_distances(shared_maps) -> None:
    path = shared_maps / "waterloo_campaign_1815.yaml"
    full = load_map(path)
    small = load_map(path, MapOptions(contract=True))
    assert small.graph.number_of_nodes() < full.graph.number_of_nodes()
    towns = {n for n, o in full.graph.nodes(data="objective") if o}
    assert towns <= set(small.graph)
    assert nx.number_connected_components(small.graph) == nx.number_connected_components(full.graph)
    sample = sorted(towns)[::9]
    for a in sample:
        before = nx.single_source_dijkstra_path_length(full.graph, a, weight="hours")
        after = nx.single_source_dijkstra_path_length(small.graph, a, weight="hours")
        for b in sorted(set(small.graph) & set(before)):
            assert after[b] == pytest.approx(before[b])
