"""Per-process tables shared by campaigns (issue 15): each equals a freshly built one, and
campaigns of different rules or maps in one process never share one wrongly."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from battle.dice import Dice
from battle.units import UnitSpec
from campaign.army import RaiseTable, raise_division, raise_table, with_hits
from campaign.config import Rules, load_rules
from campaign.maps import Routes, load_map, retreat_path


def _raised_the_old_way(side: str, number: int, infantry: int, rules: Rules) -> list[UnitSpec]:
    """The units of a division as raise_division built them before the table (RULES.md §2.1)."""
    cr, types = rules.campaign, rules.battle.units
    div_id = f"{side[0].upper()}{number}"
    counts = [("infantry", infantry)]
    if cr.division_light_infantry:
        counts.append(("light_infantry", cr.division_light_infantry))
    counts += [("cavalry", cr.division_cavalry), ("artillery", cr.division_artillery)]
    return [
        UnitSpec(f"{div_id}-{types[kind].id_prefix}{i}", kind)
        for kind, n in counts
        for i in range(1, n + 1)
    ]


def test_raise_table_is_shared_per_rules_object_and_equals_a_fresh_one() -> None:
    rules = load_rules().rules
    assert raise_table(rules) is raise_table(rules)
    shared, fresh = raise_table(rules), RaiseTable(rules)
    for side, number, infantry in itertools.product(("red", "blue"), (1, 2, 7), (0, 4, 5, 6)):
        units = shared.division_units(side, number, infantry)
        assert units == fresh.division_units(side, number, infantry)
        assert list(units) == _raised_the_old_way(side, number, infantry, rules)
    assert shared.rows == fresh.rows and shared.unknown_boxes == fresh.unknown_boxes
    assert shared.lost_as == fresh.lost_as == {k: u.lost_as for k, u in rules.battle.units.items()}
    assert shared.lost_as["artillery"] == "battery" and shared.lost_as["infantry"] == "flag"
    for roll in range(1, rules.battle.percentage_dice + 1):
        expected = next(
            r.infantry for r in rules.campaign.division_infantry_table if roll <= r.max_roll
        )
        assert shared.infantry(roll) == expected


def test_rules_that_differ_never_share_a_raise_table() -> None:
    plain = load_rules().rules
    more = load_rules([], {"campaign.division_cavalry": 3, "battle.destroyed_at_hits": 12}).rules
    a, _ = raise_division("red", 1, "x", plain, Dice(np.random.default_rng(5)))
    b, _ = raise_division("red", 1, "x", more, Dice(np.random.default_rng(5)))
    assert [u.kind for u in a.units].count("cavalry") == 1
    assert [u.kind for u in b.units].count("cavalry") == 3
    assert (a.destroyed_at, b.destroyed_at) == (10, 12)
    assert raise_table(plain) is not raise_table(more)


def test_each_division_owns_its_units_list() -> None:
    """The units are shared immutable values; the list is each division's own (losses
    replace it, campaign.army.Division.apply_hits)."""
    rules = load_rules().rules
    a, _ = raise_division("red", 1, "x", rules, Dice(np.random.default_rng(5)))
    b, _ = raise_division("red", 1, "x", rules, Dice(np.random.default_rng(5)))
    assert a.units == b.units and a.units is not b.units
    a.apply_hits({a.units[0].id: 4}, 10)
    assert a.units[0].hits == 4 and b.units[0].hits == 0


def test_with_hits_equals_replace_and_tells_units_apart() -> None:
    plain = UnitSpec("R1-I1", "infantry")
    veteran = UnitSpec("R1-I1", "infantry", grade="veteran")
    for unit, hits in itertools.product((plain, veteran), range(10)):
        assert with_hits(unit, hits) == dataclasses.replace(unit, hits=hits)
    assert with_hits(veteran, 3).grade == "veteran" and with_hits(plain, 3).grade == "regular"
    assert with_hits(with_hits(plain, 3), 5) == dataclasses.replace(plain, hits=5)
    # units that differ in hits only share one unit per hits value (no chain of copies)
    assert with_hits(with_hits(plain, 3), 5) is with_hits(plain, 5)
    assert with_hits(with_hits(veteran, 2), 0) is with_hits(veteran, 0)
    # a unit made elsewhere, equal to one made here, gets a correct answer of its own
    twin = dataclasses.replace(plain, hits=3)
    assert with_hits(twin, 6) == dataclasses.replace(plain, hits=6)


def test_with_hits_finds_a_unit_again_and_stays_right_when_its_memo_fills() -> None:
    """A unit asked for again with the same hits is the same unit, whichever unit of the
    same root it is asked from; past the memo's bound (50,000 entries it clears) every answer
    still equals ``dataclasses.replace``, and units made before stay what they were."""
    plain = UnitSpec("R2-C1", "cavalry")
    four = with_hits(plain, 4)
    assert with_hits(plain, 4) is four and with_hits(with_hits(plain, 7), 4) is four
    assert with_hits(four, 4) is four  # its own hits: itself
    others = [UnitSpec(f"X{k}", "infantry") for k in range(30_000)]
    for unit in others:  # 60,000 entries: the memo clears once at least
        for hits in (1, 2):
            assert with_hits(unit, hits).hits == hits and with_hits(unit, hits).id == unit.id
    assert four == dataclasses.replace(plain, hits=4)
    again = with_hits(plain, 4)
    assert again == four and with_hits(plain, 4) is again
    assert with_hits(four, 9) == dataclasses.replace(plain, hits=9)


@pytest.mark.parametrize("name", ["default", "waterloo-1815"])
def test_remembered_retreats_equal_a_fresh_search(name: str) -> None:
    """Routes.retreat answers as retreat_path does, for the same question asked again, with
    the blocked road either way round, and after a caller changed the list it was given."""
    graph = load_map(name).graph
    routes = Routes(graph)
    junctions = sorted(graph.nodes)
    rng = np.random.default_rng(11)
    for _ in range(60):
        start, base = (str(j) for j in rng.choice(junctions, 2, replace=False))
        blocked = {str(j) for j in rng.choice(junctions, int(rng.integers(0, 6)), replace=False)}
        edges = list(graph.edges(start))
        road: tuple[tuple[str, str], ...] = ()
        if edges and rng.random() < 0.5:
            road = (tuple(edges[int(rng.integers(len(edges)))]),)
        expected = retreat_path(graph, start, base, blocked, road)
        for _ in range(2):  # searched, then remembered
            got = routes.retreat(start, base, blocked, road)
            assert got == expected
            if got:
                got.append("spoiled")  # a new list each time: the memory is untouched
        if road:
            flipped = ((road[0][1], road[0][0]),)
            assert routes.retreat(start, base, blocked, flipped) == retreat_path(
                graph, start, base, blocked, flipped
            )
        # the start itself may be held by the enemy (it is where the battle was)
        assert routes.retreat(start, base, blocked | {start}, road) == expected


def test_two_maps_keep_their_own_retreats() -> None:
    default, waterloo = load_map(), load_map("waterloo-1815")
    for cmap in (default, waterloo, default):
        start, base = sorted(cmap.graph.nodes)[:2]
        assert cmap.routes.retreat(start, base, set(), ()) == retreat_path(
            cmap.graph, start, base, set()
        )
    assert default.routes is not waterloo.routes
