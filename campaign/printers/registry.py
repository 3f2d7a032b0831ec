"""The output formats of a campaign log, by name (``campaign run --format NAME``).

Every format is an :class:`OutputFormat` in :data:`FORMATS`; the command line offers exactly
these names and calls :meth:`OutputFormat.write`, so a new format is one entry here. Every
writer first passes the stream through the one side filter,
:func:`campaign.report.view.side_view`, so a side's log holds only what that side learned in
every format (RULES.md §8.6). ``handled`` names the event types a format writes with a
dedicated sentence or record; a test checks that it covers every type in
:mod:`campaign.events`.

The diaries (``--report FILE.html`` / ``.md``) are registered the same way, by file suffix,
in :data:`campaign.report.formats.DIARIES` (named here too, for the handler check).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from campaign.events import CampaignEvent, event_types
from campaign.printers.jsonl import write_jsonl
from campaign.printers.narrative import Entry, Narrator, OddsSource, narrate
from campaign.printers.text import markdown_lines, text_lines
from campaign.report.formats import DIARIES, DiaryFormat, diary_format
from campaign.report.view import side_view

if TYPE_CHECKING:
    from campaign.maps.naming import MapNaming

__all__ = [
    "DIARIES",
    "FORMATS",
    "DiaryFormat",
    "OutputFormat",
    "PrintOptions",
    "diary_format",
    "missing_handlers",
    "output_format",
]


@dataclass(frozen=True)
class PrintOptions:
    """What a log printer needs besides the events.

    ``view`` is umpire, red or blue; ``junction_names`` maps junction ids to names;
    ``battle_logs`` adds each battle's bound-by-bound engine log; ``odds`` gives each
    battle's odds before it was fought (None leaves them out); ``naming`` is the map's
    names (``CampaignMap.naming``: its commanders; None draws them from the config);
    ``terrain`` each junction's terrain (battle headers); ``landmarks`` the objectives'
    junction ids, kept when a long march is folded into one line. Without ``battle_logs``
    (``--battles summary``) the log folds repeated lines as the diary does
    (:mod:`campaign.printers.folding`).
    """

    view: str = "umpire"
    junction_names: dict[str, str] | None = None
    battle_logs: bool = False
    odds: OddsSource | None = None
    naming: MapNaming | None = None
    terrain: dict[str, str] | None = None
    landmarks: frozenset[str] = frozenset()


def _narrated(events: Sequence[CampaignEvent], opts: PrintOptions) -> list[Entry]:
    shown = side_view(events, opts.view)
    return narrate(
        shown,
        opts.junction_names,
        battle_logs=opts.battle_logs,
        view=opts.view,
        odds=opts.odds,
        naming=opts.naming,
        terrain=opts.terrain,
        fold=not opts.battle_logs,
        landmarks=opts.landmarks,
    )


def _write_text(events: Sequence[CampaignEvent], out: TextIO, opts: PrintOptions) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(file=out, highlight=False, soft_wrap=True)
    for line, style in text_lines(_narrated(events, opts)):
        console.print(Text(line, style=style or ""))


def _write_markdown(events: Sequence[CampaignEvent], out: TextIO, opts: PrintOptions) -> None:
    for line in markdown_lines(_narrated(events, opts)):
        out.write(line + "\n")


def _write_jsonl(events: Sequence[CampaignEvent], out: TextIO, opts: PrintOptions) -> None:
    write_jsonl(side_view(events, opts.view), out)


def _narrated_types() -> Collection[type[CampaignEvent]]:
    return frozenset(Narrator.HANDLERS)


def _every_type() -> Collection[type[CampaignEvent]]:
    return frozenset(event_types())  # JSON lines write any event dataclass field by field


@dataclass(frozen=True)
class OutputFormat:
    """One ``--format``: its name, a one-line description, its writer and handled types."""

    name: str
    description: str
    write: Callable[[Sequence[CampaignEvent], TextIO, PrintOptions], None]
    handled: Callable[[], Collection[type[CampaignEvent]]]


FORMATS: dict[str, OutputFormat] = {
    f.name: f
    for f in (
        OutputFormat(
            "text", "the diary as plain text (colours on a terminal)", _write_text, _narrated_types
        ),
        OutputFormat("markdown", "the diary as Markdown", _write_markdown, _narrated_types),
        OutputFormat(
            "jsonl",
            "one JSON event per line (rebuild diaries with campaign report)",
            _write_jsonl,
            _every_type,
        ),
    )
}


def output_format(name: str) -> OutputFormat:
    """The format called ``name``.

    Raises
    ------
    SimulatorError
        If there is none (the message lists the names).
    """
    from campaign.errors import SimulatorError

    try:
        return FORMATS[name]
    except KeyError:
        raise SimulatorError(
            f"unknown log format {name!r}",
            key="--format",
            fix=f"Give one of: {', '.join(FORMATS)}.",
        ) from None


def missing_handlers() -> dict[str, list[str]]:
    """Event types that a printer or the side view has no dedicated handling for.

    Returns
    -------
    dict
        ``{"format text": ["NewEvent"], "side view": [...], ...}``, only entries with
        something missing; empty when every event type of :mod:`campaign.events` is handled
        by every format, every diary and the side view.
    """
    from campaign.report.view import REDACTORS

    every = event_types()
    tables: dict[str, Collection[type[CampaignEvent]]] = {
        "side view": frozenset(REDACTORS),
        **{f"format {f.name}": f.handled() for f in FORMATS.values()},
        **{f"diary {d.name}": d.handled() for d in DIARIES.values()},
    }
    out = {}
    for name, handled in tables.items():
        missing = [cls.__name__ for cls in every if cls not in handled]
        if missing:
            out[name] = missing
    return out
