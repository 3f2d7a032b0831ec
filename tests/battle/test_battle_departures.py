"""The departures from RULES.md found by the audit of issue 11, each pinned by an exact test
on a constructed state with scripted dice (or a seeded battle), so that none comes back.

RULES.md §4.5, §5.3, §6.4, §6.5, §6.8, §6.9 (revised 2026-12-01).
"""

from __future__ import annotations

import pytest
from battle_helpers import rng
from kernel_probe import Probe

from battle.engine import fight
from battle.events import CardLost, HitResolved, MeleeResolved, Moved, StateChanged
from battle.events import TestRolled as Rolled
from battle.forces import parse_force_flag
from battle.kernel import layout as L
from battle.kernel.bound import bound
from battle.kernel.orders import choose_orders
from battle.kernel.phases import (
    completion_tests,
    declare_charges,
    fire_phase,
    melee_phase,
    stand_tests,
)
from battle.tables import Tables, compile_rules
from battle.units import UnitSpec
from campaign.config import load_rules

D100, D10, D6 = 100, 10, 6


# ------------------------------------------------------------------ 1. late defensive fire


def test_a_disordered_unit_that_stood_never_fires_at_its_charger_later(tables: Tables) -> None:
    """§6.9: defensive fire only in the bound the charge reaches the unit; a unit still
    disordered then gives none, and none later (the seed-19 battle of issue 11, bound 8)."""
    p = Probe(
        tables,
        [UnitSpec("R-A1", "artillery", formation="unlimbered")],
        [UnitSpec("B-I1", "infantry", formation="column")],
        rolls=[(50, D100)],  # R-A1 stands (d100=50 vs 80)
    )
    p.set("R-A1", disordered=True)  # it unlimbered last bound and has not completed
    p.charge("B-I1", "R-A1")
    stand_tests(p.b, 0)
    assert p.get("R-A1", "melee") == "B-I1"
    fire_phase(p.b, 0)
    p.set("R-A1", disordered=False)  # it completes its change at its next bound ...
    fire_phase(p.b, 0)  # ... and still does not fire: the charge is not new
    assert not [e for e in p.events() if isinstance(e, HitResolved)]


def test_a_steady_unit_that_stood_fires_at_its_charger_once(tables: Tables) -> None:
    p = Probe(
        tables,
        [UnitSpec("R-A1", "artillery", formation="unlimbered")],
        [UnitSpec("B-I1", "infantry", formation="column")],
        # stands 50; D: d10=5 -> 30; B-I1 morale d100=1; casualty d100=100 (1 hit)
        rolls=[(50, D100), (5, D10), (1, D100), (100, D100)],
    )
    p.charge("B-I1", "R-A1")
    stand_tests(p.b, 0)
    fire_phase(p.b, 0)
    fire_phase(p.b, 0)
    hits = [e for e in p.events() if isinstance(e, HitResolved)]
    assert [(e.how, e.attacker, e.target, e.d_roll, e.divisor) for e in hits] == [
        ("defensive-fire", "R-A1", "B-I1", 30, 4)
    ]


# ------------------------------------------------------------------ 2. one charge at a time


def test_a_unit_with_a_charge_pending_is_not_activated(tables: Tables) -> None:
    """§6.4: a unit whose charge has not been met (roll-initiative: two bounds in a row)
    cannot be activated for another; its target is not charged twice."""
    p = Probe(
        tables,
        [UnitSpec("R-C1", "cavalry")],
        [UnitSpec("B-I1", "infantry", formation="line"), UnitSpec("B-I2", "infantry")],
        doctrines=("bold", "bold"),
    )
    p.set("B-I1", pos=10.0)
    p.set("B-I2", pos=10.0)
    p.charge("R-C1", "B-I1")
    assert choose_orders(p.b, 0, 5, True) == 0
    # and the engine refuses such a declaration even if a doctrine made it
    p.order(0, "R-C1", L.A_CHARGE, "B-I2")
    declare_charges(p.b, 1)
    assert not p.U[p.i("R-C1"), L.U_CDECL]
    assert not [e for e in p.events() if isinstance(e, Rolled)] and p.dice_used == 0


