"""Withdrawal factors and checks (RULES.md §7), shared by the battle and the campaign (§7.6)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from battle.rules import WithdrawalRules

__all__ = ["Check", "SideTally", "loss_factors", "roll_withdrawals", "withdrawal_factors"]


@dataclass(frozen=True, slots=True)
class SideTally:
    """What has happened to one army, as counts (RULES.md §7.2 rows)."""

    flags: int = 0  # infantry/cavalry units eliminated or surrendered
    batteries: int = 0  # artillery units eliminated
    retiring_shaken: int = 0  # units that fell back while shaken (once each)
    off_table: int = 0  # units retreating off the table
    objectives_lost: int = 0
    primary_roads_lost: int = 0


def loss_factors(w: WithdrawalRules, casualty_percent: float) -> int:
    """Factors for losses (RULES.md §7.2): the highest step reached (30/40/50% → 1/2/3)."""
    best = 0
    for step in w.losses:
        if casualty_percent >= step.percent:
            best = max(best, step.factors)
    return best


def withdrawal_factors(
    w: WithdrawalRules, own: SideTally, enemy: SideTally, casualty_percent: float
) -> list[tuple[str, int]]:
    """The non-zero withdrawal factors of one army (RULES.md §7.2), as ``(row, factors)``.

    Own losses add factors; the same things suffered by the enemy subtract them. The sum is
    the number of d6 rolled (§7.3).
    """
    rows = [
        ("flags lost", w.flag * own.flags),
        ("flags captured", -w.flag * enemy.flags),
        ("batteries lost", w.battery * own.batteries),
        ("batteries captured", -w.battery * enemy.batteries),
        ("units retiring shaken", w.retiring_shaken * own.retiring_shaken),
        ("enemy units retiring shaken", -w.retiring_shaken * enemy.retiring_shaken),
        ("units off the table", w.off_table * own.off_table),
        ("enemy units off the table", -w.off_table * enemy.off_table),
        ("objectives lost", w.objective * own.objectives_lost),
        ("objectives captured", -w.objective * enemy.objectives_lost),
        ("primary road lost", w.primary_road * own.primary_roads_lost),
        ("primary road captured", -w.primary_road * enemy.primary_roads_lost),
    ]
    losses = loss_factors(w, casualty_percent)
    if losses:
        rows.append((f"losses {casualty_percent:.0f}%", losses))
    return [(name, n) for name, n in rows if n]


S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Check(Generic[S]):
    """One army's withdrawal check: its factors, the d6 rolled and whether it withdraws."""

    side: S
    casualty_percent: float
    factors: tuple[tuple[str, int], ...]
    total: int
    rolls: tuple[int, ...]
    withdraws: bool


def roll_withdrawals(
    armies: Sequence[tuple[S, float, list[tuple[str, int]]]],
    roll_die: Callable[[], int],
    success_total: int,
) -> list[Check[S]]:
    """Roll the withdrawal checks of the armies that must check (RULES.md §7.3–§7.4).

    Parameters
    ----------
    armies
        ``(side, casualty percent, factor rows)`` of each army at or over the threshold,
        in side order (ties in factors keep this order).
    roll_die
        Rolls one d6 (from the battle's or campaign's own generator).
    success_total
        The sum that makes an army withdraw (12, RULES.md §0.4).

    Returns
    -------
    list of Check
        The checks made, in the order rolled: the army with more factors first; if it
        withdraws the other does not roll. With equal factors both roll (both may withdraw).
    """
    entries = [
        (sum(n for _, n in rows), i, side, pct, rows) for i, (side, pct, rows) in enumerate(armies)
    ]
    entries.sort(key=lambda e: (-e[0], e[1]))
    equal = len(entries) == 2 and entries[0][0] == entries[1][0]
    checks: list[Check[S]] = []
    for total, _, side, pct, rows in entries:
        rolls = tuple(roll_die() for _ in range(max(total, 0)))
        withdraws = sum(rolls) >= success_total
        checks.append(Check(side, round(pct, 3), tuple(rows), total, rolls, withdraws))
        if withdraws and not equal:
            break
    return checks
