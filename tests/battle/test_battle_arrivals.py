"""Late arrivals join a battle at the start of a bound (RULES.md §8.4, battle/arrivals.py)."""

from __future__ import annotations

import pytest
from battle_helpers import rng

from battle.arrivals import Arrival, join_due
from battle.dice import Dice
from battle.engine import fight
from battle.errors import ForceError
from battle.events import BoundStarted, StateChanged
from battle.forces import parse_force_flag
from battle.state import BattleState
from battle.tables import compile_rules
from battle.units import UnitSpec
from campaign.config import load_rules

RED = parse_force_flag("4i1c1a", "Red", "R")  # 6 units, 60 boxes, deck 6 6 5 5 4 3 3
BLUE = parse_force_flag("4i1c1a", "Blue", "B")
HELP = (UnitSpec("R-I8", "infantry"), UnitSpec("R-I9", "infantry", hits=3))


def _rules(*variants: str):
    return load_rules(list(variants)).rules.battle


def _state(rules=None) -> BattleState:
    t = compile_rules(rules or _rules())
    return BattleState(t, (RED, BLUE), Dice(rng(0)), 0, True)


def test_join_rebuilds_the_deck_less_one_highest_card_per_bad_thing() -> None:
    st = _state()
    assert st.decks[0].cards == [6, 6, 5, 5, 4, 3, 3]
    st.bad_thing(0, "test")
    st.bad_thing(0, "test")
    assert st.decks[0].cards == [5, 5, 4, 3, 3]
    st.bounds = 4
    due = [Arrival(5, 0, HELP)]
    join_due(st, due)
    assert due == []
    # 8 units: 8 8 7 7 6 5 4 3 3 (RULES.md §3.1) less the two highest cards
    assert st.decks[0].cards == [7, 7, 6, 5, 4, 3, 3]
    assert st.decks[1].cards == [6, 6, 5, 5, 4, 3, 3]  # the other side is untouched
    assert st.boxes == (60 + 10 + 7, 60)  # §7.1 casualty base grows by their boxes
    assert st.on_field == [8, 6]
    assert [u.id for u in st.field[0]][-2:] == ["R-I8", "R-I9"]
    joined = {u.id: u for u in st.field[0]}
    assert joined["R-I9"].hits_before == 3 and joined["R-I9"].hits == 0
    assert joined["R-I8"].pos == st.t.deploy  # at its own baseline, as deployed (§6.1)
    assert [e.unit for e in st.events if isinstance(e, StateChanged)] == ["R-I8", "R-I9"]


def test_join_waits_for_its_bound_and_counts_every_unit_brought() -> None:
    st = _state()
    st.bounds = 2
    due = [Arrival(4, 0, HELP)]
    join_due(st, due)  # bound 3 starts next: not yet
    assert len(due) == 1 and st.on_field == [6, 6]
    st.bounds = 3
    st.field[0].pop()  # a unit already gone from the field still counts in the new deck
    st.on_field[0] -= 1
    join_due(st, due)
    assert st.decks[0].cards == [8, 8, 7, 7, 6, 5, 4, 3, 3]
    assert st.on_field[0] == 7


def test_destroyed_arrivals_do_not_come() -> None:
    st = _state()
    join_due(st, [Arrival(1, 1, (UnitSpec("B-I9", "infantry", hits=10),))])
    assert st.on_field == [6, 6] and st.boxes == (60, 60)
    assert st.decks[1].cards == [6, 6, 5, 5, 4, 3, 3]


@pytest.mark.parametrize("seed", range(12))
def test_arrivals_join_in_a_fought_battle_at_their_bound(seed: int) -> None:
    rules = _rules()
    late = Arrival(3, 1, (UnitSpec("B-I7", "infantry"), UnitSpec("B-I8", "infantry")))
    never = Arrival(10_000, 0, (UnitSpec("R-I7", "infantry"),))
    res = fight(RED, BLUE, rules, rng(seed), arrivals=[never, late])
    ids = {u.id for u in res.units}
    assert "R-I7" not in ids  # due after the end: never joined
    joined = [e for e in res.events if isinstance(e, StateChanged) and e.state == "in the battle"]
    if res.bounds >= 3:
        assert {"B-I7", "B-I8"} <= ids
        assert [e.bound for e in joined] == [3, 3]
        first_b3 = next(e for e in res.events if isinstance(e, BoundStarted) and e.bound == 3)
        assert res.events.index(joined[0]) < res.events.index(first_b3)
    else:
        assert not joined and "B-I7" not in ids


def test_without_arrivals_the_battle_is_unchanged() -> None:
    rules = _rules()
    a = fight(RED, BLUE, rules, rng(5))
    b = fight(RED, BLUE, rules, rng(5), arrivals=())
    assert a == b


@pytest.mark.parametrize(
    "arrival",
    [
        Arrival(2, 0, (UnitSpec("R-I1", "infantry"),)),  # id already in the battle
        Arrival(2, 2, (UnitSpec("X-I1", "infantry"),)),  # no such side
        Arrival(0, 0, (UnitSpec("X-I1", "infantry"),)),  # bound 0
        Arrival(2, 0, ()),  # nobody
    ],
)
def test_malformed_arrivals_are_refused(arrival: Arrival) -> None:
    with pytest.raises(ForceError):
        fight(RED, BLUE, _rules(), rng(1), arrivals=[arrival])
