"""Whole campaigns on the shared (publishers') maps and on the project's Waterloo 1815 map.

The shared maps are read from ``campaign.paths.SHARED_MAPS_DIR`` when it exists (the tests
are skipped with a reason otherwise); nothing of them is copied into the project.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from campaign.batch.reasons import run_reason_code
from campaign.cli import _register, app
from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import CampaignEnded
from campaign.maps import MapOptions, Routes, contract_roads, load_map
from campaign.maps.foreign import GRAPH_SUFFIXES
from campaign.paths import SHARED_MAPS_DIR
from campaign.printers.phrases import figures

CAMPAIGN = Path(sys.executable).parent / "campaign"
SEEDS = (0, 1, 2)
#: Shared maps that cannot hold a campaign, and what the refusal must say.
REFUSED = {"osmnx_tests_short.graphml": "1 junction(s) and 0 usable road(s)"}
DOCTRINE_PAIRS = [
    ("balanced", "balanced"),
    ("aggressive", "cautious"),
    ("cautious", "aggressive"),
    ("aggressive", "aggressive"),
]


def _shared_map_files() -> list[Path]:
    if not SHARED_MAPS_DIR.is_dir():
        return []
    graphs = sorted(
        p for p in (SHARED_MAPS_DIR / "graphml").glob("*") if p.suffix.lower() in GRAPH_SUFFIXES
    )
    return sorted(SHARED_MAPS_DIR.glob("*.yaml")) + graphs


def _params(playable: bool) -> list:
    files = [p for p in _shared_map_files() if (p.name not in REFUSED) == playable]
    if files:
        return [pytest.param(p, id=p.name) for p in files]
    absent = pytest.mark.skip(reason=f"shared maps not present at {SHARED_MAPS_DIR}")
    return [pytest.param(None, id="no-shared-maps", marks=absent)]


def _cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    wide = {**os.environ, "COLUMNS": "400"}  # rich wraps table cells at the terminal width
    return subprocess.run(
        [str(CAMPAIGN), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
        env=wide,
    )


def _invoke(*args: str) -> Result:
    """Run a sub-command in this process (cheaper than a new interpreter)."""
    _register()
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def rules():
    """The default rules, loaded once."""
    return load_rules()


def _finished(result, cmap) -> CampaignEnded:
    """Check that a campaign ran to its end and return its closing event."""
    end = result.events[-1]
    assert isinstance(end, CampaignEnded), type(end)
    assert result.winner in ("red", "blue", None)
    assert end.winner == result.winner and end.reason == result.reason
    assert result.reason.strip(), "a finished campaign states why it ended"
    assert result.days >= 1 and result.battles >= 0
    names = {cmap.sides[s].name for s in ("red", "blue")}
    if result.winner is not None and run_reason_code(result.reason) == "base-taken":
        assert any(name in result.reason for name in names)
    return end


# --------------------------------------------------------------------- shared maps


@pytest.mark.parametrize("path", _params(playable=True))
def test_shared_map_info_is_sensible(path: Path) -> None:
    cmap = load_map(path)
    small = load_map(path, MapOptions(contract=True))
    done = _cli("map", "info", str(path))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    out = " ".join(done.stdout.split())
    graph = cmap.graph
    assert f"junctions │ {graph.number_of_nodes()} │" in out
    assert f"roads │ {graph.number_of_edges()} (" in out
    assert "[none in the map: automatic]" in out and "Bases chosen automatically" in out
    assert f"base {cmap.sides['red'].base};" in out and f"base {cmap.sides['blue'].base};" in out
    stats = small.contraction
    assert stats is not None
    pruned = (
        f"prunes {figures(stats.spurs, 'dead-end spur junction')}"
        if stats.spurs
        else ("prunes no dead-end spur")
    )
    assert (
        f"{graph.number_of_nodes()} junctions, {graph.number_of_edges()} roads → "
        f"{small.graph.number_of_nodes()} junctions, {small.graph.number_of_edges()} roads: "
        f"{pruned}"
    ) in out
    merged = (
        f"merges {figures(stats.merged, 'pass-through junction')}"
        if stats.merged
        else ("merges no pass-through junction")
    )
    assert merged in out


@pytest.mark.parametrize("path", _params(playable=True))
@pytest.mark.parametrize("contract", [False, True], ids=["full", "contracted"])
def test_shared_map_runs_whole_campaigns_with_automatic_bases(
    path: Path, contract: bool, rules
) -> None:
    for seed in SEEDS:
        cmap = load_map(path, MapOptions(seed=seed, contract=contract))
        assert cmap.sides_origin == "automatic"
        result = run_campaign(
            cmap, rules, seed, {"red": "balanced", "blue": "balanced"}, record_events=True
        )
        _finished(result, cmap)
        # Routes are searched only from the junctions the campaign asks about.
        assert cmap.routes.sources_searched <= cmap.graph.number_of_nodes()


@pytest.mark.parametrize("path", _params(playable=True))
def test_shared_map_campaign_runs_from_the_command_line(path: Path) -> None:
    done = _invoke("run", str(path), "--seed", "7", "--contract", "--format", "jsonl")
    assert done.exit_code == 0, done.output
    assert done.stderr.startswith("seed 7")
    events = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert events[-1]["type"] == "CampaignEnded"
    assert events[-1]["reason"] and events[-1]["days"] >= 1


@pytest.mark.parametrize("path", _params(playable=False))
def test_shared_map_that_cannot_hold_a_campaign_is_refused(path: Path) -> None:
    for args in (("map", "info", str(path)), ("run", str(path), "--seed", "1")):
        done = _cli(*args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert REFUSED[path.name] in done.stderr
        assert "Traceback" not in done.stderr + done.stdout


def test_bases_in_different_parts_of_a_shared_map_are_refused() -> None:
    path = SHARED_MAPS_DIR / "julius_caesar.yaml"
    if not path.is_file():
        pytest.skip(f"shared map not present at {path}")
    graph = load_map(path).graph
    main = max(nx.connected_components(graph), key=len)
    island = sorted(n for n in graph if n not in main)[0]
    done = _cli("run", str(path), "--seed", "1", "--red-base", island, "--blue-base", min(main))
    assert done.returncode == 2, done.stderr
    assert "different parts of the map" in done.stderr and "Traceback" not in done.stderr


def test_lazy_routes_equal_all_pairs_on_the_shared_road_net() -> None:
    path = SHARED_MAPS_DIR / "waterloo_campaign_1815.yaml"
    if not path.is_file():
        pytest.skip(f"shared map not present at {path}")
    graph = load_map(path, MapOptions(red_base="charleroi", blue_base="nivelles")).graph
    routes = Routes(graph)
    sources = sorted(graph)[::25]
    for source in sources:
        hours, paths = nx.single_source_dijkstra(graph, source, weight="hours")
        for target in sorted(graph):
            assert routes.hours(source, target) == hours[target]
            assert routes.path(source, target) == paths[target]
    assert routes.sources_searched == len(sources)


# ------------------------------------------------------------ the project's Waterloo


@pytest.mark.parametrize(
    ("red", "blue"), DOCTRINE_PAIRS, ids=[f"{r}-{b}" for r, b in DOCTRINE_PAIRS]
)
def test_waterloo_1815_campaigns_finish_with_battles(red: str, blue: str, rules) -> None:
    cmap = load_map("waterloo-1815")
    results = [
        run_campaign(cmap, rules, seed, {"red": red, "blue": blue}, record_events=True)
        for seed in range(20)
    ]
    for result in results:
        _finished(result, cmap)
        if result.battle_rows:
            first = result.battle_rows[0].day
            assert first <= 4, "the armies meet within the four days of June 15-18"
    with_battles = sum(result.battles >= 1 for result in results)
    # Measured: 20 of 20 for each pair; at least 15 of 20 must have a battle.
    assert with_battles >= 15, Counter(result.battles for result in results)


def test_waterloo_1815_log_names_the_historical_places() -> None:
    done = _invoke("run", "waterloo-1815", "--seed", "3")
    assert done.exit_code == 0, done.output
    assert "Bases: French at Charleroi, Allies at Brussels" in done.stdout
    assert "Battle at" in done.stdout
    assert any(town in done.stdout for town in ("Quatre-Bras", "Ligny", "Sombreffe"))


# ------------------------------------------------------------------ contraction


@st.composite
def spurred_maps(draw) -> tuple[nx.Graph, set[str]]:
    """A random small road map with trees of dead-end spurs and chains hung on it."""
    n = draw(st.integers(1, 8))
    ids = [f"c{i}" for i in range(n)]
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    extra = draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids)), max_size=10))
    graph.add_edges_from((a, b) for a, b in extra if a != b)
    for k in range(draw(st.integers(0, 12))):  # each new junction hangs on an older one
        parent = draw(st.sampled_from(sorted(graph)))
        graph.add_edge(parent, f"s{k:02d}")
    for a, b in graph.edges:
        kind = draw(st.sampled_from(["normal", "rough"]))
        graph.edges[a, b].update(
            hours=draw(st.integers(1, 10)) / 2, kind=kind, primary_of=None, source_kind=kind
        )
    protected = set(draw(st.lists(st.sampled_from(sorted(graph)), max_size=3)))
    return graph, protected


def _distances_kept(graph: nx.Graph, small: nx.Graph) -> None:
    before = dict(nx.all_pairs_dijkstra_path_length(graph, weight="hours"))
    after = dict(nx.all_pairs_dijkstra_path_length(small, weight="hours"))
    for a in sorted(small):
        assert set(after[a]) == set(before[a]) & set(small)  # same parts
        for b, hours in after[a].items():
            assert hours == pytest.approx(before[a][b])


@settings(max_examples=120, deadline=None)
@given(spurred_maps())
def test_spur_pruning_keeps_distances_and_connectivity(case) -> None:
    graph, protected = case
    small, stats = contract_roads(graph, protected)
    assert protected <= set(small) <= set(graph)
    assert stats.removed == graph.number_of_nodes() - small.number_of_nodes()
    assert nx.number_connected_components(small) == nx.number_connected_components(graph)
    assert not any(small.degree(n) in (1, 2) for n in set(small) - protected)
    _distances_kept(graph, small)
    plain, plain_stats = contract_roads(graph, protected, prune_spurs=False)
    assert plain_stats.spurs == 0 and len(small) <= len(plain)


def test_a_dropped_parallel_road_leaves_a_spur_that_is_pruned() -> None:
    graph = nx.Graph()
    for a, b, hours in [("a", "c", 1.0), ("a", "x", 1.0), ("x", "c", 5.0), ("c", "d", 1.0)]:
        graph.add_edge(a, b, kind="normal", hours=hours, primary_of=None, source_kind="road")
    small, stats = contract_roads(graph, {"c", "d"})
    assert sorted(small.edges) == [("c", "d")]
    assert (stats.spurs, stats.merged) == (1, 1)
    plain, _ = contract_roads(graph, {"c", "d"}, prune_spurs=False)
    assert sorted(map(sorted, plain.edges)) == [["c", "d"], ["c", "x"]]


def test_shared_road_net_contracts_further_with_spurs_pruned() -> None:
    path = SHARED_MAPS_DIR / "waterloo_campaign_1815.yaml"
    if not path.is_file():
        pytest.skip(f"shared map not present at {path}")
    full = load_map(path, MapOptions(seed=1))
    small = load_map(path, MapOptions(seed=1, contract=True))
    stats = small.contraction
    assert stats is not None and stats.spurs > 0 and stats.merged > 0
    # 408 junctions became 388 by merging alone; pruning spurs first takes it to about 340.
    assert small.graph.number_of_nodes() < 0.85 * full.graph.number_of_nodes()
    assert nx.number_connected_components(small.graph) == 1
    towns = {n for n, objective in full.graph.nodes(data="objective") if objective}
    assert towns <= set(small.graph) and small.sides == full.sides
    for a in sorted(small.graph)[::17]:
        before = nx.single_source_dijkstra_path_length(full.graph, a, weight="hours")
        after = nx.single_source_dijkstra_path_length(small.graph, a, weight="hours")
        assert set(after) == set(small.graph)
        for b, hours in after.items():
            assert hours == pytest.approx(before[b])


# ------------------------------------------------------------------ routes


@st.composite
def tied_road_maps(draw) -> nx.Graph:
    """Random road maps with few distinct hours, so that many routes tie."""
    n = draw(st.integers(1, 14))
    graph = nx.Graph()
    graph.add_nodes_from(draw(st.permutations([f"j{i}" for i in range(n)])))
    pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    for a, b in draw(st.lists(pairs, max_size=30)):
        if a != b:
            graph.add_edge(f"j{a}", f"j{b}", hours=draw(st.sampled_from([0.5, 1.0, 1.5, 0.1])))
    return graph


@settings(max_examples=120, deadline=None)
@given(tied_road_maps())
def test_routes_are_exactly_those_of_networkx(graph: nx.Graph) -> None:
    routes = Routes(graph)
    for source, (hours, paths) in nx.all_pairs_dijkstra(graph, weight="hours"):
        for target in graph:
            assert routes.hours(source, target) == hours.get(target, float("inf"))
            assert routes.path(source, target) == paths.get(target, [])
