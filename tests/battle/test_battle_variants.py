"""Each shipped variant (config/variants/*.yaml) loads and changes what it says (RULES.md §9)."""

from __future__ import annotations

from collections import Counter

import pytest
from battle_helpers import rng
from kernel_probe import Probe

from battle.configload import VARIANTS_DIR, available_variants, read_yaml
from battle.deck import deck_composition
from battle.engine import fight
from battle.events import HitResolved, MeleeResolved
from battle.events import TestRolled as Rolled
from battle.forces import parse_force_flag
from battle.kernel.core import remove_card
from battle.tables import compile_rules
from battle.units import Force, UnitSpec
from campaign.config import load_rules

NAMED = {
    "examples-cd3", "first-outing", "two-dice", "linear-21-40", "cumulative", "arw-1998",
    "roll-initiative", "uniform-morale", "draw-through", "fire-and-charge", "countercharge",
    "pursuit", "free-attack", "move-and-fire", "no-charge-after-fail", "fifteen-after-check",
}  # fmt: skip
RED = parse_force_flag("6i1c1a", "Red", "R")
BLUE = parse_force_flag("4i1c1a", "Blue", "B")


def _battle(variant: str | None):
    return load_rules([variant] if variant else []).rules.battle


def _get(model, dotted: str):
    node = model
    for part in dotted.split(".")[1:]:
        node = node[part] if isinstance(node, dict) else getattr(node, part)
    return node


def test_every_named_variant_ships() -> None:
    assert set(available_variants()) >= NAMED


@pytest.mark.parametrize("variant", available_variants())
def test_variant_loads_and_sets_its_keys(variant: str) -> None:
    overrides = read_yaml(VARIANTS_DIR / f"{variant}.yaml")
    assert overrides, f"{variant} changes nothing"
    loaded = load_rules([variant])
    assert loaded.hash != load_rules().hash
    assert loaded.label == variant
    default = load_rules().rules
    for dotted, value in overrides.items():
        part = dotted.split(".")[0]
        assert part in ("battle", "campaign")
        assert _get(getattr(loaded.rules, part), dotted) == value
        assert _get(getattr(default, part), dotted) != value  # the default is something else


def _d_rolls(rules, seeds=range(30)) -> Counter[int]:
    rolls: Counter[int] = Counter()
    for seed in seeds:
        for e in fight(RED, BLUE, rules, rng(seed)).events:
            if isinstance(e, HitResolved):
                rolls[e.d_roll] += 1
    return rolls


def test_default_hit_dice_in_battle_are_even_22_to_40() -> None:
    rolls = _d_rolls(_battle(None))
    assert set(rolls) <= set(range(22, 41, 2)) and len(rolls) == 10


@pytest.mark.parametrize(
    ("variant", "low", "high", "odd"),
    [("first-outing", 3, 30, True), ("two-dice", 22, 40, False), ("linear-21-40", 21, 40, True)],
)
def test_hit_dice_variants_change_d(variant: str, low: int, high: int, odd: bool) -> None:
    rolls = _d_rolls(_battle(variant))
    assert min(rolls) >= low and max(rolls) <= high
    if odd:
        assert any(v % 2 for v in rolls)
    if variant == "first-outing":
        assert min(rolls) < 22  # values the default can never give
    if variant == "two-dice":
        assert rolls[31] > rolls[23]  # triangular: the middle is commoner than the edges


def test_examples_cd3_divides_unlimbered_artillery_by_3() -> None:
    rules = _battle("examples-cd3")
    divisors = {
        e.divisor
        for seed in range(40)
        for e in fight(RED, BLUE, rules, rng(seed)).events
        if isinstance(e, HitResolved) and e.attacker.endswith("-A1") and not e.melee
    }
    assert divisors == {3}


def test_arw_1998_loses_at_two_cards_and_removes_at_random() -> None:
    rules = _battle("arw-1998")
    assert rules.deck.lose_at_cards == 2 and rules.deck.removal == "random"
    ended = [fight(RED, BLUE, rules, rng(seed)) for seed in range(60)]
    on_cards = [r for r in ended if r.reason == "cards"]
    assert on_cards
    for r in on_cards:
        assert r.cards_left[r.loser] <= 2 < r.cards_left[r.winner]
    removed = Counter()
    tables = compile_rules(rules)
    units = [UnitSpec(f"R-I{i}", "infantry") for i in range(8)]
    p = Probe(tables, units, [UnitSpec("B-I1", "infantry")], uniforms=rng(1).random(300).tolist())
    for _ in range(300):
        p.reset()
        removed[remove_card(p.b, 0)] += 1
    assert set(removed) == set(deck_composition(8))  # not only the highest card


