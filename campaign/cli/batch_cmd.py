"""``campaign batch``: what-if sweeps of many campaigns, their report, export and charts.

``campaign batch SPEC.yaml [flags]`` (same as ``campaign batch run SPEC.yaml``) runs or resumes
a batch; ``campaign batch report results.duckdb`` prints its summary; ``campaign batch export
results.duckdb --parquet DIR | --csv DIR`` writes every table out.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from typer.core import TyperGroup

from campaign.cli import COMMANDS, app, fail
from campaign.cli.common import (
    STRATEGY_DOCTRINES,
    BackendOption,
    EngineOption,
    PlotOption,
    SchedulerOption,
    WorkersOption,
    batch_interrupt_exits,
    repeatable,
    results_option,
)

if TYPE_CHECKING:
    from campaign.batch.plan import BatchPlan
    from campaign.batch.spec import BatchSpec
    from campaign.save.batch import SaveStart

__all__ = ["batch_app"]


class _DefaultRunGroup(TyperGroup):
    """A group where an unknown first word (a spec file or a flag) means ``run``."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


batch_app = typer.Typer(
    cls=_DefaultRunGroup,
    help="Run many campaigns over a grid of maps × variants × overrides × doctrines × seeds "
    "(`campaign batch SPEC.yaml`), report them and export them.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(batch_app, name="batch", short_help=COMMANDS["batch"].short_help)


#: the results file ``batch report`` and ``batch export`` read
ResultsArgument = Annotated[
    Path, typer.Argument(metavar="RESULTS", help="A results file written by `campaign batch`.")
]

#: The width of the summary when piped or redirected (and no COLUMNS asked for another):
#: the narrow layout, every line within 80 columns (``COLUMNS=250`` gives the wide table).
PIPED_WIDTH = 80


def _console(json_out: bool = False) -> Console:
    probe = Console(stderr=json_out)
    if probe.is_terminal or "COLUMNS" in os.environ:  # a terminal, or a width asked for
        return probe
    return Console(width=PIPED_WIDTH, stderr=json_out)


@batch_app.command("run")
def run(
    spec: Annotated[
        Path | None,
        typer.Argument(metavar="SPEC", help="A batch spec YAML (config/batches/*.yaml)."),
    ] = None,
    map_: Annotated[
        list[str] | None, repeatable("MAP", "A map file or shipped name", "--map")
    ] = None,
    variant: Annotated[
        list[str] | None,
        repeatable("NAME", "A rules variant, 'default', or a+b", how=": one level each"),
    ] = None,
    set_: Annotated[
        list[str] | None,
        repeatable(
            "KEY=VALUE",
            "A dotted rules override; a [list] sweeps its values, one cell each, e.g. "
            "'campaign.rough_road_pass=[40,70]'",
            "--set",
        ),
    ] = None,
    doctrines: Annotated[
        list[str] | None,
        repeatable(
            "RED:BLUE",
            f"A pair of strategy doctrines ({', '.join(STRATEGY_DOCTRINES)}; RULES.md §8.8), "
            "e.g. aggressive:cautious",
        ),
    ] = None,
    runs: Annotated[
        int | None,
        typer.Option(help="Campaigns per cell (not with --precision: use --max-runs there)."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Root seed (default: resume or fresh).")] = None,
    workers: WorkersOption = None,
    backend: BackendOption = None,
    engine: EngineOption = None,
    scheduler: SchedulerOption = None,
    chunk_size: Annotated[
        int | None, typer.Option(help="Runs per task (default: 200, shrinking to 4 near the end).")
    ] = None,
    output: Annotated[
        Path | None, results_option("the spec's output:, else results.duckdb")
    ] = None,
    plot: PlotOption = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress or summary.")] = False,
    progress_every: Annotated[
        float, typer.Option(hidden=True, help="Seconds between plain progress lines.")
    ] = 5.0,
    precision: Annotated[
        float | None,
        typer.Option(
            metavar="PTS",
            help="Run each cell until its 95% intervals are within ±PTS points; --max-runs "
            "caps the runs (--runs is refused with it, a spec's runs: is not used).",
        ),
    ] = None,
    max_runs: Annotated[
        int | None,
        typer.Option(help="With --precision: at most this many runs per cell [default: 10000]."),
    ] = None,
    look: Annotated[
        int | None,
        typer.Option(help="With --precision: runs before the first look [default: 100]."),
    ] = None,
    from_save: Annotated[
        Path | None,
        typer.Option(
            "--from",
            metavar="SAVE",
            help="Start every cell from this save's state, on its map (no --map): the same "
            "past, then the cell's rules over the save's, with run i's dice the same in every "
            "cell.",
        ),
    ] = None,
) -> None:
    """Run (or resume) a batch; print the summary at the end."""
    from battle.engine import use_engine

    use_engine(engine)
    from campaign.batch.server import start_server
    from campaign.batch.spec import spec_from_flags

    max_runs, look = _precision_limits(precision, runs, max_runs, look)
    base = _spec_data(spec)  # validated with the flags
    source = str(spec) if spec is not None else "flags"
    flags = {
        "maps": map_,
        "variants": variant,
        "set": set_,
        "doctrines": doctrines,
        "runs": runs,
        "seed": seed,
        "workers": workers,
        "backend": backend,
        "scheduler": scheduler,
        "chunk_size": chunk_size,
        "output": str(output) if output else None,
    }
    batch, start = _from_save(spec_from_flags(base, flags, source), from_save, source, map_)
    out = Path(batch.output or "results.duckdb")
    _check_outputs(out, spec if output is None and batch.output else None, plot)
    if batch.backend == "local" and not batch.scheduler and batch.workers != 0:
        start_server()  # the workers' fork server warms the engine while the batch is planned
    from campaign.batch.plan import plan_batch

    plan = plan_batch(batch, source, _given(flags, set_), start)  # every cell validated first
    console = _console()
    if not quiet:
        _announce(
            console,
            batch,
            len(plan.cells),
            out,
            spec is None,
            _runs_text(precision, max_runs, batch.runs),
        )
    with batch_interrupt_exits(out):
        outcome = _run_cells(
            plan,
            out,
            batch,
            (precision, max_runs, look),
            progress_every,
            None if quiet else console,
        )
    if not quiet:
        from campaign.batch.report import print_wrapped

        print_wrapped(
            console,
            f"{outcome.done_now} runs in {outcome.seconds:.1f} s "
            f"({outcome.rate:,.1f} runs/s); {outcome.already_done} were already stored; "
            f"seed entropy {outcome.entropy}",
            "  ",
        )
    _summary(out, outcome.batch_id, quiet, plot)


def _check_outputs(out: Path, spec: Path | None, plot: Path | None) -> None:
    """Refuse a results file or a charts folder that could not be written, before anything
    is printed or run (``spec``: the spec file whose ``output:`` named ``out``, else None).
    """
    from campaign.batch.outputs import check_plot_folder, check_results_output

    check_results_output(out, spec=spec)
    check_plot_folder(plot)


def _precision_limits(
    precision: float | None, runs: int | None, max_runs: int | None, look: int | None
) -> tuple[int, int]:
    """``--max-runs`` and ``--look`` (defaults 10,000 and 100), refused without
    ``--precision``; ``--runs`` refused with it; the precision bounded before any work.

    Raises
    ------
    typer.Exit
        (exit 2, through :func:`~campaign.cli.fail`) on a refused combination.
    """
    if precision is None and (max_runs is not None or look is not None):
        fail(
            "--max-runs and --look only work with --precision: without it a batch runs the "
            "spec's runs per cell. Fix: add --precision PTS, or set the runs with --runs N."
        )
    if precision is not None and runs is not None:
        fail(
            f"--runs {runs} with --precision: --precision decides how many runs each cell "
            "needs, so a fixed --runs would be ignored. Fix: cap the runs with --max-runs "
            f"{runs} instead, or leave --precision out to run exactly {runs} per cell."
        )
    max_runs = 10_000 if max_runs is None else max_runs
    look = 100 if look is None else look
    if precision is not None:  # bounded before any work
        from campaign.analysis.precision import check_precision

        check_precision(precision, max_runs, min(look, max_runs))
    return max_runs, look


def _spec_data(spec: Path | None) -> dict[str, Any] | None:
    """The spec file's data (None: a batch from flags only)."""
    from campaign.batch.spec import read_spec_data

    return read_spec_data(spec) if spec is not None else None


def _from_save(
    batch: BatchSpec, from_save: Path | None, source: str, map_flags: list[str] | None
) -> tuple[BatchSpec, SaveStart | None]:
    """The batch and its cells' start: ``--from``'s save state, else None (from the map).

    Raises
    ------
    ConfigError
        ``--map`` given with ``--from`` (a batch from a save plays the save's map).
    SaveError
        A save that cannot be read.
    """
    if from_save is None:
        return batch, None
    from battle.errors import ConfigError
    from campaign.save.batch import spec_from_save, start_of
    from campaign.save.format import read_save

    saved = read_save(from_save, "--from")  # a missing, huge or non-text file is refused first
    if map_flags:
        raise ConfigError(
            f"a batch --from a save plays the save's map ({saved.inputs.map.source}), so "
            "--map cannot choose one",
            key="--map",
            fix="Leave --map out with --from.",
        )
    start = start_of(from_save.read_text(encoding="utf-8"), str(from_save))
    return spec_from_save(batch, start, source), start


def _given(flags: dict[str, Any], set_: list[str] | None) -> dict[str, str]:
    """The spec fields given by flags, and the flag that gave each (for the plan's errors)."""
    from campaign.batch.spec import FLAG_OF_FIELD, parse_set_flag

    given = {k: FLAG_OF_FIELD[k] for k, v in flags.items() if v not in (None, []) and k != "set"}
    given |= {f"set.{parse_set_flag(t)[0]}": "--set" for t in set_ or []}  # keys from flags
    return given


def _runs_text(precision: float | None, max_runs: int, runs: int) -> str:
    return f"up to {max_runs} runs" if precision is not None else f"{runs} runs"


def _announce(
    console: Console, batch: BatchSpec, cells: int, out: Path, from_flags: bool, runs_text: str
) -> None:
    """The batch's first lines: its cells and runs, and what the defaults chose when no spec
    was given."""
    from campaign.batch.report import print_wrapped

    if from_flags:  # flags only: say what the defaults chose
        print_wrapped(
            console,
            f"no spec file given: the batch is built from flags and defaults (maps: "
            f"{', '.join(batch.maps)}); for a spec file see config/batches/*.yaml",
            "  ",
        )
    print_wrapped(
        console,
        f"{'batch' if batch.name == 'batch' else 'batch ' + batch.name}: "
        f"{cells} cell(s) × {runs_text} → {out}",
        "  ",
    )


def _run_cells(
    plan: BatchPlan,
    out: Path,
    batch: BatchSpec,
    limits: tuple[float | None, int, int],
    progress_every: float,
    console: Console | None,
) -> Any:
    """Run the plan's cells: to a precision (``limits`` = precision, max runs, look), or the
    spec's runs each; progress unless quiet (``console`` None)."""
    precision, max_runs, look = limits
    if precision is not None:
        from campaign.cli.precision_cmd import run_with_precision

        return run_with_precision(
            plan,
            out,
            batch,
            precision,
            max_runs,
            min(look, max_runs),
            progress=console is not None,
            progress_every=progress_every,
            console=console,
        )
    from campaign.batch.runner import run_batch

    return run_batch(
        plan,
        out,
        workers=batch.workers,
        backend=batch.backend,
        scheduler=batch.scheduler,
        chunk_size=batch.chunk_size,
        progress=console is not None,
        progress_every=progress_every,
    )


def _summary(path: Path, batch_id: str, quiet: bool, plot: Path | None) -> None:
    from campaign.batch.plots import write_plots
    from campaign.batch.report import print_summary
    from campaign.batch.store import open_results

    store = open_results(path)
    try:
        if not quiet:
            print_summary(store.con, batch_id, _console(), title=f"batch {batch_id} ({path})")
        if plot is not None:
            for file in write_plots(store.con, batch_id, plot):
                typer.echo(f"wrote {file}")
    finally:
        store.close()


@batch_app.command("report", short_help="Summarise a results file: rates and paired differences.")
def report(
    results: ResultsArgument,
    batch: Annotated[
        str | None, typer.Option(help="Batch id (default: every batch in the file).")
    ] = None,
    plot: PlotOption = None,
    json_: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Print the summary of a results file: per-cell rates and paired differences."""
    from campaign.batch.outputs import check_plot_folder
    from campaign.batch.plots import write_plots
    from campaign.batch.report import print_summary, summary_document
    from campaign.batch.stats import batch_ids
    from campaign.batch.store import open_results

    check_plot_folder(plot)  # before any summary is printed
    store = open_results(results)
    try:
        ids = batch_ids(store.con)
        if batch is not None:
            known = ids
            ids = [(i, n) for i, n in ids if i == batch]
            if not ids:
                fail(_unknown_batch(results, batch, known))
        docs = []
        for batch_id, name in ids:
            if json_:
                docs.append(summary_document(store.con, batch_id))
            else:
                print_summary(store.con, batch_id, _console(), title=f"{name} — batch {batch_id}")
            if plot is not None:
                target = plot if len(ids) == 1 else plot / batch_id
                for file in write_plots(store.con, batch_id, target):
                    typer.echo(f"wrote {file}", err=json_)
        if json_:
            typer.echo(json.dumps(docs, indent=2))
    finally:
        store.close()


def _unknown_batch(results: Path, batch: str, known: list[tuple[str, str]]) -> str:
    """The error for a ``--batch`` id the file does not hold: its ids, the closest first."""
    import difflib

    if not known:
        return f"{results}: --batch: no batch with id {batch!r}; the file holds no batch yet."
    close = difflib.get_close_matches(batch, [i for i, _ in known], n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    listed = ", ".join(f"{i} ({n})" for i, n in known)
    return (
        f"{results}: --batch: no batch with id {batch!r} (the file holds: {listed}).{hint} "
        "Give one of these ids, or leave --batch out to report every batch."
    )


@batch_app.command("export", short_help="Export the results tables as Parquet or CSV.")
def export(
    results: ResultsArgument,
    parquet: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="Write one Parquet file a table into this folder."),
    ] = None,
    csv: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="Write one CSV file a table into this folder."),
    ] = None,
) -> None:
    """Export the tables batches, cells, runs and battles as Parquet or CSV files."""
    from campaign.batch.store import export_results

    if parquet is None and csv is None:
        fail(
            f"{results}: nothing to write: batch export writes the results tables (batches, "
            "cells, runs, battles) into a folder. Give --parquet DIR (one Parquet file a "
            "table) or --csv DIR (one CSV file a table), e.g. --csv results-csv."
        )
    if parquet is not None and csv is not None:
        fail(
            "--parquet and --csv: give only one (one format a run). Run the command twice "
            "for both formats."
        )
    fmt, directory = ("parquet", parquet) if parquet is not None else ("csv", csv)
    assert directory is not None  # exactly one was given
    for file in export_results(results, directory, fmt):
        typer.echo(f"wrote {file}")
