"""Rules the shipped doctrines never exercise (issue 27 item 6) occur in the referee's set:
battles of the engines' equality set (tests/battle/engine_pairs.py, with its drill doctrines
and late arrivals, whose rebuilt decks the referee checks, RULES.md §8.4) audited by the
referee, every rule below counted."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from referee import Referee, load_battle_rules

from battle.events import event_to_dict
from battle.kernel_engine import fight

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "battle"))
from engine_pairs import battle_args, occurrences

#: each must occur at least this often in the audited battles (counts of seeds 500000-501199)
MUST_OCCUR = {
    "line->column": 10,
    "square->line": 10,
    "square->column": 10,
    "cavalry against square": 10,
    "irregular unit": 100,
    "turn-limit": 5,
    "move-and-fire": 5,
    "pursue": 1,
    "free-attack": 5,
    "nightfall": 5,
    "late arrival": 100,
    "light_infantry leaves skirmish": 100,  # §5.2 light infantry reforming from skirmish +1
    "infantry leaves skirmish": 10,  # §5.2 other infantry reforming from skirmish +2
    "skirmish refused square": 10,  # §1.7 no square straight from skirmish order
    "unlimbered->limbered": 20,  # §5.2 limber <-> unlimber, unlimbered to limbered
}


@pytest.mark.slow
def test_the_referee_passes_battles_where_every_rarely_used_rule_occurs() -> None:
    referees: dict[tuple[str, ...], Referee] = {}
    seen: Counter[str] = Counter()
    audited = 0
    for seed in range(500_000, 501_200):
        drawn = battle_args(seed)
        if drawn is None:
            continue
        variants, args = drawn
        args["record_events"] = True
        result = fight(rng=np.random.default_rng(seed + 10**6), **args)
        seen += occurrences(result.events)
        referee = referees.get(variants)
        if referee is None:
            referee = referees[variants] = Referee(load_battle_rules(list(variants)))
        events = [json.loads(json.dumps(event_to_dict(e))) for e in result.events]
        arrivals = [
            {"bound": a.bound, "side": a.side, "units": [
                {"id": u.id, "kind": u.kind, "grade": u.grade, "irregular": u.irregular,
                 "formation": u.formation, "hits": u.hits} for u in a.units]}
            for a in args["arrivals"]
        ]  # fmt: skip
        seen["late arrival"] += sum(1 for e in events if e.get("state") == "in the battle")
        assert referee.audit(events, arrivals) == [], (seed, variants)
        audited += 1
    assert audited > 1000
    missing = {name: seen[name] for name, least in MUST_OCCUR.items() if seen[name] < least}
    assert not missing, (missing, seen)
