"""Numbers of RULES.md reach the campaign from config (issue 11: one place per rule).

``battle.destroyed_at_hits`` sets division strengths, casualty fractions and the strategy's
estimate of an unfought division; ``battle.withdrawal_success_total`` reaches the printed
withdrawal checks; ``campaign.division_light_infantry`` raises light infantry (RULES.md §1).
"""

from __future__ import annotations

import re

import numpy as np

from battle.dice import Dice
from campaign.army import raise_division, unknown_division_boxes
from campaign.config import load_rules


def test_destroyed_at_hits_sets_division_boxes_and_the_estimate() -> None:
    for hits in (10, 12):
        rules = load_rules([], {"battle.destroyed_at_hits": hits}).rules
        division, roll = raise_division("red", 1, "a", rules, Dice(np.random.default_rng(3)))
        assert division.boxes == hits * len(division.units)
        # d100 table: 6 / 5 / 4 infantry at 33 / 33 / 34% -> 4.99 -> 5, + cavalry + battery
        assert unknown_division_boxes(rules) == 7 * hits
        del roll


def test_division_light_infantry_comes_from_config() -> None:
    rules = load_rules([], {"campaign.division_light_infantry": 2}).rules
    division, _ = raise_division("blue", 2, "a", rules, Dice(np.random.default_rng(3)))
    light = [u.id for u in division.units if u.kind == "light_infantry"]
    assert light == ["B2-L1", "B2-L2"]
    assert unknown_division_boxes(rules) == 9 * 10
    plain, _ = raise_division("blue", 2, "a", load_rules().rules, Dice(np.random.default_rng(3)))
    assert not [u for u in plain.units if u.kind == "light_infantry"]


def test_withdrawal_success_total_reaches_the_battle_log() -> None:
    """``--set battle.withdrawal_success_total=8`` prints ``vs 8+`` (it printed 12+)."""
    from battle.engine import fight
    from battle.forces import parse_force_flag
    from battle.log import format_events

    rules = load_rules([], {"battle.withdrawal_success_total": 8}).rules.battle
    lines = [
        line
        for seed in range(10)
        for line in format_events(
            fight(
                parse_force_flag("6i1c1a", "Red", "R"),
                parse_force_flag("4i1c1a", "Blue", "B"),
                rules,
                np.random.default_rng(seed),
            )
        )
        if line.startswith("  withdrawal check")
    ]
    assert lines and all(re.findall(r"vs (\d+)\+", line) == ["8"] for line in lines)