def test_roll_initiative_dices_each_turn() -> None:
    rules = _battle("roll-initiative")
    result = fight(RED, BLUE, rules, rng(2))
    rolls = [e for e in result.events if isinstance(e, Rolled) and e.kind == "initiative"]
    assert len(rolls) == result.turns
    default = fight(RED, BLUE, _battle(None), rng(2))
    assert not any(isinstance(e, Rolled) and e.kind == "initiative" for e in default.events)


def test_uniform_morale_gives_every_grade_the_base() -> None:
    assert set(compile_rules(_battle("uniform-morale")).morale.values()) == {80}
    assert compile_rules(_battle(None)).morale == {
        "raw": 70, "regular": 80, "veteran": 85, "elite": 90,
    }  # fmt: skip


def _lowest_morale_target(rules) -> int:
    target = Force("Blue", (UnitSpec("B-I1", "infantry", "elite"),))
    gunners = Force("Red", (UnitSpec("R-A1", "artillery", formation="unlimbered"),))
    return min(
        e.target
        for seed in range(20)
        for e in fight(gunners, target, rules, rng(seed), attacker=1).events
        if isinstance(e, Rolled) and e.unit == "B-I1" and e.kind == "morale"
    )


def test_cumulative_morale_lowers_later_tests() -> None:
    """Per test, an elite unit (90) under fire from a CD 4 battery (h <= 10) never tests
    below 90 - 10 - 10 (shaken) = 70; under `cumulative` the hits add up and it does."""
    assert _lowest_morale_target(_battle(None)) >= 70
    assert _lowest_morale_target(_battle("cumulative")) < 70


def test_draw_through_and_fire_and_charge_change_battles() -> None:
    for variant in ("draw-through", "fire-and-charge"):
        rules = _battle(variant)
        changed = sum(
            fight(RED, BLUE, rules, rng(s), doctrines=("bold", "bold")).to_dict()
            != fight(RED, BLUE, _battle(None), rng(s), doctrines=("bold", "bold")).to_dict()
            for s in range(20)
        )
        assert changed > 0, variant


def test_arw_1998_end_text_gives_the_cards_left() -> None:
    """Under arw-1998 a side loses at 2 cards: the log says so, not "its last card"."""
    from battle.log import format_events

    rules = _battle("arw-1998")
    ended = [r for r in (fight(RED, BLUE, rules, rng(s)) for s in range(40)) if r.reason == "cards"]
    assert ended, "no battle of 40 ended on cards"
    for result in ended:
        left = result.cards_left[1 - result.winner]
        assert left <= 2  # bad things in the same phase can take more than one card
        last = list(format_events(result))[-1]
        words = "its last movement card" if left == 1 else f"{left} movement cards"
        assert last.endswith(f"is down to {words} (RULES.md §3.4)"), last
    assert any(r.cards_left[1 - r.winner] == 2 for r in ended)


# ---------------------------------------------------------------- §6.4, §6.8, §6.10 options


def _battles(variant: str | None, red: str, blue: str, doc: str, seeds=range(60)):
    rules = _battle(variant)
    r, b = parse_force_flag(red, "Red", "R"), parse_force_flag(blue, "Blue", "B")
    return [fight(r, b, rules, rng(s), doctrines=(doc, doc)) for s in seeds]


def test_countercharge_meets_halfway_and_both_get_the_bonus() -> None:
    """§6.10 countercharge: a charged mounted unit meets its charger halfway; both count as
    chargers (both add the charge bonus in the first melee). Never in the default."""
    from battle.events import Moved

    seen = 0
    for result in _battles("countercharge", "2i3c1a", "2i3c1a", "bold", range(40)):
        events = list(result.events)
        for i, e in enumerate(events):
            if isinstance(e, Moved) and e.action == "countercharge":
                seen += 1
                charge = events[i - 1]
                assert isinstance(charge, Moved) and charge.action == "charge"
                assert charge.target == e.unit and e.target == charge.unit
                assert charge.to_inches + e.to_inches == 24  # in contact, halfway
                melee = [
                    h
                    for h in events[i:]
                    if isinstance(h, HitResolved) and {h.attacker, h.target} == {e.unit, e.target}
                ][:2]
                if len(melee) == 2:
                    assert all(h.bonus > 0 for h in melee)
    assert seen > 50
    for result in _battles(None, "2i3c1a", "2i3c1a", "bold", range(40)):
        assert not any(getattr(e, "action", "") == "countercharge" for e in result.events)


