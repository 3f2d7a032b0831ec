"""RULES.md §7.3–§7.4: who rolls first, and when the other army does not roll."""

from __future__ import annotations

from battle.withdrawal import roll_withdrawals


def _dice(values):
    it = iter(values)
    return lambda: next(it)


def test_more_factors_roll_first_and_a_withdrawal_stops_the_other():
    armies = [("red", 30.0, [("losses 30%", 1)]), ("blue", 40.0, [("flags lost", 2), ("x", 1)])]
    checks = roll_withdrawals(armies, _dice([6, 6, 1]), 12, 6)
    assert [c.side for c in checks] == ["blue"]  # 3 factors beat 1; 13 >= 12: blue withdraws
    assert checks[0].rolls == (6, 6, 1) and checks[0].withdraws


def test_the_second_army_rolls_when_the_first_holds():
    armies = [("red", 30.0, [("a", 2)]), ("blue", 40.0, [("b", 3)])]
    checks = roll_withdrawals(armies, _dice([1, 1, 1, 6, 6]), 12, 6)
    assert [(c.side, c.rolls, c.withdraws) for c in checks] == [
        ("blue", (1, 1, 1), False),
        ("red", (6, 6), True),
    ]


def test_equal_factors_both_roll_and_both_may_withdraw():
    armies = [("red", 30.0, [("a", 2)]), ("blue", 30.0, [("b", 2)])]
    checks = roll_withdrawals(armies, _dice([6, 6, 6, 6]), 12, 6)
    assert [(c.side, c.withdraws) for c in checks] == [("red", True), ("blue", True)]


def test_one_factor_or_fewer_never_withdraws():
    for factors in (-3, 0, 1):
        armies = [("red", 50.0, [("f", factors)])]
        checks = roll_withdrawals(armies, _dice([6] * 10), 12, 6)
        assert not checks[0].withdraws
        assert len(checks[0].rolls) == max(factors, 0)
