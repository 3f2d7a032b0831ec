"""Helpers shared by the battle tests: generators, the CLI in a subprocess, strategies."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from hypothesis import strategies as st

from battle.forces import default_unit_types
from battle.units import GRADES, Force, UnitSpec

#: the unit types of config/rules.yaml (RULES.md §1)
UNIT_TYPES = tuple(default_unit_types())

PROJECT = Path(__file__).resolve().parents[2]


def rng(seed: int) -> np.random.Generator:
    """A battle's generator, made as the CLI makes it (RULES.md §0.6)."""
    return np.random.default_rng(np.random.SeedSequence(seed))


def run_cli(*args: str, hash_seed: str = "0") -> subprocess.CompletedProcess[str]:
    """Run ``python -m campaign ARGS`` in a fresh process; returns the finished process."""
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, NO_COLOR="1", COLUMNS="100")
    return subprocess.run(
        [sys.executable, "-m", "campaign", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=PROJECT,
        timeout=120,
        check=False,
    )


@st.composite
def forces(draw: st.DrawFn, prefix: str = "R", name: str = "Red") -> Force:
    """A force of 1–12 units of random types and grades carrying 0–9 hits."""
    n = draw(st.integers(1, 12))
    units = tuple(
        UnitSpec(
            f"{prefix}-{i + 1:02d}",
            draw(st.sampled_from(UNIT_TYPES)),
            draw(st.sampled_from(GRADES)),
            hits=draw(st.integers(0, 9)),
        )
        for i in range(n)
    )
    return Force(name, units)
