"""A closed output pipe ends quietly with the shell's status, and Ctrl-C says what it stopped.

``campaign run | head`` must end as ``git log | head`` does: nothing on stderr but what the
command says anyway (its seed), exit status 141 (128 + SIGPIPE). The in-process tests write
to a real pipe whose reader is already closed, so every write fails as it does under
``| head``; one subprocess test closes a real reader after its first line.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from campaign.cli import PIPE_CLOSED

from .conftest import PROJECT, run_cli


@contextmanager
def closed_stdout() -> Iterator[None]:
    """``sys.stdout`` is the write end of a pipe nobody reads any more (set inside the test:
    pytest's capture puts its own stdout back when a test starts)."""
    read, write = os.pipe()
    os.close(read)
    stream = open(write, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    saved, sys.stdout = sys.stdout, stream
    try:
        yield
    finally:
        sys.stdout = saved
        with suppress(OSError):
            stream.close()


COMMANDS = {
    "run": ["run", "--seed", "5"],
    "run verbose": ["run", "--seed", "5", "--battles", "verbose"],
    "run jsonl": ["run", "--seed", "5", "--format", "jsonl"],
    "odds": ["odds"],
    "odds json": ["odds", "--json"],
    "map info": ["map", "info", "waterloo-1815"],
    "battle": ["battle", "--seed", "2"],
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_closed_pipe_ends_quietly_with_141(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with closed_stdout():
        code, _, err = run_cli(COMMANDS[name], capsys)
    assert code == PIPE_CLOSED == 141
    said = [line for line in err.splitlines() if not line.startswith("seed ")]
    assert said == [], err  # no traceback, no error line


def test_a_closed_pipe_after_batch_report_ends_quietly(
    results: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with closed_stdout():
        code, _, err = run_cli(["batch", "report", str(results)], capsys)
    assert code == PIPE_CLOSED and err == "", err


def test_head_closing_a_real_pipe_gets_141_and_silence() -> None:
    """The real thing: a subprocess whose reader leaves after one line (91 kB of log)."""
    exe = Path(sys.executable).with_name("campaign")
    proc = subprocess.Popen(
        [str(exe), "run", "--seed", "1", "--battles", "verbose"],
        cwd=PROJECT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # as `head -1` exits
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=120)
    assert first.startswith(b"Campaign log:")
    assert code == 141, err
    assert err.splitlines() == ["seed 1"], err


def test_ctrl_c_while_starting_says_what_stopped_and_that_nothing_was_written(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import campaign.cli

    def interrupted(names: object = None) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(campaign.cli, "_register", interrupted)
    out = tmp_path / "log.txt"
    code, stdout, err = run_cli(["run", "--seed", "1", "-o", str(out)], capsys)
    assert code == 130 and stdout == ""
    assert err.strip() == (
        "interrupted while campaign run was starting: nothing was run and no file was written"
    )
    assert list(tmp_path.iterdir()) == []
    code, _, err = run_cli(["batch", "report", "x.db", "--json"], capsys)
    assert code == 130 and err.startswith("interrupted while campaign batch report was starting")
