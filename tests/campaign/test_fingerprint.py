"""The stored determinism fingerprint (issue 26 item 7): campaigns on every shipped map and two
shared maps, under four doctrine pairs, events on and off, compared with the hashes stored in
``tests/golden/fingerprint.txt`` — once as the product ships (compiled where built) and once as
plain Python. A change that alters any campaign fails here until it stores the new hashes
deliberately (``python -m benchmarks.fingerprint --write "REASON"``), in the same commit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import fingerprint

ROOT = Path(__file__).resolve().parents[2]


def _ci_lines(native: str | None) -> list[str]:
    env = dict(os.environ)
    env.pop("CAMPAIGN_NATIVE", None)
    if native is not None:
        env["CAMPAIGN_NATIVE"] = native
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.fingerprint", "--profile", "ci"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return out.stdout.split("\n")[:-1]


@pytest.mark.slow
@pytest.mark.parametrize("native", [None, "0"], ids=["as-shipped", "plain"])
def test_campaigns_match_the_stored_fingerprint(native: str | None) -> None:
    lines = _ci_lines(native)
    stored_maps = {key.split()[1] for key in fingerprint.read_store() if key.startswith("ci ")}
    run_maps = {line.split()[1] for line in lines}
    # the shipped maps always run; shared maps only where ../shared/maps is present
    assert {"default", "waterloo-1815"} <= run_maps <= stored_maps
    assert len(lines) == 4 * len(run_maps)
    assert fingerprint.check(lines) == []


def test_check_reports_a_changed_and_a_missing_line(tmp_path: Path) -> None:
    store = tmp_path / "fingerprint.txt"
    fingerprint.write_store(
        ["ci default balanced-balanced 3 aaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbb"], "test", path=store
    )
    assert (
        fingerprint.check(
            ["ci default balanced-balanced 3 aaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbb"], path=store
        )
        == []
    )
    problems = fingerprint.check(
        [
            "ci default balanced-balanced 3 aaaaaaaaaaaaaaaa cccccccccccccccc",
            "ci nevsky balanced-balanced 3 aaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbb",
        ],
        path=store,
    )
    assert len(problems) == 2
    assert "stored aaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbb, now" in problems[0]
    assert "not in fingerprint.txt" in problems[1]
    assert store.read_text(encoding="utf-8").splitlines()[4].endswith(": test")
