"""A fixed plain-Python yardstick, timed in the same process as every speed figure (issue 15).

Benchmark figures depend on the machine; a ratio to this yardstick does much less. The
yardstick is a *toy* battle in plain Python — two lists of units exchanging d6 fire through a
linear congruential generator until one side is broken — with no project code, no numpy and no
library calls, so it measures the interpreter and the core alone. Its code must never change:
ratios from different days compare only while it stays the same.

About 9,800 toy battles/s on the project's reference machine (2 cores, December 2026).

Examples
--------
>>> toy_battle(1) in (0, 1)
True
"""

from __future__ import annotations

import time

__all__ = ["run", "toy_battle", "toy_battles_per_second"]

_MOD = 2**31 - 1
_MUL = 48_271


def toy_battle(seed: int) -> int:
    """Fight one toy battle from ``seed``; returns the winning side (0 or 1)."""
    state = seed % _MOD or 1
    sides = [[9] * 30, [9] * 26]  # hits left per unit
    for _turn in range(200):
        for side in (0, 1):
            enemy = sides[1 - side]
            for _unit in sides[side]:
                state = state * _MUL % _MOD
                roll = state % 6 + 1
                if roll >= 4 and enemy:
                    target = state % len(enemy)
                    enemy[target] -= 1
                    if enemy[target] <= 0:
                        enemy.pop(target)
            if len(enemy) <= 8:
                return side
    return 0


def toy_battles_per_second(seconds: float = 0.5) -> float:
    """Run toy battles for about ``seconds`` seconds (wall); returns toy battles per second.

    The best of three such runs is returned, as for every figure it divides: other load on a
    shared machine only ever slows a run down.
    """
    best = 0.0
    for _ in range(3):
        n, seed = 0, 1
        start = time.perf_counter()
        elapsed = 0.0
        while elapsed < seconds / 3:
            for _ in range(50):
                toy_battle(seed)
                seed += 1
            n += 50
            elapsed = time.perf_counter() - start
        best = max(best, n / elapsed)
    return best


def run() -> list[str]:
    """Time the yardstick; return the report line (``make bench`` prints it first)."""
    rate = toy_battles_per_second(1.5)
    return [
        f"yardstick: {rate:,.0f} toy battles/s in plain Python on this machine (about 9,800 on "
        "the reference machine); figures below are also given as a ratio to it"
    ]


if __name__ == "__main__":
    print(run()[0])
