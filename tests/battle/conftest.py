"""Fixtures shared by the battle tests."""

from __future__ import annotations

import importlib.util

import pytest

from battle.rules import BattleRules
from battle.tables import Tables, compile_rules
from campaign.config import load_rules


@pytest.fixture(scope="session")
def rules() -> BattleRules:
    """The default battle rules (config/rules.yaml, no variant)."""
    return load_rules().rules.battle


@pytest.fixture(scope="session")
def tables(rules: BattleRules) -> Tables:
    """The default rules compiled for the engine."""
    return compile_rules(rules)


def _numba_available() -> bool:
    """Whether numba can be imported (missing, or hidden by ``tests/without_numba.py``, the
    tests of the compiled kernel itself are not collected: issue 27)."""
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):  # hidden by an import hook, or half-installed
        return False


#: test files of this folder that exercise the compiled kernel's own code
KERNEL_TESTS = [
    "kernel_probe.py",
    "test_battle_arrivals.py",
    "test_battle_departures.py",
    "test_battle_exact.py",
    "test_battle_statistics.py",
    "test_battle_targets.py",
    "test_battle_variants.py",
    "test_engine_buffers.py",
    "test_engine_call.py",
    "test_engines_equal.py",
    "test_kernel.py",
    "test_kernel_start.py",
]
collect_ignore = [] if _numba_available() else KERNEL_TESTS
