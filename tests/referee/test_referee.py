"""The independent referee (tests/referee/referee.py) audits thousands of battles across every
shipped variant, and catches a battle whose events break a rule.

The referee reads only each battle's JSON event stream and config/rules.yaml (+ variants):
it re-derives every die's verdict and target, every hit-filter total, every card lost, the
phase order and the end (RULES.md §0, §3–§7).
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from referee import Referee, load_battle_rules

from battle.configload import available_variants
from battle.engine import fight
from battle.events import event_to_dict
from battle.forces import parse_force_flag
from battle.units import Force, UnitSpec
from campaign.config import load_rules

PROJECT = Path(__file__).resolve().parents[2]
#: forces that bring every rule into play: light infantry, worn units, grades, cavalry
MATCHES = [
    ("6i1c1a", "4i1c1a"),
    ("4i2l1c1a", "5i1c1a:veteran"),
    ("2i3c1a", "2i3c1a:raw"),
    ("3i2l2c2a:elite", "6i1c1a"),
    ("1i", "2c"),
]
BATTLES_PER_VARIANT = 130  # x 17 rule sets = 2,210 battles


def _json_events(result) -> list[dict]:
    """The events as a reader of ``--events`` gets them: through JSON and back."""
    return [json.loads(json.dumps(event_to_dict(e))) for e in result.events]


def _worn(force: Force, seed: int) -> Force:
    """Some units carry hits from an earlier battle (0–7), as in a campaign."""
    gen = np.random.default_rng(seed)
    return Force(
        force.name,
        tuple(
            UnitSpec(u.id, u.kind, u.grade, hits=int(gen.integers(0, 8)) if i % 3 == 0 else 0)
            for i, u in enumerate(force.units)
        ),
    )


@pytest.mark.slow
@pytest.mark.parametrize("variant", [None, *available_variants()])
def test_the_referee_passes_every_battle_of_every_variant(variant: str | None) -> None:
    variants = [variant] if variant else []
    rules = load_rules(variants).rules.battle
    referee = Referee(load_battle_rules(variants))
    audited = 0
    for i in range(BATTLES_PER_VARIANT):
        red, blue = MATCHES[i % len(MATCHES)]
        force_a = parse_force_flag(red, "Red", "R", rules.units)
        force_b = parse_force_flag(blue, "Blue", "B", rules.units)
        if i % 4 == 3:
            force_a = _worn(force_a, i)
        doc = ("steady", "bold")[i % 2], ("bold", "steady")[(i // 2) % 2]
        result = fight(
            force_a,
            force_b,
            rules,
            np.random.default_rng(np.random.SeedSequence([2026, i])),
            attacker=i % 2,
            doctrines=doc,
        )
        problems = referee.audit(_json_events(result))
        assert not problems, (variant, i, red, blue, doc, problems[:5])
        audited += 1
    assert audited == BATTLES_PER_VARIANT


def test_the_referee_audits_the_clis_events_file(tmp_path: Path) -> None:
    """``campaign battle --odds N --events FILE`` writes every battle's events as JSON lines
    with the battle's index; the referee passes each of them."""
    out = tmp_path / "events.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "campaign", "battle", "--odds", "40", "--seed", "7",
         "--red", "4i2l1c1a", "--variant", "pursuit", "--events", str(out), "--json"],
        capture_output=True, text=True, cwd=PROJECT, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    battles: dict[int, list[dict]] = {}
    for line in out.read_text().splitlines():
        event = json.loads(line)
        battles.setdefault(event.pop("battle"), []).append(event)
    assert sorted(battles) == list(range(40))
    referee = Referee(load_battle_rules(["pursuit"]))
    for index, events in battles.items():
        assert events[0]["type"] == "BattleStarted" and events[-1]["type"] == "BattleEnded"
        assert referee.audit(events) == [], index


# ---------------------------------------------------------------- the referee can fail


