"""Fixtures shared by the battle tests."""

from __future__ import annotations

import pytest

from battle.rules import BattleRules
from battle.tables import Tables, compile_rules
from campaign.config import load_rules
from tests.numba_check import numba_available


@pytest.fixture(scope="session")
def rules() -> BattleRules:
    """The default battle rules (config/rules.yaml, no variant)."""
    return load_rules().rules.battle


@pytest.fixture(scope="session")
def tables(rules: BattleRules) -> Tables:
    """The default rules compiled for the engine."""
    return compile_rules(rules)


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
    "test_kernel_event_rows.py",
    "test_kernel_layout.py",
    "test_kernel_runtime.py",
    "test_kernel_start.py",
]
collect_ignore = [] if numba_available() else KERNEL_TESTS
