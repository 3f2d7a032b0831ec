"""The terminal (issue 13): real flags without metavars, --version, one metavar style, and
tables that fit 80 columns without cutting an id."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = [
    ["run"],
    ["battle"],
    ["report"],
    ["map", "info"],
    ["map", "convert"],
    ["batch", "run"],
    ["batch", "report"],
    ["batch", "export"],
    ["odds"],
    ["tournament"],
    ["sensitivity"],
]


def _campaign(*args: str, columns: int = 80) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "dumb"}
    return subprocess.run(
        [sys.executable, "-m", "campaign", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
        timeout=300,
    )


def test_version():
    proc = _campaign("--version")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"campaign (solo-campaign) {version('solo-campaign')}"


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_has_real_flags_one_metavar_style_and_fits_80_columns(command):
    proc = _campaign(*command, "--help")
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "<" not in text.replace("<=", ""), "no <type> metavars"
    assert all(len(line) <= 80 for line in text.splitlines())
    for flag in ("--json", "--quiet", "--contract"):
        m = re.search(rf"^\s+(?:-\w, )?{flag}(\s+\S+)?\s", text, re.M)
        if m:  # a boolean flag takes no value
            assert m.group(1) is None or not m.group(1).strip().isupper(), (flag, m.group(0))
    assert "--no-contract" not in text


@pytest.mark.parametrize("group", [[], ["map"], ["batch"]], ids=lambda g: " ".join(g) or "top")
def test_command_lists_give_each_command_a_whole_sentence(group):
    """`campaign --help` (and the map and batch groups) list every command with a short
    help that fits 80 columns whole: Click would otherwise cut the first sentence off
    with "..." mid-phrase."""
    proc = _campaign(*group, "--help")
    assert proc.returncode == 0, proc.stderr
    listing = proc.stdout.split("Commands:\n", 1)[1]
    rows = [line for line in listing.splitlines() if line.strip()]
    assert len(rows) >= 2
    for row in rows:
        assert len(row) <= 80
        assert not row.rstrip().endswith("..."), row
        assert row.rstrip().endswith("."), row


def test_a_flag_is_not_read_as_a_value():
    """`run --contract MAP`: the map is the map, not the flag's value."""
    proc = _campaign("run", "--contract", "maps/waterloo-1815.yaml", "--seed", "1")
    assert proc.returncode == 0, proc.stderr
    assert "Waterloo" in proc.stdout


def test_the_end_table_fits_80_columns_and_keeps_every_id():
    proc = _campaign("run", "maps/waterloo-1815.yaml", "--seed", "1815")
    assert proc.returncode == 0
    table = proc.stdout.split("\n\n")[-1]
    assert all(len(line) <= 80 for line in table.splitlines())
    for division in ("R1", "R2", "R3", "B1", "B2", "B3"):
        assert re.search(rf"^  {division} ", table, re.M), division


def test_the_batch_summary_fits_80_columns_and_tells_cells_apart(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "name: narrow\nmaps: [default]\nvariants: [default]\n"
        "set:\n  campaign.rough_road_pass: [30, 90]\n  campaign.fall_back_junctions: [1, 2]\n"
        'doctrines: ["balanced:cautious"]\nruns: 3\nseed: 1\n',
        encoding="utf-8",
    )
    out = tmp_path / "narrow.duckdb"
    proc = _campaign("batch", str(spec), "--workers", "0", "-o", str(out), "-q")
    assert proc.returncode == 0, proc.stderr
    proc = _campaign("batch", "report", str(out))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    for a in (1, 2):
        for b in (30, 90):
            assert f"campaign.fall_back_junctions={a}, campaign.rough_road_pass={b}" in proc.stdout
    assert re.search(r"^\s*campaign\.rough_road_pass\s+0→1\s", proc.stdout, re.M)
    assert re.search(r"^\s*campaign\.rough_road_pass\s+2→3\s", proc.stdout, re.M)
