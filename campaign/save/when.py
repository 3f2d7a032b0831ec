"""Where a campaign stops or forks, as a user writes it (issue 28, item 3).

``"day 2 18:00"`` is a clock time of the campaign (RULES.md §8.3: day 1 begins at dawn,
``campaign.day_start_minutes``); ``"battle:3"`` is just before the campaign's battle 3 begins
(battles are numbered 1, 2, ... as they begin, as the log numbers them).

>>> from campaign.clock import Clock
>>> parse_when("day 2 18:00", Clock(360, 1200), "--until")
Stop(minute=2160.0, battle=None)
>>> parse_when("battle:3", Clock(360, 1200), "--until")
Stop(minute=None, battle=3)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from battle.errors import ConfigError
from campaign.clock import Clock

__all__ = ["MAX_BATTLE", "MAX_DAY", "Stop", "parse_when", "stop_label"]

#: the latest day a stop may name (a campaign's time limit is far shorter)
MAX_DAY = 366
#: the highest battle number a stop may name
MAX_BATTLE = 100_000

_DAY = re.compile(r"^\s*day\s+(\d{1,4})\s+(\d{1,2}):(\d{2})\s*$", re.IGNORECASE)
_BATTLE = re.compile(r"^\s*battle\s*:\s*(\d{1,7})\s*$", re.IGNORECASE)
_FIX = 'Write a campaign time as "day 2 18:00" or a battle as battle:3 (before it begins).'


@dataclass(frozen=True)
class Stop:
    """A stop point: a campaign minute (from dawn of day 1; the stop is at the start of that
    minute) or just before battle ``battle`` begins. Exactly one of the two is set."""

    minute: float | None = None
    battle: int | None = None


def parse_when(text: str, clock: Clock, flag: str) -> Stop:
    """The :class:`Stop` ``text`` names.

    Raises
    ------
    ConfigError
        If ``text`` is neither form, the time is not a clock time, the day or battle is
        out of range, or the time is the campaign's first minute (nothing has happened).
    """
    day = _DAY.match(text)
    if day:
        d, hh, mm = (int(g) for g in day.groups())
        if not 1 <= d <= MAX_DAY or hh > 23 or mm > 59:
            raise ConfigError(
                f"{text!r} is not a campaign time (day 1..{MAX_DAY}, 00:00..23:59)",
                key=flag,
                fix=_FIX,
            )
        minute = float((d - 1) * 1440 + hh * 60 + mm - clock.day_start)
        if minute <= 0:
            raise ConfigError(
                f"{text!r} is at or before the campaign's first minute ({clock.label(0)})",
                key=flag,
                fix="Give a later time: nothing has happened before dawn of day 1.",
            )
        return Stop(minute=minute)
    battle = _BATTLE.match(text)
    if battle:
        n = int(battle.group(1))
        if not 1 <= n <= MAX_BATTLE:
            raise ConfigError(f"battle {n} is out of range (1..{MAX_BATTLE:,})", key=flag, fix=_FIX)
        return Stop(battle=n)
    raise ConfigError(f"cannot read {text!r} as a time or a battle", key=flag, fix=_FIX)


def stop_label(stop: Stop, clock: Clock) -> str:
    """``Day 2 18:00`` or ``before battle 3``."""
    if stop.battle is not None:
        return f"before battle {stop.battle}"
    assert stop.minute is not None
    return clock.label(stop.minute)
