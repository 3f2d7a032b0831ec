"""Loading the shipped maps and the project's YAML format (RULES.md §8.1)."""

from __future__ import annotations

import math

import networkx as nx
import pytest
import yaml

from campaign.maps import CampaignMap, MapOptions, SideSetup, load_map
from campaign.maps.yaml_io import MapYamlLoader
from campaign.paths import MAPS_DIR

SHIPPED = ["default", "waterloo-1815"]


def _check_attrs(cmap: CampaignMap) -> None:
    graph = cmap.graph
    assert isinstance(graph, nx.Graph) and not graph.is_directed()
    assert not graph.is_multigraph()
    for node, attrs in graph.nodes(data=True):
        assert isinstance(node, str)
        assert isinstance(attrs["name"], str) and attrs["name"]
        x, y = attrs["pos"]
        assert math.isfinite(x) and math.isfinite(y)
        assert isinstance(attrs["objective"], bool)
        assert isinstance(attrs["value"], int)
        assert (attrs["value"] > 0) == attrs["objective"]
        assert attrs["terrain"] is None or isinstance(attrs["terrain"], str)
    for a, b, attrs in graph.edges(data=True):
        assert a != b
        assert attrs["kind"] in ("normal", "rough")
        assert isinstance(attrs["hours"], float) and attrs["hours"] > 0
        assert attrs["primary_of"] in ("red", "blue", None)
        assert isinstance(attrs["source_kind"], str)
    assert set(cmap.sides) == {"red", "blue"}
    for side, setup in cmap.sides.items():
        assert isinstance(setup, SideSetup)
        assert setup.base in graph and setup.starts
        assert all(s in graph and nx.has_path(graph, s, setup.base) for s in setup.starts)
        if setup.primary_road is not None:
            assert graph.edges[setup.primary_road]["primary_of"] == side


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_map_loads_with_the_documented_attributes(name: str) -> None:
    cmap = load_map(MAPS_DIR / f"{name}.yaml")
    _check_attrs(cmap)
    assert cmap.sides_origin == "file"
    assert cmap.notes == []
    assert nx.is_connected(cmap.graph)


def test_default_map_is_the_one_loaded_without_a_path() -> None:
    assert load_map().source == str(MAPS_DIR / "default.yaml")
    assert load_map("waterloo-1815").name.startswith("Waterloo")


def test_default_map_shape() -> None:
    """Issue 10 item 4: room for a campaign, three routes, rough roads as short cuts, fair."""
    cmap = load_map()
    graph = cmap.graph
    assert 15 <= graph.number_of_nodes() <= 24
    red, blue = cmap.sides["red"], cmap.sides["blue"]
    # at least three distinct routes (no junction in common) between the bases
    assert len(list(nx.node_disjoint_paths(graph, red.base, blue.base))) >= 3
    # every start is more than a day's march (14 daylight hours) from the enemy base
    for own, enemy in ((red, blue), (blue, red)):
        for start in own.starts:
            assert cmap.routes.hours(start, enemy.base) > 14, start
    # every rough road is a short cut: faster than any way round by normal roads
    normal = graph.edge_subgraph(
        [e for e in graph.edges if graph.edges[e]["kind"] == "normal"]
    ).copy()
    rough = [e for e in graph.edges if graph.edges[e]["kind"] == "rough"]
    assert len(rough) >= 4
    for a, b in rough:
        around = nx.shortest_path_length(normal, a, b, weight="hours")
        assert graph.edges[a, b]["hours"] + 1 <= around, (a, b)
    # fair: a mirror image (x -> 100 - x) maps junctions, roads, kinds and hours onto themselves
    at = {tuple(graph.nodes[n]["pos"]): n for n in graph}
    mirror = {n: at[(100 - graph.nodes[n]["pos"][0], graph.nodes[n]["pos"][1])] for n in graph}
    assert mirror[red.base] == blue.base
    assert sorted(mirror[s] for s in red.starts) == sorted(blue.starts)
    for a, b, data in graph.edges(data=True):
        twin = graph.edges[mirror[a], mirror[b]]
        assert (twin["kind"], twin["hours"]) == (data["kind"], data["hours"]), (a, b)
    assert len(red.starts) == len(blue.starts) == 3
    assert red.primary_road and blue.primary_road
    assert sum(1 for _, o in graph.nodes(data="objective") if o) >= 8


