"""Batches that stop at a stated precision, with anytime-valid confidence sequences.

The method
----------
Each win rate (and each paired difference of win rates) gets a **confidence sequence**: a
sequence of intervals that covers the true value *at every number of runs simultaneously*
with probability ≥ 95 %, so it may be looked at after every run and the batch stopped
whenever it is narrow enough without losing coverage (a fixed-n interval checked repeatedly
would not keep its 95 %). We use the predictable plug-in empirical-Bernstein confidence
sequence (PrPl-EB) of Waudby-Smith & Ramdas, "Estimating means of bounded random variables by
betting", JRSS-B 86 (2024), Theorem 2 with the λ of their eq. (26), for observations in
[0, 1]; it adapts to the observed variance, so paired differences under common random
numbers (mostly 0) stop much sooner than a Hoeffding bound would allow. The running
intersection of the intervals is reported (still valid, never wider than the last).

A win is 1, anything else 0; a paired difference ``d ∈ {−1, 0, 1}`` of cells *a* and *b* on
the same seed is mapped to ``(d + 1) / 2`` in [0, 1] and the interval mapped back.

Looks and determinism
---------------------
Runs are added in seed order (run 0, 1, 2, … of each cell; run *i* always has the batch's
seed *i*) and the rule is checked at a fixed schedule of looks: ``look``, then ×1.5 (rounded
up to a multiple of ``look``), up to the cap. At each look a cell stops when its own
intervals and those of every paired difference it is part of are no wider than ±PTS, or it
has reached the cap; a stopped cell resumes if a partner still needs it. Every decision
depends only on the runs before the look, so an interrupted batch, resumed, or a batch
extended with a higher cap, holds exactly the rows of one run straight through.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import duckdb
import numpy as np

from campaign.errors import BatchSpecError

__all__ = [
    "ALPHA",
    "MAX_RUNS_CAP",
    "MAX_TOTAL_RUNS",
    "CellPrecision",
    "PairPrecision",
    "PrecisionReport",
    "check_precision",
    "confidence_sequence",
    "look_schedule",
    "measure_precision",
    "planned_runs",
]

#: 1 − coverage of every interval (95 %)
ALPHA = 0.05
#: the largest --max-runs accepted (per cell)
MAX_RUNS_CAP = 1_000_000
#: at most this many campaigns in a whole batch at its cap (cells × --max-runs)
MAX_TOTAL_RUNS = 50_000_000
#: λ never exceeds this (Waudby-Smith & Ramdas suggest 1/2 or 3/4)
_LAMBDA_MAX = 0.5


def confidence_sequence(
    x: np.ndarray, alpha: float = ALPHA, target_n: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The PrPl-EB confidence sequence of the mean of ``x`` (values in [0, 1]).

    Parameters
    ----------
    x
        Observations in order, shape ``(n,)``, each in [0, 1].
    alpha
        1 − coverage (0.05 → the intervals cover the mean at every t at once with
        probability ≥ 95 %).
    target_n
        Tune the bets λ_t to be tightest near ``target_n`` observations
        (λ_t = √(2 log(2/α) / (σ̂²_{t−1} n*)), Waudby-Smith & Ramdas §3.1); None → the
        all-round choice with ``t log(1 + t)`` in place of n*. Any predictable λ keeps the
        coverage; the tuning only moves where the sequence is narrowest.

    Returns
    -------
    (low, high)
        Arrays of shape ``(n,)``: the interval after 1, 2, …, n observations (running
        intersection, clipped to [0, 1]).

    Raises
    ------
    ValueError
        If a value lies outside [0, 1] or ``alpha`` is not in (0, 1).
    """
    x = np.asarray(x, dtype=float)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if x.size and (x.min() < 0 or x.max() > 1):
        raise ValueError("observations must lie in [0, 1]")
    n = x.size
    if n == 0:
        return np.zeros(0), np.zeros(0)
    t = np.arange(1, n + 1, dtype=float)
    csum = np.cumsum(x)
    mu_hat = (0.5 + csum) / (t + 1)  # μ̂_t
    mu_prev = np.concatenate([[0.5], mu_hat[:-1]])  # μ̂_{t−1}
    sq = np.cumsum((x - mu_hat) ** 2)
    sigma2 = (0.25 + sq) / (t + 1)  # σ̂²_t
    sigma2_prev = np.concatenate([[0.25], sigma2[:-1]])  # σ̂²_{t−1}
    log_term = math.log(2 / alpha)
    horizon = t * np.log1p(t) if target_n is None else np.full(n, float(max(target_n, 1)))
    lam = np.minimum(np.sqrt(2 * log_term / (sigma2_prev * horizon)), _LAMBDA_MAX)
    v = 4 * (x - mu_prev) ** 2
    psi = (-np.log1p(-lam) - lam) / 4
    lam_sum = np.cumsum(lam)
    centre = np.cumsum(lam * x) / lam_sum
    half = (log_term + np.cumsum(v * psi)) / lam_sum
    low = np.maximum.accumulate(np.clip(centre - half, 0.0, 1.0))
    high = np.minimum.accumulate(np.clip(centre + half, 0.0, 1.0))
    return low, high


