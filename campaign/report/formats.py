"""The diary formats, by report file suffix (``--report FILE.html`` / ``.md``).

Every diary is a :class:`DiaryFormat` in :data:`DIARIES`; :func:`diary_format` picks one by
the file's suffix, and :func:`write_report` calls its ``write`` and writes the file whole. A
new diary format is one entry here. The writers import the page builders when first used
(they bring in matplotlib and Jinja2).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from battle.yamlfile import file_error
from campaign.errors import SimulatorError, check_output_folder
from campaign.events import CampaignEvent
from campaign.outfile import write_bytes_whole, write_text_whole
from campaign.printers.narrative import Narrator, OddsSource
from campaign.report.request import DiaryRequest

if TYPE_CHECKING:
    from campaign.config import Rules
    from campaign.maps.model import CampaignMap

__all__ = ["DIARIES", "DiaryFormat", "diary_format", "write_report"]


@dataclass(frozen=True)
class DiaryFormat:
    """One diary format chosen by the report file's suffix (``.html``, ``.md``)."""

    name: str
    suffixes: tuple[str, ...]
    description: str
    write: Callable[[DiaryRequest], str | bytes]
    handled: Callable[[], Collection[type[CampaignEvent]]]


def _write_html(r: DiaryRequest) -> str:
    from campaign.report.html import render_html

    return render_html(r.events, r.cmap, r.view, odds=r.odds, rules=r.rules, detail=r.detail)


def _write_md(r: DiaryRequest) -> str:
    from campaign.report.html import render_markdown

    return render_markdown(r)


def _write_pdf(r: DiaryRequest) -> bytes:
    from campaign.report.pdf import render_pdf

    return render_pdf(r)


def _diary_types() -> Collection[type[CampaignEvent]]:
    from campaign.report.days import DIARY_HANDLED

    return frozenset(Narrator.HANDLERS) & frozenset(DIARY_HANDLED)


DIARIES: dict[str, DiaryFormat] = {
    d.name: d
    for d in (
        DiaryFormat(
            "html",
            (".html", ".htm"),
            "one self-contained page for print",
            _write_html,
            _diary_types,
        ),
        DiaryFormat(
            "md",
            (".md", ".markdown"),
            "Markdown with PNG maps in a folder beside it",
            _write_md,
            _diary_types,
        ),
        DiaryFormat(
            "pdf",
            (".pdf",),
            "the HTML diary printed by headless Chromium, its contents with page numbers",
            _write_pdf,
            _diary_types,
        ),
    )
}


def diary_format(path: Path) -> DiaryFormat:
    """The diary format of a report file, by its suffix.

    Raises
    ------
    SimulatorError
        If no diary format has that suffix.
    """
    from campaign.errors import SimulatorError

    suffix = Path(path).suffix.lower()
    for d in DIARIES.values():
        if suffix in d.suffixes:
            return d
    known = ", ".join(s for d in DIARIES.values() for s in d.suffixes[:1])
    raise SimulatorError(
        f"cannot tell the diary format from the suffix {Path(path).suffix or '(none)'!r}",
        source=str(path),
        fix=f"Name the report file {known} (.html: one self-contained page; .md: Markdown with "
        "PNG pictures; .pdf: printed, with page numbers in the contents).",
    )


def _check_work(events: Sequence[CampaignEvent], cmap: CampaignMap, flag: str | None) -> None:
    """Refuse a diary past :data:`campaign.workload.MAX_DIARY_JUNCTION_DAYS` (its days: the
    last day an event falls on, or the day count of its end)."""
    from campaign.clock import clock_of
    from campaign.events import CampaignEnded
    from campaign.workload import check_diary_work

    clock = clock_of(events)
    days = max([clock.day(e.t) for e in events] or [1])
    days = max([days] + [e.days for e in events if isinstance(e, CampaignEnded)])
    check_diary_work(cmap.graph.number_of_nodes(), days, cmap.source, flag)


def write_report(
    events: Sequence[CampaignEvent],
    cmap: CampaignMap,
    path: Path,
    view: str = "umpire",
    odds: OddsSource | None = None,
    rules: Rules | None = None,
    flag: str | None = None,
    detail: str = "full",
) -> Path:
    """Write the campaign diary of ``view`` to ``path`` and return the path.

    Parameters
    ----------
    events, cmap, view, odds, rules, detail
        As the fields of :class:`campaign.report.request.DiaryRequest`.
    path : Path
        The format comes from the suffix (:data:`campaign.report.formats.DIARIES`):
        ``.html`` / ``.htm`` for one self-contained HTML file, ``.md`` for Markdown with PNG
        pictures in a ``<stem>-images`` folder beside it, ``.pdf`` for the HTML diary printed
        by headless Chromium with page numbers in its contents
        (:func:`campaign.report.pdf.render_pdf`).
    flag : str or None
        The option that named ``path`` (``--report``), for error messages.

    Raises
    ------
    SimulatorError
        On another suffix, an unknown view or detail, a map that does not match the events,
        rules that cannot be rebuilt from the stream (``rules`` None), a folder that does not exist
        (:func:`campaign.errors.check_output_folder`), or a file that cannot be written.
    """
    path = Path(path)
    fmt = diary_format(path)
    from campaign.report.html import check_detail

    check_detail(detail)
    check_output_folder(path, flag)
    _check_work(events, cmap, flag)
    try:
        text = fmt.write(DiaryRequest(events, cmap, path, view, odds, rules, detail))
        if isinstance(text, bytes):  # a PDF
            write_bytes_whole(path, text, flag)
        else:
            write_text_whole(path, text, flag)  # whole or not at all; a full disk is exit 1
    except OSError as exc:
        fix = "Choose a writable location for the report."
        raise file_error(SimulatorError, "write the diary", path, exc, fix) from None
    return path
