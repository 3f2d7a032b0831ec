"""Interrupt a batch part-way (SIGINT, SIGKILL): whole runs kept, a rerun completes it."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from .conftest import CAMPAIGN, PROJECT, subprocess_env

RUNS = 1000  # several seconds of work: the signal lands part-way even on compiled campaigns


def _command(out: Path) -> list[str]:
    return [
        *CAMPAIGN,
        "batch",
        "--runs",
        str(RUNS),
        "--seed",
        "7",
        "--workers",
        "1",
        "--chunk-size",
        "2",
        "--progress-every",
        "0.05",
        "--output",
        str(out),
    ]


def _check_whole_runs(out: Path) -> int:
    with duckdb.connect(str(out), read_only=True) as con:
        n, distinct = con.execute("SELECT count(*), count(DISTINCT run) FROM runs").fetchone()
        assert n == distinct
        orphans = con.execute(
            "SELECT count(*) FROM battles b ANTI JOIN runs r USING (batch_id, cell, run)"
        ).fetchone()[0]
        assert orphans == 0  # no battle rows of a run that is not stored
        mismatched = con.execute(
            "SELECT count(*) FROM runs r LEFT JOIN (SELECT batch_id, cell, run, count(*) AS k "
            "FROM battles GROUP BY ALL) b USING (batch_id, cell, run) "
            "WHERE coalesce(b.k, 0) <> r.battles"
        ).fetchone()[0]
        assert mismatched == 0  # every stored run has all its battles
    return n


def _start_and_wait(out: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        _command(out),
        cwd=PROJECT,
        env=subprocess_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith("batch: "):
            done = int(line.split()[1].split("/")[0])
            if done >= 10:
                return proc
        if time.monotonic() > deadline:
            break
    proc.kill()
    pytest.fail("the batch never reported progress")


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_interrupted_batch_keeps_whole_runs_and_resumes(tmp_path: Path, sig: int) -> None:
    out = tmp_path / "results.duckdb"
    proc = _start_and_wait(out)
    try:
        proc.send_signal(sig)
        proc.wait(timeout=60)
        rest = proc.stderr.read() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
    if sig == signal.SIGINT:
        assert proc.returncode == 130
        assert "interrupted" in rest and "resume" in rest
    else:
        assert proc.returncode == -signal.SIGKILL
    kept = _check_whole_runs(out)
    assert 0 < kept < RUNS
    done = subprocess.run(
        [*_command(out), "--quiet"], cwd=PROJECT, env=subprocess_env(), timeout=120, check=False
    )
    assert done.returncode == 0
    assert _check_whole_runs(out) == RUNS
    with duckdb.connect(str(out), read_only=True) as con:
        finished = con.execute("SELECT finished IS NOT NULL, sessions FROM batches").fetchall()
    assert finished == [(True, 2)]


_SERVER_PROBE = """
import multiprocessing.forkserver as fs, signal, time
from campaign.batch.server import start_server
start_server()
pid = fs._forkserver._forkserver_pid
with open(f"/proc/{pid}/status") as f:
    ignored = int(next(l for l in f if l.startswith("SigIgn:")).split()[1], 16)
handler = signal.getsignal(signal.SIGINT)
print(bool(ignored & (1 << (signal.SIGINT - 1))), handler is signal.default_int_handler)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_the_fork_server_starts_with_ctrl_c_ignored() -> None:
    """Ctrl-C reaches the whole process group: the batch's fork server ignores it from its
    first instant (while it still imports its preload, where it once died with a traceback
    of its own beside the batch's one-line message), and the batch's own Ctrl-C handler is
    back once the server is started."""
    done = subprocess.run(
        [sys.executable, "-c", _SERVER_PROBE],
        cwd=PROJECT,
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.split() == ["True", "True"], done.stdout + done.stderr
