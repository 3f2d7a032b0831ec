"""The departures from RULES.md found by the audit of issue 11, each pinned by an exact test
on a constructed state with scripted dice (or a seeded battle), so that none comes back.

RULES.md §4.5, §5.3, §6.4, §6.5, §6.8, §6.9 (revised 2026-12-01).
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from battle_helpers import rng

from battle import phases
from battle.doctrine import CHARGE, RALLY, Order
from battle.engine import _bound, fight
from battle.events import CardLost, HitResolved, MeleeResolved, Moved, StateChanged
from battle.events import TestRolled as Rolled
from battle.forces import parse_force_flag
from battle.state import BattleState
from battle.tables import Tables, compile_rules
from battle.units import Force, UnitSpec
from campaign.config import load_rules


class Script:
    """Stands in for :class:`battle.dice.Dice`: every roll comes from a list, in order."""

    def __init__(self, rolls: Iterable[int]) -> None:
        self.rolls = list(rolls)

    def d(self, sides: int) -> int:
        value = self.rolls.pop(0)
        assert 1 <= value <= sides, (value, sides)
        return value

    def index(self, n: int) -> int:
        return self.d(n) - 1


def _state(
    tables: Tables, red: list[UnitSpec], blue: list[UnitSpec], rolls: Iterable[int] = ()
) -> BattleState:
    st = BattleState(
        tables, (Force("Red", tuple(red)), Force("Blue", tuple(blue))), Script(rolls), 0, True
    )
    st.turn = st.bounds = 1
    return st


def _unit(st: BattleState, uid: str):
    return next(u for u in st.sides[0] + st.sides[1] if u.id == uid)


def _charge(st: BattleState, charger: str, target: str) -> None:
    """``charger`` has moved into contact with ``target`` (RULES.md §6.4)."""
    c, t = _unit(st, charger), _unit(st, target)
    c.pos = st.depth - t.pos
    t.charged_by, c.charging = c, t
    st.charged[t.side].append(t)
    c.charge_bonus = st.t.charge_bonus


# ------------------------------------------------------------------ 1. late defensive fire


def test_a_disordered_unit_that_stood_never_fires_at_its_charger_later(tables: Tables) -> None:
    """§6.9: defensive fire only in the bound the charge reaches the unit; a unit still
    disordered then gives none, and none later (the seed-19 battle of issue 11, bound 8)."""
    st = _state(
        tables,
        [UnitSpec("R-A1", "artillery", formation="unlimbered")],
        [UnitSpec("B-I1", "infantry", formation="column")],
        rolls=[50],  # R-A1 stands (d100=50 vs 80)
    )
    gun = _unit(st, "R-A1")
    gun.disordered = True  # it unlimbered last bound and has not completed
    _charge(st, "B-I1", "R-A1")
    phases.stand_tests(st, 0)
    assert gun.melee is _unit(st, "B-I1")
    phases.fire_phase(st, 0, [])
    gun.disordered = False  # it completes its change at its next bound ...
    phases.fire_phase(st, 0, [])  # ... and still does not fire: the charge is not new
    assert not [e for e in st.events if isinstance(e, HitResolved)]


def test_a_steady_unit_that_stood_fires_at_its_charger_once(tables: Tables) -> None:
    st = _state(
        tables,
        [UnitSpec("R-A1", "artillery", formation="unlimbered")],
        [UnitSpec("B-I1", "infantry", formation="column")],
        # stands 50; D: d10=5 -> 30; B-I1 morale d100=1; casualty d100=100 (1 hit)
        rolls=[50, 5, 1, 100],
    )
    _charge(st, "B-I1", "R-A1")
    phases.stand_tests(st, 0)
    phases.fire_phase(st, 0, [])
    phases.fire_phase(st, 0, [])
    hits = [e for e in st.events if isinstance(e, HitResolved)]
    assert [(e.how, e.attacker, e.target, e.d_roll, e.divisor) for e in hits] == [
        ("defensive-fire", "R-A1", "B-I1", 30, 4)
    ]


# ------------------------------------------------------------------ 2. one charge at a time


def test_a_unit_with_a_charge_pending_is_not_activated(tables: Tables) -> None:
    """§6.4: a unit whose charge has not been met (roll-initiative: two bounds in a row)
    cannot be activated for another; its target is not charged twice."""
    st = _state(
        tables,
        [UnitSpec("R-C1", "cavalry")],
        [UnitSpec("B-I1", "infantry", formation="line"), UnitSpec("B-I2", "infantry")],
    )
    _unit(st, "B-I1").pos = _unit(st, "B-I2").pos = 10.0
    _charge(st, "R-C1", "B-I1")
    doc = tables.doctrines["bold"]
    orders = doc.choose_orders(st.field[0], st.field[1], 5, attacking=True)
    assert orders == []
    # and the engine refuses such a declaration even if a doctrine made it
    rc1 = _unit(st, "R-C1")
    made = phases.declare_charges(st, 0, [Order(rc1, CHARGE, _unit(st, "B-I2"))])
    assert made == [] and not [e for e in st.events if isinstance(e, Rolled)]


def test_one_charger_per_target(tables: Tables) -> None:
    """§6.4: several units may not declare a charge on one target; the doctrine picks
    another target or order for the second."""
    st = _state(
        tables,
        [UnitSpec("R-C1", "cavalry"), UnitSpec("R-C2", "cavalry")],
        [UnitSpec("B-I1", "infantry", formation="line")],
    )
    target = _unit(st, "B-I1")
    target.pos = 8.0
    target.disordered = True
    for uid in ("R-C1", "R-C2"):
        _unit(st, uid).pos = 8.0
    orders = tables.doctrines["bold"].choose_orders(st.field[0], st.field[1], 5, True)
    charges = [o for o in orders if o.action == CHARGE]
    assert [(o.unit.id, o.target.id) for o in charges if o.target] == [("R-C1", "B-I1")]


# ------------------------------------------------------------------ 3. end check every phase


def test_the_battle_ends_after_the_manoeuvre_phase_before_any_check_is_rolled() -> None:
    """§6.8: a side down to its last card in the manoeuvre phase has lost at once: the
    checks phase (half-strength tests) is not rolled."""
    tables = compile_rules(load_rules().rules.battle)
    st = _state(
        tables,
        [UnitSpec("R-I1", "infantry")],  # one unit: a deck of 2 cards, lost at 1
        [UnitSpec("B-I1", "infantry", hits=5)],
        rolls=[1, 100],  # draw the first card; the rally test fails (d100=100)
    )
    st.bounds = 0
    _unit(st, "R-I1").shaken = True
    blue = _unit(st, "B-I1")
    blue.total_hits = 6
    st.half_pending.append(blue)  # due a half-strength test in Red's checks phase

    class Rally:
        def choose_orders(self, own, enemies, card, attacking):
            return [Order(own[0], RALLY)]

    _bound(st, 0, Rally())  # type: ignore[arg-type]
    assert st.over and st.winner == 1 and st.reason == "cards"
    kinds = [e.kind for e in st.events if isinstance(e, Rolled)]
    assert kinds == ["rally"]  # no half-strength test after Red was beaten


# ------------------------------------------------------------------ 4. failed change retest


def test_a_failed_changes_retest_adds_nothing_for_the_failure(tables: Tables) -> None:
    """§5.3: a regular line->column retest is total 2 again, not 4."""
    st = _state(
        tables,
        [UnitSpec("R-I1", "infantry", formation="column")],
        [UnitSpec("B-I1", "infantry")],
        rolls=[2, 3],
    )
    u = _unit(st, "R-I1")
    u.disordered, u.change_cost = True, tables.change_cost[frozenset(("line", "column"))]
    st.changing[0].append(u)
    phases.completion_tests(st, 0)  # d6=2 vs >2: fails
    assert u.failed_change and u.disordered
    u.frozen = False
    phases.completion_tests(st, 0)  # d6=3 vs >2: completes
    totals = [(e.roll, e.target, e.passed) for e in st.events if isinstance(e, Rolled)]
    assert totals == [(2, 2, False), (3, 2, True)]
    assert not u.disordered


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
    st = _state(
        tables,
        [UnitSpec("R-I1", "infantry", formation="line")],
        [UnitSpec("B-I1", "infantry", formation="line")],
        # R on B: d10=1 (D 22), B morale 1 passes, casualty 100 fails (1 hit)
        # B on R: d10=1 (D 22), R morale 100 fails (shaken -> routs), casualty 1 (3 hits)
        rolls=[1, 1, 100, 1, 100, 1],
    )
    r, b = _unit(st, "R-I1"), _unit(st, "B-I1")
    r.shaken = True
    r.melee, b.melee = b, r
    phases.melee_phase(st)
    melee = next(e for e in st.events if isinstance(e, MeleeResolved))
    assert (melee.outcome, melee.loser) == ("broken", "R-I1")
    lost = [e.cause for e in st.events if isinstance(e, CardLost) and e.side == 0]
    assert lost == ["R-I1 failed a morale test", "R-I1 lost a melee"]
    assert r.routed and not b.out and b.pos == tables.deploy  # the winner holds


def test_when_both_go_nobody_loses_the_melee(tables: Tables) -> None:
    st = _state(
        tables,
        [UnitSpec("R-I1", "infantry", formation="line", hits=9)],
        [UnitSpec("B-I1", "infantry", formation="line", hits=9)],
        rolls=[1, 1, 100, 1, 1, 100],
    )
    r, b = _unit(st, "R-I1"), _unit(st, "B-I1")
    r.melee, b.melee = b, r
    phases.melee_phase(st)
    melee = next(e for e in st.events if isinstance(e, MeleeResolved))
    assert (melee.outcome, melee.loser) == ("ended", "")
    assert not [e for e in st.events if isinstance(e, CardLost)]


# ------------------------------------------------------------------ 7. drop back off table


def test_a_failed_chargers_drop_back_past_its_baseline_leaves_the_table(tables: Tables) -> None:
    """§6.4/§6.5: a charger failing its test drops back 6"; from 4" it leaves the table and
    counts as retreating off the table (§7.2)."""
    st = _state(
        tables,
        [UnitSpec("R-C1", "cavalry")],
        [UnitSpec("B-I1", "infantry", formation="line")],
        rolls=[100],  # the charge test fails
    )
    c = _unit(st, "R-C1")
    phases.declare_charges(st, 0, [Order(c, CHARGE, _unit(st, "B-I1"))])
    assert c.off_table and c.out and st.tally[0].off_table == 1
    moved = next(e for e in st.events if isinstance(e, Moved))
    assert (moved.action, moved.from_inches, moved.to_inches) == ("drop-back", 4.0, 0.0)
    states = [e.state for e in st.events if isinstance(e, StateChanged) and e.unit == "R-C1"]
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
