"""Random battles fought by both engines (the reference, battle/reference, and the compiled
kernel, battle/kernel) for the equality tests: every variant of config/variants alone and up
to three at once, every unit type and formation, pre-damaged units, every grade, irregular
units, late arrivals, every tactical doctrine and the drill doctrines (:data:`DRILLS`),
nightfall, events on and off, ``rewind`` on and off.

``python -m engine_pairs FIRST COUNT`` (from tests/battle) fights battles FIRST..FIRST+COUNT-1
with both engines and prints how many were fought and how many differ (``make equal-long``).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from battle.arrivals import Arrival
from battle.events import (
    BattleEnded,
    BattleEvent,
    BattleStarted,
    FormationChanged,
    HitResolved,
    Moved,
    StateChanged,
)
from battle.result import BattleResult
from battle.rules import BattleRules
from battle.tables import compile_rules
from battle.units import GRADES, Force, UnitSpec
from campaign.config import load_rules

VARIANTS = sorted(
    p.stem for p in (Path(__file__).parents[2] / "config" / "variants").glob("*.yaml")
)

Fight = Callable[..., BattleResult]
_RULES: dict[tuple[str, ...], BattleRules | None] = {}


#: tactical doctrines (data only, RULES.md §6.7) that make rules the shipped doctrines never
#: exercise occur (issue 27 item 6), added to the rules of every battle here
DRILLS: dict[str, dict[str, Any]] = {
    # advances in line and forms column near the enemy (line -> column), goes back from square
    # to line when no cavalry threatens (square -> line); its cavalry charges squares (CD x3)
    # and anything at even odds
    "drill-line": {
        "advance_formation": "line",
        "fire_formation": "column",
        "advance_when_defending": True,
        "cavalry_charges_infantry_in_square": True,
        "charge_when": ["disordered", "shaken", "steady"],
        "charge_min_strength_ratio": 1.0,
        "cavalry_wait_inches": 1,
    },
    # leaves skirmish order near the enemy (RULES.md §1.7, §5.2's reforming rows), orders a
    # skirmisher that cavalry threatens into square, which §1.7 refuses, and limbers its
    # deployed batteries up again to advance when no enemy is near (§5.2 unlimber -> limber)
    "drill-skirmish": {
        "leave_skirmish_within_inches": 8,
        "square_from_skirmish": True,
        "unlimber_within_inches": 10,
        "limber_beyond_inches": 12,
        "advance_when_defending": True,
    },
    # never charges, never advances when defending: cavalry against cavalry waits out the
    # 15 turns (a draw, RULES.md §6.8 d)
    "drill-passive": {
        "charge_when": [],
        "charge_min_strength_ratio": 1000.0,
        "advance_when_defending": False,
        "rally_shaken": False,
    },
}


def with_drills(rules: BattleRules) -> BattleRules:
    """``rules`` with the :data:`DRILLS` doctrines added (each made from ``steady``)."""
    steady = rules.doctrines["steady"]
    drills = {name: steady.model_copy(update=change) for name, change in DRILLS.items()}
    return rules.model_copy(update={"doctrines": {**rules.doctrines, **drills}})


def _rules(variants: tuple[str, ...]) -> BattleRules | None:
    if variants not in _RULES:
        try:
            _RULES[variants] = with_drills(load_rules(list(variants)).rules.battle)
        except Exception:  # variants that cannot go together
            _RULES[variants] = None
    return _RULES[variants]


def occurrences(events: Sequence[BattleEvent]) -> Counter[str]:
    """How often the rules the shipped doctrines never exercise occur in a battle's events
    (issue 27 item 6): formation changes by pair, units leaving skirmish order by type
    (RULES.md §5.2's reforming rows), formation changes refused (§1.7), cavalry in melee
    against a square (CD x3, §1.6), irregular units, 15-turn draws (§6.8), move-and-fire
    shots and pursuits (§6.10)."""
    seen: Counter[str] = Counter()
    kinds: dict[str, str] = {}
    forms: dict[str, str] = {}
    for e in events:
        if isinstance(e, BattleStarted):
            for u in e.units:
                seen["irregular unit"] += u.irregular
            for u in (*e.units, *e.arrivals):
                kinds[u.id], forms[u.id] = u.kind, u.formation
        elif isinstance(e, FormationChanged):
            seen[f"{e.from_formation}->{e.to_formation}"] += 1
            if e.from_formation == "skirmish":  # §5.2's reforming rows, light +1, other +2
                seen[f"{kinds[e.unit]} leaves skirmish"] += 1
            forms[e.unit] = e.to_formation
        elif isinstance(e, StateChanged) and e.state == "refused":
            seen[f"{forms[e.unit]} refused {e.reason.split()[3]}"] += 1
        elif isinstance(e, HitResolved):
            seen[e.how] += 1
            mounted_vs_square = (
                kinds.get(e.attacker) == "cavalry" and forms.get(e.target) == "square"
            )
            seen["cavalry against square"] += e.melee and mounted_vs_square
        elif isinstance(e, Moved) and e.action == "pursue":
            seen["pursue"] += 1
        elif isinstance(e, BattleEnded):
            seen[e.reason] += 1
    return +seen


def battle_args(seed: int) -> tuple[tuple[str, ...], dict[str, Any]] | None:
    """The variants and the keyword arguments of ``fight`` (without its generator) of the
    random battle ``seed``; None when its draw cannot be fought."""
    g = np.random.default_rng(seed)
    k = int(g.integers(0, 4))
    vs = tuple(sorted(str(v) for v in g.choice(VARIANTS, size=k, replace=False))) if k else ()
    rules = _rules(vs)
    if rules is None:
        return None
    t = compile_rules(rules)
    kinds = list(t.unit_types)
    standoff = g.random() < 0.03  # cavalry against cavalry, both passive: 15 turns, a draw
    if standoff:
        kinds = ["cavalry"]

    def units(prefix: str, n: int) -> list[UnitSpec]:
        out = []
        for i in range(n):
            kind = kinds[int(g.integers(len(kinds)))]
            formations = list(t.unit_types[kind].formations)
            form = None if g.random() < 0.6 else formations[int(g.integers(len(formations)))]
            hits = int(g.integers(0, 11)) if g.random() < 0.4 else 0
            grade = GRADES[int(g.integers(4))]
            irregular = bool(g.random() < 0.2)
            out.append(
                UnitSpec(f"{prefix}{i + 1}", kind, grade, irregular, hits=hits, formation=form)  # type: ignore[arg-type]
            )
        return out

    big = g.random() < 0.1
    a = units("R-", int(g.integers(1, 30 if big else 9)))
    b = units("B-", int(g.integers(1, 30 if big else 9)))
    if not any(u.hits < 10 for u in a) or not any(u.hits < 10 for u in b):
        return None
    arrivals = []
    for j in range(int(g.integers(0, 3))):
        side = int(g.integers(2))
        prefix = ("R-X%d" if side == 0 else "B-X%d") % j + "-"
        arrivals.append(
            Arrival(int(g.integers(1, 25)), side, tuple(units(prefix, int(g.integers(1, 4)))))
        )
    docs = tuple(str(x) for x in g.choice(sorted(t.doctrines), size=2))
    if standoff:
        docs = ("drill-passive", "drill-passive")
    nightfall = None if standoff or g.random() < 0.7 else int(g.integers(1, 40))
    return vs, {
        "force_a": Force("Red", tuple(a)),
        "force_b": Force("Blue", tuple(b)),
        "rules": rules,
        "attacker": int(g.integers(2)),
        "doctrines": docs,
        "max_bounds": nightfall,
        "record_events": bool(g.random() < 0.85),
        "arrivals": arrivals,
        "rewind": bool(g.random() < 0.8),
    }


def fought(seed: int, fight: Fight, args: dict[str, Any]) -> str:
    """The JSON line of battle ``seed`` fought by ``fight``: its result with events, and the
    generator's next uniform afterwards (or the error it raised)."""
    generator = np.random.default_rng(seed + 10**6)
    try:
        r = fight(rng=generator, **args)
    except Exception as e:  # both engines must refuse alike
        return json.dumps([seed, type(e).__name__, str(e)])
    return json.dumps([seed, r.to_dict(), float(generator.random())])


def compare(first: int, count: int) -> tuple[int, list[int], dict[str, int]]:
    """Fight battles ``first``..``first+count-1`` with both engines: how many were fought,
    the seeds of those that differ, and how many battles used each variant and doctrine."""
    from battle.kernel_engine import fight as fight_kernel
    from battle.reference.engine import fight as fight_reference

    fought_n, differ = 0, []
    seen: dict[str, int] = {}
    for seed in range(first, first + count):
        drawn = battle_args(seed)
        if drawn is None:
            continue
        vs, args = drawn
        fought_n += 1
        for name in (*vs, *args["doctrines"]):
            seen[name] = seen.get(name, 0) + 1
        if fought(seed, fight_kernel, args) != fought(seed, fight_reference, args):
            differ.append(seed)
    return fought_n, differ, seen


if __name__ == "__main__":
    start, n = int(sys.argv[1]), int(sys.argv[2])
    total, differ, _ = compare(start, n)
    print(f"{total} battles fought by both engines, {len(differ)} differ: {differ[:20]}")
    sys.exit(1 if differ else 0)
