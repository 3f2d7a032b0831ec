"""Run by tests/battle/test_engines_equal.py through tests/without_numba.py (not collected
on its own): inside, numba does not import and battles fall back to the reference engine."""

from __future__ import annotations

import numpy as np
import pytest

from battle import engine
from battle.forces import parse_force_flag
from campaign.config import load_rules


def test_numba_is_hidden_and_battles_run_on_the_reference() -> None:
    with pytest.raises(ImportError):
        import numba  # noqa: F401
    rules = load_rules().rules.battle
    red, blue = parse_force_flag("4i1c1a", "Red", "R"), parse_force_flag("3i1c", "Blue", "B")
    result = engine.fight(red, blue, rules, np.random.default_rng(5))
    assert result.bounds > 0
    assert engine.load_engine("kernel") is engine.load_engine("reference")
