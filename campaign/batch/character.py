"""The campaign's character per cell of a batch: what kind of campaigns they were (issue 10).

Computed inside DuckDB from the ``runs`` table's character columns (see
:mod:`campaign.batch.store`): mean and median days and battles, mean distinct battle places,
mean rough-road tests and the share of campaigns that tested one (RULES.md §8.2), marches,
flank marches (§8.8) and the share of campaigns whose base fell (§8.7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import duckdb

from campaign.batch.store import RUN_COLUMNS_ADDED, run_columns

__all__ = ["CellCharacter", "cell_character", "character_line"]


@dataclass(frozen=True)
class CellCharacter:
    """One cell's character; ``stored`` is False for a results file written before the
    character columns (then only ``days`` and ``battles`` are known)."""

    cell: int
    n: int
    days: tuple[float, float]  # mean, median
    battles: tuple[float, float]
    stored: bool
    places: float = 0.0
    rough_tests: float = 0.0
    rough_share: float = 0.0  # fraction of campaigns with at least one rough-road test
    rough_failures: float = 0.0
    marches: float = 0.0
    flank_marches: float = 0.0
    base_fell_share: float = 0.0


#: The character from the stored columns: each :class:`CellCharacter` field and its mean
#: over the cell's runs in DuckDB, in the query's order.
_STORED: tuple[tuple[str, str], ...] = (
    ("places", "avg(battle_places)"),
    ("rough_tests", "avg(rough_road_tests)"),
    ("rough_share", "avg((rough_road_tests > 0)::INTEGER)"),
    ("rough_failures", "avg(rough_road_failures)"),
    ("marches", "avg(marches)"),
    ("flank_marches", "avg(flank_marches)"),
    ("base_fell_share", "avg((base_fell IS NOT NULL)::INTEGER)"),
)


def cell_character(con: duckdb.DuckDBPyConnection, batch_id: str) -> list[CellCharacter]:
    """The character of every cell of ``batch_id`` that has runs, in cell order."""
    have = set(run_columns(con))
    stored = all(name in have for name, _ in RUN_COLUMNS_ADDED)
    extra = ", count(rough_road_tests), " + ", ".join(sql for _, sql in _STORED) if stored else ""
    rows = con.execute(
        f"SELECT cell, count(*), avg(days), median(days), avg(battles), median(battles){extra} "
        "FROM runs WHERE batch_id = ? GROUP BY cell ORDER BY cell",
        [batch_id],
    ).fetchall()
    out = []
    for row in rows:
        cell, n, d_mean, d_med, b_mean, b_med = row[:6]
        base = dict(cell=cell, n=n, days=(d_mean, d_med), battles=(b_mean, b_med))
        if not stored or not row[6]:  # no run of this cell has the columns filled
            out.append(CellCharacter(**base, stored=False))
            continue
        # by field name (mypy cannot match a dict's keys to the fields): means, 0 where NULL
        values: dict[str, Any] = {
            name: float(x or 0) for (name, _), x in zip(_STORED, row[7:], strict=True)
        }
        out.append(CellCharacter(**base, stored=True, **values))
    return out


def character_line(c: CellCharacter) -> str:
    """One line: ``cell 0 character: days 2.31 (median 2), battles ...``."""
    head = (
        f"cell {c.cell} character: days {c.days[0]:.2f} (median {c.days[1]:g}), "
        f"battles {c.battles[0]:.2f} (median {c.battles[1]:g})"
    )
    if not c.stored:
        return head + "; places and rough roads not stored (file written by an older version)"
    return (
        f"{head}, distinct places {c.places:.2f}, rough-road tests {c.rough_tests:.2f} "
        f"({100 * c.rough_share:.0f}% of campaigns, {c.rough_failures:.2f} failed), "
        f"marches {c.marches:.1f}, flank marches {c.flank_marches:.2f}, "
        f"base fell in {100 * c.base_fell_share:.0f}%"
    )