def test_waterloo_map_is_the_1815_theatre() -> None:
    cmap = load_map("waterloo-1815")
    graph = cmap.graph
    assert 18 <= graph.number_of_nodes() <= 28
    for town in ("brussels", "charleroi", "quatre_bras", "ligny", "wavre", "waterloo", "namur"):
        assert graph.nodes[town]["objective"], town
    assert max(graph.nodes[n]["value"] for n in graph) == graph.nodes["brussels"]["value"]
    assert cmap.sides["red"].name == "French" and cmap.sides["red"].base == "charleroi"
    assert cmap.sides["blue"].base == "brussels"
    assert graph.edges["wavre", "chapelle_saint_lambert"]["kind"] == "rough"
    # primary roads lead off the map to each side's rear, away from the enemy (§8.1)
    assert cmap.sides["red"].primary_road == ("charleroi", "beaumont")
    assert cmap.sides["blue"].primary_road == ("brussels", "hal")
    # the Imperial Guard comes up to Charleroi at dawn of day 2, the Prussian IV Corps in on
    # the evening of 16 June (day 2) at Gembloux (§8.9)
    guard, bulow = cmap.reinforcements
    assert (guard.side, guard.junction, guard.day, guard.hour) == ("red", "charleroi", 2, 6)
    assert (bulow.side, bulow.junction, bulow.day, bulow.hour) == ("blue", "gembloux", 2, 18)
    assert cmap.naming.reinforcement_commander("blue", "IV Corps") == "Bülow"
    # the armies start where they stood on the evening of 14 June (issue 29's set-up)
    assert cmap.sides["red"].starts == ("beaumont", "thuin", "marchienne")
    assert cmap.sides["blue"].starts == ("brussels", "enghien", "namur")
    # The chaussée Charleroi–Brussels is the shortest route between the bases.
    assert cmap.routes.path("charleroi", "brussels") == [
        "charleroi", "gosselies", "frasnes", "quatre_bras", "genappe",
        "mont_saint_jean", "waterloo", "brussels",
    ]  # fmt: skip


def test_ids_and_names_that_look_like_booleans_or_numbers_stay_strings(
    write_map, small_map_text
) -> None:
    cmap = load_map(write_map(small_map_text))
    graph = cmap.graph
    assert sorted(graph.nodes) == ["010", "010b", "1e3", "No", "base_b"]
    assert graph.nodes["No"]["name"] == "Yes"
    assert graph.nodes["010"]["name"] == "On"
    assert graph.nodes["010b"]["name"] == "off"
    assert graph.nodes["1e3"]["name"] == "1e3"
    assert cmap.sides["red"] == SideSetup("Reds", "No", ("No", "010"), ("No", "010"))
    assert cmap.sides["blue"].name == "Blue"
    assert graph.edges["010b", "1e3"]["primary_of"] == "blue"
    assert cmap.sides["blue"].primary_road == ("010b", "1e3")
    _check_attrs(cmap)


def test_road_without_hours_gets_the_default_from_config(write_map, small_map_text) -> None:
    graph = load_map(write_map(small_map_text)).graph
    assert graph.edges["010", "010b"]["hours"] == 3.0
    assert graph.edges["1e3", "base_b"]["kind"] == "normal"
    assert graph.nodes["No"]["value"] == 2 and graph.nodes["010"]["value"] == 0


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("No", "No"), ("yes", "yes"), ("On", "On"), ("off", "off"), ("010", "010"),
        ("1e3", "1e3"), ("0x1F", "0x1F"), ("+5", "+5"), ("1_000", "1_000"),
        ("true", True), ("false", False), ("12", 12), ("-3", -3), ("2.5", 2.5),
        ("1.0e-05", 1e-05), ("null", None), ("~", None),
    ],
)  # fmt: skip
def test_map_yaml_loader_is_yaml_1_2_like(text: str, value: object) -> None:
    assert yaml.load(f"k: {text}", Loader=MapYamlLoader) == {"k": value}


def test_options_override_the_file_sides(write_map, small_map_text) -> None:
    options = MapOptions(red_base="010", blue_base="1e3", blue_start=["base_b"])
    cmap = load_map(write_map(small_map_text), options)
    assert cmap.sides["red"].base == "010" and cmap.sides["blue"].base == "1e3"
    assert cmap.sides["blue"].starts == ("base_b",)
    assert cmap.sides["red"].starts[0] == "010"
    assert cmap.sides_origin == "options"
    assert any("starts at" in note for note in cmap.notes)


def test_routes_are_cached_per_map() -> None:
    cmap = load_map()
    assert cmap.routes is cmap.routes
