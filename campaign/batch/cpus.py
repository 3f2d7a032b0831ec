"""How many CPUs a batch may use on this machine (a module of its own so that the plan's
bound on workers and the runner's default read one function without importing each other)."""

from __future__ import annotations

import os

__all__ = ["default_workers"]


def default_workers() -> int:
    """Worker processes when none are asked for: the CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)
