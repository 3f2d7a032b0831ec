"""The buffers a compiled battle writes into, handed from battle to battle (issue 15,
:class:`battle.kernel.run.Buffers`): a battle fought with buffers another battle left behind
is the battle fought with fresh ones, and a result never reads a buffer after its battle."""

from __future__ import annotations

import numpy as np
import pytest

from battle.arrivals import Arrival
from battle.engine import fight
from battle.kernel import layout as L
from battle.kernel import run
from battle.result import BattleResult
from battle.units import GRADES, Force, UnitSpec

KINDS = ("infantry", "cavalry", "artillery", "light_infantry")
GENERATORS = {"PCG64": np.random.PCG64, "Philox": np.random.Philox, "MT19937": np.random.MT19937}


def _forces(seed: int) -> tuple[Force, Force, list[Arrival]]:
    """Random forces of 1-12 units a side (some carrying hits, some destroyed) and 0-2 late
    arrivals: battles of many sizes, so that a buffer is left longer than the next needs."""
    rng = np.random.default_rng(seed)

    def unit(uid: str) -> UnitSpec:
        hits = int(rng.choice([0, 0, 0, 3, 6, 10]))  # 10: destroyed, left out (§1.2)
        return UnitSpec(uid, str(rng.choice(KINDS)), str(rng.choice(GRADES)), hits=hits)  # type: ignore[arg-type]

    red = [unit(f"R{k}") for k in range(int(rng.integers(1, 13)))]
    blue = [unit(f"B{k}") for k in range(int(rng.integers(1, 13)))]
    red[0], blue[0] = UnitSpec("R0", "infantry"), UnitSpec("B0", "cavalry")
    arrivals = [
        Arrival(int(rng.integers(1, 10)), int(rng.integers(0, 2)), (unit(f"A{k}"),))
        for k in range(int(rng.integers(0, 3)))
    ]
    return Force("Red", tuple(red)), Force("Blue", tuple(blue)), arrivals


def _fought(rules, seed: int, kind: str, record: bool) -> tuple[BattleResult, float]:  # type: ignore[no-untyped-def]
    """One random battle and the generator's next uniform after it."""
    red, blue, arrivals = _forces(seed)
    g = np.random.Generator(GENERATORS[kind](seed))
    r = fight(red, blue, rules, g, arrivals=arrivals, record_events=record, attacker=seed % 2)
    return r, float(g.random())


def _poisoned() -> run.Buffers:
    """A set of buffers full of what no battle writes."""
    buf = run.Buffers()
    buf.DB[:] = 0.999
    buf.OUT[:] = -7
    return buf


@pytest.mark.parametrize("record", [False, True])
@pytest.mark.parametrize("kind", sorted(GENERATORS))
def test_reused_buffers_fight_the_battles_of_fresh_ones(rules, kind: str, record: bool) -> None:  # type: ignore[no-untyped-def]
    """60 random battles one after the other with the buffers each left behind (first a set
    full of junk), and each again with a fresh set: the same results (outcomes, units,
    withdrawal checks and events) and the generator in the same place after it."""
    run._SPARE[:] = [_poisoned()]
    reused = [_fought(rules, seed, kind, record) for seed in range(60)]
    assert len(run._SPARE) == 1  # one set, handed from battle to battle
    fresh = []
    for seed in range(60):
        run._SPARE.clear()
        fresh.append(_fought(rules, seed, kind, record))
    for (a, after_a), (b, after_b) in zip(reused, fresh, strict=True):
        assert a == b and a.units == b.units and after_a == after_b
        assert a.withdrawal_checks == b.withdrawal_checks and a.events == b.events
    assert (
        any(r.withdrawal_checks for r, _ in reused) and any(r.events for r, _ in reused) is record
    )


def test_a_result_reads_no_buffer_after_its_battle(rules) -> None:  # type: ignore[no-untyped-def]
    """A result decoded (units, withdrawal checks, events) after later battles have reused
    the buffers equals the same battle decoded at once."""
    for record in (False, True):
        late = [_fought(rules, seed, "PCG64", record)[0] for seed in range(30)]
        for seed, r in enumerate(late):
            now = _fought(rules, seed, "PCG64", record)[0]
            _ = now.units, now.withdrawal_checks, now.events
            assert r.units == now.units and r.withdrawal_checks == now.withdrawal_checks
            assert r.events == now.events and r.total_hits() == now.total_hits()


def test_a_battle_fought_while_another_reads_its_buffers_uses_its_own(  # type: ignore[no-untyped-def]
    rules, monkeypatch
) -> None:
    """A battle fought after another's compiled call wrote its buffers and before they were
    read (a thread, or a caller fighting inside the engine) takes a set of its own: both are
    the battles fought alone."""
    alone = [_fought(rules, seed, "Philox", False)[0] for seed in (7, 8)]
    real = run.fight_arrays
    inner: list[BattleResult] = []
    calls: list[int] = []

    def nested(*args):  # type: ignore[no-untyped-def]
        real(*args)
        if not calls:  # the outer battle: its buffers written, not read yet
            calls.append(1)
            inner.append(_fought(rules, 8, "Philox", False)[0])

    monkeypatch.setattr(run, "fight_arrays", nested)
    run._SPARE[:] = [_poisoned()]
    outer = _fought(rules, 7, "Philox", False)[0]
    assert [outer, inner[0]] == alone and outer.units == alone[0].units
    assert len(run._SPARE) == 2  # both sets back


def test_the_output_holds_s_then_the_outcome_columns(rules) -> None:  # type: ignore[no-untyped-def]
    """What the kernel writes to OUT, as the result reads it: S (its own bounds, winner and
    cards), then one run per unit for each outcome column (listing order)."""
    run._SPARE.clear()
    red, blue, _ = _forces(5)
    r = fight(red, blue, rules, np.random.default_rng(5), record_events=False)
    out = run._SPARE[0].OUT.tolist()
    assert out[L.S_BOUNDS] == r.bounds and (out[L.S_DN], out[L.S_DN + 1]) == r.cards_left
    c = r.unit_columns
    assert c is not None
    n = len(c.ids)
    assert out[L.NS + 2 * n : L.NS + 3 * n] == c.hits
    assert out[L.NS + 3 * n : L.NS + 4 * n] == c.total
