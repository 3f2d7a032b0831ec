"""What a campaign returns: the winner and why, tallies, the event stream."""

from __future__ import annotations

from dataclasses import dataclass

from campaign.events import CampaignEvent

__all__ = ["BattleRow", "CampaignResult"]


@dataclass(frozen=True, slots=True)
class BattleRow:
    """One battle as a results-table row (batch runs store these)."""

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


@dataclass(frozen=True)
class CampaignResult:
    """The outcome of :func:`campaign.engine.run_campaign`.

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
