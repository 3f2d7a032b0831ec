"""Withdrawal factors and checks (RULES.md §7), shared by the battle and the campaign (§7.6)."""

from __future__ import annotations

from dataclasses import dataclass

from battle.rules import WithdrawalRules

__all__ = ["SideTally", "loss_factors", "withdrawal_factors"]


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