def test_one_charger_per_target(tables: Tables) -> None:
    """§6.4: several units may not declare a charge on one target; the doctrine picks
    another target or order for the second."""
    p = Probe(
        tables,
        [UnitSpec("R-C1", "cavalry"), UnitSpec("R-C2", "cavalry")],
        [UnitSpec("B-I1", "infantry", formation="line")],
        doctrines=("bold", "bold"),
    )
    p.set("B-I1", pos=8.0, disordered=True)
    for uid in ("R-C1", "R-C2"):
        p.set(uid, pos=8.0)
    orders = p.orders(choose_orders(p.b, 0, 5, True))
    assert [(u, target) for u, action, target, _ in orders if action == "charge"] == [
        ("R-C1", "B-I1")
    ]


# ------------------------------------------------------------------ 3. end check every phase


def test_the_battle_ends_after_the_manoeuvre_phase_before_any_check_is_rolled() -> None:
    """§6.8: a side down to its last card in the manoeuvre phase has lost at once: the
    checks phase (half-strength tests) is not rolled."""
    tables = compile_rules(load_rules().rules.battle)
    p = Probe(
        tables,
        [UnitSpec("R-I1", "infantry")],  # one unit: a deck of 2 cards, lost at 1
        [UnitSpec("B-I1", "infantry", hits=5)],
        rolls=[(1, 2), (100, D100)],  # draw the first card; the rally test fails (d100=100)
    )
    p.S[L.S_BOUNDS] = 0
    p.set("R-I1", shaken=True)  # the steady doctrine rallies it (RULES.md §6.7)
    p.set("B-I1", total_hits=6)
    p.U[p.i("B-I1"), L.U_HALFP] = 1  # due a half-strength test in Red's checks phase
    bound(p.b, 0)
    assert p.S[L.S_OVER] and p.S[L.S_WINNER] == 1 and L.END_REASONS[p.S[L.S_REASON]] == "cards"
    kinds = [e.kind for e in p.events() if isinstance(e, Rolled)]
    assert kinds == ["rally"]  # no half-strength test after Red was beaten


# ------------------------------------------------------------------ 4. failed change retest


def test_a_failed_changes_retest_adds_nothing_for_the_failure(tables: Tables) -> None:
    """§5.3: a regular line->column retest is total 2 again, not 4."""
    p = Probe(
        tables,
        [UnitSpec("R-I1", "infantry", formation="column")],
        [UnitSpec("B-I1", "infantry")],
        rolls=[(2, D6), (3, D6)],
    )
    p.set("R-I1", disordered=True, change_cost=tables.change_cost[frozenset(("line", "column"))])
    completion_tests(p.b, 0)  # d6=2 vs >2: fails
    assert p.get("R-I1", "failed_change") and p.get("R-I1", "disordered")
    p.set("R-I1", frozen=False)
    completion_tests(p.b, 0)  # d6=3 vs >2: completes
    totals = [(e.roll, e.target, e.passed) for e in p.events() if isinstance(e, Rolled)]
    assert totals == [(2, 2, False), (3, 2, True)]
    assert not p.get("R-I1", "disordered")


# ------------------------------------------------------------------ 5. arw-1998, one unit


def test_arw_1998_one_unit_force_has_lost_before_the_first_bound() -> None:
    """§3.4 arw-1998: a side left with 2 cards has lost; one unit's deck has 2 from the
    start, so it has lost at once (nothing is rolled)."""
    rules = load_rules(["arw-1998"]).rules.battle
    result = fight(
        parse_force_flag("1i", "Red", "R"), parse_force_flag("4i1c1a", "Blue", "B"), rules, rng(1)
    )
    assert (result.winner, result.reason, result.bounds) == (1, "cards", 0)
    assert not [e for e in result.events if isinstance(e, Rolled)]
    both = fight(
        parse_force_flag("1i", "Red", "R"), parse_force_flag("1c", "Blue", "B"), rules, rng(1)
    )
    assert (both.winner, both.reason, both.bounds) == (None, "both-cards", 0)


# ------------------------------------------------------------------ 6. melee lost by a rout


