"""Bad campaign input exits 2 with the file, the key path and the fix (issue 10)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SPLIT = """\
name: split
junctions:
  - {id: a, name: A, pos: [0, 0]}
  - {id: b, name: B, pos: [10, 0]}
  - {id: c, name: C, pos: [20, 0]}
  - {id: d, name: D, pos: [30, 0]}
roads:
  - [a, b]
  - [c, d]
sides:
  red: {name: Red, base: a, start: [a]}
  blue: {name: Blue, base: d, start: [d]}
"""


def test_bases_that_cannot_reach_each_other_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "split.yaml"
    path.write_text(SPLIT, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "campaign", "run", str(path), "--seed", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2
    assert str(path) in proc.stderr and "sides" in proc.stderr  # the file and the key path
    assert "different parts of the map" in proc.stderr
    assert "add the missing roads" in proc.stderr  # the fix
    assert "Traceback" not in proc.stderr
