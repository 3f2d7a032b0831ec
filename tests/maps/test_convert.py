"""``campaign map convert`` writes the project's format and reads back to the same map."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
import yaml
from typer.testing import CliRunner

from campaign.cli import _register, app
from campaign.maps import CampaignMap, MapOptions, load_map, write_map


def _same_map(first: CampaignMap, second: CampaignMap) -> None:
    assert sorted(first.graph.nodes) == sorted(second.graph.nodes)
    for node in first.graph:
        assert first.graph.nodes[node] == second.graph.nodes[node], node
    assert nx.utils.edges_equal(first.graph.edges, second.graph.edges)
    for a, b, attrs in first.graph.edges(data=True):
        other = second.graph.edges[a, b]
        for key in ("kind", "hours", "primary_of"):
            assert attrs[key] == other[key], (a, b, key)
    assert first.sides == second.sides
    assert first.name == second.name
    # the same order of junctions, and of each junction's roads: it breaks ties between
    # equally long routes, so a converted map must keep it to play the same campaigns
    assert list(first.graph.nodes) == list(second.graph.nodes)
    for node in first.graph:
        assert list(first.graph.adj[node]) == list(second.graph.adj[node]), node


def _convert(args: list[str]) -> None:
    _register()
    result = CliRunner().invoke(app, ["map", "convert", *args])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("name", ["default", "waterloo-1815"])
def test_shipped_maps_round_trip(name: str, tmp_path: Path) -> None:
    out = tmp_path / "out.yaml"
    _convert([name, "-o", str(out)])
    _same_map(load_map(name), load_map(out))


def test_ids_like_no_and_010_survive_convert(write_map, small_map_text, tmp_path: Path) -> None:
    source = write_map(small_map_text)
    out = tmp_path / "out.yaml"
    _convert([str(source), "-o", str(out)])
    again = load_map(out)
    _same_map(load_map(source), again)
    assert {"No", "010", "010b", "1e3"} <= set(again.graph)
    # Also a YAML 1.1 reader sees strings: the writer quotes them.
    ids = [j["id"] for j in yaml.safe_load(out.read_text(encoding="utf-8"))["junctions"]]
    assert {"No", "010", "1e3"} <= set(ids)


def test_convert_with_options_writes_them_into_the_map(write_map, small_map_text, tmp_path):
    out = tmp_path / "out.yaml"
    args = [str(write_map(small_map_text)), "-o", str(out), "--red-base", "010"]
    _convert([*args, "--blue-base", "base_b", "--road-kind", "rough=normal"])
    again = load_map(out)
    assert again.sides["red"].base == "010"
    assert {k for *_, k in again.graph.edges(data="kind")} == {"normal"}


def test_shared_maps_round_trip(shared_maps: Path, tmp_path: Path) -> None:
    ticket_to_ride = shared_maps / "graphml" / "ticket_to_ride_europe.graphml"
    files = [*sorted(shared_maps.glob("*.yaml")), ticket_to_ride]
    for path in files:
        for contract in (False, True):
            cmap = load_map(path, MapOptions(contract=contract))
            out = write_map(cmap, tmp_path / f"{path.stem}-{contract}.yaml")
            _same_map(cmap, load_map(out))


@pytest.mark.parametrize("suffix", [".graphml", ".json", ".txt"])
def test_convert_refuses_an_output_that_is_not_yaml(suffix: str, tmp_path: Path) -> None:
    _register()
    out = tmp_path / f"map{suffix}"
    result = CliRunner().invoke(app, ["map", "convert", "default", "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert ".yaml" in result.output and not out.exists()


@pytest.mark.parametrize(("name", "seed"), [("default", 42), ("waterloo-1815", 1815)])
def test_a_converted_map_plays_the_same_campaign(name: str, seed: int, tmp_path: Path) -> None:
    from campaign.config import load_rules
    from campaign.engine import run_campaign

    out = tmp_path / "out.yaml"
    _convert([name, "-o", str(out)])
    loaded = load_rules()
    first = run_campaign(load_map(name), loaded, seed, record_events=True)
    again = run_campaign(load_map(out), loaded, seed, record_events=True)
    assert type(first.events[0]).__name__ == "CampaignStarted"  # names the map file
    assert again.events[1:] == first.events[1:]
    assert len(first.events) > 100 and first.battles >= 3


def test_convert_never_writes_over_the_map_it_reads(tmp_path: Path) -> None:
    _register()
    source = tmp_path / "mine.yaml"
    text = "# my notes\n" + Path(load_map("default").source).read_text(encoding="utf-8")
    source.write_text(text, encoding="utf-8")
    for out in (source, tmp_path / "." / "mine.yaml"):
        result = CliRunner().invoke(app, ["map", "convert", str(source), "-o", str(out)])
        assert result.exit_code == 2, result.output
        assert "that is the map being converted" in result.output
        assert "mine-converted.yaml" in result.output
    assert source.read_text(encoding="utf-8") == text
