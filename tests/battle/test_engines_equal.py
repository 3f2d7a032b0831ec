"""The compiled kernel fights every battle as the reference engine does (issue 27): the same
seed, forces, arrivals and rules give identical results, events (dice included) and generator
state, over random battles of every variant, unit type, grade, doctrine, late arrivals,
pre-damaged units, nightfall, events on and off (tests/battle/engine_pairs.py).

The CI set is 2,400 seeds (about 2,300 battles that can be fought); ``make equal-long`` fights
50,000 more. This replaced the frozen hash of the object engine's battles.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from battle_helpers import PROJECT
from engine_pairs import VARIANTS, battle_args, compare, occurrences

from battle import engine
from battle.errors import ConfigError

#: the CI set: seeds 500_000 .. 500_000 + CHUNKS * PER_CHUNK - 1, in chunks for pytest -n
CHUNKS, PER_CHUNK = 12, 200


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_the_kernel_fights_every_battle_as_the_reference(chunk: int) -> None:
    first = 500_000 + chunk * PER_CHUNK
    fought, differ, seen = compare(first, PER_CHUNK)
    assert fought > PER_CHUNK * 0.9
    assert differ == [], f"battles (seeds) where the engines differ: {differ}"
    assert len([v for v in VARIANTS if v in seen]) >= 10  # each chunk mixes many variants


def test_the_ci_set_covers_every_variant_and_doctrine() -> None:
    """Every variant and every tactical doctrine occurs in the CI set (counted from the
    battles' arguments alone: cheap)."""
    seen: dict[str, int] = {}
    arrivals = damaged = 0
    for seed in range(500_000, 500_000 + CHUNKS * PER_CHUNK):
        drawn = battle_args(seed)
        if drawn is None:
            continue
        vs, args = drawn
        for name in (*vs, *args["doctrines"]):
            seen[name] = seen.get(name, 0) + 1
        arrivals += bool(args["arrivals"])
        damaged += any(u.hits for u in args["force_a"].units + args["force_b"].units)
    doctrines = args["rules"].doctrines
    assert all(seen.get(v, 0) >= 50 for v in VARIANTS), seen
    assert all(seen.get(d, 0) >= 200 for d in doctrines), seen
    assert arrivals > 500 and damaged > 1000


#: rules the shipped doctrines never exercise (issue 27 item 6) and the least number of times
#: each occurs in the CI set (seeds 500000-502399; counted 2026-12-04, in brackets)
RARE_RULES = {
    "line->column": 50,  # (111) RULES.md §5.2
    "square->line": 50,  # (190) §5.2
    "light_infantry leaves skirmish": 300,  # (697) §5.2 reforming from skirmish, light +1
    "infantry leaves skirmish": 30,  # (79) §5.2 reforming from skirmish, other infantry +2
    "skirmish refused square": 20,  # (51) §1.7 no square straight from skirmish order
    "unlimbered->limbered": 50,  # (172) §5.2 limber <-> unlimber
    "cavalry against square": 50,  # (113) §1.6 CD x3
    "irregular unit": 2000,  # (5117) §1.4
    "turn-limit": 30,  # (79) §6.8 (d) the 15-turn draw
    "move-and-fire": 15,  # (45) §6.10
    "pursue": 2,  # (5) §6.10
}


@pytest.mark.slow
def test_the_ci_set_exercises_every_rarely_used_rule() -> None:
    """Each rule of :data:`RARE_RULES` occurs in the CI set's battles (fought here by the
    kernel with events; the chunks above prove the reference fights them alike)."""
    from battle.kernel_engine import fight

    seen: Counter[str] = Counter()
    for seed in range(500_000, 500_000 + CHUNKS * PER_CHUNK):
        drawn = battle_args(seed)
        if drawn is None:
            continue
        args = {**drawn[1], "record_events": True}
        seen += occurrences(fight(rng=np.random.default_rng(seed + 10**6), **args).events)
    short = {name: seen[name] for name, least in RARE_RULES.items() if seen[name] < least}
    assert not short, (short, seen)


def test_an_engine_is_chosen_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    from battle.kernel_engine import fight as kernel_fight
    from battle.reference.engine import fight as reference_fight

    assert engine.load_engine("reference") is reference_fight
    assert engine.load_engine("kernel") is kernel_fight
    with pytest.raises(ConfigError, match="no battle engine named 'numba'"):
        engine.load_engine("numba")
    monkeypatch.setenv(engine.ENV, "reference")
    engine.use_engine(None)
    try:
        assert engine.engine_name() == "reference"
        monkeypatch.setenv(engine.ENV, "fast")
        engine.use_engine(None)
        with pytest.raises(ConfigError, match="BATTLE_ENGINE"):
            engine.engine_name()
    finally:
        monkeypatch.delenv(engine.ENV)
        engine.use_engine(None)


#: numba hidden from the import system: ``import numba`` raises ImportError
_NO_NUMBA = (
    "import sys\n"
    "class Blocker:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.split('.')[0] in ('numba', 'llvmlite'):\n"
    "            raise ImportError('numba hidden by the test')\n"
    "sys.meta_path.insert(0, Blocker())\n"
    "from campaign.cli import main\n"
    "main(sys.argv[1:])\n"
)


def _campaign(*args: str, hide_numba: bool = False) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONHASHSEED="0", NO_COLOR="1", COLUMNS="100")
    env.pop(engine.ENV, None)
    command = ["-c", _NO_NUMBA] if hide_numba else ["-m", "campaign"]
    return subprocess.run(
        [sys.executable, *command, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=PROJECT,
        timeout=300,
        check=False,
    )


@pytest.mark.slow
def test_without_numba_the_product_says_so_once_and_fights_the_same_battles() -> None:
    args = ("battle", "--red", "6i1c1a", "--blue", "5i1c1a", "--seed", "9", "--odds", "40")
    kernel = _campaign(*args, "--json")
    hidden = _campaign(*args, "--json", hide_numba=True)
    assert kernel.returncode == 0 and hidden.returncode == 0, hidden.stderr
    assert hidden.stdout == kernel.stdout
    notes = [line for line in hidden.stderr.splitlines() if "kernel is unavailable" in line]
    assert len(notes) == 1 and "numba hidden by the test" in notes[0]
    assert "Traceback" not in hidden.stderr
    # a whole campaign too
    run = ("run", "--seed", "3", "--format", "json")
    assert _campaign(*run, hide_numba=True).stdout == _campaign(*run).stdout


@pytest.mark.slow
def test_engine_option_and_variable_give_the_same_battle() -> None:
    args = ("battle", "--seed", "12", "--variant", "pursuit", "--json")
    kernel = _campaign(*args, "--engine", "kernel")
    reference = _campaign(*args, "--engine=reference")
    assert kernel.returncode == 0 and kernel.stdout == reference.stdout
    bad = _campaign(*args, "--engine", "fast")
    assert bad.returncode == 2 and "no battle engine named 'fast'" in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.mark.slow
def test_the_tests_run_without_numba() -> None:
    """tests/without_numba.py hides numba from pytest and every process it starts: the
    kernel's own tests are not collected (the conftest.py files of tests/battle, batch and
    referee), the rest run on the reference
    engine (here a test that checks it is so, and the battle CLI's tests)."""
    done = subprocess.run(
        [sys.executable, "tests/without_numba.py", "-q", "-p", "no:cacheprovider",
         "tests/battle/no_numba_check.py", "tests/battle/test_battle_light_infantry.py"],
        capture_output=True, text=True, cwd=PROJECT, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
