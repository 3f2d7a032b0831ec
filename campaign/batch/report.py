"""Summary tables of a batch (Rich) and their machine-readable form (JSON)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import duckdb
from rich.console import Console
from rich.table import Table

from campaign.batch.character import cell_character, character_line
from campaign.batch.stats import (
    CellSummary,
    PairedDifference,
    cell_summaries,
    paired_differences,
)

__all__ = ["print_summary", "summary_document"]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _spread(values: tuple[float, float, float, float], digits: int = 1) -> str:
    mean, q1, med, q3 = values
    return f"{mean:.{digits}f} ({q1:.{digits}f}/{med:.{digits}f}/{q3:.{digits}f})"


def _cells_table(title: str, cells: list[CellSummary]) -> Table:
    table = Table(title=title, title_justify="left", show_lines=False)
    table.add_column("cell", justify="right")
    table.add_column("levels")
    table.add_column("runs", justify="right")
    table.add_column("red win % [95% CI]", justify="right", style="red")
    table.add_column("blue win % [95% CI]", justify="right", style="blue")
    table.add_column("draw %", justify="right")
    table.add_column("days mean (q1/med/q3)", justify="right")
    table.add_column("minutes mean (q1/med/q3)", justify="right")
    table.add_column("battles mean (q1/med/q3)", justify="right")
    table.add_column("losses red/blue", justify="right")
    for c in cells:
        wins = []
        for side in ("red", "blue"):
            lo, hi = c.win_interval(side)
            wins.append(f"{_pct(c.win_rate(side))} [{_pct(lo)}–{_pct(hi)}]")
        table.add_row(
            str(c.cell),
            c.label,
            str(c.n),
            *wins,
            _pct(c.draw_rate),
            _spread(c.days, 2),
            _spread(c.minutes, 0),
            _spread(c.battles, 2),
            f"{c.losses['red']:.1f}/{c.losses['blue']:.1f}",
        )
    return table


def _pairs_table(pairs: list[PairedDifference]) -> Table:
    table = Table(
        title="Paired differences (b − a, same seeds; 95% normal interval)",
        title_justify="left",
    )
    for name, justify in (
        ("factor", "left"),
        ("a → b", "left"),
        ("metric", "left"),
        ("runs", "right"),
        ("mean diff", "right"),
        ("95% interval", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for p in pairs:
        scale, unit = (100.0, " pts") if p.metric.endswith("win") else (1.0, "")
        table.add_row(
            p.factor,
            f"{p.level_a} → {p.level_b}",
            p.metric + (" %" if unit else ""),
            str(p.n),
            f"{scale * p.mean:+.2f}{unit}",
            f"[{scale * p.low:+.2f}, {scale * p.high:+.2f}]",
        )
    return table


def print_summary(
    con: duckdb.DuckDBPyConnection, batch_id: str, console: Console, title: str = ""
) -> None:
    """Print the per-cell table and the paired differences of one batch."""
    cells = cell_summaries(con, batch_id)
    if not cells:
        console.print(f"batch {batch_id}: no runs stored yet")
        return
    console.print(_cells_table(title or f"batch {batch_id}", cells))
    console.print(
        "win % with 95% Wilson interval; lengths as mean (quartiles); minutes since 06:00 on day 1",
        style="dim",
    )
    for character in cell_character(con, batch_id):
        console.print(character_line(character), highlight=False)
    pairs = paired_differences(con, batch_id, cells)
    if pairs:
        console.print(_pairs_table(pairs))


def summary_document(con: duckdb.DuckDBPyConnection, batch_id: str) -> dict[str, Any]:
    """The summary as plain data (for ``--json``)."""
    cells = cell_summaries(con, batch_id)
    doc_cells = []
    for c in cells:
        d = asdict(c)
        d["win_rate"] = {s: c.win_rate(s) for s in ("red", "blue")}
        d["win_interval"] = {s: list(c.win_interval(s)) for s in ("red", "blue")}
        d["draw_rate"] = c.draw_rate
        doc_cells.append(d)
    pairs = [asdict(p) for p in paired_differences(con, batch_id, cells)]
    character = [asdict(c) for c in cell_character(con, batch_id)]
    return {
        "batch_id": batch_id,
        "cells": doc_cells,
        "character": character,
        "paired_differences": pairs,
    }