def test_pursuit_follows_and_fights_the_target_at_cd_x2() -> None:
    """§6.10 pursuit: after a failed stand, the charger follows and fights at once; the
    target's own hits are at CD x2."""
    from battle.events import Moved

    seen = 0
    for result in _battles("pursuit", "4i2c1a", "4i2c1a", "bold"):
        events = list(result.events)
        for i, e in enumerate(events):
            if isinstance(e, Moved) and e.action == "pursue":
                seen += 1
                fights = [h for h in events[i + 1 :] if isinstance(h, HitResolved)][:2]
                assert [h.how for h in fights] == ["pursuit", "pursuit"]
                assert fights[0].attacker == e.unit and fights[1].attacker == e.target
                # the target fights at CD x2: infantry 5 -> 10, cavalry 4 -> 8
                assert fights[1].divisor in (10, 8, 24), fights[1]
    assert seen >= 20


def test_free_attack_hits_the_unit_falling_back_at_cd_x2() -> None:
    """§6.10 free-attack: each melee lost on hits is followed by one hit filter of the
    winner on the loser, at CD x2, before the loser falls back."""
    seen = 0
    for result in _battles("free-attack", "6i1c1a", "4i1c1a", "steady"):
        events = list(result.events)
        for i, e in enumerate(events):
            if isinstance(e, MeleeResolved) and e.outcome == "decided":
                free = next(h for h in events[i:] if isinstance(h, HitResolved))
                assert free.how == "free-attack" and free.target == e.loser
                seen += 1
    assert seen >= 20
    for result in _battles(None, "6i1c1a", "4i1c1a", "steady", range(20)):
        assert not any(getattr(e, "how", "") == "free-attack" for e in result.events)


def test_move_and_fire_fires_at_cd_x2_and_moves_half() -> None:
    """§6.10 move-and-fire: an activated, advancing unit fires with CD x2, then moves at
    most half its move."""
    from battle.events import Moved

    seen = 0
    for result in _battles("move-and-fire", "6i1c1a", "4i1c1a", "bold"):
        events = list(result.events)
        for i, e in enumerate(events):
            if isinstance(e, HitResolved) and e.how == "move-and-fire":
                seen += 1
                assert e.divisor in (10, 20, 8)  # infantry line 5 / column 10, cavalry x2
                later = [
                    m
                    for m in events[i:]
                    if isinstance(m, Moved) and m.unit == e.attacker and m.bound == e.bound
                ]
                for m in later:
                    assert m.to_inches - m.from_inches <= 3.0  # half of column's 6"
    assert seen >= 50


def test_no_charge_after_fail_keeps_failed_units_from_charging() -> None:
    """§6.4 no-charge-after-fail: a unit that failed a charge or stand test never takes
    another charge test in that battle; in the default some do (after rallying)."""

    def recharges(variant: str | None) -> int:
        n = 0
        for result in _battles(variant, "6i1c1a", "4i1c1a", "bold", range(120)):
            failed: set[str] = set()
            for e in result.events:
                if isinstance(e, Rolled) and e.kind in ("charge", "stand"):
                    if e.kind == "charge" and e.unit in failed:
                        n += 1
                    if not e.passed:
                        failed.add(e.unit)
        return n

    assert recharges("no-charge-after-fail") == 0
    assert recharges(None) > 0


def test_fifteen_after_check_counts_turns_from_the_first_check() -> None:
    """§6.8 fifteen-after-check: with max_turns 2, a turn-limit draw comes 2 turns after the
    first withdrawal check, not after turn 2."""
    from battle.events import WithdrawalChecked

    rules = load_rules(["fifteen-after-check"], {"battle.max_turns": 2}).rules.battle
    default = load_rules([], {"battle.max_turns": 2}).rules.battle
    r, b = parse_force_flag("6i1c1a", "Red", "R"), parse_force_flag("4i1c1a", "Blue", "B")
    later = 0
    for s in range(40):
        assert fight(r, b, default, rng(s)).turns <= 2
        result = fight(r, b, rules, rng(s))
        if result.reason == "turn-limit":
            first = min(e.turn for e in result.events if isinstance(e, WithdrawalChecked))
            assert result.turns == first + 2
            later += result.turns > 2
    assert later > 0
