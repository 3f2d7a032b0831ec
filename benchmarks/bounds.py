"""The bounds of a benchmark command's numeric flags, checked before any work starts."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["out_of_bounds"]


def out_of_bounds(flags: Iterable[tuple[str, int, int, int]]) -> str | None:
    """The error line for the first ``(flag, value, low, high)`` whose value lies outside
    ``low``..``high``, e.g. ``"error: --runs 5: expected 100 to 100000"``; None when all fit.

    >>> out_of_bounds([("--runs", 5, 100, 100_000)])
    'error: --runs 5: expected 100 to 100000'
    >>> out_of_bounds([("--rounds", 3, 1, 20)]) is None
    True
    """
    for name, value, low, high in flags:
        if not low <= value <= high:
            return f"error: {name} {value}: expected {low} to {high}"
    return None
