"""Benchmarks (``make bench``): each module has ``run() -> list[str]`` returning report lines.

Run them all with ``python -m benchmarks``, or some with ``python -m benchmarks battle
campaign`` (a name is a module here, with or without its ``_speed`` suffix).
"""

from __future__ import annotations

__all__ = ["MODULES", "NAMED_ONLY"]

#: Benchmark modules in the order ``python -m benchmarks`` runs them; add new ones here.
MODULES = ("yardstick", "battle_speed", "campaign_speed", "batch_speed")
#: Benchmarks run only when named (``python -m benchmarks scale``): they take minutes.
NAMED_ONLY = ("scale", "fingerprint")