@pytest.fixture(scope="module")
def clean() -> list[dict]:
    """A battle with melees, charges, formation changes and a withdrawal check."""
    rules = load_rules().rules.battle
    for seed in range(200):
        result = fight(
            parse_force_flag("6i1c1a", "Red", "R"),
            parse_force_flag("4i1c1a", "Blue", "B"),
            rules,
            np.random.default_rng(seed),
        )
        events = _json_events(result)
        kinds = {e["type"] for e in events}
        if {"MeleeResolved", "WithdrawalChecked", "FormationChanged"} <= kinds:
            return events
    raise AssertionError("no battle with every kind of event")


def _first(events: list[dict], **match) -> int:
    return next(i for i, e in enumerate(events) if all(e.get(k) == v for k, v in match.items()))


def _audit(events: list[dict]) -> list[str]:
    return Referee(load_battle_rules()).audit(events)


def _refuse_after_a_change(events: list[dict]) -> None:
    """A square refused (RULES.md §1.7) to a unit that has just formed line or column,
    from which square may be formed directly."""
    i = _first(events, type="FormationChanged")
    e = events[i]
    refused = {"type": "StateChanged", "turn": e["turn"], "bound": e["bound"], "unit": e["unit"],
               "state": "refused", "reason": "may not form square directly"}  # fmt: skip
    events.insert(i + 1, refused)


def test_the_clean_battle_passes(clean: list[dict]) -> None:
    assert _audit(clean) == []


@pytest.mark.parametrize(
    ("what", "mutate", "words"),
    [
        ("a misjudged die", lambda ev: ev[_first(ev, type="TestRolled", kind="morale")].update(
            passed=not ev[_first(ev, type="TestRolled", kind="morale")]["passed"]), "misjudged"),
        ("a wrong divisor", lambda ev: ev[_first(ev, type="HitResolved")].update(divisor=3), "CD"),
        ("a wrong casualty target", lambda ev: ev[_first(ev, type="TestRolled", kind="casualty")]
            .update(target=99), "casualty test"),
        ("a card not lost", lambda ev: ev.pop(_first(ev, type="CardLost")), "without losing"),
        ("a phase skipped", lambda ev: ev.pop(_first(ev, type="PhaseStarted", phase="fire")),
            "phase"),
        ("an end too late", lambda ev: ev.insert(len(ev) - 1, dict(
            ev[_first(ev, type="PhaseStarted", phase="response")], bound=ev[-1]["bound"])),
            "phase"),
        ("a refusal §1.7 allows", _refuse_after_a_change, "allows it"),
        ("a wrong withdrawal total", lambda ev: ev[_first(ev, type="WithdrawalChecked")]
            .update(total=9), "rolls 9 dice"),
        ("a wrong end", lambda ev: ev[-1].update(reason="turn-limit", winner=None), "turn-limit"),
        ("a late defensive fire", lambda ev: ev[_first(ev, type="HitResolved", how="fire")]
            .update(how="defensive-fire"), "defensive fire outside"),
        ("a fire at the wrong target", lambda ev: ev[_first(ev, type="HitResolved", how="fire")]
            .update(target="B-I4" if ev[_first(ev, type="HitResolved", how="fire")]["target"]
                    != "B-I4" else "B-I3"), "nearest"),
        ("a move from nowhere", lambda ev: ev[_first(ev, type="Moved", action="advance")]
            .update(from_inches=1.0), "moves from"),
        ("a drop back that stays", lambda ev: ev.insert(_first(ev, type="BoundStarted", bound=2),
            dict(type="Moved", turn=1, bound=1, unit="R-I1", action="fall-back",
                 from_inches=4.0, to_inches=0.0, target="")), "stayed"),
    ],
)  # fmt: skip
def test_the_referee_catches_a_broken_rule(clean: list[dict], what, mutate, words) -> None:
    events = copy.deepcopy(clean)
    mutate(events)
    problems = _audit(events)
    assert problems, what
    assert any(words in p for p in problems), (what, problems[:3])
