"""Exact odds (campaign odds): worked values, variants, and the engine's dice against them.

The Monte Carlo checks draw from the engine's own seeded dice (battle.dice, battle.fire) and
from the hit filter of real battles (battle.fight events), and require every frequency to lie
within 4 standard errors of the exact value (a false alarm about once in 16,000 checks).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from battle.dice import Dice, parse_dice, percentage_test, reaction_test, withdrawal_roll
from battle.engine import fight
from battle.events import HitResolved
from battle.fire import morale_hits
from battle.forces import parse_force_flag
from campaign.analysis.odds import odds_sheet, sum_distribution, withdrawal_chance
from campaign.config import load_rules

Cli = Callable[[list[str]], tuple[int, str, str]]
SE_LIMIT = 4.0


def _row(sheet, cd: int, bonus: int = 0):
    return next(h for h in sheet.hit_filter if h.divisor == cd and h.bonus == bonus)


def test_worked_values_of_the_default_rules() -> None:
    sheet = odds_sheet(load_rules())
    # D = 20 + 2*d10: 22, 24, ..., 40, each 1/10 (RULES.md §4.1)
    assert sheet.d_distribution == {d: Fraction(1, 10) for d in range(22, 41, 2)}
    # infantry line fire, CD 5: h = 5,5,6,6,6,7,7,8,8,8 -> P(3 hits) = mean(10h)% = 66%
    inf = _row(sheet, 5)
    assert inf.morale_hits == {
        5: Fraction(2, 10),
        6: Fraction(3, 10),
        7: Fraction(2, 10),
        8: Fraction(3, 10),
    }
    assert inf.three_hits == Fraction(66, 100)
    assert inf.expected_hits == 1 + 2 * Fraction(66, 100)
    # a regular (80) target fails on d100 > 80 - h: mean (20 + h)% = 26.6%
    assert inf.morale_fail[80] == Fraction(266, 1000)
    assert "infantry line fire" in inf.uses and "infantry column fire" in _row(sheet, 10).uses
    # cavalry against a square fights at CD 4 x 3 (RULES.md §1.6)
    assert any("vs square" in u for u in _row(sheet, 12).uses)
    # §0.3 reaction tests, §5.5 worked check, §0.4 withdrawal, §8.2, §2.1
    assert sheet.reaction[4] == Fraction(1, 3) and sheet.reaction[0] == 1 and sheet.reaction[6] == 0
    vet = next(c for ch, g, c in sheet.formation_changes if ch == "column↔line" and g == "veteran")
    assert vet["hit and charged"] == (4, Fraction(1, 3))  # 2 + 2 + 1 - 1 = 4: only 5 or 6
    raw = next(c for ch, g, c in sheet.formation_changes if ch == "column↔line" and g == "raw")
    assert raw["hit and charged"] == (7, Fraction(0))  # 2 + 2 + 1 + 2 = 7: cannot pass
    assert sheet.withdrawal[1] == 0 and sheet.withdrawal[2] == Fraction(1, 36)
    assert sheet.withdrawal[3] == Fraction(81, 216)  # P(3d6 >= 12) = 81/216
    assert sheet.rough_road_pass == Fraction(7, 10)
    assert [(n, p) for n, p, _ in sheet.division_sizes] == [
        (6, Fraction(33, 100)),
        (5, Fraction(33, 100)),
        (4, Fraction(34, 100)),
    ]


def test_variants_and_overrides_are_read_not_retyped() -> None:
    three = odds_sheet(load_rules(["first-outing"]))
    assert three.hit_dice == "3d10" and three.d_distribution[3] == Fraction(1, 1000)
    cd3 = odds_sheet(load_rules(["examples-cd3"]))
    assert any(h.divisor == 3 and "artillery unlimbered fire" in h.uses for h in cd3.hit_filter)
    road = odds_sheet(load_rules(overrides={"campaign.rough_road_pass": 55}))
    assert road.rough_road_pass == Fraction(55, 100)


def test_sum_distribution_is_a_distribution() -> None:
    dist = sum_distribution(5, 6)
    assert sum(dist.values()) == 1 and min(dist) == 5 and max(dist) == 30
    # brute-force P(sum of 3 d6 >= 12)
    hits = sum(1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) if a + b + c >= 12)
    assert withdrawal_chance(3, sides=6, success_total=12) == Fraction(hits, 216)


def _within(observed: int, n: int, p: Fraction) -> None:
    pf = float(p)
    se = math.sqrt(pf * (1 - pf) / n) if 0 < pf < 1 else 0.0
    freq = observed / n
    assert abs(freq - pf) <= SE_LIMIT * se + 1e-12, (freq, pf, se)


@pytest.mark.slow
def test_engine_dice_agree_with_the_exact_odds() -> None:
    """battle.dice and battle.fire, seeded: every frequency within 4 SE of the exact value."""
    loaded = load_rules()
    sheet = odds_sheet(loaded)
    battle = loaded.rules.battle
    dice = Dice(np.random.default_rng(20261201))
    expr = parse_dice(battle.hit_dice)
    n = 20_000
    row = _row(sheet, 5)
    fails = threes = 0
    d_counts: dict[int, int] = {}
    for _ in range(n):
        d = expr.roll(dice)
        d_counts[d] = d_counts.get(d, 0) + 1
        h = morale_hits(d, 5)
        passed, _ = percentage_test(dice, 80 - h)
        fails += not passed
        three, _ = percentage_test(dice, battle.casualty_test_per_morale_hit * h)
        threes += three
    for d, p in sheet.d_distribution.items():
        _within(d_counts.get(d, 0), n, p)
    _within(fails, n, row.morale_fail[80])
    _within(threes, n, row.three_hits)
    for total in (1, 2, 4, 5):
        passes = sum(reaction_test(dice, total, sides=battle.reaction_die)[0] for _ in range(5_000))
        _within(passes, 5_000, sheet.reaction[total])
    for factors in (2, 3, 4, 5):
        wins = sum(
            withdrawal_roll(
                dice,
                factors,
                sides=battle.withdrawal_die,
                success_total=battle.withdrawal_success_total,
            )[0]
            for _ in range(5_000)
        )
        _within(wins, 5_000, sheet.withdrawal[factors])


@pytest.mark.slow
def test_hit_filter_of_real_battles_agrees_with_the_exact_odds() -> None:
    """In battles fought by the engine, 3-hit results match 10h% given h (pooled, 4 SE), and
    D values of fire at CD 5 (no bonus) follow the exact distribution."""
    loaded = load_rules()
    battle = loaded.rules.battle
    sheet = odds_sheet(loaded)
    rng_root = np.random.SeedSequence(14)
    expected = variance = 0.0
    observed = 0
    d_counts: dict[int, int] = {}
    n_d = 0
    for child in rng_root.spawn(150):
        red = parse_force_flag("6i1c1a", "Red", "R")
        blue = parse_force_flag("5i1c1a", "Blue", "B")
        result = fight(red, blue, battle, np.random.default_rng(child))
        for e in result.events:
            if not isinstance(e, HitResolved):
                continue
            before = e.target_total_hits - e.actual_hits
            if battle.destroyed_at_hits - before >= battle.hits_on_casualty_pass:  # no cap
                p = min(battle.casualty_test_per_morale_hit * e.morale_hits, 100) / 100
                expected += p
                variance += p * (1 - p)
                observed += e.actual_hits == battle.hits_on_casualty_pass
            if e.bonus == 0:
                d_counts[e.d_roll] = d_counts.get(e.d_roll, 0) + 1
                n_d += 1
    assert n_d > 2_000
    assert abs(observed - expected) <= SE_LIMIT * math.sqrt(variance)
    for d, exact in sheet.d_distribution.items():
        _within(d_counts.get(d, 0), n_d, exact)


def test_cli_json_and_card(tmp_path: Path, cli: Cli) -> None:
    card = tmp_path / "card.html"
    code, out, _ = cli(["odds", "--json", "--card", str(card)])
    assert code == 0
    doc = json.loads(out)
    assert doc["withdrawal_roll_succeeds"]["by_factors"]["2"]["p"] == "1/36"
    assert doc["rough_road"]["passes"]["value"] == 0.7
    html = card.read_text()
    assert "Hit filter" in html and "Withdrawal roll" in html and "@page" in html
    code, out, _ = cli(["odds", "--set", "battle.hit_dice=3d10"])
    assert code == 0 and "D = 3d10: 3..30" in out


def test_cli_bad_input_exits_2(cli: Cli) -> None:
    code, _, err = cli(["odds", "--set", "battle.hit_dise=3d10"])
    assert code == 2 and "battle.hit_dise" in err and "hit_dice" in err
    code, _, err = cli(["odds", "--variant", "nope"])
    assert code == 2 and "no variant named 'nope'" in err


@pytest.mark.browser
def test_card_prints_on_two_pages(tmp_path: Path, cli: Cli) -> None:
    """Printed by headless Chromium, the card fills at most two A4 pages."""
    from campaign.report.browser import find_chromium, render_page

    if find_chromium() is None:
        pytest.skip("Debian's chromium is not installed")
    card = tmp_path / "card.html"
    assert cli(["odds", "--card", str(card)])[0] == 0
    pdf = render_page(card, tmp_path / "card.pdf")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))
    assert 1 <= pages <= 2
