"""The replay as one self-contained HTML page: map, timeline and log, offline.

The page is the template ``assets/replay.html`` with its stylesheet, its script (plain
JavaScript, no library) and the replay's data (:func:`campaign.replay.data.replay_data`)
inlined. It makes no network request: a Content-Security-Policy of ``default-src 'none'``
forbids any, and nothing in it names another file.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from campaign.events import CampaignEvent
from campaign.maps.model import CampaignMap
from campaign.printers.narrative import OddsSource

if TYPE_CHECKING:
    from campaign.config import Rules

__all__ = ["render_replay", "write_replay"]

_PLACEHOLDER = re.compile(r"@(TITLE|CSS|DATA|JS)@")


def _asset(name: str) -> str:
    return resources.files("campaign.replay").joinpath("assets", name).read_text(encoding="utf-8")


def _json_for_script(data: dict[str, Any]) -> str:
    """JSON that cannot end its ``<script>`` element early (``</`` and ``<!--`` escaped)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("</", "<\\/").replace("<!--", "<\\u0021--")


def render_replay(data: dict[str, Any]) -> str:
    """The page's HTML text for ``data`` (the shapes of :mod:`campaign.replay.data`).

    The template's placeholders are filled in one pass, so no text put in (a map's name, the
    data) is ever read as a placeholder.
    """
    seed = f" (seed {data['seed']})" if data.get("seed") is not None else ""
    parts = {
        "TITLE": html.escape(f"Replay: {data['title']}{seed}"),
        "CSS": _asset("replay.css"),
        "DATA": _json_for_script(data),
        "JS": _asset("replay.js"),
    }
    return _PLACEHOLDER.sub(lambda m: parts[m.group(1)], _asset("replay.html"))


def write_replay(
    events: Sequence[CampaignEvent],
    cmap: CampaignMap,
    path: Path,
    views: Sequence[str],
    *,
    rules: Rules,
    odds: OddsSource | None = None,
    flag: str | None = None,
) -> Path:
    """Write the replay page of a campaign to ``path`` (whole or not at all).

    Parameters
    ----------
    events : sequence of CampaignEvent
        The stream (the umpire's, or a side's own for that side's view only).
    cmap : CampaignMap
        The map the campaign was fought on.
    path : Path
        The ``.html`` file to write.
    views : sequence of str
        The views the page offers (:func:`campaign.replay.replay_views`).
    rules : Rules
        The campaign's rules (``battle.destroyed_at_hits`` gives strengths, RULES.md §1.2).
    odds : OddsSource or None
        Battle odds for the umpire's view.
    flag : str or None
        The option that named ``path``, for error messages.

    Raises
    ------
    SimulatorError
        If the stream names junctions that are not on ``cmap``, or ``path`` cannot be written.
    """
    from campaign.outfile import write_text_whole
    from campaign.replay.data import replay_data
    from campaign.report.html import check_map

    check_map(events, cmap)
    data = replay_data(events, cmap, views, destroyed_at=rules.battle.destroyed_at_hits, odds=odds)
    write_text_whole(Path(path), render_replay(data), flag)
    return Path(path)
