"""The range of every number of a saved event that sizes later work (issue 32 item 6).

A field's type is checked when a line is read (:mod:`campaign.printers.jsonl`); these ranges
add what a run can write. A number out of them never comes from ``campaign run``, and the
diary and the replay would size their work by it (``CampaignEnded.days = 10**9`` asked the
diary for a billion days; ``BattleFought.minutes = 10**9`` a chart axis of 700,000 ticks; a
``CampaignStarted.day_start`` past midnight cut the days wrongly, ``seed = -1`` reached numpy).

:func:`check_event_ranges` raises ``ValueError`` naming the field, its range and the value;
the reader turns it into the one-paragraph error of a damaged stream (exit 2).
"""

from __future__ import annotations

from campaign.events import (
    BattleFought,
    CampaignEnded,
    CampaignEvent,
    CampaignStarted,
    DayEnded,
    DivisionRaised,
    RoughRoadTest,
)

__all__ = ["FIELD_RANGES", "check_event_ranges"]

#: Minutes in a day: the clock's daylight bounds are minutes after midnight (RULES.md §8.3).
_DAY = 1440
#: Longest campaign: ``campaign.time_limit_days`` is at most 365; a stream's ``t`` may reach
#: the start of day 367 (:data:`campaign.printers.jsonl.MAX_EVENT_MINUTES`).
_MAX_DAYS = 367

#: (event class, field) -> (smallest, largest) value a run writes, both included.
FIELD_RANGES: dict[tuple[type[CampaignEvent], str], tuple[int, int]] = {
    (CampaignStarted, "seed"): (0, 2**64),  # numpy seeds are non-negative
    (CampaignStarted, "day_start"): (0, _DAY - 1),  # campaign.day_start_minutes, §8.3
    (CampaignStarted, "day_end"): (1, _DAY),  # campaign.day_end_minutes, §8.3
    (DivisionRaised, "roll"): (1, 100),  # the d100 of the division table, §2.1
    (RoughRoadTest, "roll"): (1, 100),  # the d100 of the rough road test, §8.2
    (BattleFought, "bounds"): (0, _DAY),  # a battle ends by nightfall; a bound is >= 1 min
    (BattleFought, "minutes"): (0, _DAY),
    (DayEnded, "day"): (1, _MAX_DAYS),
    (CampaignEnded, "days"): (0, _MAX_DAYS),
    (CampaignEnded, "battles"): (0, 10**7),  # campaign.max_events is at most 10,000,000
}


def check_event_ranges(event: CampaignEvent) -> None:
    """Refuse a number of ``event`` outside :data:`FIELD_RANGES` or out of order with another.

    Raises
    ------
    ValueError
        ``field 'days' of CampaignEnded: expected 0..367 (found 1000000000)``; or a
        ``CampaignStarted`` whose daylight does not start before it ends; or a
        ``CampaignEnded`` whose day count is past the day of its own time ``t``.
    """
    kind = type(event)
    for (cls, name), (low, high) in FIELD_RANGES.items():
        if cls is kind:
            value = getattr(event, name)
            if not low <= value <= high:
                raise ValueError(
                    f"field {name!r} of {kind.__name__}: expected {low}..{high} (found {value})"
                )
    if isinstance(event, CampaignStarted) and event.day_start >= event.day_end:
        raise ValueError(
            f"CampaignStarted's daylight starts at minute {event.day_start}, not before it "
            f"ends at minute {event.day_end} (RULES.md §8.3)"
        )
    if isinstance(event, CampaignEnded) and event.days > event.t // _DAY + 2:
        raise ValueError(
            f"field 'days' of CampaignEnded: {event.days} days, past the campaign's time "
            f"({event.t} minutes, day {event.t // _DAY + 1} or {event.t // _DAY + 2})"
        )
