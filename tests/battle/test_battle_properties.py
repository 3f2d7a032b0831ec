"""Properties of every battle, over random forces and seeds (Hypothesis).

Losses never exceed strength, decks never grow, battles always end within the cap, and the
same seed gives the same result and event list (RULES.md §0.6, §1.2, §3, §6.8).
"""

from __future__ import annotations

import pytest
from battle_helpers import forces, rng
from hypothesis import given, settings
from hypothesis import strategies as st

from battle.configload import available_variants
from battle.engine import fight
from battle.events import BoundStarted, CardLost
from battle.result import BattleResult
from campaign.config import load_rules

SEEDS = st.integers(0, 2**63 - 1)
DOCTRINES = st.sampled_from(["steady", "bold"])
_RULES = {
    name: load_rules([name] if name else []).rules.battle for name in [None, *available_variants()]
}


def _check_invariants(result: BattleResult, red, blue, rules) -> None:
    by_id = {u.id: u for f in (red, blue) for u in f.units}
    for u in result.units:
        assert u.hits_taken >= 0
        assert u.hits_before == by_id[u.id].hits
        assert u.total_hits == u.hits_before + u.hits_taken <= rules.destroyed_at_hits
        assert (u.state == "destroyed") == (u.total_hits >= rules.destroyed_at_hits)
    for side, force in enumerate((red, blue)):
        units = sum(1 for u in force.units if u.hits < rules.destroyed_at_hits)
        initial = len(rules.deck.explicit.get(units, [])) or units + 1
        assert result.cards_left[side] <= initial
        assert result.cards_left[side] + result.cards_lost[side] == initial
        assert 0 <= result.casualty_percent[side] <= 100
    # decks never grow: the sizes a side sees only ever go down
    sizes: dict[int, list[int]] = {0: [], 1: []}
    for e in result.events:
        if isinstance(e, BoundStarted):
            sizes[e.side].append(e.deck_size)
        elif isinstance(e, CardLost):
            sizes[e.side].append(e.cards_left)
    for seq in sizes.values():
        assert seq == sorted(seq, reverse=True)
    # every battle ends within the cap: max_turns from the start, or under
    # fifteen-after-check the hard cap max_turns_cap (RULES.md §6.8)
    cap = rules.max_turns if rules.turn_limit_from == "start" else rules.max_turns_cap
    assert result.turns <= cap
    assert result.bounds <= 2 * cap
    assert result.minutes == result.bounds * rules.bound_minutes
    assert result.reason
    if result.reason in ("turn-limit", "both-cards", "both-withdrew", "nightfall"):
        assert result.winner is None


@settings(max_examples=120, deadline=None)
@given(
    red=forces("R", "Red"),
    blue=forces("B", "Blue"),
    seed=SEEDS,
    attacker=st.integers(0, 1),
    doctrines=st.tuples(DOCTRINES, DOCTRINES),
)
def test_battle_invariants_and_same_seed_same_battle(red, blue, seed, attacker, doctrines):
    rules = _RULES[None]
    result = fight(red, blue, rules, rng(seed), attacker=attacker, doctrines=doctrines)
    _check_invariants(result, red, blue, rules)
    again = fight(red, blue, rules, rng(seed), attacker=attacker, doctrines=doctrines)
    assert again.to_dict() == result.to_dict()
    assert again.events == result.events
    quiet = fight(
        red, blue, rules, rng(seed), attacker=attacker, doctrines=doctrines, record_events=False
    )
    assert quiet.events == ()
    assert quiet.to_dict(with_events=False) == result.to_dict(with_events=False)


@settings(max_examples=60, deadline=None)
@given(
    red=forces("R", "Red"),
    blue=forces("B", "Blue"),
    seed=SEEDS,
    variant=st.sampled_from(available_variants()),
)
def test_every_variant_runs_within_the_rules(red, blue, seed, variant):
    rules = _RULES[variant]
    result = fight(red, blue, rules, rng(seed))
    _check_invariants(result, red, blue, rules)


@settings(max_examples=30, deadline=None)
@given(red=forces("R", "Red"), blue=forces("B", "Blue"), seed=SEEDS, bounds=st.integers(0, 12))
def test_nightfall_stops_the_battle(red, blue, seed, bounds):
    rules = _RULES[None]
    result = fight(red, blue, rules, rng(seed), max_bounds=bounds)
    assert result.bounds <= bounds
    if result.reason == "nightfall":
        assert result.winner is None and result.bounds == bounds


@pytest.mark.parametrize("variant", available_variants())
def test_variant_battles_repeat_exactly(variant: str) -> None:
    from battle.forces import parse_force_flag

    red = parse_force_flag("6i1c1a", "Red", "R")
    blue = parse_force_flag("4i1c1a:veteran", "Blue", "B")
    rules = _RULES[variant]
    for seed in range(5):
        a = fight(red, blue, rules, rng(seed), doctrines=("bold", "steady"))
        b = fight(red, blue, rules, rng(seed), doctrines=("bold", "steady"))
        assert a.to_dict() == b.to_dict()
