"""The printable campaign diary (issue 6): maps per day, battles, charts, each side's view.

Public API::

    write_report(events, cmap, path, view="umpire", rules=None) -> Path   # .html or .md
    render_html(events, cmap, view, rules=None) -> str
    build_diary(events, view, destroyed_at=10) -> Diary        # the days as a view knows them

``rules`` are those the campaign was fought under; None rebuilds them from the stream's
header. ``destroyed_at`` is their ``battle.destroyed_at_hits`` (RULES.md §1.2).
    visible_events(events, view) -> list[CampaignEvent]
    VIEWS                                                      # ("umpire", "red", "blue")
"""

from __future__ import annotations

from campaign.report.days import Diary, build_diary
from campaign.report.html import render_html, render_markdown, write_report
from campaign.report.view import VIEWS, visible_events

__all__ = [
    "VIEWS",
    "Diary",
    "build_diary",
    "render_html",
    "render_markdown",
    "visible_events",
    "write_report",
]
