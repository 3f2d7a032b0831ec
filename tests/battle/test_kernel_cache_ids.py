"""The kernel's decoding caches never hand one rules' events to another's battle.

CI found a campaign whose battle reported a withdrawal check "vs 8+" under the default
rules (12+): a cache keyed on ``id(tables)`` outlived the Tables it was made from, and a
later Tables at the same address read its checks. Rules objects are made and dropped here
until the rules caches are cleared and addresses are reused (RULES.md §7.2–§7.4).
"""

from __future__ import annotations

import numpy as np

from battle.engine import fight
from battle.forces import parse_force_flag
from campaign.config import load_rules


def test_withdrawal_checks_carry_their_own_rules_after_rules_are_dropped() -> None:
    seen: dict[int, int] = {}
    for i in range(400):
        total = (8, 12, 10)[i % 3]
        rules = load_rules([], {"battle.withdrawal_success_total": total}).rules.battle
        result = fight(
            parse_force_flag("6i1c1a", "Red", "R"),
            parse_force_flag("4i1c1a", "Blue", "B"),
            rules,
            np.random.default_rng(i % 4),
        )
        for c in result.withdrawal_checks:
            assert c.success_total == total, (i, c.success_total, total)
            seen[total] = seen.get(total, 0) + 1
        del rules, result
    assert set(seen) == {8, 10, 12}
