"""Seeded statistical checks with stated tolerances (RULES.md §0.5, §4, §6).

Every test uses a fixed seed, so it is deterministic; the tolerances say how far a correct
engine may drift from the exact value for *any* seed, so a change of seed should not break
them either (false-failure rate well under one in a million per check).
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from battle_helpers import rng
from kernel_probe import Probe

from battle.dice import Dice, parse_dice
from battle.engine import fight
from battle.events import HitResolved
from battle.events import TestRolled as Rolled
from battle.fire import morale_hits
from battle.forces import parse_force_flag
from battle.kernel import layout as L
from battle.kernel.core import hit_filter
from battle.tables import compile_rules
from battle.units import Force, UnitSpec


def _percent_pass(target: int) -> Fraction:
    """P(d100 <= target), RULES.md §0.2."""
    return Fraction(min(max(target, 0), 100), 100)


def _exact_filter(rules, cd: int, morale: int) -> dict[tuple[bool, int], Fraction]:
    """Exact (morale passed, actual hits) probabilities of one fire (RULES.md §4.1–§4.4),
    enumerated from the hit dice's exact distribution."""
    out: Counter[tuple[bool, int]] = Counter()
    for d, p_d in parse_dice(rules.hit_dice).distribution().items():
        h = morale_hits(d, cd)
        p_morale = _percent_pass(morale - h)
        p_cas = _percent_pass(rules.casualty_test_per_morale_hit * h)
        for passed, pm in ((True, p_morale), (False, 1 - p_morale)):
            out[passed, rules.hits_on_casualty_pass] += p_d * pm * p_cas
            out[passed, rules.hits_on_casualty_fail] += p_d * pm * (1 - p_cas)
    return dict(out)


@pytest.mark.parametrize(
    ("firer", "grade", "cd"),
    [
        (UnitSpec("R-A1", "artillery", formation="unlimbered"), "regular", 4),
        (UnitSpec("R-I1", "infantry", formation="column"), "veteran", 10),
        (UnitSpec("R-I1", "infantry", formation="line"), "raw", 5),
    ],
)
def test_hit_filter_outcome_frequencies(rules, firer: UnitSpec, grade: str, cd: int) -> None:
    """20,000 fires at a fresh target; each of the four outcomes (morale pass/fail x 1 or 3
    hits) must lie within 5 standard errors of its exact probability."""
    tables = compile_rules(rules)
    n = 20_000
    uniforms = np.random.default_rng(12345).random(3 * n + 1).tolist()
    p = Probe(tables, [firer], [UnitSpec("B-I1", "infantry", grade)], uniforms=uniforms)
    a, b = p.i(firer.id), p.i("B-I1")
    seen: Counter[tuple[bool, int]] = Counter()
    for _ in range(n):
        p.reset()
        hits = hit_filter(p.b, a, b, L.HOW_FIRE, 0, 1)
        events = p.events()
        hit = next(e for e in events if isinstance(e, HitResolved))
        morale = next(e for e in events if isinstance(e, Rolled) and e.kind == "morale")
        assert hit.divisor == cd and hit.actual_hits == hits
        seen[morale.passed, hits] += 1
    assert p.dice_used == 3 * n  # one hit die, the morale and the casualty test each
    exact = _exact_filter(rules, cd, tables.morale[grade])
    assert set(seen) <= set(exact)
    for outcome, fraction in exact.items():
        p = float(fraction)
        se = math.sqrt(p * (1 - p) / n)
        assert abs(seen[outcome] / n - p) <= 5 * se + 1e-9, (outcome, seen[outcome] / n, p)


def test_default_hit_dice_are_even_and_uniform() -> None:
    """20 + 2*d10: only the even values 22..40, each 1/10. Chi-square with 9 degrees of
    freedom over 20,000 rolls must stay below 27.88 (its 0.1% critical value)."""
    expr = parse_dice("20 + 2*d10")
    assert expr.distribution() == {v: Fraction(1, 10) for v in range(22, 41, 2)}
    dice = Dice(np.random.default_rng(777))
    n = 20_000
    counts = Counter(expr.roll(dice) for _ in range(n))
    assert set(counts) == set(range(22, 41, 2))
    chi2 = sum((counts[v] - n / 10) ** 2 / (n / 10) for v in range(22, 41, 2))
    assert chi2 < 27.88


@pytest.mark.parametrize("text", ["20 + 2d10", "3d10", "20 + d20"])
def test_variant_hit_dice_match_their_distribution(text: str) -> None:
    """Each value's frequency within 5 standard errors of its exact probability."""
    expr = parse_dice(text)
    dice = Dice(np.random.default_rng(31))
    n = 20_000
    counts = Counter(expr.roll(dice) for _ in range(n))
    exact = expr.distribution()
    assert set(counts) <= set(exact)
    for v, fraction in exact.items():
        p = float(fraction)
        assert abs(counts[v] / n - p) <= 5 * math.sqrt(p * (1 - p) / n) + 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("attacker", [0, 1])
def test_stronger_force_wins_clearly_more_often(rules, attacker: int) -> None:
    """6i1c1a vs 4i1c1a over 2,000 battles: the stronger side wins more than 60% whether
    it attacks or defends (measured: about 68% attacking, 85% defending; a 95% interval
    is about ±2 points wide at 2,000 battles, so 60% leaves a wide margin)."""
    strong = parse_force_flag("6i1c1a", "Red", "R")
    weak = parse_force_flag("4i1c1a", "Blue", "B")
    seeds = np.random.SeedSequence(2026).spawn(2000)
    wins = sum(
        fight(
            strong, weak, rules, np.random.default_rng(s), attacker=attacker, record_events=False
        ).winner
        == 0
        for s in seeds
    )
    assert wins / len(seeds) > 0.60


def test_worn_out_force_loses_more_often(rules) -> None:
    """The same force carrying 8 hits a unit into battle does worse than a fresh one.

    (Measured: with 3 or 5 hits carried the effect is small and not monotonic — a fragile
    unit is destroyed before it can fail the morale tests that cost cards.)"""
    fresh = parse_force_flag("4i1c1a", "Red", "R")
    worn = Force("Red", tuple(UnitSpec(u.id, u.kind, hits=8) for u in fresh.units))
    blue = parse_force_flag("4i1c1a", "Blue", "B")

    def wins(force: Force) -> int:
        return sum(
            fight(force, blue, rules, rng(s), record_events=False).winner == 0 for s in range(300)
        )

    assert wins(worn) < 0.6 * wins(fresh)
