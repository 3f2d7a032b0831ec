"""``campaign replay EVENTS.jsonl -o replay.html``: watch a saved campaign in the browser."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from campaign.cli import app
from campaign.cli.common import EventsArgument, StreamMapOption
from campaign.errors import SimulatorError

__all__ = ["replay"]


@app.command("replay", short_help="Write an interactive replay of a saved campaign (HTML).")
def replay(
    events: EventsArgument,
    output: Annotated[
        Path,
        typer.Option(
            "-o", "--output", help="Replay file (.html): one self-contained page, offline."
        ),
    ],
    view: Annotated[
        str | None,
        typer.Option(
            "--view",
            metavar="umpire|red|blue",
            help="Whose replay: umpire holds all three views with a switch; red or blue only "
            "what that side knew (RULES.md §8.6), nothing else in the file. Default: the "
            "stream's own (umpire, or the side a 'run --view' stream was written for).",
        ),
    ] = None,
    map_path: StreamMapOption = None,
) -> None:
    """Write one HTML page that replays a saved campaign: map, timeline, log, each side's fog."""
    from campaign.cli.common import map_of_stream
    from campaign.events import BattleFought
    from campaign.outfile import check_distinct_files
    from campaign.printers.jsonl import read_jsonl
    from campaign.printers.odds import odds_of_stream
    from campaign.replay import replay_views, write_replay
    from campaign.replay.cli_checks import check_replay_file
    from campaign.report.html import rules_of_stream

    check_replay_file(output, "--output")
    check_distinct_files({"EVENTS": events, "--output": output})
    stream = read_jsonl(events)
    if not stream:
        raise SimulatorError(
            "the event stream is empty",
            source=str(events),
            fix="Give the JSON lines of a campaign (campaign run --format jsonl -o FILE).",
        )
    views = replay_views(stream, view, source=str(events))
    cmap = map_of_stream(stream, events, map_path)
    rules = rules_of_stream(stream, source=str(events))
    odds = odds_of_stream(stream) if "umpire" in views else None
    written = write_replay(stream, cmap, output, views, rules=rules, odds=odds, flag="--output")
    typer.echo(f"wrote {written} ({', '.join(views)} view{'s' if len(views) > 1 else ''})")
    battles = [e for e in stream if isinstance(e, BattleFought)]
    if battles and not any(e.log for e in battles):
        typer.echo(
            f"note: {events} holds no bound-by-bound battle logs (it was written with "
            "--battles summary), so the replay's battle accounts have none; write the stream "
            "with `campaign run ... --battles verbose --format jsonl`, or use "
            "`campaign run ... --replay FILE.html`, to keep them",
            err=True,
        )
