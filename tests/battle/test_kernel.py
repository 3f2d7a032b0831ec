"""The compiled battle kernel (battle/kernel): dice straight from the battle's generator,
events decoded when read, the same results in plain Python (NUMBA_DISABLE_JIT=1), and the
first-run notice."""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from battle_helpers import PROJECT, rng
from kernel_probe import Probe

from battle import kernel
from battle.dice import Dice
from battle.forces import parse_force_flag
from battle.kernel import run
from battle.kernel.draw import d, index
from battle.kernel_engine import fight
from battle.tables import Tables
from battle.units import UnitSpec
from campaign.config import load_rules


def test_kernel_dice_are_the_generators_uniforms(tables: Tables) -> None:
    """RULES.md §0.1, §0.6: the kernel's d(N) is floor(u * N) + 1 of the generator's
    uniforms in order, as battle.dice.Dice rolls them."""
    uniforms = np.random.default_rng(3).random(600).tolist()
    p = Probe(
        tables, [UnitSpec("R-I1", "infantry")], [UnitSpec("B-I1", "infantry")], uniforms=uniforms
    )
    dice = Dice(np.random.default_rng(3))
    got = [d(p.b, s) for s in (100, 6, 10, 2, 7) * 100]
    assert got == [dice.d(s) for s in (100, 6, 10, 2, 7) * 100]
    assert index(p.b, 5) == dice.index(5)


