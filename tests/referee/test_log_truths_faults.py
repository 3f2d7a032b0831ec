"""Each check that the log tells the truth (tests/referee/log_truths.py, issue 31 item 3) fails
on a stream with its fault planted; the clean streams pass.

Three small campaigns written by hand on the five-junction map of the referee's other fault
test, by the rules (RULES.md §8.4, §8.5):

- ``draw``: R2 attacks B2 at b, a draw; R2 is told going back to a and goes;
- ``caught``: B2 beats R1 at b; R1 falls back toward a by c; B2 pursues by the rough road
  and catches it at c, attacks and destroys it (told at the battle's end);
- ``road``: R1 and B2 meet on the road a-b; R1 wins and B2 is destroyed; R1 is told
  marching on to b; ``road_draw``: the same meeting drawn, both told going back.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest
from campaign_referee import CampaignReferee
from test_campaign_referee_faults import MAP, _arrive, _battle, _find, _insert, _march

STEADY = (
    ["R1-I1", "red", "infantry", "steady", 0, 1, 1],
    ["B2-I1", "blue", "infantry", "steady", 0, 1, 1],
)


def _start(red: tuple[str, str], blue: tuple[str, str]) -> list[dict]:
    """The header and two one-unit divisions: ``(division, junction)`` a side."""
    out: list[dict] = [dict(type="CampaignStarted", t=0, bases={"red": "home", "blue": "away"})]
    for side, (div, j) in (("red", red), ("blue", blue)):
        out.append(dict(type="DivisionRaised", t=0, side=side, division=div, roll=50,
                        units=[[f"{div}-I1", "infantry"]], junction=j))  # fmt: skip
    return out


def _units(red: str, blue: str, red_state: str = "steady") -> list[list]:
    hits = 10 if red_state == "destroyed" else 1
    return [[f"{red}-I1", "red", "infantry", red_state, 0, hits, hits],
            [f"{blue}-I1", "blue", "infantry", "steady", 0, 1, 1]]  # fmt: skip


def _return(t: int, side: str, div: str, origin, dest: str, battle: str) -> dict:
    return dict(type="ReturnBegun", t=t, side=side, division=div, origin=origin,
                destination=dest, battle=battle)  # fmt: skip


def draw() -> list[dict]:
    return [
        *_start(("R2", "a"), ("B2", "b")),
        _march(0, "red", "R2", "a", "b"),
        _arrive(120, "red", "R2", "b"),
        _battle(120, "b", ["R2"], ["B2"], "red", None, _units("R2", "B2")),
        _return(180, "red", "R2", "b", "a", "b"),
        _march(180, "red", "R2", "b", "a"),
        _arrive(300, "red", "R2", "a"),
    ]


def caught() -> list[dict]:
    return [
        *_start(("R1", "b"), ("B2", "a")),
        _march(0, "blue", "B2", "a", "b"),
        _arrive(120, "blue", "B2", "b"),
        _battle(120, "b", ["R1"], ["B2"], "blue", "blue", _units("R1", "B2")),
        dict(type="FellBack", t=180, side="red", division="R1", path=["b", "c", "a"],
             onto_base=False, from_road=False),
        _march(180, "red", "R1", "b", "c"),
        dict(type="RoughRoadTest", t=180, side="blue", division="B2", origin="b",
             destination="c", roll=10, target=70.0, passed=True),
        _march(180, "blue", "B2", "b", "c"),
        _arrive(300, "red", "R1", "c"),
        _arrive(300, "blue", "B2", "c"),
        dict(type="FallBackCaught", t=300, side="red", division="R1", junction="c",
             toward="a", by=["B2"]),
        _battle(300, "c", ["R1"], ["B2"], "blue", "blue", _units("R1", "B2", "destroyed")),
        dict(type="DivisionDestroyed", t=360, side="red", division="R1", place="c", by=["B2"]),
    ]  # fmt: skip


def road(won: bool = True) -> list[dict]:
    out = [
        *_start(("R1", "a"), ("B2", "b")),
        _march(0, "red", "R1", "a", "b"),
        _march(0, "blue", "B2", "b", "a"),
    ]
    if won:
        units = [STEADY[0], ["B2-I1", "blue", "infantry", "destroyed", 0, 10, 10]]
        return [
            *out,
            _battle(60, "a~b", ["R1"], ["B2"], "red", "red", units, road=["a", "b"]),
            dict(type="DivisionDestroyed", t=120, side="blue", division="B2", place=["a", "b"],
                 by=["R1"]),
            dict(type="MarchResumed", t=120, side="red", division="R1", road=["a", "b"],
                 destination="b"),
            _arrive(180, "red", "R1", "b"),
        ]  # fmt: skip
    return [
        *out,
        _battle(60, "a~b", ["R1"], ["B2"], "red", None, list(STEADY), road=["a", "b"]),
        _return(120, "red", "R1", ["a", "b"], "a", "a~b"),
        _return(120, "blue", "B2", ["b", "a"], "b", "a~b"),
        _arrive(180, "red", "R1", "a"),
        _arrive(180, "blue", "B2", "b"),
    ]


STREAMS: dict[str, Callable[[], list[dict]]] = {
    "draw": draw,
    "caught": caught,
    "road": road,
    "road_draw": lambda: road(won=False),
}


def _audit(events: list[dict]) -> list[str]:
    return CampaignReferee(MAP).audit(events).departures


@pytest.mark.parametrize("name", STREAMS)
def test_the_clean_streams_pass(name: str) -> None:
    assert _audit(STREAMS[name]()) == []


def _drop(**match) -> Callable[[list[dict]], None]:
    return lambda ev: ev.remove(_find(ev, **match))


def _set(match: dict, **change) -> Callable[[list[dict]], None]:
    return lambda ev: _find(ev, **match).update(**change)


def _add(*new: dict) -> Callable[[list[dict]], None]:
    return lambda ev: _insert(ev, *new)


#: (what, stream, plant, words in the departure)
FAULTS: list[tuple[str, str, Callable[[list[dict]], None], str]] = [
    ("a return after a draw never told", "draw", _drop(type="ReturnBegun"), "never told"),
    ("a return no draw sends", "draw", _set({"type": "ReturnBegun"}, destination="c"),
     "which no draw sends it to"),
    ("a return at night", "draw", _add(_return(900, "red", "R2", "a", "b", "b")), "at night"),
    ("an arrival without a march", "draw", _add(_arrive(400, "red", "R2", "home")),
     "without a logged march"),
    ("a road winner never told going on", "road", _drop(type="MarchResumed"),
     "never told going on or back"),
    ("a road draw's return never told", "road_draw", _drop(type="ReturnBegun", division="B2"),
     "never told going on or back"),
    ("marching on from a draw", "road_draw", _add(dict(type="MarchResumed", t=120,
     side="red", division="R1", road=["a", "b"], destination="b")), "won no battle there"),
    ("going back from a win", "road", _add(_return(120, "red", "R1", ["a", "b"], "a", "a~b")),
     "no draw on that road holds it"),
    ("a destroyed division's end never told", "road", _drop(type="DivisionDestroyed"),
     "its end is never logged"),
    ("a destruction told by the wrong enemy", "road",
     _set({"type": "DivisionDestroyed"}, by=["R9"]), "its battle was at"),
    ("a destruction of a division still there", "draw", _add(dict(type="DivisionDestroyed",
     t=400, side="blue", division="B2", place="b", by=["R2"])), "no battle destroyed it"),
    ("a fall back caught, never told", "caught", _drop(type="FallBackCaught"),
     "still has it falling back toward a"),
    ("a fall back caught, told wrong", "caught", _set({"type": "FallBackCaught"},
     toward="home"), "is told caught at c"),
    ("the beaten named the attacker", "caught",
     _set({"type": "BattleFought", "place": "c"}, attacker="red"), "is named the attacker"),
    ("a surrender to nobody who fought it", "draw", _add(dict(type="Surrendered", t=400,
     side="blue", division="B2", junction="b", by=["R9"])), "but was beaten by"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "stream", "plant", "words"), FAULTS, ids=[f[0] for f in FAULTS])
def test_each_truth_check_fails_on_its_fault(what: str, stream: str, plant, words: str) -> None:
    events = copy.deepcopy(STREAMS[stream]())
    assert _audit(events) == []
    plant(events)
    problems = _audit(events)
    assert any(words in p and "§" in p for p in problems), (what, problems)
