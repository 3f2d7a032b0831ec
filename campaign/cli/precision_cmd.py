"""``campaign batch run SPEC --precision PTS``: the batch, run until its intervals are narrow.

Called from :mod:`campaign.cli.batch_cmd`; the method is in :mod:`campaign.analysis.precision`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

__all__ = ["print_precision", "run_with_precision"]


def _iv(lo: float, hi: float, signed: bool = False) -> str:
    fmt = "+.1f" if signed else ".1f"
    return f"[{100 * lo:{fmt}}, {100 * hi:{fmt}}]"


def print_precision(report: Any, points: float, cap: int, console: Console) -> None:
    """The per-cell and per-pair 95 % confidence sequences and whether each met ±points."""
    limit = points / 100 + 1e-12
    t = Table(
        title=f"Precision: 95% confidence sequences (anytime-valid), target ±{points:g} pts",
        title_justify="left",
    )
    for name in ("cell", "levels", "runs", "red win % CS", "blue win % CS", "±pts", "status"):
        t.add_column(name, justify="left" if name in ("levels", "status") else "right")
    for c in report.cells:
        status = "reached" if c.widest() <= limit else f"cap ({cap} runs)"
        t.add_row(
            str(c.cell),
            c.label,
            str(c.runs),
            _iv(*c.red),
            _iv(*c.blue),
            f"{100 * c.widest():.2f}",
            status,
        )
    console.print(t)
    if report.pairs:
        t = Table(
            title="Paired differences b − a (common seeds): mean and 95% confidence sequence",
            title_justify="left",
        )
        for name in ("factor", "a → b", "runs", "red win pts", "blue win pts", "±pts", "status"):
            t.add_column(name, justify="left" if name in ("factor", "a → b", "status") else "right")
        for p in report.pairs:
            status = "reached" if p.widest() <= limit else "cap"
            t.add_row(
                p.factor,
                f"{p.a} → {p.b}",
                str(p.runs),
                f"{100 * p.red[0]:+.1f} {_iv(p.red[1], p.red[2], True)}",
                f"{100 * p.blue[0]:+.1f} {_iv(p.blue[1], p.blue[2], True)}",
                f"{100 * p.widest():.2f}",
                status,
            )
        console.print(t)
    console.print(
        "PrPl-EB confidence sequences (Waudby-Smith & Ramdas 2024): valid at every look, so "
        "stopping when narrow keeps the 95% coverage",
        style="dim",
        highlight=False,
    )


def run_with_precision(
    plan: Any,
    out: Path,
    batch: Any,
    points: float,
    max_runs: int,
    look: int,
    *,
    progress: bool,
    progress_every: float,
    console: Console | None,
) -> Any:
    """Run ``plan`` until every win-rate interval is within ±points (or the cap); print the
    precision tables when ``console`` is given. Returns the last round's outcome."""
    from campaign.analysis.precision import run_to_precision

    outcome, report, _ = run_to_precision(
        plan,
        out,
        points,
        max_runs,
        look,
        progress=progress,
        workers=batch.workers,
        backend=batch.backend,
        scheduler=batch.scheduler,
        chunk_size=batch.chunk_size,
        progress_every=progress_every,
    )
    if console is not None:
        print_precision(report, points, max_runs, console)
    return outcome
