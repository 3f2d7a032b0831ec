"""What ``campaign run --save``, ``campaign resume`` and ``campaign fork`` share: printing a
campaign's log, writing a save whole, and the next step said on stderr (issue 28)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer

from campaign.outfile import atomic_text_file, write_text_whole

__all__ = ["LogOptions", "print_log", "write_save"]


@dataclass(frozen=True)
class LogOptions:
    """How the log is printed (as ``campaign run`` prints it)."""

    fmt: str = "text"
    output: Path | None = None
    verbose: bool = False
    view: str = "umpire"


def print_log(
    events: list[Any],
    cmap: Any,
    loaded: Any,
    seed: int,
    log: LogOptions,
    *,
    forks: Sequence[tuple[float, Any]] = (),
) -> None:
    """Print ``events`` as ``campaign run`` prints a log (``log``: its format, to its
    output file whole or not at all, else stdout). ``forks``: ``(minute, LoadedRules)`` of
    each fork of the campaign (``campaign fork``), in order: a battle's odds are worked out
    under the rules it was fought under (``loaded`` before the first fork)."""
    from campaign.printers.odds import OddsBook, RulesOverTime
    from campaign.printers.registry import PrintOptions, output_format

    names = {j: d["name"] for j, d in cmap.graph.nodes(data=True)}
    terrain = {j: str(d["terrain"]) for j, d in cmap.graph.nodes(data=True) if d.get("terrain")}
    odds: Any = OddsBook(loaded.rules, seed)
    if forks:
        books = [(0.0, odds)] + [(minute, OddsBook(r.rules, seed)) for minute, r in forks]
        odds = RulesOverTime(books)
    opts = PrintOptions(log.view, names, log.verbose, odds, cmap.naming, terrain)
    printer = output_format(log.fmt)
    if log.output is None:
        printer.write(events, sys.stdout, opts)
    else:
        with atomic_text_file(log.output, "--output") as out:
            printer.write(events, out, opts)
        typer.echo(f"log written to {log.output}", err=True)


def write_save(save: Any, path: Path, flag: str = "--save") -> None:
    """Write ``save`` (:class:`campaign.save.format.Save`) to ``path`` whole or not at all."""
    from campaign.save.format import dumps

    write_text_whole(path, dumps(save), flag)
