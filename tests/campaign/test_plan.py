"""The army-level plan (RULES.md §8.8 house, issue 31 items 1-2): kept orders, re-plan
triggers, one rendezvous per group, orders naming a division gone dropped."""

from __future__ import annotations

from campaign.events import Ordered
from campaign.printers.narrative import Narrator
from campaign.printers.orders import order_sentence
from campaign.strategy.knowledge import EnemyGroup, Order
from campaign.strategy.plan import ArmyPlan, Asked, base_in_danger
from campaign.strategy.triggers import TIMEOUT_MINUTES, Snapshot, balance_changed

CALM = Snapshot(0, False, frozenset())


def go(code, at, goal, enemy_at, enemies, friends, aim):
    """A stand-in route: one step straight to the goal."""
    return Order(code, goal, goal, enemy_at, enemies, friends, aim)


#: a division that knows of no enemy near it, marching by the stand-in route
CALM_ASKED = Asked(lambda: CALM, go)


def test_balance_changes_by_half_or_a_threat():
    assert not balance_changed(Snapshot(10, False, frozenset()), Snapshot(14, False, frozenset()))
    assert balance_changed(Snapshot(10, False, frozenset()), Snapshot(15, False, frozenset()))
    assert balance_changed(Snapshot(15, False, frozenset()), Snapshot(10, False, frozenset()))
    assert balance_changed(Snapshot(0, False, frozenset()), Snapshot(1, False, frozenset()))
    assert balance_changed(Snapshot(5, False, frozenset()), Snapshot(5, True, frozenset()))
    assert not balance_changed(Snapshot(5, True, frozenset()), Snapshot(5, False, frozenset()))


def test_a_kept_order_holds_until_a_trigger_fires():
    plan = ArmyPlan()
    first = Order("objective", "X", "M")
    assert plan.settle("B1", "A", 0.0, first, CALM_ASKED, {}) is first
    other = Order("advance", "Y", "A2")
    kept = plan.settle("B1", "M", 60.0, other, CALM_ASKED, {})
    assert (kept.code, kept.goal, kept.trigger) == ("objective", "X", "")
    plan.battle_seen(90.0, "Q")
    changed = plan.settle("B1", "M", 120.0, other, CALM_ASKED, {})
    assert (changed.code, changed.goal, changed.trigger, changed.cause) == (
        "advance",
        "Y",
        "battle",
        "Q",
    )


def test_nightfall_sighting_and_timeout_are_triggers():
    for now, snap, trigger in (
        (1440.0 + 60, CALM, "nightfall"),
        (60.0, Snapshot(20, False, frozenset()), "sighting"),
        (TIMEOUT_MINUTES + 1, CALM, "timeout"),
    ):
        plan = ArmyPlan()
        plan.settle("R1", "A", 0.0, Order("objective", "X", "M"), CALM_ASKED, {})
        new = plan.settle(
            "R1", "M", now, Order("advance", "Y", "A2"), Asked(lambda s=snap: s, go), {}
        )
        assert new.trigger == trigger, (now, trigger)


def test_an_order_on_a_destroyed_enemy_is_void():
    plan = ArmyPlan()
    attack = Order("attack", "X", "M", enemy_at="X", enemies=("B2",))
    plan.settle("R1", "A", 0.0, attack, CALM_ASKED, {"B2": "X"})
    plan.forget("B2")
    new = plan.settle("R1", "M", 30.0, Order("objective", "Z", "N"), CALM_ASKED, {})
    assert (new.trigger, new.cause) == ("void", "B2")
    assert plan.alive(("B2", "B3")) == ("B3",)


def test_an_enemy_gone_from_where_it_was_seen_voids_the_attack():
    plan = ArmyPlan()
    attack = Order("attack", "X", "M", enemy_at="X", enemies=("B2",))
    plan.settle("R1", "A", 0.0, attack, CALM_ASKED, {"B2": "X"})
    new = plan.settle("R1", "M", 30.0, Order("objective", "Z", "N"), CALM_ASKED, {"B2": "W"})
    assert (new.trigger, new.cause) == ("void", "at:X")


