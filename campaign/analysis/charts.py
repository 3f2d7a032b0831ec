"""Charts of the analysis commands (matplotlib ``Figure`` objects, no pyplot state).

``ratings.{png,svg}`` and ``head-to-head.{png,svg}`` for a tournament;
``sensitivity.{png,svg}`` for a sensitivity analysis.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from campaign.errors import make_output_dir

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from campaign.analysis.tournament import TournamentResult

__all__ = ["sensitivity_chart", "tournament_charts"]


def _save(fig: Figure, out: Path, name: str) -> list[Path]:
    paths = [out / f"{name}.{ext}" for ext in ("png", "svg")]
    for path in paths:
        fig.savefig(path, dpi=120)
    return paths


def tournament_charts(result: TournamentResult, directory: str | Path) -> list[Path]:
    """Ratings with 95 % intervals, and the head-to-head score matrix (over all maps).

    Raises
    ------
    SimulatorError
        If ``directory`` cannot be created (names ``--plot``).
    """
    from matplotlib.figure import Figure

    out = make_output_dir(directory, "--plot")
    ranked = result.ranked()
    fig = Figure(figsize=(6.5, 0.55 * len(ranked) + 1.6))
    ax = fig.subplots()
    ys = list(range(len(ranked)))[::-1]
    elos = [e for _, _, e, _, _ in ranked]
    err = [[e - lo for _, _, e, lo, _ in ranked], [hi - e for _, _, e, _, hi in ranked]]
    ax.errorbar(elos, ys, xerr=err, fmt="o", color="#2c5aa0", capsize=4)
    ax.set_yticks(ys, [name for _, name, _, _, _ in ranked])
    ax.axvline(0, color="#999999", lw=0.8)
    ax.set_xlabel("Elo (0 = average doctrine), 95% bootstrap interval")
    ax.set_title(f"Doctrine ratings ({result.runs} seeds per pairing)")
    fig.tight_layout()
    written = _save(fig, out, "ratings")

    names = [name for _, name, _, _, _ in ranked]
    score = {(h.doctrine, h.opponent): h.score for h in result.head_to_head if h.map == "*"}
    grid = [[score.get((a, b), float("nan")) for b in names] for a in names]
    fig = Figure(figsize=(1.0 * len(names) + 2.5, 0.8 * len(names) + 1.6))
    ax = fig.subplots()
    im = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if not math.isnan(v):
                ax.text(j, i, f"{100 * v:.0f}%", ha="center", va="center", fontsize=9)
    ax.set_xlabel("opponent")
    ax.set_title("Score against each opponent (both sides, all maps)")
    fig.colorbar(im, ax=ax, fraction=0.046)
    fig.tight_layout()
    return written + _save(fig, out, "head-to-head")


def sensitivity_chart(doc: dict[str, Any], directory: str | Path) -> list[Path]:
    """One panel per outcome: each parameter's main index with its 95 % interval.

    ``doc`` is :meth:`campaign.analysis.sensitivity.SensitivityResult.document`.
    """
    from matplotlib.figure import Figure

    out = make_output_dir(directory, "--plot")
    outcomes = doc["outcomes"]
    cols = 2 if len(outcomes) > 1 else 1
    rows_n = -(-len(outcomes) // cols)
    fig = Figure(figsize=(11, rows_n * (0.42 * len(doc["parameters"]) + 1.6) + 0.6))
    axes = list(fig.subplots(rows_n, cols, squeeze=False).flat)[: len(outcomes)]
    index = doc["main_index"]
    for ax, outcome in zip(axes, outcomes, strict=True):
        rows = [r for r in doc["indices"] if r["outcome"] == outcome]
        rows.sort(key=lambda r: r[index])
        ys = list(range(len(rows)))
        vals = [r[index] for r in rows]
        err = [
            [max(v - r[f"{index}_low"], 0) for v, r in zip(vals, rows, strict=True)],
            [max(r[f"{index}_high"] - v, 0) for v, r in zip(vals, rows, strict=True)],
        ]
        ax.barh(ys, vals, xerr=err, color="#2c5aa0", capsize=3)
        ax.set_yticks(ys, [r["parameter"] for r in rows], fontsize=8)
        ax.set_title(outcome, fontsize=9)
        ax.set_xlabel(index, fontsize=8)
    fig.suptitle(f"{doc['method']} sensitivity ({doc['points']} design points)", fontsize=10)
    fig.tight_layout()
    return _save(fig, out, "sensitivity")
