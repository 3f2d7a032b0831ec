"""The campaign ledger: objective control (RULES.md §7.2), losses and the §7.6 factors."""

from __future__ import annotations

import pytest

from battle.units import UnitSpec
from battle.withdrawal import withdrawal_factors
from campaign.army import Division
from campaign.config import load_rules
from campaign.ledger import Ledger
from campaign.reinforcements import raise_armies

W = load_rules().rules.battle.withdrawal
OBJECTIVES = {"rb": 3, "a": 1, "b": 2, "bb": 3}
BASES = {"red": "rb", "blue": "bb"}


def _ledger() -> Ledger:
    ledger = Ledger(OBJECTIVES, {"red": ("rb", "a"), "blue": None})
    ledger.begin(BASES, {"rb": ["red"], "bb": ["blue"]})
    return ledger


def _division(side: str = "red", hits: tuple[int, ...] = (0, 0, 0)) -> Division:
    kinds = ("infantry", "cavalry", "artillery")
    units = [UnitSpec(f"R1-{k[0].upper()}1", k, hits=h) for k, h in zip(kinds, hits, strict=True)]  # type: ignore[arg-type]
    return Division("R1", side, units, "a", destroyed_at=10)


# ---------------------------------------------------------------- control (§7.2)


def test_control_goes_to_the_last_side_to_occupy_alone() -> None:
    ledger = _ledger()
    assert ledger.owner == {"rb": "red", "bb": "blue"}
    ledger.occupy("a", ["red"])
    assert ledger.controls("a", "red") and ledger.objective_value("red") == 4
    ledger.occupy("a", [])  # red marched on: it still controls a
    assert ledger.controls("a", "red")
    ledger.occupy("a", ["red", "blue", "blue"])  # contested: neither; red counts it lost
    assert ledger.owner["a"] is None
    assert ledger.objectives_lost("red") == 1 and ledger.objectives_gained("blue") == 0
    ledger.occupy("a", ["blue"])
    assert ledger.controls("a", "blue")
    assert ledger.objectives_lost("red") == 1 and ledger.objectives_gained("blue") == 1
    ledger.occupy("a", ["red"])  # regained: gained, and no longer lost
    assert ledger.objectives_lost("red") == 0 and ledger.objectives_gained("red") == 1
    assert ledger.objectives_lost("blue") == 1  # blue controlled it, red took it


def test_own_starting_objectives_are_not_gained_and_neutral_ones_are_not_lost() -> None:
    ledger = _ledger()
    ledger.occupy("rb", ["red"])
    assert ledger.objectives_gained("red") == 0
    ledger.occupy("b", ["blue"])  # captured outside blue's starting area
    assert ledger.objectives_gained("blue") == 1 and ledger.objectives_lost("red") == 0


def test_the_primary_road_is_lost_when_the_enemy_takes_one_of_its_objectives() -> None:
    ledger = _ledger()
    assert not ledger.primary_road_lost("red")
    ledger.occupy("a", ["blue"])  # never red's: not lost (RULES.md §7.2)
    assert not ledger.primary_road_lost("red")
    ledger.occupy("a", ["red"])
    ledger.occupy("a", ["blue"])
    assert ledger.primary_road_lost("red") and not ledger.primary_road_lost("blue")


def test_the_primary_roads_junction_counts_4_once_and_a_plain_road_end_nothing() -> None:
    """RULES.md §7.2/§7.6: the primary road's junction counts 4 in place of its 1 as an
    objective, once however many of its junctions are lost; a road end that is no objective
    counts nothing; a contested one is lost to its holder; the captor counts -4."""
    ledger = Ledger({"rb": 3, "a": 1, "b": 2, "bb": 3}, {"red": ("rb", "a"), "blue": ("bb", "n")})
    ledger.begin(BASES, {"rb": ["red"], "bb": ["blue"], "a": ["red"]})
    ledger.occupy("n", ["red"])  # blue's road end n is no objective
    own, enemy = ledger.withdrawal_tallies("blue", "division", 3)
    assert (own.objectives_lost, own.primary_roads_lost) == (0, 0)
    ledger.occupy("a", ["red", "blue"])  # contested: red counts it lost
    own, enemy = ledger.withdrawal_tallies("red", "division", 3)
    assert (own.objectives_lost, own.primary_roads_lost) == (0, 1)
    ledger.occupy("rb", ["blue"])
    ledger.occupy("b", ["blue"])
    own, enemy = ledger.withdrawal_tallies("red", "division", 3)
    assert (own.objectives_lost, own.primary_roads_lost) == (0, 1)  # rb and a: 4, once
    own, enemy = ledger.withdrawal_tallies("blue", "division", 3)
    assert (enemy.objectives_lost, enemy.primary_roads_lost) == (1, 1)  # b gained, rb: -5


