"""``campaign sensitivity SPEC``: which rule parameters move campaign outcomes (SALib)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from campaign.cli import COMMANDS, app, common

if TYPE_CHECKING:
    import numpy as np

    from campaign.analysis.sensitivity import Parameter, SensitivityResult, SensitivitySpec
    from campaign.batch.plan import BatchPlan

__all__ = ["sensitivity"]


@app.command("sensitivity", short_help=COMMANDS["sensitivity"].short_help)
def sensitivity(
    spec: Annotated[
        Path,
        typer.Argument(metavar="SPEC", help="A sensitivity spec YAML (config/sensitivity/)."),
    ],
    method: Annotated[
        str | None, typer.Option(metavar="morris|sobol", help="The method (default: the spec's).")
    ] = None,
    runs: Annotated[int | None, typer.Option(help="Campaigns per design point.")] = None,
    samples: Annotated[
        int | None,
        typer.Option(help="Morris trajectories or Sobol' base samples (a power of 2)."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Root seed of the design and the runs.")] = None,
    workers: common.WorkersOption = None,
    backend: common.BackendOption = None,
    scheduler: common.SchedulerOption = None,
    output: Annotated[
        Path | None, common.results_option("the spec's output:, else sensitivity.duckdb")
    ] = None,
    plot: common.PlotOption = None,
    json_: Annotated[bool, typer.Option("--json", help="Print the indices as JSON.")] = False,
    quiet: common.QuietOption = False,
) -> None:
    """Which rule parameters move win rate, days, battles and losses (Morris or Sobol').

    SALib designs and indices with 95% bootstrap intervals, ranked per outcome.
    """
    from campaign.analysis.charts import sensitivity_chart
    from campaign.analysis.sensitivity import batch_spec, load_sensitivity_spec, write_table
    from campaign.batch.outputs import check_plot_folder, check_results_output
    from campaign.batch.plan import plan_batch
    from campaign.cli import fail

    if method is not None and method not in ("morris", "sobol"):
        fail(f"--method: {method!r} is not a method. Choose morris or sobol.")
    sspec, params = load_sensitivity_spec(spec, method, runs=runs, seed=seed, samples=samples)
    out = Path(output or sspec.output or "sensitivity.duckdb")
    # before anything is printed or run
    check_results_output(out, spec=spec if output is None and sspec.output else None)
    check_plot_folder(plot)
    problem, x = _design(sspec, params, spec, samples)
    bspec = batch_spec(
        sspec, params, x, workers=workers, backend=backend, scheduler=scheduler, output=str(out)
    )
    plan = plan_batch(bspec, str(spec), {"workers": "--workers"} if workers is not None else None)
    if not quiet:
        err = Console(stderr=True)
        err = err if err.is_terminal else Console(stderr=True, width=200)
        err.print(
            f"sensitivity {sspec.name}: {sspec.method}, {len(params)} parameters, {len(x)} design "
            f"points × {len(plan.cells) // len(x)} cell(s) × {sspec.runs} runs → {out}",
            highlight=False,
        )
    result = _run_and_analyse(plan, out, bspec, quiet, (sspec, params, problem, x))
    write_table(out, result)
    doc = result.document()
    files = sensitivity_chart(doc, plot) if plot is not None else []
    if json_:
        typer.echo(json.dumps(doc, indent=2))
        for f in files:
            typer.echo(f"wrote {f}", err=True)
        return
    probe = Console()
    console = probe if probe.is_terminal else Console(width=160)
    console.print(_indices_table(result, sspec))
    for note in _notes(result):
        console.print(note, style="dim", highlight=False)
    for p in params:
        console.print(f"  {p.key}: {p.describe()}", highlight=False)
    for f in files:
        console.print(f"wrote {f}", highlight=False)


def _design(
    sspec: SensitivitySpec, params: list[Parameter], spec: Path, samples: int | None
) -> tuple[dict[str, Any], np.ndarray]:
    """The SALib problem and design; a bad number is named where it came from: ``--samples``
    or the spec file (and its key).

    Raises
    ------
    BatchSpecError
        If the design cannot be made (the flag or the file named, with the fix).
    """
    from campaign.analysis.sensitivity import design
    from campaign.errors import BatchSpecError

    try:
        return design(sspec, params)
    except BatchSpecError as exc:  # name where the bad number came from: the flag or the file
        flag = exc.key == "samples" and samples is not None
        raise BatchSpecError(
            exc.what,
            source="--samples" if flag else str(spec),
            key=None if flag else exc.key,
            fix=exc.fix,
        ) from None


def _run_and_analyse(
    plan: BatchPlan,
    out: Path,
    bspec: Any,
    quiet: bool,
    design: tuple[SensitivitySpec, list[Parameter], dict[str, Any], np.ndarray],
) -> SensitivityResult:
    """Run the design's campaigns into ``out`` and compute the indices from its store."""
    from campaign.analysis.sensitivity import analyse

    return common.run_and_analyse(
        plan, out, bspec, quiet, lambda con, outcome: analyse(con, outcome.batch_id, *design)
    )


#: how the indices are printed
_LABEL = {"mu_star": "μ*", "ST": "S_T", "sigma": "σ", "S1": "S_1"}


def _indices_table(result: SensitivityResult, sspec: SensitivitySpec) -> Table:
    """Per outcome, the parameters ranked by the main index (μ* or S_T), with its 95%
    interval and the second index (σ, or S_1 with its interval)."""
    main = result.main_index
    second = "sigma" if sspec.method == "morris" else "S1"
    t = Table(
        title=f"{sspec.method}: {result.points} points × {sspec.runs} runs, ranked by "
        f"{_LABEL[main]}",
        title_justify="left",
    )
    for name in ("outcome", "rank", "parameter", _LABEL[main], "95% interval", _LABEL[second]):
        t.add_column(name, justify="left" if name in ("outcome", "parameter") else "right")
    for r in result.rows:
        sec = f"{r[second]:.3g}"
        if second == "S1":
            sec += f" [{r['S1_low']:.3g}, {r['S1_high']:.3g}]"
        t.add_row(
            r["outcome"] if r["rank"] == 1 else "",
            str(r["rank"]),
            r["parameter"],
            f"{r[main]:.3g}",
            f"[{r[f'{main}_low']:.3g}, {r[f'{main}_high']:.3g}]",
            sec,
        )
    return t


def _notes(result: SensitivityResult) -> tuple[str, ...]:
    """The notes under the table: the batch, the outcomes, what the main index measures."""
    return (
        f"batch {result.batch_id}; 95% bootstrap intervals",
        "outcomes: red_win (fraction of campaigns), days, battles, losses (actual hits, both "
        "sides), each the mean over a design point's runs",
        "μ* in outcome units per full range of the parameter"
        if result.main_index == "mu_star"
        else "S_T: share of the outcome's variance the parameter takes part in",
    )
