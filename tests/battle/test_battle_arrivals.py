"""Late arrivals join a battle at the start of a bound (RULES.md §8.4, battle/arrivals.py)."""

from __future__ import annotations

import pytest
from battle_helpers import rng
from kernel_probe import Probe

from battle.arrivals import Arrival
from battle.engine import fight
from battle.errors import ForceError
from battle.events import BoundStarted, StateChanged
from battle.forces import parse_force_flag
from battle.kernel import layout as L
from battle.kernel.bound import join_due
from battle.kernel.core import bad_thing
from battle.tables import compile_rules
from battle.units import UnitSpec
from campaign.config import load_rules

RED = parse_force_flag("4i1c1a", "Red", "R")  # 6 units, 60 boxes, deck 6 6 5 5 4 3 3
BLUE = parse_force_flag("4i1c1a", "Blue", "B")
HELP = (UnitSpec("R-I8", "infantry"), UnitSpec("R-I9", "infantry", hits=3))


def _rules(*variants: str):
    return load_rules(list(variants)).rules.battle


def _probe(*arrivals: Arrival) -> Probe:
    t = compile_rules(_rules())
    return Probe(t, RED.units, BLUE.units, arrivals=arrivals)


def test_join_rebuilds_the_deck_less_one_highest_card_per_bad_thing() -> None:
    p = _probe(Arrival(5, 0, HELP))
    assert p.deck(0) == [6, 6, 5, 5, 4, 3, 3]
    bad_thing(p.b, 0, 0, 0, 0)
    bad_thing(p.b, 0, 0, 0, 0)
    assert p.deck(0) == [5, 5, 4, 3, 3]
    p.S[L.S_BOUNDS] = 4
    join_due(p.b)
    assert p.S[L.S_NEXTARR] == 1  # joined
    # 8 units: 8 8 7 7 6 5 4 3 3 (RULES.md §3.1) less the two highest cards
    assert p.deck(0) == [7, 7, 6, 5, 4, 3, 3]
    assert p.deck(1) == [6, 6, 5, 5, 4, 3, 3]  # the other side is untouched
    assert (p.S[L.S_BOX], p.S[L.S_BOX + 1]) == (60 + 10 + 7, 60)  # §7.1 base grows
    assert (p.S[L.S_ONF], p.S[L.S_ONF + 1]) == (8, 6)
    assert p.get("R-I8", "present") and p.get("R-I9", "present")
    assert p.get("R-I9", "hits_before") == 3 and p.get("R-I9", "hits") == 0
    assert p.get("R-I8", "pos") == p.t.deploy  # at its own baseline, as deployed (§6.1)
    joined = [e for e in p.events() if isinstance(e, StateChanged)]
    assert [(e.unit, e.bound) for e in joined] == [("R-I8", 5), ("R-I9", 5)]
    assert joined[0].reason == "arrived for bound 5; deck rebuilt to 7 cards"


def test_join_waits_for_its_bound_and_counts_every_unit_brought() -> None:
    p = _probe(Arrival(4, 0, HELP))
    p.S[L.S_BOUNDS] = 2
    join_due(p.b)  # bound 3 starts next: not yet
    assert p.S[L.S_NEXTARR] == 0 and (p.S[L.S_ONF], p.S[L.S_ONF + 1]) == (6, 6)
    assert not p.get("R-I8", "present")
    p.S[L.S_BOUNDS] = 3
    p.set("R-I1", out=True)  # a unit already gone from the field still counts in the new deck
    p.S[L.S_ONF] -= 1
    join_due(p.b)
    assert p.deck(0) == [8, 8, 7, 7, 6, 5, 4, 3, 3]
    assert p.S[L.S_ONF] == 7


def test_destroyed_arrivals_do_not_come() -> None:
    p = _probe(Arrival(1, 1, (UnitSpec("B-I9", "infantry", hits=10),)))
    join_due(p.b)
    assert (p.S[L.S_ONF], p.S[L.S_ONF + 1]) == (6, 6)
    assert (p.S[L.S_BOX], p.S[L.S_BOX + 1]) == (60, 60)
    assert p.deck(1) == [6, 6, 5, 5, 4, 3, 3]
    assert "B-I9" not in p.ids


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