@pytest.mark.parametrize("seed", range(6))
def test_the_generator_ends_at_a_block_boundary(rules, seed: int, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The battle reads its generator's uniforms in blocks of 64 (RULES.md §0.6); afterwards
    the generator stands where whole blocks leave it, and the battle is the same however many
    uniforms it could keep at first (fought again with room for more, it replays them)."""
    red, blue = parse_force_flag("6i1c1a", "Red", "R"), parse_force_flag("4i1c1a", "Blue", "B")
    after = []
    results = []
    for room in (1, 64, 4096):
        monkeypatch.setattr(run, "DICE", room)
        g = rng(seed)
        results.append(fight(red, blue, rules, g))
        after.append(g.random())
    assert results[0] == results[1] == results[2] and after[0] == after[1] == after[2]
    stream = rng(seed).random(64 * 64)
    assert after[0] in stream[64::64].tolist()


@pytest.mark.parametrize("seed", range(4))
def test_without_rewind_the_generator_stands_after_the_last_uniform_used(rules, seed: int) -> None:  # type: ignore[no-untyped-def]
    """``rewind=False``: the same battle, and the generator just after the last uniform it
    used; with ``rewind`` it stands at the end of that uniform's block of 64."""
    red, blue = parse_force_flag("6i1c1a", "Red", "R"), parse_force_flag("4i1c1a", "Blue", "B")
    g, h = rng(seed), rng(seed)
    assert fight(red, blue, rules, g, rewind=False) == fight(red, blue, rules, h)
    stream = rng(seed).random(64 * 64).tolist()
    used = stream.index(g.random())
    assert used > 0 and stream.index(h.random()) == 64 * -(-used // 64)


def test_a_battle_whose_events_overflow_the_buffer_is_fought_again(rules, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """More events than the first buffer holds: fought again with more rows, same battle."""
    red, blue = parse_force_flag("12i2c2a", "Red", "R"), parse_force_flag("10i2c2a", "Blue", "B")
    full = fight(red, blue, rules, rng(8))
    monkeypatch.setattr(run, "EVENT_ROWS", 8)
    monkeypatch.setattr(run, "EVENT_ROWS_PER_UNIT", 0)
    again = fight(red, blue, rules, rng(8))
    assert again == full and len(again.events) > 8 * 4 * 4  # overflowed at least twice


def test_events_are_decoded_when_read_and_pickle(rules) -> None:  # type: ignore[no-untyped-def]
    red, blue = parse_force_flag("6i1c1a", "Red", "R"), parse_force_flag("4i1c1a", "Blue", "B")
    r = fight(red, blue, rules, rng(4))
    assert callable(r.recorded)  # not decoded yet
    copy = pickle.loads(pickle.dumps(r))
    assert copy == r and copy.events == r.events and r.events[0].bound == 0
    quiet = fight(red, blue, rules, rng(4), record_events=False)
    assert quiet.events == () and quiet.withdrawal_checks == r.withdrawal_checks
    assert quiet.units == r.units and quiet.winner == r.winner


def test_a_result_has_every_field_as_its_dataclass_would(rules) -> None:  # type: ignore[no-untyped-def]
    """The decoder makes BattleResult without its __init__ (BattleResult.of): every field is
    set, and a copy made through __init__ is equal, with the same units and checks."""
    red, blue = parse_force_flag("6i1c1a", "Red", "R"), parse_force_flag("4i1c1a", "Blue", "B")
    for record in (True, False):
        r = fight(red, blue, rules, rng(5), record_events=record)
        assert {f.name for f in dataclasses.fields(r)} <= set(vars(r))
        copy = dataclasses.replace(r)
        assert copy == r and copy.units == r.units and copy.events == r.events
        assert copy.withdrawal_checks == r.withdrawal_checks


def test_plain_python_gives_the_same_battle(rules) -> None:  # type: ignore[no-untyped-def]
    """NUMBA_DISABLE_JIT=1 runs the kernel's rules as plain Python: the same battle."""
    code = (
        "import numpy as np, json;"
        "from battle.engine import fight;"
        "from battle.forces import parse_force_flag as f;"
        "from campaign.config import load_rules;"
        "rules = load_rules(['pursuit']).rules.battle;"
        "r = fight(f('6i1c1a','Red','R'), f('4i1c1a','Blue','B'), rules,"
        " np.random.default_rng(np.random.SeedSequence(11)));"
        "print(json.dumps(r.to_dict()))"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=PROJECT,
        timeout=300,
        check=True,
    )
    jitted = fight(
        parse_force_flag("6i1c1a", "Red", "R"),
        parse_force_flag("4i1c1a", "Blue", "B"),
        load_rules(["pursuit"]).rules.battle,
        rng(11),
    )
    assert json.loads(out.stdout) == json.loads(json.dumps(jitted.to_dict()))
    assert "compiling" not in out.stderr  # nothing is compiled


def test_the_first_run_notice_follows_the_cache(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """No compiled kernel of the current sources in the cache (a fresh install, or changed
    sources): the notice on stderr, the stale compiled code removed; then none."""
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    stale = tmp_path / "battle" / f"core.d-130.{tag}.nbi"
    other = tmp_path / "battle" / f"elsewhere.f-1.{tag}.nbi"
    stale.parent.mkdir()
    stale.write_bytes(b"")
    other.write_bytes(b"")
    assert not kernel.cache_is_warm()
    kernel.prepare_cache()
    assert "compiling the battle kernel" in capsys.readouterr().err
    assert not stale.exists() and other.exists()  # only the kernel's compiled code goes
    assert kernel.cache_is_warm()
    kernel.prepare_cache()
    assert capsys.readouterr().err == ""
    (tmp_path / kernel._STAMP).write_text("an older kernel")
    assert not kernel.cache_is_warm()


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", [np.random.MT19937, np.random.Philox, np.random.SFC64])
def test_any_bit_generator_ends_at_a_block_boundary(rules, seed: int, kind, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Generators that cannot step back (MT19937, Philox, SFC64) stand where whole blocks
    leave them too, and the battle is the same however many uniforms it could keep at
    first."""
    red, blue = parse_force_flag("6i1c1a", "Red", "R"), parse_force_flag("4i1c1a", "Blue", "B")
    after = []
    results = []
    for room in (1, 512):
        monkeypatch.setattr(run, "DICE", room)
        g = np.random.Generator(kind(seed))
        results.append(fight(red, blue, rules, g))
        after.append(g.random())
    assert results[0] == results[1] and after[0] == after[1]
    stream = np.random.Generator(kind(seed)).random(64 * 64)
    assert after[0] in stream[64::64].tolist()
