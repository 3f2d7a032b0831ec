"""Foreign maps: the shared neutral YAML and GraphML maps, node-link JSON, road-kind table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest
from typer.testing import CliRunner

from campaign.cli import _register, app
from campaign.errors import MapError
from campaign.maps import MapOptions, load_map
from campaign.maps.naming import NAMES_DIR, read_overlay

CAMPAIGN = Path(sys.executable).parent / "campaign"
TINY_GRAPHML = "osmnx_tests_short.graphml"


def _shared_files(folder: Path) -> list[Path]:
    files = sorted(folder.glob("*.yaml")) + sorted((folder / "graphml").glob("*.graphml"))
    return [f for f in files if f.name != TINY_GRAPHML]


def test_every_shared_map_loads_with_automatic_sides(shared_maps: Path) -> None:
    files = _shared_files(shared_maps)
    assert files
    for path in files:
        cmap = load_map(path)
        assert cmap.sides_origin == "automatic", path
        assert any(note.startswith("Bases chosen automatically") for note in cmap.notes)
        red, blue = cmap.sides["red"], cmap.sides["blue"]
        # names from the map's overlay maps/names/<stem>.yaml where the project has one
        overlay = NAMES_DIR / f"{path.stem}.yaml"
        if overlay.is_file():
            naming = read_overlay(overlay)
            assert (red.name, blue.name) == (naming.side("red").name, naming.side("blue").name)
        else:
            assert (red.name, blue.name) == ("Red", "Blue")
        hours = nx.shortest_path_length(cmap.graph, red.base, blue.base, weight="hours")
        assert 0 < hours <= MapOptions().max_march_hours / 3
        assert len(red.starts) == 3 and red.starts[0] == red.base
        assert all(cmap.graph.nodes[n]["pos"] is not None for n in cmap.graph)
        # The automatic choice is a function of the seed.
        assert load_map(path).sides == cmap.sides


def test_shared_map_info_runs(shared_maps: Path) -> None:
    _register()
    runner = CliRunner()
    for path in _shared_files(shared_maps):
        result = runner.invoke(app, ["map", "info", str(path), "--contract"])
        assert result.exit_code == 0, (path, result.output)
        assert "junctions" in result.output and "automatic" in result.output


def test_tiny_osmnx_graph_is_refused_cleanly(shared_maps: Path) -> None:
    path = shared_maps / "graphml" / TINY_GRAPHML
    with pytest.raises(MapError, match="1 junction"):
        load_map(path)
    result = subprocess.run(
        [str(CAMPAIGN), "map", "info", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 2 and "1 junction" in result.stderr
    assert "Traceback" not in result.stderr


def test_shared_kinds_follow_the_table(shared_maps: Path) -> None:
    caesar = load_map(shared_maps / "julius_caesar.yaml")
    kinds = {d["source_kind"]: d["kind"] for *_, d in caesar.graph.edges(data=True)}
    assert kinds == {"major": "normal", "minor": "rough"}  # sea and strait left out
    assert any("impassable" in note for note in caesar.notes)
    by_sea = load_map(shared_maps / "julius_caesar.yaml", MapOptions(road_kinds={"sea": "rough"}))
    assert by_sea.graph.number_of_edges() > caesar.graph.number_of_edges()
    waterloo = shared_maps / "waterloo_campaign_1815.yaml"
    half = load_map(waterloo).graph
    whole = load_map(waterloo, MapOptions(hours_per_length=1.0)).graph
    a, b = sorted(half.edges)[0]
    assert whole.edges[a, b]["hours"] == pytest.approx(2 * half.edges[a, b]["hours"])


def _write_graph(graph: nx.Graph, path: Path) -> Path:
    if path.suffix == ".graphml":
        nx.write_graphml(graph, path)
    else:
        path.write_text(json.dumps(nx.node_link_data(graph, edges="links")), encoding="utf-8")
    return path


@pytest.mark.parametrize("suffix", [".graphml", ".json"])
def test_directed_multigraph_files_become_simple_road_maps(tmp_path: Path, suffix: str) -> None:
    graph = nx.MultiDiGraph()
    graph.add_edge("A", "B", weight=4, tunnel=1)  # a tunnel: rough, 4 h
    graph.add_edge("A", "B", weight=5)  # parallel normal road: kept (normal over rough)
    graph.add_edge("B", "C", weight=2, locomotives=1)  # ferry: rough
    graph.add_edge("C", "D", kind="canal")  # unknown kind: normal, named in the notes
    graph.add_edge("D", "E", kind="sea")  # impassable
    graph.add_edge("D", "D", weight=1)  # a loop: left out
    graph.add_node("F")
    cmap = load_map(_write_graph(graph, tmp_path / f"net{suffix}"), MapOptions(seed=3))
    g = cmap.graph
    assert not g.is_directed() and not g.is_multigraph()
    assert dict(g.edges["A", "B"]) == {
        "kind": "normal",
        "hours": 5.0,
        "primary_of": None,
        "source_kind": "normal",
    }
    assert g.edges["B", "C"]["kind"] == "rough" and g.edges["B", "C"]["source_kind"] == "ferry"
    assert g.edges["C", "D"]["hours"] == 3.0 and g.edges["C", "D"]["kind"] == "normal"
    assert not g.has_edge("D", "E")
    notes = " ".join(cmap.notes)
    for words in ("directed", "canal", "impassable", "parallel", "itself", "spring_layout"):
        assert words in notes, words
    assert "have no road to either base" in notes  # E and F
    again = load_map(tmp_path / f"net{suffix}", MapOptions(seed=3)).graph
    assert dict(again.nodes(data="pos")) == dict(g.nodes(data="pos"))
    with pytest.raises(MapError, match="different parts"):
        load_map(tmp_path / f"net{suffix}", MapOptions(red_base="A", blue_base="F"))


def test_unreadable_graph_file_is_a_map_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.graphml"
    bad.write_text("<graphml><oops", encoding="utf-8")
    with pytest.raises(MapError, match="not a readable GraphML"):
        load_map(bad)
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{nope", encoding="utf-8")
    with pytest.raises(MapError, match="node-link JSON"):
        load_map(bad_json)


def test_neutral_yaml_objective_rule_and_one_given_base(write_map) -> None:
    text = """\
