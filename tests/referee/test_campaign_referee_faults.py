"""Each check of the campaign referee fails on a stream with its fault planted (issue 31, 6).

The clean stream is a small campaign written by hand on a five-junction map, by the rules:
Red's R1 marches on the objective B, Blue's B2 gets there first by a rough road (tested),
R1 attacks and loses, falls back two junctions; B1 marches round by C and A onto Red's base
and holds it at nightfall, which wins (RULES.md §8.7). Each fault is planted in a copy.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest
from campaign_referee import CampaignReferee, MapData

ROADS = {
    ("home", "a"): ("normal", 2.0),
    ("a", "b"): ("normal", 2.0),
    ("b", "c"): ("rough", 2.0),
    ("c", "away"): ("normal", 2.0),
    ("a", "c"): ("normal", 3.0),
}
MAP = MapData(
    objectives={"home": 3, "b": 1, "away": 3},
    roads={**ROADS, **{(b, a): v for (a, b), v in ROADS.items()}},
    bases={"red": "home", "blue": "away"},
    primary={"red": ("home", "a"), "blue": ("away", "c")},
)


def _order(t, side, div, at, code, goal, step, **kw) -> dict:
    return dict(type="Ordered", t=t, side=side, division=div, junction=at, code=code,
                goal=goal, step=step, road_kind="", enemy_at=None, enemies=[], friends=[],
                aim=None) | kw  # fmt: skip


def _march(t, side, div, a, b) -> dict:
    kind, hours = MAP.roads[(a, b)]
    return dict(type="MarchBegun", t=t, side=side, division=div, origin=a, destination=b,
                kind=kind, hours=hours)  # fmt: skip


def _arrive(t, side, div, j) -> dict:
    return dict(type="MarchArrived", t=t, side=side, division=div, junction=j)


def _raise(side, div, units, j) -> dict:
    return dict(type="DivisionRaised", t=0, side=side, division=div, roll=50,
                units=[[u, k] for u, k in units], junction=j)  # fmt: skip


def _battle(t, place, red, blue, attacker, winner, units, road=None) -> dict:
    return dict(type="BattleFought", t=t, place=place, place_name=place,
                divisions={"red": red, "blue": blue}, attacker=attacker, winner=winner,
                reason="withdrawal", bounds=4, minutes=60, cards_lost={}, cards_left={},
                hits={}, casualty_percent={}, units=units, withdrawal_checks=[],
                battle_seed=[1], road=road, joined=[])  # fmt: skip


BATTLE_UNITS = [
    ["R1-I1", "red", "infantry", "destroyed", 0, 10, 10],
    ["R1-A1", "red", "artillery", "steady", 0, 0, 0],
    ["B2-I1", "blue", "infantry", "steady", 0, 2, 2],
]


def clean() -> list[dict]:
    """The hand-written campaign (see the module docstring), in time order."""
    return [
        dict(type="CampaignStarted", t=0, bases={"red": "home", "blue": "away"}),
        _raise("red", "R1", [("R1-I1", "infantry"), ("R1-A1", "artillery")], "home"),
        _raise("blue", "B1", [("B1-I1", "infantry")], "away"),
        _raise("blue", "B2", [("B2-I1", "infantry")], "c"),
        _raise("blue", "B3", [("B3-I1", "infantry")], "away"),
        _order(0, "red", "R1", "home", "objective", "b", "a"),
        _march(0, "red", "R1", "home", "a"),
        _order(0, "blue", "B2", "c", "objective", "b", "b"),
        dict(
            type="RoughRoadTest",
            t=0,
            side="blue",
            division="B2",
            origin="c",
            destination="b",
            roll=30,
            target=70.0,
            passed=True,
        ),
        _march(0, "blue", "B2", "c", "b"),
        _order(0, "blue", "B1", "away", "advance", "home", "c"),
        _march(0, "blue", "B1", "away", "c"),
        _order(0, "blue", "B3", "away", "hold", None, None),
        _arrive(120, "red", "R1", "a"),
        _order(120, "red", "R1", "a", "objective", "b", "b"),
        _march(120, "red", "R1", "a", "b"),
        _arrive(120, "blue", "B2", "b"),
        _arrive(120, "blue", "B1", "c"),
        _order(120, "blue", "B1", "c", "advance", "home", "a"),
        _march(120, "blue", "B1", "c", "a"),
        _arrive(240, "red", "R1", "b"),
        _battle(240, "b", ["R1"], ["B2"], "red", "blue", BATTLE_UNITS),
        _arrive(300, "blue", "B1", "a"),
        _order(300, "blue", "B1", "a", "advance", "home", "home"),
        _march(300, "blue", "B1", "a", "home"),
        dict(
            type="FellBack",
            t=300,
            side="red",
            division="R1",
            path=["b", "a"],
            onto_base=False,
            from_road=False,
        ),
        _march(300, "red", "R1", "b", "a"),
        _arrive(420, "red", "R1", "a"),
        _arrive(420, "blue", "B1", "home"),
        dict(
            type="DayEnded",
            t=840,
            day=1,
            strength={},
            objectives={"red": 0, "blue": 7},
            positions={},
        ),
        dict(
            type="WithdrawalCheck",
            t=840,
            side="red",
            casualty_percent=50.0,
            factors=[["divisions beaten", 1], ["primary road lost", 4]],
            total=5,
            rolls=[1, 2, 3, 1, 2],
            withdraws=False,
            die=6,
            success_total=12,
        ),
        dict(type="CampaignEnded", t=840, winner="blue", reason="base held"),
    ]


def _find(events: list[dict], **match) -> dict:
    return next(e for e in events if all(e.get(k) == v for k, v in match.items()))


def _insert(events: list[dict], *new: dict) -> None:
    """Put events in at their minute, after the events of that minute already there."""
    for e in new:
        at = max(i for i, old in enumerate(events) if old["t"] <= e["t"]) + 1
        events.insert(at, e)


def _audit(events: list[dict]):
    return CampaignReferee(MAP).audit(events)


def test_the_clean_stream_passes() -> None:
    report = _audit(clean())
    assert report.departures == []
    assert {k: len(v) for k, v in report.glitches.items() if v} == {"battles": 1, "fall_backs": 1}


Plant = Callable[[list[dict]], None]

DEPARTURES: list[tuple[str, Plant, str]] = [
    ("§8.1 another base", lambda ev: ev[0].update(bases={"red": "a", "blue": "away"}),
     "base is a"),
    ("§8.1 no road", lambda ev: _find(ev, type="MarchBegun", division="B1", origin="c")
     .update(destination="home"), "which is no road"),
    ("§8.1 from elsewhere", lambda ev: _find(ev, type="MarchBegun", division="B1", origin="a")
     .update(origin="c", destination="a"), "but stands at"),
    ("§8.1 arrives elsewhere", lambda ev: _find(ev, type="MarchArrived", division="B1",
     junction="c").update(junction="b"), "from the road"),
    ("§8.2 no test", lambda ev: ev.remove(_find(ev, type="RoughRoadTest")), "without a test"),
    ("§8.2 misjudged", lambda ev: _find(ev, type="RoughRoadTest").update(roll=90),
     "misjudged"),
    ("§8.2 failed, then off", lambda ev: _find(ev, type="RoughRoadTest").update(
     roll=90, passed=False), "without a test"),
    ("§8.2 test on a normal road", lambda ev: _insert(ev, dict(
     type="RoughRoadTest", t=300, side="red", division="R1", origin="b", destination="a",
     roll=5, target=70.0, passed=True)), "not rough"),
    ("§8.2 the wait", lambda ev: _insert(ev, dict(
     type="RoughRoadTest", t=60, side="blue", division="B3", origin="away", destination="c",
     roll=95, target=70.0, passed=False), _march(90, "blue", "B3", "away", "c")),
     "before its wait"),
    ("§8.3 at night", lambda ev: _insert(ev, _march(845, "blue", "B3", "away", "c")),
     "at night"),
    ("§8.3 too late", lambda ev: _insert(ev, _march(780, "blue", "B3", "away", "c")),
     "too late"),
    ("§8.3 a battle at night", lambda ev: _find(ev, type="DayEnded").update(t=200), "at night"),
    ("§8.4 no battle", lambda ev: ev.remove(_find(ev, type="BattleFought")),
     "without a battle"),
    ("§8.4 left out", lambda ev: _find(ev, type="BattleFought").update(
     divisions={"red": ["R1"], "blue": []}), "left out"),
    ("§8.4 a second battle", lambda ev: _insert(ev, dict(_find(ev, type="BattleFought"),
     t=270)), "second battle"),
    ("§8.5 three junctions", lambda ev: _find(ev, type="FellBack").update(
     path=["b", "a", "home", "a"]), "falls back 3"),
    ("§8.5 onto itself", lambda ev: _find(ev, type="FellBack").update(path=["b", "b", "a"]),
     "onto itself"),
    ("§8.5 no road", lambda ev: _find(ev, type="FellBack").update(path=["b", "home"]),
     "which is no road"),
    ("§8.5 the enemy's road", lambda ev: (_find(ev, type="BattleFought").update(
     attacker="blue"), _find(ev, type="FellBack").update(path=["b", "c"])),
     "the road B2 came by"),
    ("§7.6 onto the base", lambda ev: _find(ev, type="FellBack").update(onto_base=True),
     "onto its base"),
    ("§7.6 casualties", lambda ev: _find(ev, type="WithdrawalCheck").update(
     casualty_percent=40.0), "the referee counts 50.000%"),
    ("§7.6 under 25%", lambda ev: _find(ev, type="BattleFought")["units"][0].__setitem__(5, 4),
     "under 25%"),
    ("§7.6 objectives", lambda ev: _find(ev, type="WithdrawalCheck")["factors"].append(
     ["objectives lost", 1]), "objective factors"),
    ("§7.6 the primary road counts 4, once", lambda ev: _find(ev, type="WithdrawalCheck")
     ["factors"].append(["objectives lost", 1]), "+5/+0, the referee counts +4/+0"),
    ("§7.6 divisions", lambda ev: _find(ev, type="WithdrawalCheck")["factors"].append(
     ["divisions lost", 1]), "division factors"),
    ("§7.3 misjudged", lambda ev: _find(ev, type="WithdrawalCheck").update(
     rolls=[6, 6, 6, 1, 1]), "misjudged"),
    ("§7.2 objective values", lambda ev: _find(ev, type="DayEnded").update(
     objectives={"red": 3, "blue": 4}), "holds objectives worth 3"),
    ("§7.2 control after a destruction", lambda ev: _find(ev, type="DayEnded").update(
     objectives={"red": 0, "blue": 4}), "blue holds objectives worth 4, the referee counts 7"),
    ("§8.7 the winner", lambda ev: _find(ev, type="CampaignEnded").update(winner=None),
     "yet the winner is None"),
    ("§8.7 goes on", lambda ev: ev.remove(_find(ev, type="CampaignEnded")),
     "the campaign goes on"),
    ("§8.9 raised from nowhere", lambda ev: _insert(ev, _raise("blue", "B9",
     [("B9-I1", "infantry")], "away") | {"t": 600}), "no reinforcement names"),
    ("time goes back", lambda ev: _find(ev, type="DayEnded").update(t=100),
     "goes back in time"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "plant", "words"), DEPARTURES, ids=[d[0] for d in DEPARTURES])
def test_each_departure_check_fails_on_its_fault(what: str, plant: Plant, words: str) -> None:
    events = copy.deepcopy(clean())
    plant(events)
    problems = _audit(events).departures
    assert any(words in p for p in problems), (what, problems)


GLITCHES: list[tuple[str, Plant]] = [
    ("base_left", lambda ev: _insert(ev, _march(600, "blue", "B1", "home", "a"))),
    ("aba", lambda ev: _insert(ev, _march(0, "blue", "B3", "away", "c"), _arrive(
     120, "blue", "B3", "c"), _march(120, "blue", "B3", "c", "away"), _arrive(
     240, "blue", "B3", "away"))),
    ("repeated", lambda ev: _insert(ev, _order(60, "blue", "B3", "away", "hold", None, None))),
    ("two_orders", lambda ev: _insert(ev, _order(0, "blue", "B3", "away", "guard_hold",
     None, None))),
    ("destroyed_named", lambda ev: _insert(ev, dict(type="Surrendered", t=480, side="red",
     division="R1", junction="a"), _order(600, "blue", "B2", "b", "attack", "a", "a",
     enemies=["R1"]))),
    ("guns_late", lambda ev: _insert(ev, _order(240, "blue", "B3", "away", "guns", "b", "c"),
     _march(240, "blue", "B3", "away", "c"), _arrive(360, "blue", "B3", "c"), dict(
     type="RoughRoadTest", t=360, side="blue", division="B3", origin="c", destination="b",
     roll=5, target=70.0, passed=True), _march(360, "blue", "B3", "c", "b"), _arrive(
     480, "blue", "B3", "b"))),
    ("rematch", lambda ev: _insert(ev, dict(_find(ev, type="BattleFought"), t=300))),
    ("attacker_falling_back", lambda ev: _insert(ev, _battle(
     360, "b~a", ["R1"], ["B2"], "red", "blue", [], road=["b", "a"]))),
    ("caught", lambda ev: _insert(ev, _battle(
     360, "b~a", ["R1"], ["B2"], "blue", "blue", [], road=["b", "a"]))),
]  # fmt: skip


@pytest.mark.parametrize(("name", "plant"), GLITCHES, ids=[g[0] for g in GLITCHES])
def test_each_glitch_is_counted_when_planted(name: str, plant: Plant) -> None:
    events = copy.deepcopy(clean())
    assert _audit(events).count(name) == 0
    plant(events)
    assert _audit(events).count(name) >= 1, name


def test_a_fall_back_from_the_enemy_base_is_lost_not_left() -> None:
    """Beaten on the enemy base it took that day, a division falls back by RULES.md §8.5:
    counted as ``base_lost``, not as the general's choice to leave it (``base_left``)."""
    events = copy.deepcopy(clean())
    _insert(
        events,
        dict(type="FellBack", t=600, side="blue", division="B1", path=["home", "a"],
             onto_base=False, from_road=False),
        _march(600, "blue", "B1", "home", "a"),
    )  # fmt: skip
    report = _audit(events)
    assert (report.count("base_lost"), report.count("base_left")) == (1, 0)
