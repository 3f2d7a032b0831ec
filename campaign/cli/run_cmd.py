"""``campaign run``: one whole unattended campaign, printed as its diary (RULES.md §8)."""

from __future__ import annotations

import contextlib
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from campaign.cli import app
from campaign.cli.common import check_seed, parse_overrides, parse_pairs
from campaign.outfile import atomic_text_file

__all__ = ["run"]


class Format(StrEnum):
    text = "text"
    markdown = "markdown"
    jsonl = "jsonl"


class BattleDetail(StrEnum):
    summary = "summary"
    verbose = "verbose"


class View(StrEnum):
    umpire = "umpire"
    red = "red"
    blue = "blue"


def side_view(events, side: str) -> tuple:
    """The events one side knew of (RULES.md §8.6); the closing table lists its own divisions
    and only the enemy divisions whose strength it learned by fighting them."""
    from dataclasses import replace

    from campaign.events import CampaignEnded, StrengthLearned

    known = {e.enemy for e in events if isinstance(e, StrengthLearned) and e.side == side}
    out = []
    for event in events:
        if side not in event.seen_by:
            continue
        if isinstance(event, CampaignEnded):
            rows = tuple(d for d in event.divisions if d[1] == side or d[0] in known)
            out.append(replace(event, divisions=rows))
        else:
            out.append(event)
    return tuple(out)


@app.command("run")
def run(
    map_path: Annotated[
        str | None,
        typer.Argument(
            metavar="MAP",
            help="Map file (.yaml, .graphml, .json) or a shipped map's name; "
            "default: maps/default.yaml.",
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed; a fresh one is drawn and printed when omitted.")
    ] = None,
    variant: Annotated[
        list[str] | None, typer.Option(help="Named rules variant (config/variants), repeatable.")
    ] = None,
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set", help="Dotted-key override, e.g. campaign.rough_road_pass=60 (repeatable)."
        ),
    ] = None,
    red_doctrine: Annotated[
        str, typer.Option(help="aggressive | cautious | balanced")
    ] = "balanced",
    blue_doctrine: Annotated[
        str, typer.Option(help="aggressive | cautious | balanced")
    ] = "balanced",
    fmt: Annotated[Format, typer.Option("--format", help="Log format.")] = Format.text,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the log here.")
    ] = None,
    battles: Annotated[
        BattleDetail, typer.Option(help="verbose adds each battle's bound-by-bound log.")
    ] = BattleDetail.summary,
    report: Annotated[
        Path | None,
        typer.Option(help="Also write a diary: .html (self-contained) or .md (with PNG maps)."),
    ] = None,
    view: Annotated[
        View,
        typer.Option(
            help="Whose log and diary: umpire sees all; red or blue only what that side knew "
            "(RULES.md §8.6)."
        ),
    ] = View.umpire,
    contract: Annotated[bool, typer.Option(help="Merge pass-through junctions.")] = False,
    road_kind: Annotated[
        list[str] | None,
        typer.Option(
            help="KIND=normal|rough|impassable for a foreign map's road kinds (repeatable)."
        ),
    ] = None,
    hours_per_length: Annotated[
        float | None, typer.Option(help="March hours per unit of a road's length attribute.")
    ] = None,
    red_base: Annotated[str | None, typer.Option(help="Red's base junction id.")] = None,
    blue_base: Annotated[str | None, typer.Option(help="Blue's base junction id.")] = None,
    red_start: Annotated[
        list[str] | None, typer.Option(help="Red start junction (repeatable).")
    ] = None,
    blue_start: Annotated[
        list[str] | None, typer.Option(help="Blue start junction (repeatable).")
    ] = None,
) -> None:
    """Run one whole campaign on MAP and print its log (the seed goes first, on stderr)."""
    from campaign.config import load_rules
    from campaign.engine import run_campaign
    from campaign.maps import MapOptions, load_map
    from campaign.printers.jsonl import write_jsonl
    from campaign.printers.narrative import narrate
    from campaign.printers.text import markdown_lines, text_lines

    seed = check_seed(seed)
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
    )
    cmap = load_map(map_path, options)
    verbose = battles is BattleDetail.verbose
    result = run_campaign(
        cmap,
        loaded,
        seed,
        {"red": red_doctrine, "blue": blue_doctrine},
        battle_logs=verbose or report is not None,
    )
    names = {j: d["name"] for j, d in cmap.graph.nodes(data=True)}
    with contextlib.ExitStack() as stack:
        # the log file appears whole or not at all (a full disk leaves no partial log)
        out = stack.enter_context(atomic_text_file(output, "--output")) if output else None
        if fmt is Format.jsonl:
            write_jsonl(result.events, out or sys.stdout)
        else:
            shown = result.events
            if view is not View.umpire:  # a side's log: only what that side knew (§8.6)
                shown = side_view(result.events, view.value)
            entries = narrate(shown, names, battle_logs=verbose)
            if fmt is Format.markdown:
                lines = [(line, "") for line in markdown_lines(entries)]
            else:
                lines = list(text_lines(entries))
            if out is not None:
                out.write("".join(line + "\n" for line, _ in lines))
            else:
                console = Console(highlight=False, soft_wrap=True)
                for line, style in lines:
                    console.print(Text(line, style=style or ""))
    if report is not None:
        from campaign.report import write_report

        written = write_report(result.events, cmap, report, view.value)
        err.print(f"diary written to {written}")
    if output is not None:
        err.print(f"log written to {output}")
