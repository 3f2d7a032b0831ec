"""A pool worker loads the cached battle kernel without numba's compiler registries
(campaign.batch.kernel_load, issue 15): the same machine code, the same battles, and
whatever numba compiles afterwards still compiles."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from .conftest import subprocess_env

#: fights the same battle as a worker's warm-up and prints what it needs to compare
_FIGHT = """
import numpy as np
from battle.engine import fight
from battle.forces import parse_force_flag
from campaign.config import load_rules
rules = load_rules().rules.battle
red = parse_force_flag("6i1c1a", "Red", "R")
blue = parse_force_flag("4i1c1a", "Blue", "B")
outcomes = []
for seed in range(40):
    res = fight(red, blue, rules, np.random.default_rng(seed), record_events=True)
    outcomes.append([res.winner, res.reason, res.bounds, len(res.events), repr(res.events[-3:])])
"""


def _python(code: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env or subprocess_env(),
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_the_lean_load_fights_the_same_battles_and_numba_still_compiles() -> None:
    lean = _python(
        textwrap.dedent(
            """
        import json, sys
        from campaign.batch import kernel_load
        kernel_load.import_battle_engine()
        lean = kernel_load.lean_loads["count"]
        refreshed = "numba.np.linalg" in sys.modules  # a registry of the full refresh
        """
        )
        + _FIGHT
        + textwrap.dedent(
            """
            import numba
            @numba.njit
            def later(x):  # compiled after the lean load: the compiler refreshes in full itself
                return x * 2.5 + len([x])
            print(json.dumps([lean, refreshed, later(2.0), outcomes]))
            """
        )
    )
    full = _python("import json\nimport battle.engine\n" + _FIGHT + "print(json.dumps(outcomes))\n")
    count, refreshed, later, outcomes = json.loads(lean)
    assert count == 2  # the battle's entry point and its rules' maker, from the cache, lean
    assert refreshed is False
    assert later == 6.0
    assert outcomes == json.loads(full)


def test_a_function_missing_from_the_cache_is_compiled_as_usual(tmp_path: Path) -> None:
    """Under lean_cache_loads: a cached function loads the lean way, one that is not cached
    is compiled (with numba's full refresh) and cached; both compute the same."""
    env = subprocess_env()
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "cache")
    module = tmp_path / "tiny_kernel.py"
    module.write_text(
        textwrap.dedent(
            """
            import numpy as np
            from numba import njit, float64

            @njit(float64(float64[:]), cache=True)
            def total(a):
                s = 0.0
                for x in a:
                    s += x * x
                return s + np.sqrt(a.sum())
            """
        )
    )
    env["PYTHONPATH"] = str(tmp_path) + ":" + env["PYTHONPATH"]
    code = """
        import json
        import numpy as np
        from campaign.batch.kernel_load import lean_cache_loads, lean_loads
        with lean_cache_loads():
            import tiny_kernel
        print(json.dumps([lean_loads["count"], tiny_kernel.total(np.arange(5.0))]))
        """
    code = textwrap.dedent(code)
    first = json.loads(_python(code, env))  # not cached yet: compiled, then cached
    second = json.loads(_python(code, env))  # loaded from the cache, the lean way
    assert first[0] == 0
    assert second[0] == 1
    assert first[1] == second[1] == 30.0 + 10.0**0.5


def test_the_lean_load_restores_numba_on_leaving() -> None:
    from numba.core import caching

    from campaign.batch.kernel_load import lean_cache_loads

    original = caching.Cache.load_overload
    try:
        with lean_cache_loads():
            assert caching.Cache.load_overload is not original
            raise RuntimeError("stop")
    except RuntimeError:
        pass
    assert caching.Cache.load_overload is original


def test_the_command_line_loads_the_kernel_the_lean_way() -> None:
    """Every ``campaign`` command imports its sub-commands after the battle engine was
    imported the lean way: no scipy.linalg, no compiler registries, the kernel loaded."""
    state = _python(
        textwrap.dedent(
            """
            import json, sys
            from campaign.cli import _register
            from campaign.batch import kernel_load
            _register()
            print(json.dumps([
                "scipy.linalg" in sys.modules,
                "numba.np.linalg" in sys.modules,
                kernel_load.lean_loads["count"],
                "campaign.cli.run_cmd" in sys.modules,
            ]))
            """
        )
    )
    assert json.loads(state) == [False, False, 2, True]  # fight_arrays, rules_of
