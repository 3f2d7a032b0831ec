"""Fixtures shared by the battle tests."""

from __future__ import annotations

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
