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

from typing import TYPE_CHECKING

from campaign.lazy import lazy_getattr
from campaign.report.view import VIEWS, visible_events

if TYPE_CHECKING:
    from campaign.report.days import Diary, build_diary
    from campaign.report.formats import write_report
    from campaign.report.html import render_html, render_markdown

#: what is imported only when first used (PEP 562): the diary's pages and charts bring in
#: matplotlib, which a campaign that writes no diary never needs (about a quarter of
#: `campaign run`'s start-up)
_LAZY = {
    "Diary": "campaign.report.days",
    "build_diary": "campaign.report.days",
    "render_html": "campaign.report.html",
    "render_markdown": "campaign.report.html",
    "write_report": "campaign.report.formats",
}


__getattr__ = lazy_getattr(__name__, _LAZY)


__all__ = [
    "VIEWS",
    "Diary",
    "build_diary",
    "render_html",
    "render_markdown",
    "visible_events",
    "write_report",
]