# ---------------------------------------------------------------- losses


def test_apply_losses_sets_hits_drops_destroyed_units_and_counts_them() -> None:
    ledger = _ledger()
    d = _division(hits=(2, 0, 5))
    losses = ledger.apply_losses(d, {"R1-I1": 10, "R1-C1": 4, "R1-A1": 12}, 10)
    assert losses.hits == 8 + 4 + 5  # up to 10 hits each: the excess is not counted
    assert losses.destroyed == (("R1-I1", "infantry"), ("R1-A1", "artillery"))
    assert [(u.id, u.hits) for u in d.units] == [("R1-C1", 4)]
    r = ledger.sides["red"]
    assert (r.hits, r.units_destroyed, r.batteries_destroyed, r.divisions_destroyed) == (
        17,
        1,
        1,
        0,
    )
    ledger.apply_losses(d, {"R1-C1": 10}, 10)
    assert not d.alive and r.divisions_destroyed == 1 and r.hits == 23


def test_casualty_percent_is_over_every_box_the_army_began_with() -> None:
    ledger = _ledger()
    ledger.begin_army("red", 200)
    d = _division()
    ledger.apply_losses(d, {"R1-I1": 6}, 10)
    assert ledger.casualty_percent("red") == pytest.approx(3.0)
    ledger.surrendered(d, 0.25)  # 24 boxes left x 25% (RULES.md §7.5)
    assert ledger.casualty_percent("red") == pytest.approx(100 * (6 + 6) / 200)


# ---------------------------------------------------------------- §7.6 factors


def _scenario() -> Ledger:
    """Red: 1 division destroyed, 1 surrendered (cut off), 7 batteries destroyed, 3 defeats
    of divisions in 2 battles, 1 division onto its base, 2 infantry units destroyed; lost
    objective a (its primary road) to Blue. Blue: 1 defeat, 1 battery destroyed."""
    ledger = _ledger()
    red, blue = ledger.sides["red"], ledger.sides["blue"]
    red.divisions_destroyed, red.divisions_surrendered, red.cut_off = 1, 1, 1
    red.batteries_destroyed, red.units_destroyed = 7, 2
    red.battles_lost, red.division_defeats, red.onto_base = 2, 3, 1
    blue.battles_lost = blue.division_defeats = 1
    blue.batteries_destroyed = 1
    ledger.occupy("a", ["red"])
    ledger.occupy("a", ["blue"])
    return ledger


def test_division_scale_factors_exactly() -> None:
    own, enemy = _scenario().withdrawal_tallies("red", "division", 3)
    rows = withdrawal_factors(W, own, enemy, 45.0)
    assert rows == [
        ("flags lost", 2),  # a division destroyed + one surrendered
        ("batteries lost", 2),  # 7 batteries // 3
        ("units retiring shaken", 3),  # every division that lost a battle
        ("enemy units retiring shaken", -1),
        ("units off the table", 4),  # onto its base + cut off, 2 each
        ("primary road lost", 4),  # a, on the primary road: 4, not also 1 (RULES.md §7.2)
        ("losses 45%", 2),
    ]
    own, enemy = _scenario().withdrawal_tallies("blue", "division", 3)
    rows = withdrawal_factors(W, own, enemy, 0.0)
    assert dict(rows) == {
        "flags captured": -2,
        "batteries captured": -2,
        "units retiring shaken": 1,
        "enemy units retiring shaken": -3,
        "enemy units off the table": -4,
        # "a" on red's primary road: -4, not also -1 (RULES.md §7.2)
        "primary road captured": -4,
    }


def test_unit_scale_factors_exactly() -> None:
    own, enemy = _scenario().withdrawal_tallies("red", "unit", 3)
    rows = dict(withdrawal_factors(W, own, enemy, 45.0))
    assert rows["flags lost"] == 2 + 1  # units destroyed + division surrendered
    assert rows["batteries lost"] == 7 and rows["batteries captured"] == -1
    assert rows["units retiring shaken"] == 2  # one per battle lost
    assert rows["units off the table"] == 2 * 2


def test_an_unknown_scale_is_refused() -> None:
    with pytest.raises(ValueError, match="withdrawal scale"):
        _scenario().tally("red", "brigade", 3)


def test_the_variant_selects_the_unit_scale() -> None:
    assert load_rules().rules.campaign.withdrawal_scale == "division"
    assert load_rules(["unit-scale-withdrawal"]).rules.campaign.withdrawal_scale == "unit"


# ---------------------------------------------------------------- fall backs (§8.5), bases (§8.7)


