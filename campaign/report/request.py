"""What a diary is written from: :class:`DiaryRequest`, the argument of every diary writer.

:func:`campaign.report.formats.write_report` builds one and hands it to the writer of the
file's format (:data:`campaign.report.formats.DIARIES`): ``render_markdown`` and
``render_pdf`` take it as it is; the HTML writer unpacks it for
:func:`campaign.report.html.render_html`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from campaign.events import CampaignEvent
from campaign.printers.narrative import OddsSource

if TYPE_CHECKING:
    from campaign.config import Rules
    from campaign.maps.model import CampaignMap

__all__ = ["DiaryRequest"]


@dataclass(frozen=True)
class DiaryRequest:
    """One diary to write.

    Parameters
    ----------
    events : sequence of CampaignEvent
        The campaign's whole event stream (``run_campaign(..., record_events=True)``).
    cmap : CampaignMap
        The map the campaign was run on.
    path : Path
        The diary file (the Markdown diary puts its pictures in ``<stem>-images`` beside it).
    view : str
        ``"umpire"`` (everything), ``"red"`` or ``"blue"`` (what that side knew).
    odds : OddsSource or None
        Each battle's odds before it was fought (:class:`campaign.printers.odds.OddsBook`).
    rules : Rules or None
        The rules the campaign was fought under (``LoadedRules.rules``); None rebuilds them
        from the stream's CampaignStarted header.
    detail : str
        ``"full"`` (every battle's units and bound-by-bound log) or ``"summary"`` (neither:
        a page or less a day), :data:`campaign.report.html.DETAILS`.
    """

    events: Sequence[CampaignEvent]
    cmap: CampaignMap
    path: Path
    view: str = "umpire"
    odds: OddsSource | None = None
    rules: Rules | None = None
    detail: str = "full"
