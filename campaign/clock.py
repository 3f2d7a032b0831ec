"""Campaign time (RULES.md §8.3): minutes since dawn of day 1, daylight and nightfall."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

__all__ = ["Clock", "arrival_bound", "clock_of", "default_clock"]


@dataclass(frozen=True)
class Clock:
    """Converts campaign minutes (0 = dawn of day 1) to days and times of day.

    ``day_start`` and ``day_end`` are minutes after midnight, ``campaign.day_start_minutes``
    and ``campaign.day_end_minutes`` in config (RULES.md §8.3: 360 = 06:00, 1200 = 20:00).
    """

    day_start: int
    day_end: int

    def absolute(self, t: float) -> float:
        return t + self.day_start

    # The methods below are on the campaign's hot path: each spells out ``absolute`` and
    # ``day`` instead of calling them (the same arithmetic, so the same floats).
    def day(self, t: float) -> int:
        """Campaign day (1-based) of time ``t``."""
        return int((t + self.day_start) // 1440) + 1

    def time_of_day(self, t: float) -> float:
        return (t + self.day_start) % 1440

    def is_daylight(self, t: float) -> bool:
        return self.day_start <= (t + self.day_start) % 1440 < self.day_end

    def nightfall(self, t: float) -> float:
        """The campaign minute of nightfall on the day of ``t`` (may be in the past at night)."""
        return int((t + self.day_start) // 1440) * 1440 + self.day_end - self.day_start

    def next_dawn(self, t: float) -> float:
        """The first daylight minute at or after ``t``."""
        start = self.day_start
        of_day = (t + start) % 1440
        if of_day < start:
            return int((t + start) // 1440) * 1440.0
        if of_day < self.day_end:
            return float(t)
        return (int((t + start) // 1440) + 1) * 1440.0

    @property
    def daylight_minutes(self) -> int:
        return self.day_end - self.day_start

    def label(self, t: float) -> str:
        """``Day 2 14:30``."""
        minutes = round(self.time_of_day(t))
        return f"Day {self.day(t)} {minutes // 60:02d}:{minutes % 60:02d}"


def clock_of(events: Iterable[object]) -> Clock:
    """The clock a recorded campaign ran on (from its CampaignStarted header), else
    :func:`default_clock`."""
    for e in events:
        if hasattr(e, "day_start") and hasattr(e, "day_end"):
            return Clock(e.day_start, e.day_end)
    return default_clock()


@cache
def default_clock() -> Clock:
    """The clock of the default rules (``config/rules.yaml``, RULES.md §8.3), read once.

    >>> default_clock().label(0)
    'Day 1 06:00'
    """
    from campaign.config import load_rules

    camp = load_rules().rules.campaign
    return Clock(camp.day_start_minutes, camp.day_end_minutes)


def arrival_bound(arrive: float, start: float, bound_minutes: float) -> int:
    """The bound a division arriving at minute ``arrive`` joins, for a battle that started at
    minute ``start`` (RULES.md §8.4: at the start of its next bound; bound 1 starts at
    ``start``, bound k at ``start + (k - 1) * bound_minutes``).

    >>> arrival_bound(610, 600, 15), arrival_bound(615, 600, 15), arrival_bound(616, 600, 15)
    (2, 2, 3)
    """
    return max(1, math.ceil((arrive - start) / bound_minutes) + 1)
