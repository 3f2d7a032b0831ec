"""``campaign report EVENTS.jsonl -o diary.html``: rebuild a diary from a saved event stream."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from campaign.cli import COMMANDS, app
from campaign.cli.common import EventsArgument, StreamMapOption
from campaign.errors import SimulatorError

__all__ = ["report"]


@app.command("report", short_help=COMMANDS["report"].short_help)
def report(
    events: EventsArgument,
    output: Annotated[
        Path,
        typer.Option(
            "-o",
            "--output",
            help="Diary file: .html (self-contained), .md, or .pdf (printed by headless "
            "Chromium, page numbers in the contents).",
        ),
    ],
    view: Annotated[
        str | None,
        typer.Option(
            "--view",
            metavar="umpire|red|blue",
            help="Whose diary: umpire sees all; red or blue only what that side knew "
            "(RULES.md §8.6). Default: the stream's own (umpire, or the side a "
            "'run --view' stream was written for).",
        ),
    ] = None,
    map_path: StreamMapOption = None,
    detail: Annotated[
        str,
        typer.Option(
            "--detail",
            metavar="summary|full",
            help="The battles: summary leaves out the units tables and bound-by-bound logs "
            "(a page or less a day); full prints them.",
        ),
    ] = "full",
) -> None:
    """Write a printable campaign diary (maps per day, battles, charts) from saved events."""
    from campaign.cli.common import map_of_stream
    from campaign.events import BattleFought
    from campaign.outfile import check_distinct_files
    from campaign.printers.jsonl import read_jsonl
    from campaign.printers.odds import odds_of_stream
    from campaign.report import write_report
    from campaign.report.glyphs import undrawable_names
    from campaign.report.html import check_detail, rules_of_stream
    from campaign.report.view import check_view

    check_detail(detail)
    if view is not None:
        check_view(view)
    check_distinct_files({"EVENTS": events, "--output": output})
    stream = read_jsonl(events)
    owner = [s for s in ("red", "blue") if stream and all(s in e.seen_by for e in stream)]
    if view is None:  # the stream's own view: a side's stream gives that side's diary
        view = owner[0] if len(owner) == 1 else "umpire"
    if len(owner) == 1 and view != owner[0]:  # a side's own stream (run --view red)
        raise SimulatorError(
            f"this event stream is {owner[0]}'s view only (written with --view {owner[0]}); "
            f"it cannot give the {view} diary",
            source=str(events),
            fix=f"Give --view {owner[0]}, or the umpire's stream (campaign run --format jsonl "
            "without --view).",
        )
    cmap = map_of_stream(stream, events, map_path)
    rules = rules_of_stream(stream, source=str(events))
    written = write_report(
        stream,
        cmap,
        output,
        view,
        odds=odds_of_stream(stream),
        rules=rules,
        flag="--output",
        detail=detail,
    )
    typer.echo(f"wrote {written}")
    unnamed = undrawable_names(
        (str(n), str(d.get("name", n))) for n, d in cmap.graph.nodes(data=True)
    )
    if unnamed:  # once per map, not once per glyph (issue 32)
        key, name = unnamed[0]
        typer.echo(
            f"note: {len(unnamed)} junction name(s) of the map use characters no installed "
            f"font can draw (e.g. {name!r}); the maps label them by id ({key!r}). Install a "
            "wide-coverage font (Debian: fonts-noto-core) to see the names",
            err=True,
        )
    battles = [e for e in stream if isinstance(e, BattleFought)]
    if detail == "full" and battles and not any(e.log for e in battles):
        typer.echo(
            f"note: {events} holds no bound-by-bound battle logs (it was written with "
            "--battles summary), so the diary's battles have none; write the stream with "
            "`campaign run ... --battles full --format jsonl` to print them",
            err=True,
        )
