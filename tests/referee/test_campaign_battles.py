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

from battle.arrivals import Arrival
from battle.engine import fight
from battle.events import event_to_dict
from battle.forces import parse_force_flag
from battle.log import format_events
from battle.units import UnitSpec
from campaign.analysis.refight import logged_battles, refight, setup_of
from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import CampaignStarted
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
@pytest.mark.parametrize("map_name", ["default", "waterloo-1815"])
def test_the_referee_passes_every_campaign_battle(map_name: str) -> None:
    """Every battle of 12 campaigns per map, refought once per late arrival: the last fight
    of each battle (the one its result comes from) is audited. Each is fought again from its
    logged set-up (:func:`campaign.analysis.refight.refight`), which gives the campaign's
    fight back event for event: its printed log is the one the campaign logged."""
    referee = Referee(load_battle_rules())
    cmap, loaded = load_map(map_name), load_rules()
    battles = late = 0
    for seed in range(12):
        events = run_campaign(cmap, loaded, seed, battle_logs=True).events
        header = next(e for e in events if isinstance(e, CampaignStarted))
        for number, b in enumerate(logged_battles(events), 1):
            result = refight(setup_of(b, number, loaded.rules, header), loaded.rules, seed)
            assert tuple(format_events(result)) == b.log, (map_name, seed, number)
            assert referee.audit(_json(result.events)) == [], (map_name, seed, number)
            battles += 1
            late += bool(b.joined)
    assert battles > 30 and late > 0, (battles, late)
