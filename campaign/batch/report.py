"""Summary tables of a batch (Rich) and their machine-readable form (JSON)."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

import duckdb
from rich import box
from rich.console import Console
from rich.table import Table

from campaign.batch.character import cell_character, character_line
from campaign.batch.stats import (
    CellSummary,
    PairedDifference,
    cell_summaries,
    paired_differences,
)

__all__ = ["print_summary", "print_wrapped", "summary_document"]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _spread(values: tuple[float, float, float, float], digits: int = 1) -> str:
    mean, q1, med, q3 = values
    return f"{mean:.{digits}f} ({q1:.{digits}f}/{med:.{digits}f}/{q3:.{digits}f})"


def _wins(c: CellSummary, interval: Callable[[float, float], str]) -> list[str]:
    """Red's and Blue's win rate (%) in a cell, each followed by its 95% interval as
    ``interval(low, high)`` writes it (fractions)."""
    return [f"{_pct(c.win_rate(s))} {interval(*c.win_interval(s))}" for s in ("red", "blue")]


def _cells_table(cells: list[CellSummary]) -> Table:
    """Per cell: the levels and the results. On a narrow terminal Rich wraps every column
    (``overflow="fold"``): a cell's levels and figures wrap onto more lines, never cut."""
    table = Table(show_lines=len(cells) > 1)
    fold = {"overflow": "fold"}
    table.add_column("cell", justify="right", no_wrap=True)
    table.add_column("levels", min_width=12, **fold)  # type: ignore[arg-type]
    table.add_column("runs", justify="right", no_wrap=True)
    table.add_column("red win % [95% CI]", justify="right", style="red", **fold)  # type: ignore[arg-type]
    table.add_column("blue win % [95% CI]", justify="right", style="blue", **fold)  # type: ignore[arg-type]
    table.add_column("draw %", justify="right", **fold)  # type: ignore[arg-type]
    table.add_column("days mean (q1/med/q3)", justify="right", **fold)  # type: ignore[arg-type]
    table.add_column("minutes mean (q1/med/q3)", justify="right", **fold)  # type: ignore[arg-type]
    table.add_column("battles mean (q1/med/q3)", justify="right", **fold)  # type: ignore[arg-type]
    table.add_column("losses red/blue", justify="right", **fold)  # type: ignore[arg-type]
    for c in cells:
        wins = _wins(c, lambda lo, hi: f"[{_pct(lo)}–{_pct(hi)}]")
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


#: Below this console width the summary is printed as two narrow tables (house).
WIDE = 170


