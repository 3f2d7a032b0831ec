"""The doctrine fields that make rules the shipped doctrines never exercise occur (issue 27
item 6), on both engines: leaving skirmish order with RULES.md §5.2's reforming rows, the
square §1.7 refuses from skirmish order, and limbering a deployed battery again (§5.2).
Each is off by default: the shipped doctrines never do any of them."""

from __future__ import annotations

from typing import Any

import pytest
from battle_helpers import rng
from pydantic import ValidationError

from battle.engine import load_engine
from battle.events import BattleEvent, FormationChanged, StateChanged
from battle.events import TestRolled as Rolled
from battle.rules import BattleRules
from battle.units import Force, UnitSpec
from campaign.config import load_rules

ENGINES = ("kernel", "reference")  # the kernel is the reference where numba is missing


def _rules(**change: Any) -> BattleRules:
    """The default rules with a doctrine ``drill``: ``steady`` with ``change``."""
    rules = load_rules().rules.battle
    drill = rules.doctrines["steady"].model_copy(update=change)
    return rules.model_copy(update={"doctrines": {**rules.doctrines, "drill": drill}})


def _events(
    engine: str, rules: BattleRules, red: Force, blue: Force, seed: int, doctrine: str
) -> tuple[BattleEvent, ...]:
    fight = load_engine(engine)
    return fight(red, blue, rules, rng(seed), attacker=0, doctrines=(doctrine, "steady")).events


RED_SKIRMISHERS = Force(
    "Red",
    (
        UnitSpec("R-I1", "infantry", formation="skirmish"),
        UnitSpec("R-L1", "light_infantry"),  # in skirmish order: its default
    ),
)
BLUE_FOOT = Force("Blue", (UnitSpec("B-I1", "infantry"), UnitSpec("B-I2", "infantry")))


@pytest.mark.parametrize("engine", ENGINES)
def test_skirmishers_reform_near_the_enemy_with_the_reforming_rows(engine: str) -> None:
    """``leave_skirmish_within_inches``: within 8" of the enemy a skirmisher forms line; its
    completion test adds §5.2's row: light infantry +1, other infantry +2 (the least total
    seen, with no other row, is that row alone: the skirmish-line pair costs 0)."""
    rules = _rules(leave_skirmish_within_inches=8, advance_when_defending=True)
    least: dict[str, int] = {}
    for seed in range(30):
        forming: set[str] = set()
        for e in _events(engine, rules, RED_SKIRMISHERS, BLUE_FOOT, seed, "drill"):
            if isinstance(e, FormationChanged) and e.unit.startswith("R-"):
                assert (e.from_formation, e.to_formation) == ("skirmish", "line")
                forming.add(e.unit)
            elif isinstance(e, Rolled) and e.kind == "completion" and e.unit in forming:
                least[e.unit] = min(least.get(e.unit, 99), e.target)
    assert least == {"R-L1": 1, "R-I1": 2}
    steady = _rules()
    for seed in range(10):
        events = _events(engine, steady, RED_SKIRMISHERS, BLUE_FOOT, seed, "steady")
        assert not any(isinstance(e, FormationChanged) and e.unit[0] == "R" for e in events)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_square_from_skirmish_order_is_refused(engine: str) -> None:
    """``square_from_skirmish``: infantry in skirmish order that enemy cavalry threatens is
    ordered into square, and RULES.md §1.7 refuses it: a ``refused`` event, no change."""
    red = Force("Red", (UnitSpec("R-I1", "infantry", formation="skirmish"),))
    blue = Force("Blue", (UnitSpec("B-C1", "cavalry"), UnitSpec("B-I1", "infantry")))
    rules = _rules(square_from_skirmish=True)
    refused = 0
    for seed in range(20):
        for e in _events(engine, rules, red, blue, seed, "drill"):
            assert not (isinstance(e, FormationChanged) and e.to_formation == "square")
            if isinstance(e, StateChanged) and e.state == "refused":
                assert (e.unit, e.reason) == ("R-I1", "may not form square directly")
                refused += 1
    assert refused >= 10
    for seed in range(10):  # the shipped doctrines never ask
        events = _events(engine, _rules(), red, blue, seed, "steady")
        assert not any(isinstance(e, StateChanged) and e.state == "refused" for e in events)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_deployed_battery_limbers_up_to_advance(engine: str) -> None:
    """``limber_beyond_inches``: an unlimbered battery with no enemy within 12" limbers
    (unlimbered -> limbered, §5.2's limber<->unlimber pair, total 0) when its side
    advances, and unlimbers again within 10"."""
    red = Force("Red", (UnitSpec("R-A1", "artillery", formation="unlimbered"),))
    rules = _rules(unlimber_within_inches=10, limber_beyond_inches=12)
    for seed in range(5):
        changes = [
            (e.bound, e.from_formation, e.to_formation)
            for e in _events(engine, rules, red, BLUE_FOOT, seed, "drill")
            if isinstance(e, FormationChanged) and e.unit == "R-A1"
        ]
        assert changes[0] == (1, "unlimbered", "limbered")  # 16" apart at the start
        assert changes[1][1:] != ("unlimbered", "limbered")
    events = _events(engine, _rules(), red, BLUE_FOOT, 0, "steady")
    assert not any(isinstance(e, FormationChanged) and e.unit == "R-A1" for e in events)


def test_a_battery_may_not_limber_closer_than_it_unlimbers() -> None:
    """A doctrine that would limber and unlimber a battery by turns is refused, named."""
    steady = load_rules().rules.battle.doctrines["steady"]
    with pytest.raises(ValidationError, match=r"limber_beyond_inches \(8\) must be at least"):
        type(steady).model_validate({**steady.model_dump(), "limber_beyond_inches": 8})
