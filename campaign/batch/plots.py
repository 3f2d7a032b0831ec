"""Charts of a batch (matplotlib ``Figure`` objects, no pyplot state): PNG and SVG files.

``win-rate.{png,svg}``
    Win rate per cell for each side with 95 % Wilson error bars, and the draw rate.
``campaign-length.{png,svg}``
    Distribution of campaign length (days) per cell.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from campaign.batch.stats import cell_summaries
from campaign.errors import make_output_dir

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["write_plots"]


def write_plots(con: duckdb.DuckDBPyConnection, batch_id: str, directory: str | Path) -> list[Path]:
    """Write the batch's charts to ``directory`` (created when missing).

    Returns
    -------
    list of Path
        The files written (empty when the batch has no runs).
    """
    cells = cell_summaries(con, batch_id)
    if not cells:
        return []
    from matplotlib.figure import Figure  # no pyplot: no global figure state

    out = make_output_dir(directory, "--plot")
    written: list[Path] = []
    labels = [f"{c.cell}: {c.label}" for c in cells]
    x = list(range(len(cells)))

    fig = Figure(figsize=(max(6.0, 1.1 * len(cells) + 3), 4.5))
    ax = fig.subplots()
    width = 0.27
    for k, (side, colour) in enumerate((("red", "#c0392b"), ("blue", "#2c5aa0"))):
        rates = [c.win_rate(side) for c in cells]
        ivs = [c.win_interval(side) for c in cells]
        err = [
            [r - lo for r, (lo, _) in zip(rates, ivs, strict=True)],
            [hi - r for r, (_, hi) in zip(rates, ivs, strict=True)],
        ]
        ax.bar(
            [i + (k - 1) * width for i in x],
            rates,
            width,
            yerr=err,
            capsize=3,
            color=colour,
            label=f"{side} wins",
        )
    ax.bar(
        [i + width for i in x], [c.draw_rate for c in cells], width, color="#999999", label="draws"
    )
    ax.set_xticks(x, labels, rotation=20, ha="right", fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("fraction of campaigns")
    ax.set_title("Win rate per cell (95% Wilson intervals)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    written += _save(fig, out, "win-rate")

    rows = con.execute(
        "SELECT cell, days, count(*) FROM runs WHERE batch_id = ? GROUP BY cell, days "
        "ORDER BY cell, days",
        [batch_id],
    ).fetchall()
    fig = Figure(figsize=(7, 4.5))
    ax = fig.subplots()
    n_by_cell = {c.cell: c.n for c in cells}
    for c, label in zip(cells, labels, strict=True):
        pts = [(d, k / n_by_cell[c.cell]) for cell, d, k in rows if cell == c.cell]
        ax.plot([d for d, _ in pts], [f for _, f in pts], marker="o", label=label)
    ax.set_xlabel("campaign length (days)")
    ax.set_ylabel("fraction of campaigns")
    ax.set_title("Campaign length distribution")
    ax.legend(fontsize=8)
    fig.tight_layout()
    written += _save(fig, out, "campaign-length")
    return written


def _save(fig: Figure, out: Path, name: str) -> list[Path]:
    """Write one chart as PNG and SVG; returns the two paths."""
    paths = [out / f"{name}.{ext}" for ext in ("png", "svg")]
    for path in paths:
        fig.savefig(path, dpi=120)
    return paths