def _narrow_tables(cells: list[CellSummary]) -> list[Table]:
    """The summary for a narrow terminal (80 columns): a key of each cell's levels, then its
    results with means only (the quartiles are in the wide table and in ``--json``). Ids and
    numbers are never cut; long levels wrap."""
    key = Table(
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    key.add_column("cell", justify="right", no_wrap=True)
    key.add_column("levels", overflow="fold")
    res = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for name in ("cell", "runs", "red win %", "blue win %", "draw %", "days", "battles"):
        res.add_column(name, justify="right", no_wrap=True)
    res.add_column("losses", justify="right", no_wrap=True)
    for c in cells:
        key.add_row(str(c.cell), c.label)
        wins = _wins(c, lambda lo, hi: f"({100 * lo:.0f}–{100 * hi:.0f})")
        res.add_row(
            str(c.cell),
            str(c.n),
            *wins,
            _pct(c.draw_rate),
            f"{c.days[0]:.2f}",
            f"{c.battles[0]:.2f}",
            f"{c.losses['red']:.1f}/{c.losses['blue']:.1f}",
        )
    return [key, res]


def _pairs_table(pairs: list[PairedDifference], wide: bool = True) -> Table:
    """Paired differences between cells (numbers as in the cells table); narrow (80
    columns): no levels or runs columns (the cells tables show them), one decimal, no
    borders."""
    table = Table(
        title="Paired differences (b − a, same seeds; 95% normal interval)",
        title_justify="left",
        box=box.HEAVY_HEAD if wide else box.SIMPLE_HEAD,
        pad_edge=wide,
        collapse_padding=not wide,
    )
    columns = [("factor", "left"), ("cells", "right")]
    columns += [("a → b", "left"), ("metric", "left"), ("runs", "right")] if wide else []
    columns += [] if wide else [("metric", "left")]
    columns += [("mean diff", "right"), ("95% interval", "right")]
    for name, justify in columns:
        table.add_column(name, justify=justify, no_wrap=name == "factor", overflow="fold")  # type: ignore[arg-type]
    digits = 2 if wide else 1
    for p in pairs:
        scale, unit = (100.0, " pts") if p.metric.endswith("win") else (1.0, "")
        table.add_row(
            p.factor,
            f"{p.a}→{p.b}",
            *([f"{p.level_a} → {p.level_b}"] if wide else []),
            p.metric + (" %" if unit else ""),
            *([str(p.n)] if wide else []),
            f"{scale * p.mean:+.{digits}f}{unit}",
            f"[{scale * p.low:+.{digits}f}, {scale * p.high:+.{digits}f}]",
        )
    return table


def fixed_settings(con: duckdb.DuckDBPyConnection, batch_id: str) -> dict[str, str]:
    """What every cell of a batch shares (the factors the cells table leaves out): ``map``,
    ``rules`` (variants and overrides) and ``doctrines`` (Red's and Blue's, RULES.md §8.8),
    each present only when it is the same in every cell.

    When the rules differ between cells, the parts of them every cell shares are named
    instead: ``variants`` (when the same and not ``default``) and ``overrides`` (each
    ``KEY=VALUE`` set to one value in every cell, e.g. ``--set battle.max_turns=20`` beside a
    swept variant), so no setting of the batch goes unmentioned.
    """
    rows = con.execute(
        "SELECT DISTINCT map, rules_label, red_doctrine, blue_doctrine, variants, "
        "overrides_json FROM cells WHERE batch_id = ?",
        [batch_id],
    ).fetchall()
    fixed: dict[str, str] = {}
    for k, name in enumerate(("map", "rules")):
        if len({r[k] for r in rows}) == 1:
            fixed[name] = rows[0][k]
    if "rules" not in fixed and rows:
        if len({r[4] for r in rows}) == 1 and rows[0][4] != "default":
            fixed["variants"] = rows[0][4]
        shared = _shared_overrides([json.loads(r[5] or "{}") for r in rows])
        if shared:
            fixed["overrides"] = ", ".join(shared)
    if len({(r[2], r[3]) for r in rows}) == 1:
        fixed["doctrines"] = f"Red {rows[0][2]} against Blue {rows[0][3]}"
    return fixed


def _shared_overrides(overrides: list[dict[str, Any]]) -> list[str]:
    """The overrides set to the same value in every cell, as ``KEY=VALUE`` texts (values as
    JSON, text bare), in key order."""
    first, *others = overrides
    return [
        f"{key}={value if isinstance(value, str) else json.dumps(value)}"
        for key, value in sorted(first.items())
        if all(key in o and json.dumps(o[key]) == json.dumps(value) for o in others)
    ]


def print_wrapped(console: Console, text: str, indent: str = "", style: str = "") -> None:
    """Print ``text`` wrapped to the console's width at spaces only: a word longer than a
    line (a batch id, a path, ``map=waterloo-1815``) stays whole on a line of its own, so
    it can be copied as it is; continuation lines start with ``indent``."""
    lines = textwrap.fill(
        text,
        width=max(console.width, 20),
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
    console.print(lines, style=style or None, highlight=False, soft_wrap=True)


def print_summary(
    con: duckdb.DuckDBPyConnection, batch_id: str, console: Console, title: str = ""
) -> None:
    """Print the per-cell table and the paired differences of one batch.

    The title (default ``batch ID``) is a line of its own above the tables, wrapped at
    spaces only: the batch id is never split, so it can be copied for ``--batch``.
    """
    cells = cell_summaries(con, batch_id)
    if not cells:
        console.print(f"batch {batch_id}: no runs stored yet")
        return
    print_wrapped(console, title or f"batch {batch_id}", style="table.title")
    if console.width >= WIDE:
        console.print(_cells_table(cells))
        note = "win % with 95% Wilson interval; lengths as mean (quartiles); minutes since "
        note += "dawn of day 1, nights included"
    else:
        for table in _narrow_tables(cells):
            console.print(table)
        note = "win % with 95% Wilson interval; days and battles as means (quartiles: --json)"
    console.print(note, style="dim")
    fixed = fixed_settings(con, batch_id)
    lines = []
    if fixed:
        lines.append("the same in every cell: " + "; ".join(f"{k} {v}" for k, v in fixed.items()))
    lines += [character_line(character) for character in cell_character(con, batch_id)]
    for line in lines:
        if console.width < WIDE:  # wrapped, its continuation lines indented
            print_wrapped(console, line, "  ")
        else:
            console.print(line, highlight=False, soft_wrap=True)
    pairs = paired_differences(con, batch_id, cells)
    if pairs:
        console.print(_pairs_table(pairs, console.width >= WIDE))


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
        "fixed": fixed_settings(con, batch_id),
        "cells": doc_cells,
        "character": character,
        "paired_differences": pairs,
    }
