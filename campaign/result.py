"""What a campaign returns: the winner and why, tallies, the event stream."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from campaign.events import SIDES, CampaignEvent, CampaignStarted
from campaign.paths import display_path
from campaign.versions import versions

if TYPE_CHECKING:
    from campaign.engine import Campaign

__all__ = ["BattleRow", "CampaignResult", "header"]


@dataclass(slots=True)
class BattleRow:
    """One battle as a results-table row (batch runs store these). Read-only by
    convention, not frozen: a frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``, 3 us for these 17 against 0.2 (issue 15: six a campaign)."""

    index: int
    t: int
    day: int
    place: str
    road: bool
    attacker: str
    winner: str | None
    reason: str
    bounds: int
    red_divisions: int
    blue_divisions: int
    red_units: int
    blue_units: int
    red_hits: int
    blue_hits: int
    red_cards_lost: int
    blue_cards_lost: int


@dataclass(slots=True)
class CampaignResult:
    """The outcome of :func:`campaign.engine.run_campaign` (read-only by convention, not
    frozen: see :class:`BattleRow`).

    ``winner`` is ``"red"``, ``"blue"`` or None (a draw); ``reason`` says why (RULES.md §8.7).
    ``losses`` are actual hits taken per side over the campaign; ``end_minutes`` is campaign
    time (minutes since 06:00 day 1); ``events`` is the whole stream when recorded (else only
    the final :class:`~campaign.events.CampaignEnded`).
    """

    seed: int
    winner: str | None
    reason: str
    end_minutes: int
    days: int
    battles: int
    losses: dict[str, int]
    divisions_left: dict[str, int]
    objective_value: dict[str, int]
    events: tuple[CampaignEvent, ...]
    battle_rows: tuple[BattleRow, ...] = ()
    #: campaign character (batch ``runs`` columns): rough-road tests made and failed
    #: (RULES.md §8.2), distinct places battles were fought at (a road counts once whichever
    #: way it was marched), marches begun (fall backs and returns included), flank marches
    #: the strategy reported (§8.8; 0 when it reports none), and the side whose base fell
    #: (held alone by the enemy at nightfall, §8.7) with the day it fell
    rough_road_tests: int = 0
    rough_road_failures: int = 0
    battle_places: int = 0
    marches: int = 0
    flank_marches: int = 0
    base_fell: str | None = None
    base_fell_day: int | None = None


def header(camp: Campaign) -> CampaignStarted:
    """The campaign's first event: map, rules, doctrines, sides, bases, seed, versions."""
    cmap = camp.map
    return CampaignStarted(
        0,
        cmap.name,
        display_path(cmap.source),
        camp.loaded.label,
        camp.loaded.hash,
        dict(camp.doctrines),
        {s: cmap.sides[s].name for s in SIDES},
        {s: cmap.sides[s].base for s in SIDES},
        camp.seed,
        versions(),
        tuple(cmap.notes),
        camp.cr.day_start_minutes,
        camp.cr.day_end_minutes,
    )