def planned_runs(points: float, alpha: float = ALPHA) -> int:
    """Runs at which a win rate near 50 % reaches ±``points`` (the bets' tuning target n*).

    From the sequence's width at its target, √(2 log(2/α) σ² / n) with σ² = ¼.

    >>> planned_runs(2)
    4612
    """
    eps = points / 100.0
    return math.ceil(2 * math.log(2 / alpha) * 0.25 / (eps * eps))


def look_schedule(look: int, cap: int) -> list[int]:
    """The numbers of runs at which the stopping rule is checked: ``look``, ×1.5, …, ``cap``.

    >>> look_schedule(100, 1000)
    [100, 200, 300, 500, 800, 1000]
    """
    looks = [min(look, cap)]
    while looks[-1] < cap:
        nxt = look * math.ceil(1.5 * looks[-1] / look)
        looks.append(min(max(nxt, looks[-1] + look), cap))
    return looks


def check_precision(points: float, max_runs: int, look: int) -> None:
    """Refuse a precision or a cap that cannot work, before any run.

    Raises
    ------
    BatchSpecError
        Naming ``--precision``, ``--max-runs`` or ``--look``.
    """
    if not (points > 0 and math.isfinite(points)) or points > 50:
        raise BatchSpecError(
            f"a precision of {points} points",
            key="--precision",
            fix="Give the half-width of the 95% interval in percentage points, more than 0 "
            "and at most 50, e.g. --precision 2.",
        )
    if not 1 <= max_runs <= MAX_RUNS_CAP:
        raise BatchSpecError(
            f"{max_runs} runs",
            key="--max-runs",
            fix=f"Give a cap from 1 to {MAX_RUNS_CAP:,} runs per cell.",
        )
    if not 1 <= look <= max_runs:
        raise BatchSpecError(
            f"a look every {look} runs",
            key="--look",
            fix=f"Give a number of runs from 1 to --max-runs ({max_runs}).",
        )


@dataclass(frozen=True)
class CellPrecision:
    """One cell's runs and the confidence sequences of its win rates (fractions)."""

    cell: int
    label: str
    runs: int
    red: tuple[float, float]
    blue: tuple[float, float]

    def widest(self) -> float:
        """The larger half-width of the two intervals (a fraction)."""
        return max((self.red[1] - self.red[0]) / 2, (self.blue[1] - self.blue[0]) / 2)


@dataclass(frozen=True)
class PairPrecision:
    """A paired difference (b − a) of win rates on common seeds, with its interval."""

    a: int
    b: int
    factor: str
    runs: int
    red: tuple[float, float, float]  # mean, low, high
    blue: tuple[float, float, float]

    def widest(self) -> float:
        """The larger half-width of the two intervals (a fraction)."""
        return max((self.red[2] - self.red[1]) / 2, (self.blue[2] - self.blue[1]) / 2)


@dataclass(frozen=True)
class PrecisionReport:
    """Where every cell and pair stands at a look."""

    cells: list[CellPrecision]
    pairs: list[PairPrecision]

    def needs_more(self, points: float) -> set[int]:
        """Cells whose own intervals, or a pair's they belong to, are wider than ±points."""
        limit = points / 100.0 + 1e-12
        need = {c.cell for c in self.cells if c.widest() > limit}
        for p in self.pairs:
            if p.widest() > limit:
                need |= {p.a, p.b}
        return need

    def document(self) -> dict[str, Any]:
        """Plain data (fractions) for JSON."""
        return {
            "method": "PrPl-EB confidence sequence (Waudby-Smith & Ramdas 2024), 95%",
            "cells": [c.__dict__ for c in self.cells],
            "pairs": [p.__dict__ for p in self.pairs],
        }


def _one_factor_pairs(factors: dict[int, dict[str, str]]) -> list[tuple[str, int, int]]:
    """Pairs of cells differing in exactly one factor (the pairs the batch summary reports)."""
    out = []
    cells = sorted(factors)
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            fa, fb = factors[a], factors[b]
            diff = [k for k in fa if fa[k] != fb.get(k)]
            if len(diff) == 1 and fa.keys() == fb.keys():
                out.append((diff[0], a, b))
    return out


