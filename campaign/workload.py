"""Work bounded by input size: junctions × days for a campaign and for its diary (issue 32).

A campaign's work grows with its map and its length: every day each division plans routes
over the map, and the diary draws the map once a day. The bounds below are in **junction-days**
(the map's junctions once loaded × the days), checked before any work, so a command that
would run for minutes is refused at once with the limit in the message (exit 2):

- a campaign: :data:`MAX_CAMPAIGN_JUNCTION_DAYS` (the time limit's days, the longest the
  campaign can last: 1,000 junctions for 100 days, the 23-junction default map for its 365);
- a campaign's holds: a division with nowhere to go thinks again every
  ``campaign.hold_minutes`` of daylight, so divisions × days × daylight minutes / hold
  minutes may reach :data:`MAX_HOLD_WAKES` (seed 3 on the default map, every division
  holding each minute of 128 days: 860,160 wake-ups, 17 s of CPU in plain Python);
- a diary (``campaign run --report``, ``campaign report``): :data:`MAX_DIARY_JUNCTION_DAYS`
  (for ``run --report`` the time limit's days, for a saved stream the days it holds).

The figures behind them are in the README ("Maps").
"""

from __future__ import annotations

from campaign.errors import MapError, SimulatorError

__all__ = [
    "MAX_CAMPAIGN_JUNCTION_DAYS",
    "MAX_DIARY_JUNCTION_DAYS",
    "MAX_HOLD_WAKES",
    "check_campaign_work",
    "check_diary_work",
    "check_hold_work",
]

#: Largest map junctions × time-limit days one campaign may have (1,000 junctions run a
#: 96-day campaign in 11 s and 450 MB: README "Maps").
MAX_CAMPAIGN_JUNCTION_DAYS = 100_000
#: Most times the divisions of one campaign may think again while they hold (about 20 µs
#: each in plain Python, half that compiled: 20 s or less).
MAX_HOLD_WAKES = 1_000_000
#: Largest map junctions × days one diary may draw (1,000 junctions × 7-9 days took 8-14 s:
#: 20,000 junction-days stay within a minute on a loaded machine).
MAX_DIARY_JUNCTION_DAYS = 20_000


def check_campaign_work(junctions: int, days: int, source: str | None) -> None:
    """Refuse a campaign of ``days`` days on a map of ``junctions`` past the bound.

    Raises
    ------
    MapError
        If ``junctions * days`` exceeds :data:`MAX_CAMPAIGN_JUNCTION_DAYS`; the message gives
        the product, the bound and the longest time limit the map may have.
    """
    if junctions * days > MAX_CAMPAIGN_JUNCTION_DAYS:
        longest = max(1, MAX_CAMPAIGN_JUNCTION_DAYS // max(junctions, 1))
        raise MapError(
            f"a campaign of {days} days on {junctions:,} junctions is {junctions * days:,} "
            f"junction-days, past the {MAX_CAMPAIGN_JUNCTION_DAYS:,} one campaign may have "
            "(a minute and 1 GB)",
            source=source,
            key="time_limit_days",
            fix=f"Give a time limit of at most {longest} days on this map "
            f"(--set campaign.time_limit_days={longest}, or the map's time_limit_days), "
            "or a smaller map (campaign map info MAP --contract).",
        )


def check_diary_work(junctions: int, days: int, source: str | None, flag: str | None) -> None:
    """Refuse a diary of ``days`` daily maps of ``junctions`` junctions past the bound.

    Raises
    ------
    SimulatorError
        If ``junctions * days`` exceeds :data:`MAX_DIARY_JUNCTION_DAYS`.
    """
    if junctions * days > MAX_DIARY_JUNCTION_DAYS:
        longest = max(1, MAX_DIARY_JUNCTION_DAYS // max(junctions, 1))
        raise SimulatorError(
            f"a diary of {days} days of maps of {junctions:,} junctions is "
            f"{junctions * days:,} junction-days, past the {MAX_DIARY_JUNCTION_DAYS:,} a diary "
            "may draw (a minute and 1 GB)",
            source=source,
            key=flag,
            fix=f"Keep diaries of this map to campaigns of at most {longest} days "
            "(--set campaign.time_limit_days), or leave the diary out and read the log.",
        )


def check_hold_work(
    divisions: int, days: int, daylight: int, hold_minutes: int, source: str | None
) -> None:
    """Refuse a campaign whose holding divisions could think again too often.

    ``divisions`` is every division the campaign may raise (both sides' starts and their
    reinforcements), ``daylight`` the minutes of a day's daylight (RULES.md §8.3) and
    ``hold_minutes`` ``campaign.hold_minutes``.

    Raises
    ------
    MapError
        If ``divisions * days * daylight / hold_minutes`` exceeds :data:`MAX_HOLD_WAKES`;
        the message gives the smallest ``hold_minutes`` the campaign may have.
    """
    wakes = divisions * days * daylight // max(hold_minutes, 1)
    if wakes > MAX_HOLD_WAKES:
        least = -(-divisions * days * daylight // MAX_HOLD_WAKES)  # rounded up
        raise MapError(
            f"{divisions} divisions holding for {days} days, thinking again every "
            f"{hold_minutes} minutes of {daylight} minutes of daylight, could think "
            f"{wakes:,} times, past the {MAX_HOLD_WAKES:,} one campaign may (a minute)",
            source=source,
            key="campaign.hold_minutes",
            fix=f"Give campaign.hold_minutes of at least {least} (--set "
            f"campaign.hold_minutes={least}), or fewer days or divisions.",
        )
