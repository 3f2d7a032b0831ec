"""Summary statistics of a batch, computed inside DuckDB (never all runs in Python).

Per cell: win rate per side with a 95 % Wilson score interval, draw rate, mean and quartiles
of campaign length (days and minutes) and of battles, mean losses. For each pair of cells that
differ in exactly one factor: paired differences by run index (the runs share seeds — common
random numbers) with a 95 % normal interval.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import duckdb

__all__ = [
    "Z95",
    "CellSummary",
    "PairedDifference",
    "batch_ids",
    "cell_summaries",
    "paired_differences",
    "wilson_interval",
]

#: The two-sided 95 % normal quantile.
Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (Wilson 1927).

    Parameters
    ----------
    successes : int
        Successes, ``0 <= successes <= n``.
    n : int
        Trials; 0 gives the uninformative ``(0.0, 1.0)``.
    z : float
        Normal quantile (1.96 → 95 %).

    Returns
    -------
    (float, float)
        Lower and upper bounds in [0, 1].

    Raises
    ------
    ValueError
        If ``successes`` is outside ``[0, n]``.

    Examples
    --------
    >>> lo, hi = wilson_interval(8, 10)
    >>> round(lo, 4), round(hi, 4)
    (0.4902, 0.9433)
    """
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be within [0, {n}], got {successes}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi


def _four(values: tuple[object, ...]) -> tuple[float, float, float, float]:
    """Four numbers of a result row as floats (mean and quartiles)."""
    a, b, c, d = (float(v) for v in values)  # type: ignore[arg-type]
    return a, b, c, d


@dataclass(frozen=True)
class CellSummary:
    """One cell's summary (rates are fractions, lengths in days and minutes)."""

    cell: int
    label: str
    factors: dict[str, str]
    n: int
    wins: dict[str, int]
    draws: int
    days: tuple[float, float, float, float]  # mean, q1, median, q3
    minutes: tuple[float, float, float, float]
    battles: tuple[float, float, float, float]
    losses: dict[str, float]

    def win_rate(self, side: str) -> float:
        """Fraction of runs won by ``side``."""
        return self.wins[side] / self.n if self.n else 0.0

    def win_interval(self, side: str) -> tuple[float, float]:
        """95 % Wilson interval of ``side``'s win rate."""
        return wilson_interval(self.wins[side], self.n)

    @property
    def draw_rate(self) -> float:
        """Fraction of runs ending without a winner."""
        return self.draws / self.n if self.n else 0.0


@dataclass(frozen=True)
class PairedDifference:
    """Mean of (cell b − cell a) over runs with the same index, with a 95 % interval."""

    factor: str
    a: int
    b: int
    level_a: str
    level_b: str
    metric: str
    n: int
    mean: float
    low: float
    high: float


def batch_ids(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str]]:
    """``(batch_id, name)`` of every batch in the file, oldest first."""
    return con.execute("SELECT batch_id, name FROM batches ORDER BY started").fetchall()


def _quartiles(column: str) -> str:
    return (
        f"avg({column}), quantile_cont({column}, 0.25), median({column}), "
        f"quantile_cont({column}, 0.75)"
    )


def _levels(factors: dict[str, Any]) -> dict[str, str]:
    """Factor levels as text (typed JSON numbers as their JSON text, ``30``)."""
    return {k: v if isinstance(v, str) else json.dumps(v) for k, v in factors.items()}


def cell_summaries(con: duckdb.DuckDBPyConnection, batch_id: str) -> list[CellSummary]:
    """Summaries of every cell of a batch (cells without runs are left out)."""
    rows = con.execute(
        f"""
        SELECT c.cell, c.label, c.factors_json, count(*),
               count(*) FILTER (WHERE r.winner = 'red'),
               count(*) FILTER (WHERE r.winner = 'blue'),
               count(*) FILTER (WHERE r.winner IS NULL),
               {_quartiles("r.days")}, {_quartiles("r.end_minutes")},
               {_quartiles("r.battles")}, avg(r.red_losses), avg(r.blue_losses)
        FROM runs r JOIN cells c USING (batch_id, cell)
        WHERE r.batch_id = ?
        GROUP BY c.cell, c.label, c.factors_json ORDER BY c.cell
        """,
        [batch_id],
    ).fetchall()
    out = []
    for row in rows:
        cell, label, factors, n, red, blue, draws = row[:7]
        out.append(
            CellSummary(
                cell=cell,
                label=label,
                factors=_levels(json.loads(factors)),
                n=n,
                wins={"red": red, "blue": blue},
                draws=draws,
                days=_four(row[7:11]),
                minutes=_four(row[11:15]),
                battles=_four(row[15:19]),
                losses={"red": float(row[19]), "blue": float(row[20])},
            )
        )
    return out


#: Paired metrics: name → SQL expression over one run row.
METRICS = {
    "red win": "CASE WHEN {t}.winner = 'red' THEN 1.0 ELSE 0.0 END",
    "blue win": "CASE WHEN {t}.winner = 'blue' THEN 1.0 ELSE 0.0 END",
    "days": "{t}.days",
    "battles": "{t}.battles",
}


def _one_factor_pairs(cells: list[CellSummary]) -> list[tuple[str, CellSummary, CellSummary]]:
    pairs = []
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            diff = [k for k in a.factors if a.factors[k] != b.factors.get(k)]
            if len(diff) == 1 and a.factors.keys() == b.factors.keys():
                pairs.append((diff[0], a, b))
    return pairs


def paired_differences(
    con: duckdb.DuckDBPyConnection, batch_id: str, cells: list[CellSummary] | None = None
) -> list[PairedDifference]:
    """Paired differences (b − a) for every pair of cells differing in one factor.

    Runs are paired by run index (the same seed in both cells); the interval is
    ``mean ± 1.96 · sd / √n`` of the per-run differences (a 95 % normal interval).
    """
    cells = cells if cells is not None else cell_summaries(con, batch_id)
    out = []
    for factor, a, b in _one_factor_pairs(cells):
        exprs = ", ".join(f"count(d{k}), avg(d{k}), stddev_samp(d{k})" for k in range(len(METRICS)))
        diffs = ", ".join(
            f"({m.format(t='y')}) - ({m.format(t='x')}) AS d{k}"
            for k, m in enumerate(METRICS.values())
        )
        row = con.execute(
            f"""
            SELECT {exprs} FROM (
                SELECT {diffs} FROM runs x JOIN runs y USING (batch_id, run)
                WHERE x.batch_id = ? AND x.cell = ? AND y.cell = ?)
            """,
            [batch_id, a.cell, b.cell],
        ).fetchone()
        assert row is not None  # an aggregate query returns one row
        for k, metric in enumerate(METRICS):
            n, mean, sd = row[3 * k : 3 * k + 3]
            if not n:
                continue
            half = Z95 * (sd or 0.0) / math.sqrt(n) if n > 1 else float("nan")
            out.append(
                PairedDifference(
                    factor=factor,
                    a=a.cell,
                    b=b.cell,
                    level_a=a.factors[factor],
                    level_b=b.factors[factor],
                    metric=metric,
                    n=n,
                    mean=float(mean),
                    low=float(mean) - half,
                    high=float(mean) + half,
                )
            )
    return out
