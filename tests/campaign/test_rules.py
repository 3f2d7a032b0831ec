"""Campaign rules of RULES.md §8: rough roads, meetings, falling back, surrender, casualties."""

from __future__ import annotations

import math
from itertools import pairwise

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import (
    BattleFought,
    CampaignEnded,
    FellBack,
    MarchArrived,
    MeetingOnRoad,
    RoughRoadTest,
    Surrendered,
)
from campaign.maps import load_map
from tests.campaign.conftest import write_map


def test_rough_road_pass_rate_is_70_percent(tmp_path):
    """§8.2: d100 <= 70 passes. Over n tests the pass rate is 0.70 within 4 standard errors.

    On a line of rough roads every march (but a fall back) is preceded by the test.
    """
    cmap = load_map(_line_map(tmp_path, n_middle=4, rough=True))
    loaded = load_rules()
    tests = []
    seed = 0
    while len(tests) < 3000:
        result = run_campaign(cmap, loaded, seed, {"red": "aggressive", "blue": "aggressive"})
        tests += [e for e in result.events if isinstance(e, RoughRoadTest)]
        seed += 1
    for e in tests:
        assert e.passed == (e.roll <= 70)
        assert 1 <= e.roll <= 100
    rate = sum(e.passed for e in tests) / len(tests)
    se = math.sqrt(0.7 * 0.3 / len(tests))
    assert abs(rate - 0.70) < 4 * se, (rate, len(tests))


def test_rough_road_threshold_comes_from_config(tmp_path):
    cmap = load_map(_line_map(tmp_path, n_middle=2, rough=True))
    loaded = load_rules(overrides={"campaign.rough_road_pass": 40})
    tests = []
    for seed in range(10):
        tests += [
            e for e in run_campaign(cmap, loaded, seed).events if isinstance(e, RoughRoadTest)
        ]
    assert len(tests) > 20
    assert all(e.target == 40 and e.passed == (e.roll <= 40) for e in tests)
    rate = sum(e.passed for e in tests) / len(tests)
    assert rate < 0.7  # far below the default's 70% (40% expected)


def _line_map(tmp_path, n_middle=3, rough=False):
    """red_base - a1 - ... - b1 - blue_base in a line (2 h roads)."""
    names = ["rbase", *[f"m{i}" for i in range(n_middle)], "bbase"]
    kind = "rough" if rough else "normal"
    roads = [(a, b, {"kind": kind, "hours": 2}) for a, b in pairwise(names)]
    sides = {
        "red": {"name": "Red", "base": "rbase", "start": ["rbase"]},
        "blue": {"name": "Blue", "base": "bbase", "start": ["bbase"]},
    }
    return write_map(tmp_path, [(n, {}) for n in names], roads, sides)


def test_divisions_swapping_ends_of_one_road_fight_on_it(tmp_path):
    """§8.4: two divisions that would pass each other on a road meet and fight there."""
    path = _line_map(tmp_path, n_middle=0)  # one road: rbase - bbase
    cmap = load_map(path)
    # (no guard: a lone division that guards its base never marches, RULES.md §8.8)
    loaded = load_rules(
        overrides={
            "campaign.divisions_per_side": 1,
            "campaign.doctrines.aggressive.guard_hours": 0,
        }
    )
    result = run_campaign(cmap, loaded, 3, {"red": "aggressive", "blue": "aggressive"})
    meetings = [e for e in result.events if isinstance(e, MeetingOnRoad)]
    assert meetings, "the two divisions passed each other"
    battle = next(e for e in result.events if isinstance(e, BattleFought))
    assert battle.place in ("rbase~bbase", "bbase~rbase")
    # both set off at 06:00 down the same 2-hour road: they meet half-way, at 07:00
    assert battle.t == 60


def test_loser_falls_back_two_junctions(tmp_path):
    """§8.5: the loser falls back 2 junctions toward its base and ends there."""
    path = _line_map(tmp_path, n_middle=5)
    cmap = load_map(path)
    loaded = load_rules(overrides={"campaign.divisions_per_side": 1})
    checked = 0
    for seed in range(200):
        result = run_campaign(cmap, loaded, seed, {"red": "aggressive", "blue": "aggressive"})
        events = list(result.events)
        for i, e in enumerate(events):
            if not isinstance(e, FellBack):
                continue
            base = "rbase" if e.side == "red" else "bbase"
            hops = nx.shortest_path_length(cmap.graph, e.path[0], base)
            if e.from_road:  # back to the junction it left, then on toward its base
                assert len(e.path) == min(2, hops + 1)
            elif hops == 0:  # beaten on its own base: away from the enemy, off its base
                assert 1 <= len(e.path) - 1 <= 2 and not e.onto_base
            else:
                assert len(e.path) - 1 == min(2, hops)
            arrivals = []
            for x in events[i + 1 :]:
                if isinstance(x, BattleFought) and e.division in x.divisions[e.side]:
                    break  # caught again before it finished falling back
                if isinstance(x, MarchArrived) and x.division == e.division:
                    arrivals.append(x)
            steps = len(e.path) if e.from_road else len(e.path) - 1  # junctions to reach
            if steps and len(arrivals) >= steps:
                assert [a.junction for a in arrivals[:steps]] == list(e.path[-steps:])
                checked += 1
    assert checked >= 5


