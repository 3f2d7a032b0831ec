"""Exact checks of the battle's arithmetic and edges (RULES.md §0, §3, §4.2, §5.5)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from battle_helpers import rng
from kernel_probe import Probe

from battle.deck import deck_composition
from battle.dice import Dice, parse_dice, percentage_test, reaction_test, withdrawal_roll
from battle.engine import fight
from battle.events import BattleEnded, BoundStarted, CardLost
from battle.fire import morale_hits
from battle.forces import parse_force_flag
from battle.formation import completion_total
from battle.kernel.core import draw_card, remove_card
from battle.tables import compile_rules
from battle.units import UnitSpec
from campaign.config import load_rules

# ---------------------------------------------------------------- §3.1 deck composition


def _deck_by_the_words(u: int) -> list[int]:
    """RULES.md §3.1 in its own words: U, U, U-1, U-1, then U-2 down to 4 once, then 3s;
    the first U+1 values, each clamped to 1..U."""
    values = [u, u, u - 1, u - 1]
    v = u - 2
    while v >= 4:
        values.append(v)
        v -= 1
    while len(values) < u + 1:
        values.append(3)
    return [min(max(x, 1), u) for x in values[: u + 1]]


@pytest.mark.parametrize("u", range(1, 13))
def test_deck_composition_matches_the_formula(u: int) -> None:
    deck = deck_composition(u)
    assert deck == _deck_by_the_words(u)
    assert len(deck) == u + 1
    assert all(1 <= c <= u for c in deck)
    assert deck == sorted(deck, reverse=True)


@pytest.mark.parametrize(
    ("u", "cards"),
    [
        (8, "8 8 7 7 6 5 4 3 3"),
        (6, "6 6 5 5 4 3 3"),
        (4, "4 4 3 3 3"),
        (2, "2 2 1"),
        (1, "1 1"),
        (3, "3 3 2 2"),
    ],
)
def test_deck_composition_literals(u: int, cards: str) -> None:
    assert deck_composition(u) == [int(c) for c in cards.split()]


def test_explicit_deck_from_config_wins() -> None:
    assert deck_composition(3, {3: [9, 1, 1, 1]}) == [9, 1, 1, 1]
    assert deck_composition(4, {3: [9, 1, 1, 1]}) == [4, 4, 3, 3, 3]


def test_deck_needs_a_unit() -> None:
    with pytest.raises(ValueError, match="at least one unit"):
        deck_composition(0)


# ---------------------------------------------------------------- §4.2 morale hits


@pytest.mark.parametrize("cd", [3, 4, 5, 10])
def test_morale_hits_is_ceil(cd: int) -> None:
    for d in range(1, 61):
        assert morale_hits(d, cd) == math.ceil(d / cd)


@pytest.mark.parametrize(
    ("d", "cd", "h"),
    [
        (30, 10, 3),  # exact
        (31, 10, 4),  # inexact rounds up
        (40, 3, 14),  # the article's "40/3 or 13" rounds down against its own rule (§4.1)
        (39, 3, 13),
        (20, 4, 5),
        (22, 4, 6),
        (40, 5, 8),
        (41, 5, 9),
        (22, 10, 3),
    ],
)
def test_morale_hits_examples(d: int, cd: int, h: int) -> None:
    assert morale_hits(d, cd) == h


# ---------------------------------------------------------------- §5.5 worked check


def test_worked_completion_check(rules) -> None:
    fc = rules.formation_change
    veteran = completion_total(
        fc, fc.costs["line-column"], grade="veteran", hit_by_fire=True, charge_target=True
    )
    assert veteran == 2 + 2 + 1 - 1 == 4
    passing = [
        roll
        for roll in range(1, 7)
        if reaction_test(_FixedDice(roll), veteran, sides=rules.reaction_die)[0]
    ]
    assert passing == [5, 6]
    raw = completion_total(
        fc, fc.costs["line-column"], grade="raw", hit_by_fire=True, charge_target=True
    )
    assert raw == 2 + 2 + 1 + 2 == 7
    assert not any(
        reaction_test(_FixedDice(roll), raw, sides=rules.reaction_die)[0] for roll in range(1, 7)
    )


def test_completion_total_rows(rules) -> None:
    fc = rules.formation_change
    assert completion_total(fc, fc.costs["limbered-unlimbered"]) == 0
    assert completion_total(fc, fc.costs["column-square"]) == 1
    # raw, irregular and shaken add +2 once, however many apply
    assert completion_total(fc, 1, grade="raw", irregular=True, shaken=True) == 3
    assert completion_total(fc, 1, grade="elite") == 0


class _FixedDice:
    """Stands in for :class:`Dice`: every roll is ``value``."""

    def __init__(self, value: int) -> None:
        self.value = value

    def d(self, sides: int) -> int:
        return self.value


# ---------------------------------------------------------------- §0 tests and dice


def test_percentage_test_edges() -> None:
    dice = Dice(np.random.default_rng(1))
    for _ in range(5000):
        assert not percentage_test(dice, 0)[0]
        assert not percentage_test(dice, -20)[0]
        assert percentage_test(dice, 100)[0]
        assert percentage_test(dice, 150)[0]


@pytest.mark.parametrize(("p", "passes"), [(1, [1]), (50, list(range(1, 51))), (99, None)])
def test_percentage_test_is_roll_under_inclusive(p: int, passes: list[int] | None) -> None:
    for roll in range(1, 101):
        assert percentage_test(_FixedDice(roll), p)[0] == (roll <= p)
    if passes is not None:
        assert [r for r in range(1, 101) if percentage_test(_FixedDice(r), p)[0]] == passes


def test_d100_covers_exactly_1_to_100() -> None:
    dice = Dice(np.random.default_rng(20260101))
    rolls = [dice.d(100) for _ in range(20_000)]
    assert set(rolls) == set(range(1, 101))


@pytest.mark.parametrize("sides", [2, 6, 10, 20])
def test_dn_covers_exactly_1_to_n(sides: int) -> None:
    dice = Dice(np.random.default_rng(sides))
    assert {dice.d(sides) for _ in range(5_000)} == set(range(1, sides + 1))


def test_reaction_test_edges(rules) -> None:
    die = rules.reaction_die
    assert die == 6  # §0.3 d6
    dice = Dice(np.random.default_rng(3))
    for _ in range(3000):
        assert reaction_test(dice, 0, sides=die)[0]
        assert reaction_test(dice, -3, sides=die)[0]
        assert not reaction_test(dice, 6, sides=die)[0]
        assert not reaction_test(dice, 9, sides=die)[0]
    for total in range(6):
        passing = [r for r in range(1, 7) if reaction_test(_FixedDice(r), total, sides=die)[0]]
        assert passing == list(range(total + 1, 7))


def test_withdrawal_roll_edges(rules) -> None:
    die = {"sides": rules.withdrawal_die, "success_total": rules.withdrawal_success_total}
    assert die == {"sides": 6, "success_total": 12}  # §0.4 F d6, 12 or more
    dice = Dice(np.random.default_rng(4))
    for factors in (-2, 0, 1):
        for _ in range(2000):
            withdraws, rolls = withdrawal_roll(dice, factors, **die)
            assert not withdraws
            assert len(rolls) == max(factors, 0)
    assert withdrawal_roll(_FixedDice(6), 2, **die) == (True, [6, 6])
    assert withdrawal_roll(_FixedDice(5), 2, **die) == (False, [5, 5])
    assert withdrawal_roll(_FixedDice(4), 3, **die) == (True, [4, 4, 4])


def test_dice_are_a_pure_function_of_the_generator() -> None:
    a = Dice(np.random.default_rng(9))
    b = Dice(np.random.default_rng(9))
    assert [a.d(6) for _ in range(1000)] == [b.d(6) for _ in range(1000)]
    expr = parse_dice("20 + 2*d10")
    assert [expr.roll(a) for _ in range(300)] == [expr.roll(b) for _ in range(300)]


# ---------------------------------------------------------------- §3.2–§3.4 the deck runs out


def _probe(units: int, *variants: str, seed: int = 0) -> Probe:
    """A battle of ``units`` infantry a side (decks of RULES.md §3.1) with random dice."""
    tables = compile_rules(load_rules(list(variants)).rules.battle)
    red = [UnitSpec(f"R-I{i}", "infantry") for i in range(units)]
    blue = [UnitSpec(f"B-I{i}", "infantry") for i in range(units)]
    return Probe(tables, red, blue, uniforms=np.random.default_rng(seed).random(2000).tolist())


def test_an_empty_deck_gives_no_card() -> None:
    """A deck with no card left removes and deals nothing (0): the battle has ended before
    (RULES.md §3.4)."""
    p = _probe(2)
    assert p.deck(0) == [2, 2, 1]
    for _ in range(3):
        remove_card(p.b, 0)
    assert p.deck(0) == []
    assert remove_card(p.b, 0) == 0
    assert draw_card(p.b, 0) == 0


def test_bad_thing_removes_a_highest_card() -> None:
    p = _probe(6)
    removed = [remove_card(p.b, 0) for _ in range(7)]
    assert removed == [6, 6, 5, 5, 4, 3, 3]
    assert p.dice_used == 0  # the highest card: nothing rolled


def test_reshuffle_draws_from_the_whole_deck() -> None:
    """RULES.md §3.2: every draw is from the whole deck (the card goes back)."""
    p = _probe(8)
    drawn = [draw_card(p.b, 0) for _ in range(300)]
    assert set(drawn) == set(deck_composition(8)) and p.deck(0) == deck_composition(8)


def test_draw_through_deals_the_whole_deck() -> None:
    cards = deck_composition(8)
    p = _probe(8, "draw-through", seed=5)
    for _ in range(3):
        assert sorted(draw_card(p.b, 0) for _ in cards) == sorted(cards)


def _ended_before_drawing_empty(result, lose_at: int) -> None:
    """A side at its last card(s) never starts another bound; nobody draws from nothing."""
    left = {0: None, 1: None}
    ended = False
    for e in result.events:
        if isinstance(e, CardLost):
            left[e.side] = e.cards_left
        elif isinstance(e, BoundStarted):
            assert e.deck_size > lose_at
            assert left[e.side] is None or left[e.side] > lose_at
        elif isinstance(e, BattleEnded):
            ended = True
    assert ended


@pytest.mark.parametrize("lose_at", [0, 1, 2])
@pytest.mark.parametrize("draw", ["reshuffle", "draw-through"])
def test_battles_end_before_a_deck_runs_dry(lose_at: int, draw: str) -> None:
    battle = load_rules(
        overrides={"battle.deck.lose_at_cards": lose_at, "battle.deck.draw": draw}
    ).rules.battle
    red = parse_force_flag("3i1c", "Red", "R")
    blue = parse_force_flag("2i1a:raw", "Blue", "B")
    by_cards = 0
    for seed in range(150):
        result = fight(red, blue, battle, rng(seed))  # would raise on an empty draw
        _ended_before_drawing_empty(result, lose_at)
        if result.reason == "cards":
            by_cards += 1
            assert result.cards_left[result.loser] <= lose_at
            assert result.cards_left[result.winner] > lose_at
    assert by_cards > 0  # some battles really did end on cards


def test_a_side_down_to_its_last_card_loses(rules) -> None:
    red = parse_force_flag("6i1c1a", "Red", "R")
    blue = parse_force_flag("4i1c1a", "Blue", "B")
    results = [fight(red, blue, rules, rng(seed)) for seed in range(40)]
    on_cards = [r for r in results if r.reason == "cards"]
    assert on_cards, "no battle of 40 ended on cards"
    for r in on_cards:
        # checked at the end of each phase (§6.8: "both sides reaching their last card in
        # the same phase is a draw"), so a second bad thing in that phase can take the last
        assert r.cards_left[r.loser] <= rules.deck.lose_at_cards == 1
        assert r.cards_left[r.winner] > 1
        last = next(e for e in reversed(r.events) if isinstance(e, CardLost) and e.side == r.loser)
        assert last.cards_left <= 1
        after = r.events[r.events.index(last) :]
        assert not any(isinstance(e, BoundStarted) for e in after)
        assert isinstance(r.events[-1], BattleEnded)
