"""Helpers for the batch tests: run the CLI in this process, read runs rows back."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import duckdb
import pytest

from campaign.batch.plan import plan_batch
from campaign.batch.spec import BatchSpec
from campaign.cli import main
from tests.numba_check import numba_available

PROJECT = Path(__file__).resolve().parents[2]
CAMPAIGN = [sys.executable, "-m", "campaign"]


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``campaign ARGV`` in this process; return (exit code, stdout, stderr)."""
    code = 0
    try:
        main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def runs_rows(path: Path) -> list[tuple]:
    """Every runs row, sorted by (batch, cell, run)."""
    with duckdb.connect(str(path), read_only=True) as con:
        return con.execute("SELECT * FROM runs ORDER BY batch_id, cell, run").fetchall()


def battles_rows(path: Path) -> list[tuple]:
    """Every battles row, sorted."""
    with duckdb.connect(str(path), read_only=True) as con:
        return con.execute("SELECT * FROM battles ORDER BY ALL").fetchall()


def small_plan(runs: int = 6, **fields):
    """A two-cell sweep on the default map (about 10 ms per campaign)."""
    spec = BatchSpec(
        name="small",
        set={"campaign.rough_road_pass": [60, 80]},
        runs=runs,
        seed=12345,
        **fields,
    )
    return plan_batch(spec, "test")


def subprocess_env() -> dict[str, str]:
    """Environment for a child ``python -m campaign`` (no colour, project on the path)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(PROJECT) + os.pathsep + env.get("PYTHONPATH", "")
    env["NO_COLOR"] = "1"
    return env


#: test files of this folder that exercise the compiled kernel's own code
KERNEL_TESTS = [
    "test_kernel_load.py",
    "test_worker_start.py",
]
collect_ignore = [] if numba_available() else KERNEL_TESTS


def only_error(code: int, out: str, err: str) -> str:
    """The one ``error:`` line of a refused command that printed nothing else."""
    assert code == 2, err
    assert "Traceback" not in err and out == "", out
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]