def test_cut_off_division_surrenders(tmp_path):
    """§8.5: a loser with no path home that avoids the enemy's road surrenders.

    Red starts at a dead end beyond the only junction that leads home; Blue attacks it
    there, coming by that road. Whenever Red loses at the dead end, it must surrender.
    """
    junctions = [
        ("rbase", {}),
        ("hub", {}),
        ("dead", {"objective": True, "value": 5}),
        ("bbase", {}),
    ]
    roads = [
        ("rbase", "hub", {"hours": 2}),
        ("hub", "dead", {"hours": 2}),
        ("hub", "bbase", {"hours": 2}),
    ]
    sides = {
        "red": {"name": "Red", "base": "rbase", "start": ["dead"]},
        "blue": {"name": "Blue", "base": "bbase", "start": ["hub"]},
    }
    cmap = load_map(write_map(tmp_path, junctions, roads, sides))
    loaded = load_rules(
        overrides={
            "campaign.divisions_per_side": 1,
            "campaign.doctrines.aggressive.guard_hours": 0,
        }
    )
    surrendered = 0
    for seed in range(60):
        result = run_campaign(cmap, loaded, seed, {"red": "cautious", "blue": "aggressive"})
        for e in result.events:
            if isinstance(e, BattleFought) and e.place == "dead" and e.winner == "blue":
                later = [x for x in result.events if isinstance(x, Surrendered)]
                assert later and later[0].division == "R1"
                surrendered += 1
                break
    assert surrendered >= 3


def test_casualties_carry_into_the_next_battle(default_map, rules):
    """§8.5: actual hits persist — a unit's hits before a battle are its total after the last."""
    carried = 0
    destroyed_at = rules.rules.battle.destroyed_at_hits  # §1.2, 10 actual hits
    for seed in range(20):
        last_total: dict[str, int] = {}
        for e in run_campaign(default_map, rules, seed).events:
            if not isinstance(e, BattleFought):
                continue
            for u in e.units:
                assert u.hits_before == last_total.get(u.id, 0)
                assert u.total_hits == min(u.hits_before + u.hits_taken, destroyed_at)
                assert 0 <= u.total_hits <= destroyed_at
                if u.hits_before:
                    carried += 1
                last_total[u.id] = u.total_hits
    assert carried > 0


def test_event_cap_ends_the_campaign_as_a_draw(default_map, rules):
    seed = next(s for s in range(100) if len(run_campaign(default_map, rules, s).events) > 150)
    loaded = load_rules(overrides={"campaign.max_events": 100})
    result = run_campaign(default_map, loaded, seed)
    assert result.winner is None
    assert "cap" in result.reason
    assert len(result.events) <= 101  # the cap, plus the closing CampaignEnded


@st.composite
def small_maps(draw):
    n = draw(st.integers(3, 9))
    seed = draw(st.integers(0, 10_000))
    g = nx.connected_watts_strogatz_graph(n, 2, 0.5, seed=seed) if n > 3 else nx.path_graph(n)
    rough = draw(
        st.lists(st.booleans(), min_size=g.number_of_edges(), max_size=g.number_of_edges())
    )
    hours = draw(
        st.lists(st.integers(1, 9), min_size=g.number_of_edges(), max_size=g.number_of_edges())
    )
    return g, rough, hours


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    small=small_maps(),
    seed=st.integers(0, 2**31),
    red=st.sampled_from(["aggressive", "cautious", "balanced"]),
    blue=st.sampled_from(["aggressive", "cautious", "balanced"]),
)
def test_campaign_never_exceeds_its_cap(tmp_path_factory, small, seed, red, blue):
    g, rough, hours = small
    junctions = [(f"j{n}", {"objective": True, "value": 1} if n % 2 == 0 else {}) for n in g.nodes]
    roads = [
        (f"j{a}", f"j{b}", {"kind": "rough" if r else "normal", "hours": h})
        for (a, b), r, h in zip(g.edges, rough, hours, strict=True)
    ]
    far = max(nx.shortest_path_length(g, 0).items(), key=lambda kv: (kv[1], kv[0]))[0]
    sides = {
        "red": {"name": "Red", "base": "j0", "start": ["j0"]},
        "blue": {"name": "Blue", "base": f"j{far}", "start": [f"j{far}"]},
    }
    cmap = load_map(write_map(tmp_path_factory.mktemp("m"), junctions, roads, sides))
    loaded = load_rules(overrides={"campaign.time_limit_days": 3})
    result = run_campaign(cmap, loaded, seed, {"red": red, "blue": blue})
    assert isinstance(result.events[-1], CampaignEnded)
    assert result.end_minutes <= 3 * 1440 + 1
    assert len(result.events) <= loaded.rules.campaign.max_events + 1
