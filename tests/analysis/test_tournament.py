"""Doctrine tournaments: pairings from both sides, Bradley–Terry ratings, determinism, errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import duckdb
import numpy as np
import pytest
from scipy.special import expit

from campaign.analysis.rating import ELO_PER_LOGIT, fit_bradley_terry, rate

Cli = Callable[[list[str]], tuple[int, str, str]]


def _synthetic(seed: int, n: int):
    """3 doctrines of known strength (+0.4, 0, −0.4 logits), one map with Red +0.3."""
    rng = np.random.default_rng(seed)
    true = np.array([0.4, 0.0, -0.4])
    pairs = [(i, j) for i in range(3) for j in range(3) if i != j]
    red = np.array([i for i, _ in pairs])
    blue = np.array([j for _, j in pairs])
    p = expit(true[red] - true[blue] + 0.3)
    scores = (rng.random((len(pairs), n)) < p[:, None]).astype(float)
    return true, red, blue, np.zeros(len(pairs), dtype=int), scores


def test_bradley_terry_recovers_known_strengths() -> None:
    true, red, blue, side, scores = _synthetic(5, 3000)
    theta, eta = fit_bradley_terry(
        red, blue, side, scores.sum(axis=1), np.full(len(red), 3000.0), 3, 1
    )
    # 3000 games a pairing: the standard error of a strength is about 0.02 logits
    assert np.allclose(theta, true, atol=0.08)
    assert abs(eta[0] - 0.3) < 0.08
    ratings = rate(["a", "b", "c"], ["m"], red, blue, side, scores, np.random.default_rng(1), 200)
    for k, t in enumerate(true):
        assert ratings.low[k] <= t * ELO_PER_LOGIT <= ratings.high[k]
    assert ratings.side_low[0] <= 0.3 * ELO_PER_LOGIT <= ratings.side_high[0]


def test_tournament_plays_both_sides_and_is_deterministic(tmp_path: Path, cli: Cli) -> None:
    argv = [
        "tournament",
        "--doctrines",
        "aggressive,cautious",
        "--runs",
        "6",
        "--seed",
        "3",
        "--workers",
        "0",
        "--json",
        "-q",
    ]
    code, out, err = cli([*argv, "--output", str(tmp_path / "a.duckdb")])
    assert code == 0, err
    doc = json.loads(out)
    code, out2, _ = cli([*argv, "--output", str(tmp_path / "b.duckdb"), "--plot", str(tmp_path)])
    assert code == 0 and json.loads(out2) == doc  # same seed, same ratings and intervals
    assert (tmp_path / "ratings.png").stat().st_size > 0
    with duckdb.connect(str(tmp_path / "a.duckdb"), read_only=True) as con:
        pairs = con.execute(
            "SELECT red_doctrine, blue_doctrine FROM cells ORDER BY cell"
        ).fetchall()
        seeds = con.execute(
            "SELECT cell, list(seed ORDER BY run) FROM runs GROUP BY cell"
        ).fetchall()
        stored = con.execute("SELECT doctrine, games FROM tournament_ratings").fetchall()
    assert pairs == [("aggressive", "cautious"), ("cautious", "aggressive")]
    assert seeds[0][1] == seeds[1][1]  # common random numbers
    assert sorted(stored) == [("aggressive", 12), ("cautious", 12)]
    # head to head: each doctrine's wins are the other's losses, over both sides
    h = {(r["doctrine"], r["map"]): r for r in doc["head_to_head"]}
    assert h[("aggressive", "*")]["wins"] == h[("cautious", "*")]["losses"]
    assert h[("aggressive", "*")]["games"] == 12
    ranks = [r["rank"] for r in doc["ratings"]]
    assert ranks == [1, 2] and doc["ratings"][0]["elo"] >= doc["ratings"][1]["elo"]
    lo, hi = doc["ratings"][0]["elo_95"]
    assert lo <= doc["ratings"][0]["elo"] <= hi


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--doctrines", "aggressive,reckless"], "no strategy doctrine named 'reckless'"),
        (["--doctrines", "aggressive"], "two doctrines or more"),
        (["--doctrines", "aggressive,cautious", "--runs", "0"], "--runs"),
        (["--doctrines", "aggressive,cautious", "--maps", "atlantis"], "atlantis"),
        (["--doctrines", "aggressive,cautious", "--runs", "9000000"], "at most"),
    ],
)
def test_bad_tournaments_exit_2(argv: list[str], needle: str, tmp_path: Path, cli: Cli) -> None:
    code, _, err = cli(["tournament", *argv, "--output", str(tmp_path / "t.duckdb")])
    assert code == 2 and needle in err and "Traceback" not in err
    assert not (tmp_path / "t.duckdb").exists()