def test_done_then_turning_back_without_a_trigger_holds():
    plan = ArmyPlan()
    plan.settle("R1", "A", 0.0, Order("objective", "M", "M"), CALM_ASKED, {})
    back = plan.settle("R1", "M", 120.0, Order("advance", "Y", "A"), CALM_ASKED, {}, "A")
    assert back.code == "no_turn_back" and back.step is None
    onward = plan.settle("R1", "M", 120.0, Order("advance", "Y", "Z"), CALM_ASKED, {}, "A")
    assert (onward.code, onward.trigger) == ("advance", "")


def test_one_rendezvous_per_enemy_group():
    plan = ArmyPlan()
    assert plan.rendezvous_for("E", "P", "B1") == "P"
    assert plan.rendezvous_for("E", "Q", "B2") == "P"  # B2 goes where B1 goes
    plan.forget("B1")
    assert plan.rendezvous_for("E", "Q", "B2") == "Q"
    plan.battle_seen(10.0, None)
    assert plan.rendezvous_for("E", "R", "B3") == "R"


def test_a_captured_base_is_given_up_only_to_a_stronger_enemy_in_reach():
    groups = {"N": EnemyGroup("N", ("R1",), 30), "F": EnemyGroup("F", ("R2",), 80)}
    hours = {"N": 2.0, "F": 9.0}
    assert not base_in_danger(hours, groups, 40, 4.0)  # the strong one is too far
    assert base_in_danger(hours, groups, 20, 4.0)
    assert base_in_danger(hours, groups, 40, 10.0)


def test_the_log_names_the_trigger():
    n = Narrator({"A": "Ligny", "B": "Sombreffe"})
    e = Ordered(
        600, "blue", "B3", "A", "objective", "B", "B", trigger="sighting", cause="A",
        seen_by=("blue",),
    )  # fmt: skip
    text = order_sentence(n, e)
    assert "Sombreffe" in text
    assert "a change of plan: Red at Ligny are stronger than reported" in text


def test_a_march_that_ends_a_planned_hold_names_its_trigger():
    """A division waiting for friends before attacking the enemy at Q marches off when the
    enemy has left Q: the march says so (every change of plan told, RULES.md §8.8 house).
    Friends come and the enemy still there: the wait simply ends, no trigger."""
    for positions, trigger, cause in (({}, "void", "at:Q"), ({"R2": "Q"}, "", "")):
        plan = ArmyPlan()
        wait = Order("wait", None, None, "Q", (), ("B1",))
        assert plan.settle("B2", "M", 600.0, wait, CALM_ASKED, {"R2": "Q"}) is wait
        march = plan.settle("B2", "M", 660.0, Order("attack", "Q", "Q"), CALM_ASKED, positions)
        assert (march.code, march.trigger, march.cause) == ("attack", trigger, cause)
        assert "B2" not in plan.held  # the hold is over either way


def test_seed_42_b2_says_why_it_stops_waiting():
    """Default seed 42, day 1: B2 waits at Mont Fère at 16:00 to attack Red at La Croisée;
    at 17:00 Red has gone from there and B2 makes for an objective: the log says why."""
    from campaign.config import load_rules
    from campaign.engine import run_campaign
    from campaign.maps import load_map

    events = run_campaign(load_map(), load_rules(), 42).events
    b2 = [e for e in events if isinstance(e, Ordered) and e.division == "B2" and e.t <= 660]
    waits = [e for e in b2 if e.code == "wait"]
    assert waits and waits[0].enemy_at == "la_croisee", [(e.t, e.code) for e in b2]
    after = [e for e in b2 if e.t > waits[0].t]
    assert after and (after[0].trigger, after[0].cause) == ("void", "at:la_croisee")
