"""Reinforcements in the map format (RULES.md §8.9) and the automatic set-up (§8.7)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import yaml

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.errors import MapError
from campaign.events import DivisionRaised, Ordered, Reinforced
from campaign.maps import MapOptions, load_map
from campaign.maps import sides as sides_module
from campaign.paths import SHARED_MAPS_DIR

CAMPAIGN = Path(sys.executable).parent / "campaign"


def _line(tmp_path: Path, extra: dict) -> Path:
    names = ["rb", "m1", "m2", "m3", "bb"]
    doc = {
        "name": "line",
        "junctions": [{"id": n, "pos": [i * 10, 0]} for i, n in enumerate(names)],
        "roads": [[a, b, {"hours": 3}] for a, b in itertools.pairwise(names)],
        "sides": {
            "red": {"base": "rb", "start": ["rb"]},
            "blue": {"base": "bb", "start": ["bb"]},
        },
        **extra,
    }
    path = tmp_path / "line.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CAMPAIGN), *args], capture_output=True, text=True, check=False, timeout=120
    )


def test_reinforcements_enter_on_their_day_and_hour_and_march(tmp_path) -> None:
    entry = {"side": "red", "junction": "m1", "day": 1, "hour": 9.5, "divisions": ["Guard"]}
    cmap = load_map(_line(tmp_path, {"reinforcements": [entry]}))
    loaded = load_rules(overrides={"campaign.divisions_per_side": 1})
    result = run_campaign(cmap, loaded, 7)
    (came,) = [e for e in result.events if isinstance(e, Reinforced)]
    assert (came.t, came.side, came.junction, came.names, came.divisions) == (
        210,  # 09:30 is 210 minutes after 06:00 of day 1
        "red",
        "m1",
        ("Guard",),
        ("R2",),
    )
    assert came.seen_by == ("red",)  # Blue, at bb three roads away, does not see it (§8.6)
    raised = [e for e in result.events if isinstance(e, DivisionRaised) and e.division == "R2"]
    assert raised and raised[0].t == 210 and raised[0].junction == "m1"
    assert any(isinstance(e, Ordered) and e.division == "R2" for e in result.events)


def test_the_waterloo_prussians_come_in_when_the_campaign_lasts(tmp_path) -> None:
    cmap = load_map("waterloo-1815")
    loaded = load_rules()
    for seed in range(40):
        result = run_campaign(cmap, loaded, seed)
        came = [e for e in result.events if isinstance(e, Reinforced)]
        if result.end_minutes > 1440 + 12 * 60:  # past 18:00 of day 2
            assert [(e.t, e.junction, e.divisions) for e in came] == [
                (1440, "charleroi", ("R4",)),  # the Imperial Guard at dawn of day 2
                (1440 + 12 * 60, "gembloux", ("B4",)),  # Bülow's IV Corps at 18:00
            ]
            return
    pytest.fail("no Waterloo campaign lasted past 18:00 of day 2 in 40 seeds")


@pytest.mark.parametrize(
    ("extra", "key", "words"),
    [
        (
            {
                "reinforcements": [
                    {"side": "red", "junction": "nowhere", "day": 1, "hour": 9, "divisions": ["X"]}
                ]
            },
            "reinforcements[0].junction",
            "unknown junction 'nowhere'",
        ),
        (
            {
                "time_limit_days": 3,
                "reinforcements": [
                    {"side": "blue", "junction": "m2", "day": 4, "hour": 9, "divisions": ["X"]}
                ],
            },
            "reinforcements[0].day",
            "after the map's time limit",
        ),
        (
            {
                "reinforcements": [
                    {"side": "blue", "junction": "m2", "day": 9, "hour": 9, "divisions": ["X"]}
                ]
            },
            "reinforcements[0].day",
            "outside the campaign",
        ),
    ],
)
def test_a_bad_reinforcement_exits_2_with_file_key_path_and_fix(tmp_path, extra, key, words):
    path = _line(tmp_path, extra)
    proc = _cli("run", str(path), "--seed", "1")
    assert proc.returncode == 2, proc.stderr
    assert key in proc.stderr and words in proc.stderr and "line.yaml" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_map_sets_its_own_time_limit(tmp_path) -> None:
    cmap = load_map(_line(tmp_path, {"time_limit_days": 2}))
    loaded = load_rules(overrides={"campaign.doctrines.balanced.guard_hours": 24})
    result = run_campaign(cmap, loaded, 1)
    assert result.end_minutes <= 2 * 1440 + 1


# ---------------------------------------------------------------------- automatic set-up
def _random_net(seed: int, size: int, reach: float = 0.45) -> nx.Graph:
    """A connected random road net: junctions in the unit square, roads within ``reach``."""
    rng = np.random.default_rng(seed)
    pos = rng.random((size, 2))
    g = nx.Graph()
    g.add_nodes_from(range(size))
    for i in range(size):
        for j in range(i + 1, size):
            if np.hypot(*(pos[i] - pos[j])) < reach:
                g.add_edge(i, j)
    for i in range(size):
        g.nodes[i]["pos"] = [float(pos[i][0] * 100), float(pos[i][1] * 100)]
    comps = sorted(nx.connected_components(g), key=min)
    for a, b in itertools.pairwise(comps):
        g.add_edge(min(a), min(b))
    for a, b in g.edges:
        g.edges[a, b]["hours"] = float(np.round(rng.uniform(0.7, 6.3), 2))  # unequal decimals
    return g


def _write_neutral(tmp_path: Path, g: nx.Graph, name: str) -> Path:
    doc = {
        "junctions": [{"id": f"j{v}", "pos": g.nodes[v]["pos"]} for v in sorted(g)],
        "roads": [[f"j{a}", f"j{b}", {"hours": g.edges[a, b]["hours"]}] for a, b in g.edges],
    }
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return path


def test_automatic_bases_are_one_to_three_days_apart_when_the_map_allows(tmp_path) -> None:
    """§8.7 on small random road nets with unequal decimal hours (where nx.diameter with
    usebounds hung): bases 14-42 march hours apart whenever the map spans a day's march,
    and a time limit of at least twice the days apart plus three."""
    checked = 0
    for seed in range(40):
        g = _random_net(seed, 8 + seed % 60, reach=0.25)
        cmap = load_map(_write_neutral(tmp_path, g, f"net{seed}"), MapOptions(seed=seed))
        red, blue = cmap.sides["red"].base, cmap.sides["blue"].base
        apart = cmap.routes.hours(red, blue)
        graph = cmap.graph
        biggest = max(nx.connected_components(graph), key=len)
        *_, span = sides_module.double_sweep(graph.subgraph(biggest), sorted(biggest))
        if span >= 14:  # the map spans at least a day's march
            assert 14 <= apart <= 42, (seed, apart, span)
            checked += 1
        else:  # all of it is under a day: the bases are as far apart as it allows
            assert apart >= 0.6 * span, (seed, apart, span)
        assert cmap.time_limit(7) >= 2 * np.ceil(apart / 14) + 3
    assert checked >= 10, checked


def test_automatic_bases_on_a_big_map_take_a_bounded_number_of_searches(tmp_path, monkeypatch):
    """1,000 junctions (the bound): at most AUTO_TRIES + 2 single-source searches (no all pairs)."""
    calls = []
    real = nx.single_source_dijkstra_path_length

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    g = nx.Graph()
    for x in range(40):
        for y in range(25):
            if x:
                g.add_edge(25 * x + y, 25 * (x - 1) + y)
            if y:
                g.add_edge(25 * x + y, 25 * x + y - 1)
            g.add_node(25 * x + y, pos=[x, y])
    rng = np.random.default_rng(3)
    for a, b in g.edges:
        g.edges[a, b]["hours"] = float(np.round(rng.uniform(0.3, 1.7), 2))
    path = _write_neutral(tmp_path, g, "grid")
    monkeypatch.setattr(sides_module.nx, "single_source_dijkstra_path_length", counting)
    cmap = load_map(path, MapOptions(seed=5))
    searches_for_bases = len(calls) - 2  # the two searches of the automatic starts
    assert searches_for_bases <= sides_module.AUTO_TRIES + 2
    apart = cmap.routes.hours(cmap.sides["red"].base, cmap.sides["blue"].base)
    assert 14 <= apart <= 42


def test_shared_maps_get_bases_within_reach() -> None:
    if not SHARED_MAPS_DIR.is_dir():
        pytest.skip(f"shared maps not present at {SHARED_MAPS_DIR}")
    for path in sorted(SHARED_MAPS_DIR.glob("*.yaml")):
        try:
            cmap = load_map(path, MapOptions(seed=1))
        except MapError:
            continue
        if cmap.sides_origin != "automatic":
            continue
        apart = cmap.routes.hours(cmap.sides["red"].base, cmap.sides["blue"].base)
        assert apart <= 42, (path.name, apart)
        assert any("days of march" in n for n in cmap.notes)
