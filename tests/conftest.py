"""What every test directory shares: without numba (missing or failing to import) the tests
of the compiled kernel itself are not collected, and everything else runs on the reference
battle engine, which battle.engine falls back to (issue 27; ``python tests/without_numba.py``
runs the suite so)."""

from __future__ import annotations

import importlib.util


def _numba_available() -> bool:
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):  # hidden by an import hook, or half-installed
        return False


#: test files that exercise the compiled kernel's own code (its arrays, its cache, its probe)
KERNEL_TESTS = [
    "batch/test_kernel_load.py",
    "batch/test_worker_start.py",
    "battle/kernel_probe.py",
    "battle/test_battle_arrivals.py",
    "battle/test_battle_departures.py",
    "battle/test_battle_exact.py",
    "battle/test_battle_statistics.py",
    "battle/test_battle_targets.py",
    "battle/test_battle_variants.py",
    "battle/test_engine_buffers.py",
    "battle/test_engine_call.py",
    "battle/test_engines_equal.py",
    "battle/test_kernel.py",
    "battle/test_kernel_start.py",
    "referee/test_drills.py",
    "referee/test_settled_cases.py",
]

collect_ignore = [] if _numba_available() else KERNEL_TESTS