def measure_precision(
    con: duckdb.DuckDBPyConnection,
    batch_id: str,
    runs: Mapping[int, int],
    target_n: int | None = None,
) -> PrecisionReport:
    """Confidence sequences of every cell's win rates, over its first ``runs[cell]`` runs,
    and of every one-factor paired difference over the runs the two cells share.

    ``target_n`` tunes the sequences (see :func:`confidence_sequence`)."""
    meta = con.execute(
        "SELECT cell, label, factors_json FROM cells WHERE batch_id = ? ORDER BY cell",
        [batch_id],
    ).fetchall()
    outcomes: dict[int, np.ndarray] = {}
    for cell, _, _ in meta:
        n = runs.get(cell, 0)
        rows = con.execute(
            "SELECT winner FROM runs WHERE batch_id = ? AND cell = ? AND run < ? ORDER BY run",
            [batch_id, cell, n],
        ).fetchall()
        codes = np.array([1 if w == "red" else 2 if w == "blue" else 0 for (w,) in rows])
        outcomes[cell] = codes
    cells = []
    for cell, label, _ in meta:
        y = outcomes[cell]
        bounds = []
        for code in (1, 2):
            lo, hi = confidence_sequence((y == code).astype(float), target_n=target_n)
            bounds.append((float(lo[-1]), float(hi[-1])) if y.size else (0.0, 1.0))
        cells.append(CellPrecision(cell, label, int(y.size), bounds[0], bounds[1]))
    pairs = []
    factors = {cell: json.loads(f) for cell, _, f in meta}
    for factor, a, b in _one_factor_pairs(factors):
        m = min(outcomes[a].size, outcomes[b].size)
        ya, yb = outcomes[a][:m], outcomes[b][:m]
        stats = []
        for code in (1, 2):
            d = (yb == code).astype(float) - (ya == code).astype(float)
            if m == 0:
                stats.append((0.0, -1.0, 1.0))
                continue
            lo, hi = confidence_sequence((d + 1) / 2, target_n=target_n)
            stats.append((float(d.mean()), 2 * float(lo[-1]) - 1, 2 * float(hi[-1]) - 1))
        pairs.append(PairPrecision(a, b, factor, m, stats[0], stats[1]))
    return PrecisionReport(cells, pairs)


def run_to_precision(
    plan: Any,
    output: Path,
    points: float,
    max_runs: int,
    look: int,
    *,
    progress: bool = True,
    **run_options: Any,
) -> tuple[Any, PrecisionReport, dict[int, int]]:
    """Run a planned batch in rounds until every interval is within ±``points``.

    Parameters
    ----------
    plan
        The validated batch (:func:`campaign.batch.plan.plan_batch`); its ``runs`` is ignored.
    output
        The DuckDB results file (resumes what it holds).
    points
        Target half-width of every 95 % interval, percentage points (0 < points <= 50).
    max_runs
        Cap of runs per cell.
    look
        Runs between the first looks (see :func:`look_schedule`).
    run_options
        Passed to :func:`campaign.batch.runner.run_batch` (workers, backend, …).

    Returns
    -------
    (outcome, report, runs)
        The last round's :class:`BatchOutcome`, the final :class:`PrecisionReport` and the
        runs of each cell.

    Raises
    ------
    BatchSpecError
        If ``points``, ``max_runs`` or ``look`` are out of range, or cells × ``max_runs``
        exceeds :data:`MAX_TOTAL_RUNS`.
    BatchInterrupted
        On Ctrl-C (every finished run is stored; run again to resume).
    """
    from campaign.batch.runner import run_batch
    from campaign.batch.store import open_results

    check_precision(points, max_runs, look)
    if len(plan.cells) * max_runs > MAX_TOTAL_RUNS:
        raise BatchSpecError(
            f"{len(plan.cells)} cells × {max_runs:,} runs = {len(plan.cells) * max_runs:,} "
            f"campaigns at the cap (at most {MAX_TOTAL_RUNS:,})",
            key="--max-runs",
            fix="Lower --max-runs or sweep fewer cells.",
        )
    plan = _with_runs(plan, max_runs)
    n_cells = len(plan.cells)
    target_n = min(planned_runs(points), max_runs)
    targets = dict.fromkeys(range(n_cells), 0)
    active = set(range(n_cells))
    outcome = None
    report = PrecisionReport([], [])
    done = already = 0
    seconds = 0.0
    for n in look_schedule(look, max_runs):
        for cell in active:
            targets[cell] = max(targets[cell], n)
        outcome = run_batch(plan, output, runs_per_cell=targets, progress=progress, **run_options)
        done += outcome.done_now
        seconds += outcome.seconds
        already = outcome.total_runs - done
        if plan.spec.seed is None:  # later rounds must reuse this round's seed entropy
            plan = _with_seed(plan, outcome.entropy)
        store = open_results(output)
        try:
            report = measure_precision(store.con, outcome.batch_id, targets, target_n)
        finally:
            store.close()
        active = {c for c in report.needs_more(points) if targets[c] < max_runs}
        if not active:
            break
    if outcome is not None:  # the whole session, all rounds
        outcome = replace(outcome, done_now=done, seconds=seconds, already_done=already)
    return outcome, report, targets


def _with_runs(plan: Any, runs: int) -> Any:
    return replace(plan, spec=plan.spec.model_copy(update={"runs": runs}))


def _with_seed(plan: Any, seed: int) -> Any:
    return replace(plan, spec=plan.spec.model_copy(update={"seed": seed}))
