"""Withdrawal factors and checks (RULES.md §7), shared by the battle and the campaign (§7.6)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from battle.compiled import A2F, B1, F8, I8, pair_of, rule
from battle.events import Check, Factor
from battle.rules import WithdrawalRules

__all__ = [
    "Check",
    "SideTally",
    "WithdrawalTable",
    "highest_loss_step",
    "loss_factors",
    "roll_withdrawals",
    "withdrawal_factors",
    "withdrawal_order",
    "withdrawal_table",
]


@dataclass(slots=True)
class SideTally:
    """What has happened to one army, as counts (RULES.md §7.2 rows); a battle keeps one per
    side and adds to it as units are lost."""

    flags: int = 0  # infantry/cavalry units eliminated or surrendered
    batteries: int = 0  # artillery units eliminated
    retiring_shaken: int = 0  # units that fell back while shaken (once each)
    off_table: int = 0  # units retreating off the table
    objectives_lost: int = 0
    primary_roads_lost: int = 0


#: The §7.2 rows a count can fire: (weight in WithdrawalRules, count in SideTally, the row's
#: name for one's own loss, and for the same thing suffered by the enemy)
_ROWS = (
    ("flag", "flags", "flags lost", "flags captured"),
    ("battery", "batteries", "batteries lost", "batteries captured"),
    ("retiring_shaken", "retiring_shaken", "units retiring shaken", "enemy units retiring shaken"),
    ("off_table", "off_table", "units off the table", "enemy units off the table"),
    ("objective", "objectives_lost", "objectives lost", "objectives captured"),
    ("primary_road", "primary_roads_lost", "primary road lost", "primary road captured"),
)


class WithdrawalTable:
    """The §7.2 factor table of a :class:`~battle.rules.WithdrawalRules` as plain tuples.

    Built once per rules object (:func:`withdrawal_table`): a battle checks several times.
    """

    __slots__ = ("losses", "rows", "steps")

    def __init__(self, w: WithdrawalRules) -> None:
        #: (weight, SideTally count, own row name, enemy row name) of each non-zero weight
        self.rows = tuple(
            (getattr(w, weight), count, lost, captured)
            for weight, count, lost, captured in _ROWS
            if getattr(w, weight)
        )
        #: (percent, factors) of each losses step
        self.losses = tuple((step.percent, step.factors) for step in w.losses)
        self.steps = np.array(self.losses, np.float64).reshape(-1, 2)

    def loss_factors(self, casualty_percent: float) -> int:
        """Factors for losses: the highest step reached (30/40/50% → 1/2/3)."""
        return int(highest_loss_step(float(casualty_percent), self.steps))

    def factors(self, own: SideTally, enemy: SideTally, casualty_percent: float) -> list[Factor]:
        """The non-zero factors of one army, as :class:`Factor` rows (see
        withdrawal_factors)."""
        rows = []
        for weight, count, lost, captured in self.rows:
            n = getattr(own, count)
            if n:
                rows.append(Factor(lost, weight * n))
            n = getattr(enemy, count)
            if n:
                rows.append(Factor(captured, -weight * n))
        losses = self.loss_factors(casualty_percent)
        if losses:
            rows.append(Factor(f"losses {casualty_percent:.0f}%", losses))
        return rows


_TABLES: dict[int, tuple[WithdrawalRules, WithdrawalTable]] = {}


def withdrawal_table(w: WithdrawalRules) -> WithdrawalTable:
    """The :class:`WithdrawalTable` of ``w`` (cached per rules object)."""
    hit = _TABLES.get(id(w))
    if hit is not None and hit[0] is w:
        return hit[1]
    table = WithdrawalTable(w)
    if len(_TABLES) > 64:
        _TABLES.clear()
    _TABLES[id(w)] = (w, table)
    return table


def loss_factors(w: WithdrawalRules, casualty_percent: float) -> int:
    """Factors for losses (RULES.md §7.2): the highest step reached (30/40/50% → 1/2/3)."""
    return withdrawal_table(w).loss_factors(casualty_percent)


def withdrawal_factors(
    w: WithdrawalRules, own: SideTally, enemy: SideTally, casualty_percent: float
) -> list[Factor]:
    """The non-zero withdrawal factors of one army (RULES.md §7.2), as ``(row, factors)``.

    Own losses add factors; the same things suffered by the enemy subtract them. The sum is
    the number of d6 rolled (§7.3).
    """
    return withdrawal_table(w).factors(own, enemy, casualty_percent)


S = TypeVar("S")


def roll_withdrawals(
    armies: Sequence[tuple[S, float, list[Factor]]],
    roll_die: Callable[[], int],
    success_total: int,
    die: int,
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
    die
        The sides of the die ``roll_die`` rolls (6, §0.4), kept in the record.

    Returns
    -------
    list of Check
        The checks made, in the order rolled: the army with more factors first; if it
        withdraws the other does not roll. With equal factors both roll (both may withdraw).
    """
    totals = [sum(n for _, n in rows) for _, _, rows in armies]
    order = list(armies)
    swap, equal = withdrawal_order(len(totals), *[*totals, 0, 0][:2])
    if swap:
        order.reverse()
        totals.reverse()
    checks: list[Check[S]] = []
    for total, (side, pct, rows) in zip(totals, order, strict=True):
        rolls = tuple([roll_die() for _ in range(total)])  # none when total <= 0
        withdraws = sum(rolls) >= success_total
        checks.append(
            Check(side, round(pct, 3), tuple(rows), total, rolls, withdraws, die, success_total)
        )
        if withdraws and not equal:
            break
    return checks


@rule(I8, F8, A2F, inline=True)
def highest_loss_step(casualty_percent: float, steps: NDArray[np.float64]) -> int:
    """Factors for losses (RULES.md §7.2): the highest ``(percent, factors)`` step of
    ``steps`` (float64 [k, 2]) that ``casualty_percent`` reaches (30/40/50% → 1/2/3); 0 below
    them all. Compiled: the battle kernel and the campaign (§7.6) share it."""
    best = 0
    for k in range(steps.shape[0]):
        if casualty_percent >= steps[k, 0] and steps[k, 1] > best:
            best = int(steps[k, 1])
    return best


@rule(pair_of(B1), I8, I8, I8, inline=True)
def withdrawal_order(armies: int, first: int, second: int) -> tuple[bool, bool]:
    """Who rolls first (RULES.md §7.3–§7.4): of two armies that must check, the one with more
    factors (``first`` and ``second``: each army's total, in side order). Returns (whether
    the second rolls first, whether both roll whatever the first throws: equal factors).
    Compiled: the battle kernel and the campaign (§7.6) share it."""
    return armies == 2 and second > first, armies == 2 and first == second
