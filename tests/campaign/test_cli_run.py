"""``campaign run`` end to end: the golden log, determinism across processes, bad input."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "default-seed-42.txt"
ROOT = Path(__file__).resolve().parents[2]


def _campaign(*args: str, hashseed: str = "0", cwd: Path | None = None):
    env = {**os.environ, "PYTHONHASHSEED": hashseed, "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "campaign", *args],
        capture_output=True,
        check=False,
        text=True,
        env=env,
        cwd=cwd or ROOT,
        timeout=300,
    )


def _normalise(log: str) -> str:
    """Package versions change on their own schedule; the golden run pins everything else."""
    return re.sub(r"(?m)^  Versions: .*$", "  Versions: (not compared)", log)


def test_golden_run_matches_byte_for_byte(tmp_path):
    out = tmp_path / "log.txt"
    proc = _campaign("run", "--seed", "42", "--battles", "verbose", "--output", str(out))
    assert proc.returncode == 0, proc.stderr
    produced = _normalise(out.read_text(encoding="utf-8"))
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(produced, encoding="utf-8")
    assert produced == GOLDEN.read_text(encoding="utf-8"), (
        "the seed-42 campaign log changed; if that is intended, rerun with UPDATE_GOLDEN=1"
    )


def test_same_seed_same_log_under_different_hash_seeds(tmp_path):
    outs = []
    for hashseed in ("1", "4242"):
        out = tmp_path / f"log-{hashseed}.jsonl"
        proc = _campaign(
            "run",
            "--seed",
            "7",
            "--format",
            "jsonl",
            "--output",
            str(out),
            "--red-doctrine",
            "aggressive",
            hashseed=hashseed,
        )
        assert proc.returncode == 0, proc.stderr
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert len(outs[0]) > 1000


def test_seed_is_printed_first_when_not_given():
    proc = _campaign("run", "--format", "markdown")
    assert proc.returncode == 0, proc.stderr
    assert re.match(r"seed \d+", proc.stderr)
    assert proc.stdout.startswith("# Campaign log")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["run", "--variant", "nope"], "no variant named 'nope'"),
        (["run", "--set", "campaign.rough_road_pas=60"], "unknown config key"),
        (["run", "--red-doctrine", "reckless"], "no strategy doctrine named 'reckless'"),
        (["run", "no/such/map.yaml"], "no/such/map.yaml"),
        (["run", "--set", "battle.hit_dice=3d0"], "3d0"),
        (["run", "--red-base", "atlantis"], "atlantis"),
    ],
)
def test_bad_input_is_a_clear_error_with_exit_code_2(args, words):
    proc = _campaign(*args, "--seed", "1")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert words in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_sides_log_shows_only_what_it_knew(tmp_path):
    """RULES.md §8.6: ``--view red`` drops what only Blue saw (Blue's sightings, its marches
    out of Red's sight) and lists only enemy divisions Red fought in the closing table."""
    full = _campaign("run", "--seed", "42")
    red = _campaign("run", "--seed", "42", "--view", "red")
    assert full.returncode == red.returncode == 0
    assert "Blue scouts see" in full.stdout
    assert "Blue scouts see" not in red.stdout
    assert "Red scouts see" in red.stdout
    assert len(red.stdout) < len(full.stdout)
