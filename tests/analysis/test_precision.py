"""Batches that stop at a precision: coverage of the confidence sequences by simulation,
seed-order determinism of stopped, resumed and extended batches, and bad flags."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import duckdb
import numpy as np
import pytest

from campaign.analysis.precision import (
    confidence_sequence,
    look_schedule,
    planned_runs,
    run_to_precision,
)
from campaign.batch.plan import plan_batch
from campaign.batch.spec import BatchSpec

Cli = Callable[[list[str]], tuple[int, str, str]]
_LEVELS = ",".join(str(n) for n in range(1, 61))  # 60 cells


def _stop(x: np.ndarray, points: float, cap: int, look: int) -> tuple[float, float, int]:
    """The stopping rule on one stream: the interval at the first look narrow enough."""
    lo, hi = confidence_sequence(x[:cap], target_n=min(planned_runs(points), cap))
    for n in look_schedule(look, cap):
        if (hi[n - 1] - lo[n - 1]) / 2 <= points / 100:
            break
    return float(lo[n - 1]), float(hi[n - 1]), n


@pytest.mark.parametrize("p", [0.1, 0.5, 0.85])
def test_stopped_intervals_cover_at_least_95_percent(p: float) -> None:
    """1,000 streams of known win probability, stopped at ±5 pts: coverage >= 95%.

    The sequence's own coverage is >= 95% at every look at once; observed coverage is about
    98%, so with 1,000 streams (sd 0.5 pt) a shortfall below 95% would be a real failure.
    """
    rng = np.random.default_rng(1401)
    reps, cap = 1000, 2000
    covered = ever_missed = 0
    stops = []
    for _ in range(reps):
        x = (rng.random(cap) < p).astype(float)
        lo, hi, n = _stop(x, 5, cap, 50)
        covered += lo <= p <= hi
        stops.append(n)
        a, b = confidence_sequence(x, target_n=planned_runs(5))
        ever_missed += bool(np.any((a > p) | (b < p)))
    assert covered / reps >= 0.95
    assert ever_missed / reps <= 0.05  # anytime: no t at which the sequence misses, 95%
    assert max(stops) < cap  # the rule stopped (±5 pts is reachable by 2,000 runs)


def test_paired_differences_cover_their_true_difference() -> None:
    """Common random numbers: cell b wins whenever a does and 3% more often (d in {0, 1})."""
    rng = np.random.default_rng(77)
    reps, cap, truth = 1000, 3000, 0.03
    covered = 0
    for _ in range(reps):
        u = rng.random(cap)
        d = (u < 0.53).astype(float) - (u < 0.50).astype(float)
        lo, hi, _ = _stop((d + 1) / 2, 1, cap, 100)
        covered += 2 * lo - 1 <= truth <= 2 * hi - 1
    assert covered / reps >= 0.95


def _rows(path: Path) -> list[tuple]:
    with duckdb.connect(str(path), read_only=True) as con:
        return con.execute("SELECT * FROM runs ORDER BY cell, run").fetchall()


def test_stopped_resumed_and_extended_batches_hold_the_same_rows(tmp_path: Path) -> None:
    spec = BatchSpec(name="prec", set={"campaign.rough_road_pass": [40, 80]}, runs=1, seed=9)
    plan = plan_batch(spec, "test")
    straight = tmp_path / "straight.duckdb"
    _, report, runs = run_to_precision(plan, straight, 20, 60, 10, progress=False, workers=0)
    pieces = tmp_path / "pieces.duckdb"
    run_to_precision(plan, pieces, 20, 20, 10, progress=False, workers=0)  # a lower cap first
    _, report2, runs2 = run_to_precision(plan, pieces, 20, 60, 10, progress=False, workers=0)
    assert runs == runs2 and _rows(straight) == _rows(pieces)
    assert report == report2
    # each cell ran its first N runs in seed order, N a look of the schedule
    looks = set(look_schedule(10, 60))
    rows = _rows(straight)
    for cell, n in runs.items():
        assert n in looks
        assert [r[2] for r in rows if r[1] == cell] == list(range(n))
    limit = 0.20 + 1e-12
    assert all(c.widest() <= limit or c.runs == 60 for c in report.cells)


@pytest.mark.parametrize(
    ("flags", "needle"),
    [
        (["--precision", "0"], "--precision"),
        (["--precision", "-2"], "--precision"),
        (["--precision", "nan"], "--precision"),
        (["--precision", "2", "--max-runs", "0"], "--max-runs"),
        (["--precision", "2", "--max-runs", "99999999"], "--max-runs"),
        (
            ["--precision", "2", "--max-runs", "1000000", "--set", f"battle.max_turns=[{_LEVELS}]"],
            "at most 50,000,000",
        ),
    ],
)
def test_bad_precision_flags_exit_2(
    flags: list[str], needle: str, tmp_path: Path, cli: Cli
) -> None:
    out = tmp_path / "r.duckdb"
    code, _, err = cli(["batch", "run", *flags, "--output", str(out)])
    assert code == 2 and needle in err and "Traceback" not in err
    assert not out.exists()


def test_cli_precision_prints_the_sequences(tmp_path: Path, cli: Cli) -> None:
    out = tmp_path / "r.duckdb"
    code, stdout, err = cli(
        [
            "batch",
            "run",
            "--set",
            "campaign.rough_road_pass=[50,70]",
            "--seed",
            "4",
            "--workers",
            "0",
            "--precision",
            "25",
            "--look",
            "10",
            "--max-runs",
            "40",
            "--output",
            str(out),
        ]
    )
    assert code == 0, err
    assert "confidence sequences" in stdout and "Paired differences b − a" in stdout
