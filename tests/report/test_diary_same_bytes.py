"""The diary is the same bytes in any process (the developers' guide: same seed, same output,
with any ``PYTHONHASHSEED``): its battle maps drew each road from whichever end networkx met
first in a set of junctions, so the SVG inside the HTML changed with the hash seed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _diary(tmp_path: Path, hashseed: str) -> bytes:
    out = tmp_path / f"diary-{hashseed}.html"
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    proc = subprocess.run(
        [sys.executable, "-m", "campaign", "run", "--seed", "42", "--report", str(out)],
        capture_output=True,
        check=False,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return out.read_bytes()


def test_the_diary_is_the_same_bytes_under_any_hash_seed(tmp_path: Path) -> None:
    first = _diary(tmp_path, "1")
    assert b"<svg" in first or b"data:image" in first  # it has its maps
    assert _diary(tmp_path, "2") == first
    assert _diary(tmp_path, "3") == first
