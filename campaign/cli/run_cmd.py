"""``campaign run``: one whole unattended campaign, printed as its diary (RULES.md §8)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from campaign.cli import COMMANDS, app
from campaign.cli.common import (
    RUN_TABLETOP,
    EngineOption,
    SeedOption,
    SetOption,
    VariantOption,
    check_seed,
    log_format_option,
    parse_overrides,
    parse_pairs,
    repeatable,
    side_option,
    strategy_doctrine,
    tabletop_option,
)
from campaign.outfile import atomic_text_file, check_distinct_files, check_output_file

if TYPE_CHECKING:
    from campaign.config import LoadedRules
    from campaign.events import CampaignEvent
    from campaign.maps import CampaignMap
    from campaign.printers.odds import OddsBook

__all__ = ["run"]


class BattleDetail(StrEnum):
    """How much of each battle a log or diary prints (``verbose`` is the older name of
    ``full``)."""

    summary = "summary"
    full = "full"
    verbose = "verbose"


class DiaryDetail(StrEnum):
    summary = "summary"
    full = "full"


class View(StrEnum):
    umpire = "umpire"
    red = "red"
    blue = "blue"


@app.command("run", short_help=COMMANDS["run"].short_help)
def run(
    map_path: Annotated[
        str | None,
        typer.Argument(
            metavar="MAP",
            help="Map file (.yaml, .graphml, .json) or a shipped map's name; "
            "default: maps/default.yaml.",
        ),
    ] = None,
    seed: SeedOption = None,
    variant: VariantOption = None,
    set_: SetOption = None,
    engine: EngineOption = None,
    red_doctrine: Annotated[str, strategy_doctrine("Red")] = "balanced",
    blue_doctrine: Annotated[str, strategy_doctrine("Blue")] = "balanced",
    fmt: Annotated[str, log_format_option()] = "text",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the log here.")
    ] = None,
    battles: Annotated[
        BattleDetail,
        typer.Option(
            help="The log's battles: full adds each battle's units and bound-by-bound dice "
            "log (verbose: the same)."
        ),
    ] = BattleDetail.summary,
    report: Annotated[
        Path | None,
        typer.Option(
            help="Also write a diary: .html (self-contained), .md (with PNG maps) or .pdf "
            "(printed by headless Chromium, page numbers in the contents)."
        ),
    ] = None,
    replay: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE.html",
            help="Also write an interactive replay: one offline HTML page (map, timeline, "
            "log; with --view red or blue only that side's knowledge).",
        ),
    ] = None,
    detail: Annotated[
        DiaryDetail,
        typer.Option(
            help="The diary's battles: summary leaves out the units tables and bound-by-bound "
            "logs (a page or less a day); full prints them."
        ),
    ] = DiaryDetail.full,
    view: Annotated[
        View,
        typer.Option(
            help="Whose log and diary: umpire sees all; red or blue only what that side knew "
            "(RULES.md §8.6)."
        ),
    ] = View.umpire,
    contract: Annotated[
        bool,
        typer.Option("--contract", help="Prune dead-end spurs and merge pass-through junctions."),
    ] = False,
    road_kind: Annotated[
        list[str] | None,
        repeatable("KIND=MAPPED", "Treat a foreign map's road kind as normal|rough|impassable"),
    ] = None,
    hours_per_length: Annotated[
        float | None, typer.Option(help="March hours per unit of a road's length attribute.")
    ] = None,
    red_base: Annotated[str | None, side_option("Red", "JUNCTION", "base junction id")] = None,
    blue_base: Annotated[str | None, side_option("Blue", "JUNCTION", "base junction id")] = None,
    red_start: Annotated[
        list[str] | None, repeatable("JUNCTION", "A Red start junction id")
    ] = None,
    blue_start: Annotated[
        list[str] | None, repeatable("JUNCTION", "A Blue start junction id")
    ] = None,
    until: Annotated[
        str | None,
        typer.Option(
            metavar="WHEN",
            help='Stop at a campaign time ("day 2 18:00") or before a battle (battle:3); '
            "with --save, go on later with 'campaign resume'.",
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Write a save where the campaign stops (or ends): its inputs, results "
            "entered by hand and its state (JSON, readable as YAML).",
        ),
    ] = None,
    tabletop: Annotated[
        str | None,
        tabletop_option(
            "Stop before the first battle to fight on the table",
            RUN_TABLETOP,
            "; writes the save, the battle's briefing and its result sheet",
        ),
    ] = None,
) -> None:
    """Run one whole campaign on MAP and print its log (the seed goes first, on stderr)."""
    from battle.engine import use_engine

    use_engine(engine)
    from campaign.config import load_rules
    from campaign.engine import run_campaign
    from campaign.maps import MapOptions, load_map

    seed = check_seed(seed)
    _check_outputs(output, report, replay)  # refused before the campaign is played
    err = Console(stderr=True, highlight=False)
    err.print(f"seed {seed}")
    loaded = load_rules(variant or [], parse_overrides(set_))
    options = MapOptions(
        road_kinds=parse_pairs(road_kind, "--road-kind", "river=rough"),
        hours_per_length=hours_per_length,
        contract=contract,
        red_base=red_base,
        blue_base=blue_base,
        red_start=red_start,
        blue_start=blue_start,
        seed=seed,
        daylight_hours=loaded.rules.campaign.daylight_hours,
    )
    cmap = load_map(map_path, options)
    if report is not None:  # the diary's work, refused before the campaign is played
        from campaign.workload import check_diary_work

        days = cmap.time_limit(loaded.rules.campaign.time_limit_days)
        check_diary_work(cmap.graph.number_of_nodes(), days, cmap.source, "--report")
    verbose = battles is not BattleDetail.summary
    if until is not None or save is not None or tabletop is not None:
        from campaign.cli.save_run import LogOptions, SavedRun, run_and_save

        run_and_save(
            SavedRun(cmap, options, loaded, seed, {"red": red_doctrine, "blue": blue_doctrine}),
            until,
            save,
            tabletop,
            LogOptions(fmt, output, verbose, view.value),
            {"--report": report, "--replay": replay},
        )
        return
    full_diary = report is not None and detail is DiaryDetail.full
    result = run_campaign(
        cmap,
        loaded,
        seed,
        {"red": red_doctrine, "blue": blue_doctrine},
        battle_logs=verbose or full_diary or replay is not None,
    )
    odds = _print_log(result.events, cmap, loaded, seed, (fmt, output, verbose, view.value))
    if report is not None:
        from campaign.report import write_report

        written = write_report(
            result.events,
            cmap,
            report,
            view.value,
            odds=odds,
            rules=loaded.rules,
            flag="--report",
            detail=detail.value,
        )
        err.print(f"diary written to {written}")
    if replay is not None:
        from campaign.replay import write_replay

        views = ["umpire", "red", "blue"] if view is View.umpire else [view.value]
        write_replay(
            result.events, cmap, replay, views, rules=loaded.rules, odds=odds, flag="--replay"
        )
        err.print(f"replay written to {replay}")
    if output is not None:
        err.print(f"log written to {output}")


def _check_outputs(output: Path | None, report: Path | None, replay: Path | None) -> None:
    """Refuse a log, diary or replay file that cannot be written, or two flags naming the
    same file, before the campaign is played (exit 2, the flag named)."""
    if report is not None:
        from campaign.report.formats import diary_format

        check_output_file(report, "--report")  # a folder is named as such, not by suffix
        diary_format(report)
    if replay is not None:
        from campaign.replay.cli_checks import check_replay_file

        check_replay_file(replay, "--replay")
    if output is not None:
        check_output_file(output, "--output")
    check_distinct_files({"--output": output, "--report": report, "--replay": replay})


def _print_log(
    events: Sequence[CampaignEvent],
    cmap: CampaignMap,
    loaded: LoadedRules,
    seed: int,
    how: tuple[str, Path | None, bool, str],
) -> OddsBook:
    """Print the campaign's log (``how`` = format, output file or None for stdout, verbose,
    view); the odds book the log used, for the diary and replay."""
    from campaign.printers.odds import OddsBook
    from campaign.printers.registry import PrintOptions, output_format

    fmt, output, verbose, view = how
    names = {j: d["name"] for j, d in cmap.graph.nodes(data=True)}
    odds = OddsBook(loaded.rules, seed)
    printer = output_format(fmt)
    terrain = {j: str(d["terrain"]) for j, d in cmap.graph.nodes(data=True) if d.get("terrain")}
    landmarks = frozenset(j for j, d in cmap.graph.nodes(data=True) if d.get("objective"))
    opts = PrintOptions(view, names, verbose, odds, cmap.naming, terrain, landmarks)
    if output is None:
        printer.write(events, sys.stdout, opts)
    else:  # the log file appears whole or not at all (a full disk leaves no partial log)
        with atomic_text_file(output, "--output") as out:
            printer.write(events, out, opts)
    return odds
