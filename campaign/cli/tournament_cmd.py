"""``campaign tournament``: every ordered pair of strategy doctrines on every map, rated."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console, JustifyMethod
from rich.table import Table

from battle.errors import ConfigError
from campaign.cli import COMMANDS, app, common

__all__ = ["tournament"]


def _names(given: list[str], flag: str, example: str) -> list[str]:
    """The names of a comma-separated option given once or more, in order
    (``--doctrines aggressive,cautious --doctrines raider``: all three).

    Raises
    ------
    ConfigError
        Naming ``flag`` and the item, for an empty name (``a,,b``, a comma at an end).
    """
    names = []
    for text in given:
        for name in text.split(","):
            if not name.strip():
                raise ConfigError(
                    f"an empty name in {text!r}",
                    key=flag,
                    fix=f"Write the names with one comma between each, e.g. {flag} {example}.",
                )
            names.append(name.strip())
    return names


@app.command("tournament", short_help=COMMANDS["tournament"].short_help)
def tournament(
    doctrines: Annotated[
        list[str],
        typer.Option(
            metavar="NAME,NAME,...",
            help="Strategy doctrines, comma-separated, e.g. aggressive,cautious "
            f"({', '.join(common.STRATEGY_DOCTRINES)}; RULES.md §8.8); given again, the "
            "lists are joined.",
        ),
    ],
    maps: Annotated[
        list[str],
        typer.Option(
            metavar="MAP,...",
            help="Maps, comma-separated (files or shipped names); given again, the lists are "
            "joined.",
        ),
    ] = ["default"],  # noqa: B006 (Typer's default, never changed)
    runs: Annotated[int, typer.Option(help="Campaigns per ordered pairing and map.")] = 200,
    seed: Annotated[
        int | None, typer.Option(help="Root seed (default: resume the same design or fresh).")
    ] = None,
    workers: common.WorkersOption = None,
    backend: common.BackendOption = None,
    scheduler: common.SchedulerOption = None,
    output: Annotated[Path, common.results_option()] = Path("tournament.duckdb"),
    plot: common.PlotOption = None,
    json_: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    quiet: common.QuietOption = False,
) -> None:
    """Rate strategy doctrines: every ordered pair on every map, from both sides.

    Common random numbers; Bradley–Terry ratings with a Red advantage per map.
    """
    from campaign.analysis.charts import tournament_charts
    from campaign.analysis.tournament import (
        analyse_tournament,
        check_doctrines,
        tournament_spec,
        write_tables,
    )
    from campaign.batch.outputs import check_plot_folder, check_results_output
    from campaign.batch.plan import plan_batch
    from campaign.config import load_rules

    check_results_output(output)  # before anything is printed or run
    check_plot_folder(plot)
    known = list(load_rules().rules.campaign.doctrines)
    names = check_doctrines(_names(doctrines, "--doctrines", "aggressive,cautious"), known)
    map_names = _names(maps, "--maps", "default,waterloo-1815")
    spec = tournament_spec(
        names,
        map_names,
        runs,
        seed,
        workers=workers,
        backend=backend,
        scheduler=scheduler,
        output=str(output),
    )
    plan = plan_batch(
        spec, "flags", {"maps": "--maps", "doctrines": "--doctrines", "workers": "--workers"}
    )
    err = Console(stderr=True)
    err = err if err.is_terminal else Console(stderr=True, width=200)
    if not quiet:
        err.print(
            f"tournament: {len(names)} doctrines, {len(plan.cells)} pairings × {runs} runs "
            f"→ {output}",
            highlight=False,
        )
    result = common.run_and_analyse(
        plan,
        output,
        spec,
        quiet,
        lambda con, outcome: analyse_tournament(con, outcome.batch_id, outcome.entropy),
    )
    write_tables(output, result)
    files = tournament_charts(result, plot) if plot is not None else []
    if json_:
        typer.echo(json.dumps(result.document(), indent=2))
        for f in files:
            typer.echo(f"wrote {f}", err=True)
        return
    probe = Console()
    console = probe if probe.is_terminal else Console(width=160)
    r = result.ratings
    t = Table(
        title=f"Ratings ({result.runs} seeds a pairing)",
        title_justify="left",
    )
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("rank", "right"),
        ("doctrine", "left"),
        ("Elo", "right"),
        ("95% interval", "right"),
        ("score %", "right"),
        ("games", "right"),
    )
    for name, justify in columns:
        t.add_column(name, justify=justify)
    for rank, name, elo, lo, hi in result.ranked():
        score, games = result.scores[name]
        t.add_row(
            str(rank),
            name,
            f"{_elo(elo)}",
            f"[{_elo(lo)}, {_elo(hi)}]",
            f"{100 * score:.1f}",
            str(games),
        )
    console.print(t)
    for note in (
        f"batch {result.batch_id}; Bradley–Terry with a Red advantage per map; a draw scores ½",
        f"95% percentile intervals from {r.bootstrap} bootstrap resamples of whole seeds",
        "head to head over both sides and all maps",
    ):
        console.print(note, style="dim", highlight=False)
    order = [name for _, name, _, _, _ in result.ranked()]
    h2h = {(h.doctrine, h.opponent): h for h in result.head_to_head if h.map == "*"}
    t = Table(title="Head to head: row's score %", title_justify="left")
    t.add_column("")
    for name in order:
        t.add_column(name, justify="right")
    for a in order:
        t.add_row(a, *("—" if a == b else f"{100 * h2h[(a, b)].score:.1f}" for b in order))
    console.print(t)
    for m, e, lo, hi in zip(r.sides, r.side_elo, r.side_low, r.side_high, strict=True):
        console.print(
            f"Red's advantage on {m}: {_elo(e)} Elo [{_elo(lo)}, {_elo(hi)}]", highlight=False
        )
    for f in files:
        console.print(f"wrote {f}", highlight=False)


def _elo(x: float) -> str:
    """A signed Elo figure, rounded, with no "-0" (``_elo(-0.4) == "+0"``)."""
    return f"{round(x) + 0:+d}"
