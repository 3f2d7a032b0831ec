"""What ``campaign run --save``, ``campaign resume`` and ``campaign fork`` share: printing a
campaign's log, writing a save whole, and the next step said on stderr (issue 28)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

from campaign.outfile import atomic_text_file, write_text_whole

__all__ = ["print_log", "write_save"]


def print_log(
    events: list[Any],
    cmap: Any,
    loaded: Any,
    seed: int,
    *,
    fmt: str = "text",
    output: Path | None = None,
    verbose: bool = False,
    view: str = "umpire",
) -> None:
    """Print ``events`` as ``campaign run`` prints a log (format ``fmt``, to ``output`` whole
    or not at all, else stdout)."""
    from campaign.printers.odds import OddsBook
    from campaign.printers.registry import PrintOptions, output_format

    names = {j: d["name"] for j, d in cmap.graph.nodes(data=True)}
    terrain = {j: str(d["terrain"]) for j, d in cmap.graph.nodes(data=True) if d.get("terrain")}
    opts = PrintOptions(view, names, verbose, OddsBook(loaded.rules, seed), cmap.naming, terrain)
    printer = output_format(fmt)
    if output is None:
        printer.write(events, sys.stdout, opts)
    else:
        with atomic_text_file(output, "--output") as out:
            printer.write(events, out, opts)
        typer.echo(f"log written to {output}", err=True)


def write_save(save: Any, path: Path, flag: str = "--save") -> None:
    """Write ``save`` (:class:`campaign.save.format.Save`) to ``path`` whole or not at all."""
    from campaign.save.format import dumps

    write_text_whole(path, dumps(save), flag)
