"""Figures as ratios to the plain-Python yardstick measured in the same run (issue 15).

:func:`yardstick_rate` times :func:`benchmarks.yardstick.toy_battles_per_second` once per
process and keeps it, so every benchmark of one ``make bench`` divides by the same
measurement; :func:`versus` formats a rate as that ratio. A ratio moves much less than the
figure between machines, or between a quiet and a busy hour on one machine.
"""

from __future__ import annotations

from functools import cache

__all__ = ["ratio", "versus", "yardstick_rate"]


@cache
def yardstick_rate() -> float:
    """Toy battles per second on this machine now (best of three 0.5 s runs), measured once."""
    from benchmarks.yardstick import toy_battles_per_second

    return toy_battles_per_second(1.5)


def ratio(rate: float) -> float:
    """``rate`` (per second) over the yardstick's toy battles per second."""
    return rate / yardstick_rate()


def versus(rate: float, unit: str) -> str:
    """``rate`` (``unit`` per second) as a ratio to the yardstick, e.g. ``0.153 campaigns
    per toy battle``: the same-run ratio that compares across machines."""
    return f"{ratio(rate):.3g} {unit} per toy battle of the yardstick"