def _star(tmp_path):
    """bb - n1 - rb; rb - a (1 h, a dead end); rb - c (3 h) - d (3 h); rb - e - bb."""
    from campaign.engine import Campaign
    from campaign.maps import load_map
    from tests.campaign.conftest import write_map

    junctions = [(j, {}) for j in ("rb", "n1", "a", "c", "d", "e", "bb")]
    roads = [
        ("bb", "n1", {"hours": 2}),
        ("n1", "rb", {"hours": 2}),
        ("rb", "a", {"hours": 1}),
        ("rb", "c", {"hours": 3}),
        ("c", "d", {"hours": 3}),
        ("rb", "e", {"hours": 4}),
        ("e", "bb", {"hours": 4}),
    ]
    sides = {
        "red": {"name": "Red", "base": "rb", "start": ["rb"]},
        "blue": {"name": "Blue", "base": "bb", "start": ["n1"]},
    }
    cmap = load_map(write_map(tmp_path, junctions, roads, sides))
    loaded = load_rules(overrides={"campaign.divisions_per_side": 1})
    camp = Campaign(cmap, loaded, 1)
    raise_armies(camp)
    # the order of camp.divisions is the campaign's seeded side order, not red first
    red, blue = (next(d for d in camp.divisions if d.side == s) for s in ("red", "blue"))
    return camp, red, blue


def _path(camp, division) -> tuple[str, ...]:
    """The path of the division's fall back: announced at once (seen by both sides), and
    the march orders it follows."""
    from campaign.events import FellBack

    fell = [e for e in camp.events if isinstance(e, FellBack) and e.division == division.id]
    assert fell, "no fall back announced"
    path = fell[-1].path
    assert division.orders == [("march", j) for j in path[1:]]
    return path


def test_beaten_on_its_base_it_falls_back_along_the_road_farthest_from_the_enemy(tmp_path):
    camp, red, blue = _star(tmp_path)
    blue.location = "rb"  # the winner came in by the road from n1
    camp.desk.aftermath.fall_back(red, "rb", (("rb", "n1"),), 600.0)
    assert _path(camp, red) == ("rb", "c", "d")  # 6 h from the enemy, not the 1 h dead end
    assert red.alive and camp.ledger.sides["red"].onto_base == 0


def test_from_its_base_never_into_the_enemy_nor_by_its_road(tmp_path):
    camp, red, blue = _star(tmp_path)
    blue.location = "rb"
    camp.desk.aftermath.fall_back(red, "rb", (("rb", "e"),), 600.0)  # the enemy came by e
    assert _path(camp, red) == ("rb", "c", "d")
    camp, red, blue = _star(tmp_path)
    blue.location = "c"  # an enemy holds c: the open roads lead to a, n1 and e
    camp.desk.aftermath.fall_back(red, "rb", (("rb", "n1"),), 600.0)
    assert _path(camp, red)[1] in ("a", "e") and "n1" not in _path(camp, red)


def test_cut_off_on_its_base_it_surrenders(tmp_path):
    camp, red, blue = _star(tmp_path)
    # enemies stand on every neighbour of the base but n1, and the enemy came from n1
    for j in ("a", "c", "e"):
        camp.divisions.append(
            type(blue)(f"B{j}", "blue", list(blue.units), j, destroyed_at=10)  # a stand-in enemy
        )
    camp.desk.aftermath.fall_back(red, "rb", (("rb", "n1"),), 600.0)
    assert red.surrendered and not red.alive
    assert camp.ledger.sides["red"].cut_off == 1
    assert camp.ledger.sides["red"].divisions_surrendered == 1


def test_away_from_its_base_it_falls_back_two_junctions_toward_it(tmp_path):
    camp, red, blue = _star(tmp_path)
    red.location = "d"
    blue.location = "d"
    camp.desk.aftermath.fall_back(
        red, "d", (("d", "c"),), 600.0
    )  # the enemy's road is the only one
    assert red.surrendered
    camp, red, blue = _star(tmp_path)
    red.location = blue.location = "d"
    camp.desk.aftermath.fall_back(red, "d", (), 600.0)  # red attacked and lost: its road is open
    assert _path(camp, red) == ("d", "c", "rb")
    assert camp.ledger.sides["red"].onto_base == 1


def test_the_base_held_alone_at_nightfall_ends_the_campaign(tmp_path):
    camp, red, blue = _star(tmp_path)
    blue.location = "rb"
    red.location = "rb"
    camp.endgame.check_bases()  # contested: nothing
    assert not camp.over
    red.location = "c"
    camp.endgame.check_bases()
    assert camp.over and camp.winner == "blue" and "at nightfall" in camp.reason
    assert camp.endgame.base_fell_day == {"red": 1}