name: neutral
junctions:
  - {id: a, name: A, pos: [0, 0], vp: 2}
  - {id: b, name: B, pos: [1, 0], town: true}
  - {id: c, name: C, pos: [2, 0], rating: 0}
  - {id: d, name: D, pos: [3, 0], region: "x"}
roads:
  - [a, b, {kind: road, hexes: 4}]
  - [b, c, {kind: minor}]
  - [c, d, {kind: trackway, length: 8000}]
"""
    cmap = load_map(write_map(text), MapOptions(red_base="d"))
    g = cmap.graph
    assert [(n, g.nodes[n]["value"]) for n in sorted(g)] == [("a", 2), ("b", 1), ("c", 0), ("d", 0)]
    assert g.edges["a", "b"]["hours"] == 2.0 and g.edges["c", "d"]["hours"] == 2.0
    assert g.edges["b", "c"]["kind"] == "rough"
    assert cmap.sides["red"].base == "d" and cmap.sides["blue"].base != "d"
    assert cmap.sides_origin == "automatic"


def test_node_link_errors_name_the_edge_by_index_and_ends(tmp_path):
    doc = {
        "nodes": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
        "edges": [{"source": "a", "target": "b"}, {"source": "b", "target": "c", "hours": -2}],
    }
    path = tmp_path / "net.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(MapError) as info:
        load_map(path)
    assert info.value.message.startswith(
        f"{path}: edges[1] (b–c): march hours must be a positive number (from hours: -2)."
    )
    assert "('b', 'c')" not in info.value.message


def test_junctions_placed_around_extreme_positions_get_finite_ones(tmp_path: Path) -> None:
    """A map whose given positions are extreme (1e300) makes networkx's spring layout give NaN
    for the junctions without one; they are placed on a circle instead, so ``map convert``
    never writes ``pos: [.nan, .nan]`` (found by issue 32's fuzz), and no numpy warning."""
    import math
    import warnings

    graph = nx.Graph()
    graph.add_edges_from([("A", "B"), ("B", "C"), ("C", "D"), ("D", "A")])
    graph.nodes["A"].update(x=1e300, y=0.0)
    graph.nodes["B"].update(x=-1e300, y=1e300)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cmap = load_map(_write_graph(graph, tmp_path / "far.json"), MapOptions(seed=3))
    positions = dict(cmap.graph.nodes(data="pos"))
    assert all(math.isfinite(v) for p in positions.values() for v in p), positions
    assert "a circle" in " ".join(cmap.notes)
