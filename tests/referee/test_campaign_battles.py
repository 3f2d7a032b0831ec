"""The battle referee over campaign battles, late arrivals included (RULES.md §8.4).

A campaign battle is fought by :func:`battle.engine.fight` with the divisions that arrive
during it as :class:`battle.arrivals.Arrival` rows. Its event stream lists the arrivals' units
in ``BattleStarted.arrivals`` and tells each one's joining with a ``StateChanged`` "in the
battle" event; the referee follows them from there (it crashed with a KeyError on the first
hit on a late arrival before).
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from referee import Referee, load_battle_rules

import campaign.battles
import campaign.native
from battle.arrivals import Arrival
from battle.engine import fight
from battle.events import event_to_dict
from battle.forces import parse_force_flag
from battle.units import UnitSpec
from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.maps import load_map


def _json(events) -> list[dict]:
    return [json.loads(json.dumps(event_to_dict(e))) for e in events]


def _with_arrivals(seed: int) -> list[dict]:
    """A standalone battle where each side is joined by a second force (one worn unit)."""
    rules = load_rules().rules.battle
    red = parse_force_flag("3i1c1a", "Red", "R")
    blue = parse_force_flag("4i1a", "Blue", "B")
    late_red = (UnitSpec("R2-I1", "infantry", hits=4), UnitSpec("R2-C1", "cavalry"))
    late_blue = (UnitSpec("B2-I1", "infantry"), UnitSpec("B2-A1", "artillery", hits=2))
    result = fight(
        red,
        blue,
        rules,
        np.random.default_rng(seed),
        arrivals=[Arrival(3, 0, late_red), Arrival(6, 1, late_blue)],
    )
    return _json(result.events)


def test_late_arrivals_are_listed_and_joined_in_the_events() -> None:
    events = _with_arrivals(1)
    assert [u["id"] for u in events[0]["arrivals"]] == ["R2-C1", "R2-I1", "B2-A1", "B2-I1"]
    assert {u["id"]: u["hits_before"] for u in events[0]["arrivals"]}["R2-I1"] == 4
    assert not {u["id"] for u in events[0]["units"]} & {"R2-C1", "R2-I1", "B2-A1", "B2-I1"}
    joined = [e for e in events if e["type"] == "StateChanged" and e["state"] == "in the battle"]
    assert [(e["unit"], e["bound"]) for e in joined][:2] == [("R2-C1", 3), ("R2-I1", 3)]


def test_the_referee_passes_standalone_battles_with_late_arrivals() -> None:
    referee = Referee(load_battle_rules())
    for seed in range(60):
        assert referee.audit(_with_arrivals(seed)) == [], seed


@pytest.mark.parametrize(
    ("what", "mutate", "words"),
    [
        ("a deck not rebuilt", lambda e: e.update(reason="arrived for bound 3; deck rebuilt "
                                                  "to 9 cards"), "deck rebuilt"),
        ("a unit no arrival brings", lambda e: e.update(unit="R9-I9"), "no late arrival"),
        ("a join mid-bound", lambda e: e.update(bound=e["bound"] + 1), "start of a bound"),
    ],
)  # fmt: skip
def test_the_referee_catches_a_broken_arrival(what, mutate, words) -> None:
    events = copy.deepcopy(_with_arrivals(1))
    last = max(
        i
        for i, e in enumerate(events)
        if e["type"] == "StateChanged" and e["state"] == "in the battle" and e["bound"] == 3
    )
    mutate(events[last])
    problems = Referee(load_battle_rules()).audit(events)
    assert any(words in p for p in problems), (what, problems[:3])


@pytest.mark.slow
@pytest.mark.skipif(
    campaign.native.status() == "compiled",
    reason="patches campaign.battles.fight, which compiled modules refuse: run by make test's "
    "plain-Python pass (CAMPAIGN_NATIVE=0 pytest -m plain_python)",
)
@pytest.mark.plain_python
@pytest.mark.parametrize("map_name", ["default", "waterloo-1815"])
def test_the_referee_passes_every_campaign_battle(monkeypatch, map_name: str) -> None:
    """Every battle of 12 campaigns per map, refought once per late arrival: the last fight
    of each battle (the one its result comes from) is audited."""
    fought: dict[tuple[int, int], tuple] = {}

    def spy(a, b, *args, **kw):
        result = fight(a, b, *args, **kw)
        fought[(id(a), id(b))] = (a, b, result, bool(kw.get("arrivals")))
        return result

    monkeypatch.setattr(campaign.battles, "fight", spy)
    referee = Referee(load_battle_rules())
    cmap, loaded = load_map(map_name), load_rules()
    battles = late = 0
    for seed in range(12):
        fought.clear()
        run_campaign(cmap, loaded, seed, battle_logs=True)
        for _a, _b, result, arrivals in fought.values():
            assert referee.audit(_json(result.events)) == [], (map_name, seed)
            battles += 1
            late += arrivals
    assert battles > 30 and late > 0, (battles, late)