def test_a_unit_routed_by_the_melee_has_lost_it_whatever_the_hits(tables: Tables) -> None:
    """§4.5: a shaken unit that fails its melee morale test routs and has lost the melee,
    though it inflicted more actual hits: a bad thing for its side (besides the failed
    test's), and its opponent holds."""
    p = Probe(
        tables,
        [UnitSpec("R-I1", "infantry", formation="line")],
        [UnitSpec("B-I1", "infantry", formation="line")],
        # R on B: d10=1 (D 22), B morale 1 passes, casualty 100 fails (1 hit)
        # B on R: d10=1 (D 22), R morale 100 fails (shaken -> routs), casualty 1 (3 hits)
        rolls=[(1, D10), (1, D100), (100, D100), (1, D10), (100, D100), (1, D100)],
    )
    p.set("R-I1", shaken=True, melee="B-I1")
    p.set("B-I1", melee="R-I1")
    melee_phase(p.b)
    melee = next(e for e in p.events() if isinstance(e, MeleeResolved))
    assert (melee.outcome, melee.loser) == ("broken", "R-I1")
    lost = [e.cause for e in p.events() if isinstance(e, CardLost) and e.side == 0]
    assert lost == ["R-I1 failed a morale test", "R-I1 lost a melee"]
    assert p.get("R-I1", "routed") and not p.get("B-I1", "out")
    assert p.get("B-I1", "pos") == tables.deploy  # the winner holds


def test_when_both_go_nobody_loses_the_melee(tables: Tables) -> None:
    p = Probe(
        tables,
        [UnitSpec("R-I1", "infantry", formation="line", hits=9)],
        [UnitSpec("B-I1", "infantry", formation="line", hits=9)],
        rolls=[(1, D10), (1, D100), (100, D100), (1, D10), (1, D100), (100, D100)],
    )
    p.set("R-I1", melee="B-I1")
    p.set("B-I1", melee="R-I1")
    melee_phase(p.b)
    melee = next(e for e in p.events() if isinstance(e, MeleeResolved))
    assert (melee.outcome, melee.loser) == ("ended", "")
    assert not [e for e in p.events() if isinstance(e, CardLost)]


# ------------------------------------------------------------------ 7. drop back off table


def test_a_failed_chargers_drop_back_past_its_baseline_leaves_the_table(tables: Tables) -> None:
    """§6.4/§6.5: a charger failing its test drops back 6"; from 4" it leaves the table and
    counts as retreating off the table (§7.2)."""
    p = Probe(
        tables,
        [UnitSpec("R-C1", "cavalry")],
        [UnitSpec("B-I1", "infantry", formation="line")],
        rolls=[(100, D100)],  # the charge test fails
    )
    p.order(0, "R-C1", L.A_CHARGE, "B-I1")
    declare_charges(p.b, 1)
    assert p.get("R-C1", "off_table") and p.get("R-C1", "out")
    assert p.tally(0, L.T_OFFT) == 1
    moved = next(e for e in p.events() if isinstance(e, Moved))
    assert (moved.action, moved.from_inches, moved.to_inches) == ("drop-back", 4.0, 0.0)
    states = [e.state for e in p.events() if isinstance(e, StateChanged) and e.unit == "R-C1"]
    assert states == ["shaken", "off-table"]


# ------------------------------------------------------------------ the issue's example


@pytest.mark.parametrize("seed", [19])
def test_the_issues_example_has_no_late_fire(seed: int) -> None:
    """``campaign battle --red 6i1c1a --blue 5i1c1a --seed 19``: every defensive fire comes
    in the bound of its stand test (RULES.md §6.9)."""
    rules = load_rules().rules.battle
    result = fight(
        parse_force_flag("6i1c1a", "Red", "R"),
        parse_force_flag("5i1c1a", "Blue", "B"),
        rules,
        rng(seed),
    )
    stood = {
        (e.bound, e.unit)
        for e in result.events
        if isinstance(e, Rolled) and e.kind == "stand" and e.passed
    }
    for e in result.events:
        if isinstance(e, HitResolved) and e.how == "defensive-fire":
            assert (e.bound, e.attacker) in stood
