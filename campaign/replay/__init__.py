"""The interactive replay of a campaign in the browser (``campaign replay``, ``run --replay``).

:mod:`campaign.replay.data` extracts what the page shows from the event stream, through the
one side filter (:func:`campaign.report.view.side_view`, RULES.md §8.6);
:mod:`campaign.replay.page` writes it as one self-contained, offline HTML file with the
script and stylesheet in ``assets/``.
"""

from __future__ import annotations

from collections.abc import Sequence

from campaign.errors import SimulatorError
from campaign.events import CampaignEvent
from campaign.replay.page import render_replay, write_replay
from campaign.report.view import VIEWS, check_view

__all__ = ["render_replay", "replay_views", "stream_owner", "write_replay"]


def stream_owner(events: Sequence[CampaignEvent]) -> str | None:
    """The side whose own stream this is (written with ``run --view SIDE``), or None for
    the umpire's stream (a side's stream has every event seen by that side)."""
    owner = [s for s in ("red", "blue") if events and all(s in e.seen_by for e in events)]
    return owner[0] if len(owner) == 1 else None


def replay_views(
    events: Sequence[CampaignEvent], view: str | None, *, source: str | None = None
) -> list[str]:
    """The views a replay file offers: all three from the umpire's stream (``view`` umpire or
    None), only ``view`` for a side, only the owner's from a side's own stream.

    Raises
    ------
    SimulatorError
        If ``view`` is unknown, or asks a side's stream for more than that side knew.
    """
    if view is not None:
        check_view(view)
    owner = stream_owner(events)
    if owner is not None:
        if view not in (None, owner):
            raise SimulatorError(
                f"this event stream is {owner}'s view only (written with --view {owner}); "
                f"it cannot give the {view} replay",
                source=source,
                key="--view",
                fix=f"Give --view {owner}, or the umpire's stream (campaign run --format jsonl "
                "without --view).",
            )
        return [owner]
    if view in (None, "umpire"):
        return list(VIEWS)
    return [view]
