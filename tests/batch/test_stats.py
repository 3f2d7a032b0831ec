"""Wilson intervals and paired differences against known values."""

from __future__ import annotations

import math

import duckdb
import pytest

from campaign.batch.stats import Z95, wilson_interval


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (8, 10, 0.4902, 0.9433),  # Newcombe (1998) table; Agresti & Coull (1998)
        (5, 10, 0.2366, 0.7634),
        (1, 10, 0.0179, 0.4042),
        (81, 263, 0.2553, 0.3662),  # Newcombe (1998), example (c)
    ],
)
def test_wilson_matches_published_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)


def test_wilson_edges() -> None:
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0
    assert hi == pytest.approx(Z95**2 / (10 + Z95**2), abs=1e-12)  # 0.2775
    lo, hi = wilson_interval(10, 10)
    assert hi == 1.0
    assert lo == pytest.approx(10 / (10 + Z95**2), abs=1e-12)  # 0.7225
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


@pytest.mark.parametrize("n", [1, 2, 7, 50, 1000])
def test_wilson_is_inside_unit_interval_and_contains_p(n: int) -> None:
    for k in range(0, n + 1, max(1, n // 10)):
        lo, hi = wilson_interval(k, n)
        assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_paired_difference_known_case() -> None:
    from campaign.batch.stats import CellSummary, paired_differences

    con = duckdb.connect()
    con.execute(
        "CREATE TABLE runs (batch_id VARCHAR, cell INTEGER, run BIGINT, winner VARCHAR, "
        "days INTEGER, battles INTEGER)"
    )
    days_a = [1, 2, 3, 4]
    days_b = [2, 2, 5, 5]  # differences 1, 0, 2, 1: mean 1, sd sqrt(2/3)
    for run, (a, b) in enumerate(zip(days_a, days_b, strict=True)):
        con.execute("INSERT INTO runs VALUES ('b', 0, ?, 'red', ?, 1)", [run, a])
        con.execute("INSERT INTO runs VALUES ('b', 1, ?, 'blue', ?, 1)", [run, b])
    cells = [
        CellSummary(c, f"x={c}", {"x": str(c)}, 4, {}, 0, (0,) * 4, (0,) * 4, (0,) * 4, {})
        for c in (0, 1)
    ]
    diffs = {d.metric: d for d in paired_differences(con, "b", cells)}
    days = diffs["days"]
    half = Z95 * math.sqrt(2 / 3) / 2
    assert (days.n, days.mean) == (4, pytest.approx(1.0))
    assert (days.low, days.high) == (pytest.approx(1 - half), pytest.approx(1 + half))
    assert diffs["red win"].mean == pytest.approx(-1.0)
    assert diffs["battles"].mean == 0.0
