"""Battles per second on one core: 6i1c1a vs 4i1c1a, default rules (RULES.md §6).

Each battle gets its generator as ``campaign battle --odds`` gives it, and a campaign gives
each of its battles: one :class:`campaign.streams.Streams` of the seed, its shared Philox put
back at the start of the battle's own stream ``BATTLE + n`` (RULES.md §0.6). Generator set-up
is part of the figure. (Until 2 December 2026 this bench made a ``default_rng`` of a
``SeedSequence`` child per battle, about 15 us each on the reference machine; neither a
campaign nor ``campaign battle`` has made generators that way since the streams layout of
:mod:`campaign.streams`, so the figure timed a cost the tool no longer pays.) Events off is the
batch runs' setting; the second figure records every event (the kernel writes them as rows of
numbers, decoded to event objects when first read), the third also reads them all.

Targets (issue 15): at least 20,000 battles/s/core with events off and 5,000 with every event
recorded, the best of 7 (5) runs; the median is printed beside it. Each figure is also given
as a ratio to the plain-Python yardstick timed in the same run
(:func:`benchmarks.yardstick.toy_battles_per_second`), so figures from different machines
compare.
"""

from __future__ import annotations

import statistics
import time

__all__ = ["TARGET", "TARGET_EVENTS", "battles_per_second", "run"]

TARGET = 20_000.0
TARGET_EVENTS = 5_000.0


def battles_per_second(
    battles: int, *, record_events: bool, read_events: bool = False, repeats: int = 7
) -> tuple[float, float]:
    """Time ``repeats`` runs of ``battles`` battles; returns (best, median) battles per second.

    ``read_events``: also read every battle's events (decode them to event objects). The
    best is the figure compared with the target, as ``timeit`` does: other processes on a
    shared machine only ever slow a run down. The median shows how much they did.
    """
    import numpy as np

    from battle.engine import fight
    from battle.forces import parse_force_flag
    from campaign.config import load_rules
    from campaign.streams import BATTLE, Streams

    rules = load_rules().rules.battle
    red = parse_force_flag("6i1c1a", "Red", "R")
    blue = parse_force_flag("4i1c1a", "Blue", "B")
    fight(red, blue, rules, np.random.default_rng(0), record_events=record_events)  # warm up
    rates = []
    for run in range(repeats):
        streams = Streams(2026 + run)  # each run its own seed: other battles
        start = time.perf_counter()
        for n in range(battles):
            rng = streams.restart(BATTLE + n)  # as `campaign battle --odds` (battle_cmd.py)
            r = fight(red, blue, rules, rng, record_events=record_events)
            if read_events:
                r.events  # noqa: B018 - decoding them is what is timed
        rates.append(battles / (time.perf_counter() - start))
    return max(rates), statistics.median(rates)


def run(battles: int = 6_000) -> list[str]:
    """Time the battle kernel; return the report lines."""
    from benchmarks.yardstick import toy_battles_per_second

    yardstick = toy_battles_per_second()
    quiet, quiet_median = battles_per_second(battles, record_events=False)
    loud, loud_median = battles_per_second(battles // 3, record_events=True, repeats=5)
    read, _ = battles_per_second(battles // 6, record_events=True, read_events=True, repeats=3)

    def verdict(rate: float, target: float) -> str:
        return "ok" if rate >= target else "BELOW TARGET"

    return [
        f"battle speed: {quiet:,.0f} battles/s on one core, events off "
        f"(target >= {TARGET:,.0f} battles/s/core) [{verdict(quiet, TARGET)}]; "
        f"{quiet / yardstick:.2f} x the yardstick ({yardstick:,.0f} toy battles/s in this run); "
        f"{1e6 / quiet:,.0f} us per battle, 6i1c1a vs 4i1c1a, default rules",
        f"battle speed: the median of the same 7 runs was {quiet_median:,.0f} battles/s "
        "(the line above is the best run: other load on a shared machine slows runs down)",
        f"battle speed: {loud:,.0f} battles/s with every event recorded "
        f"(target >= {TARGET_EVENTS:,.0f}) [{verdict(loud, TARGET_EVENTS)}]; "
        f"{loud / yardstick:.2f} x the yardstick; median {loud_median:,.0f} (best of 5)",
        f"battle speed: {read:,.0f} battles/s with every event recorded and read as event "
        f"objects; {read / yardstick:.2f} x the yardstick (best of 3)",
    ]


if __name__ == "__main__":
    for line in run():
        print(line)
