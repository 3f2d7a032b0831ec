"""Helpers of the reliability tests: run the real CLI in process, write small maps."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.cli import main

PROJECT = Path(__file__).resolve().parents[2]

LINE_MAP = """\
name: line
junctions:
  - {id: a, pos: [0, 0]}
  - {id: b, pos: [1, 0]}
  - {id: c, pos: [2, 0]}
roads:
  - [a, b, {hours: 2}]
  - [b, c, {hours: 2}]
sides:
  red: {base: a, start: [a]}
  blue: {base: c, start: [c]}
"""


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``campaign ARGV`` in this process; return (exit code, stdout, stderr)."""
    code = 0
    try:
        main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    """The stderr of a refused command: exactly one ``error:`` line, no traceback."""
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith("seed ")]
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture(scope="session")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small batch results file (two cells of 4 campaigns, inline)."""
    db = tmp_path_factory.mktemp("results") / "r.db"
    argv = ["batch", "run", "--runs", "4", "--workers", "0", "--seed", "3", "-q", "-o", str(db)]
    argv += ["--doctrines", "balanced:balanced", "--doctrines", "aggressive:cautious"]
    try:
        main(argv)
    except SystemExit as exc:
        assert not exc.code, exc.code
    return db
