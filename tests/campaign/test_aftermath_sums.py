"""Sums the battle aftermath keeps on the way (issue 15) equal the sums made afresh: a
division's boxes after its losses and when raised (RULES.md §1.2, §2.1), and the ledger's
primary-road reading (§7.2)."""

from __future__ import annotations

import itertools

import numpy as np

from battle.dice import Dice
from campaign.army import raise_division
from campaign.config import load_rules
from campaign.ledger import Ledger


def _summed(d) -> int:
    """A division's boxes summed from its units (RULES.md §1.2)."""
    return d.destroyed_at * len(d.units) - sum(u.hits for u in d.units)


def test_boxes_kept_by_take_hits_equal_the_sum_of_the_units_left() -> None:
    """Over many seeded rounds of losses (some units untouched, some destroyed, hits never
    going down), the boxes a division keeps equal those summed afresh, and the hits taken
    are the rise of each unit's hits counted up to destroyed_at."""
    rules = load_rules().rules
    rng = np.random.default_rng(2024)
    checked = 0
    for seed in range(60):
        div, _ = raise_division("red", 1 + seed % 4, "j", rules, Dice(np.random.default_rng(seed)))
        assert div.boxes == _summed(div)
        for _ in range(4):
            if not div.units:
                break
            totals = {}
            for u in div.units:
                if rng.random() < 0.6:  # named in this battle (else keeps its hits)
                    totals[u.id] = u.hits + int(rng.integers(0, 7))
            before = {u.id: u.hits for u in div.units}
            taken, lost = div.take_hits(totals, div.destroyed_at)
            rise = sum(min(totals.get(i, h), div.destroyed_at) - h for i, h in before.items())
            assert taken == rise
            assert all(totals[u.id] >= div.destroyed_at for u in lost)
            assert div.boxes == _summed(div)
            assert div.alive == bool(div.units)
            checked += 1
    assert checked > 150


def test_raised_divisions_carry_the_boxes_of_their_units() -> None:
    """Every roll of the d100 table and division number: the boxes a division is raised
    with equal its units' (RULES.md §2.1: 10 a unit with no hits)."""
    rules = load_rules().rules
    sizes = set()
    for number, roll_seed in itertools.product(range(1, 6), range(40)):
        div, _ = raise_division("blue", number, "j", rules, Dice(np.random.default_rng(roll_seed)))
        assert div.boxes == _summed(div) == 10 * len(div.units)
        sizes.add(len(div.units))
    assert len(sizes) >= 3  # divisions of several sizes were raised


def test_primary_road_lost_reads_the_objectives_of_the_road() -> None:
    """RULES.md §7.2: lost when the enemy takes the road's junction that is an objective
    (one the side held); an end that is no objective never counts; never for a side without
    a primary road."""
    for owners in itertools.product((None, "red", "blue"), repeat=2):
        ledger = Ledger({"a": 3}, {"red": ("a", "b"), "blue": None})
        ledger.occupy("a", ["red"])
        for junction, owner in zip(("a", "b"), owners, strict=True):
            if owner is not None:
                ledger.occupy(junction, [owner])
        assert ledger.primary_road_lost("red") == (owners[0] == "blue")
        assert not ledger.primary_road_lost("blue")


def test_battle_totals_read_from_the_unit_columns_equal_total_hits() -> None:
    """The campaign reads a battle's total hits, and each side's units and hits, from its
    unit columns (campaign.battles): the same as BattleResult.total_hits, unit_count and
    hits_taken, over many seeds, with late arrivals that
    join and that never join (``present`` then lists who fought) and without any."""
    from battle.arrivals import Arrival
    from battle.engine import fight
    from battle.forces import parse_force_flag
    from battle.units import UnitSpec
    from campaign.battle_record import side_totals, unit_totals

    br = load_rules().rules.battle
    red = parse_force_flag("4i1c1a", "Red", "R")
    blue = parse_force_flag("3i1c1a", "Blue", "B")
    late = (UnitSpec("R-I8", "infantry"), UnitSpec("R-I9", "infantry", hits=3))
    kinds = set()
    for seed in range(40):
        arrivals = [] if seed % 3 == 0 else [Arrival(2 + seed % 5, 0, late)]
        if seed % 3 == 2:
            arrivals.append(Arrival(60, 1, (UnitSpec("B-I9", "infantry"),)))  # never joins
        result = fight(
            red, blue, br, np.random.default_rng(seed), record_events=False, arrivals=arrivals
        )
        c = result.unit_columns
        kinds.add("none" if c is None else ("all" if c.present is None else "some"))
        assert unit_totals(result) == result.total_hits()
        sides = (result.unit_count(0), result.unit_count(1))
        assert side_totals(result) == (*sides, result.hits_taken(0), result.hits_taken(1))
    assert {"all", "some"} <= kinds  # both column forms were read
