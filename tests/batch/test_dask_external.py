"""A small batch through a separately started ``dask scheduler`` and ``dask worker``."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import PROJECT, run_cli, runs_rows, subprocess_env

DASK = str(Path(sys.executable).with_name("dask"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_worker(address: str, timeout: float = 60.0) -> None:
    from distributed import Client

    deadline = time.monotonic() + timeout
    while True:
        try:
            with Client(address, timeout="5s") as client:
                client.wait_for_workers(1, timeout=max(1.0, deadline - time.monotonic()))
                return
        except (OSError, TimeoutError):
            if time.monotonic() > deadline:
                raise


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.mark.slow
def test_batch_through_an_external_scheduler(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = subprocess_env()
    logs = (tmp_path / "scheduler.log").open("wb"), (tmp_path / "worker.log").open("wb")
    procs: list[subprocess.Popen[bytes]] = []
    try:
        procs.append(
            subprocess.Popen(
                [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                cwd=tmp_path,
                env=env,
                stdout=logs[0],
                stderr=subprocess.STDOUT,
            )
        )
        procs.append(
            subprocess.Popen(
                [
                    DASK,
                    "worker",
                    address,
                    "--nworkers",
                    "1",
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                    "--host",
                    "127.0.0.1",
                ],
                cwd=tmp_path,
                env=env,
                stdout=logs[1],
                stderr=subprocess.STDOUT,
            )
        )
        _wait_for_worker(address)
        remote, local = tmp_path / "remote.duckdb", tmp_path / "local.duckdb"
        common = [
            "batch",
            "--set",
            "campaign.rough_road_pass=[60,80]",
            "--runs",
            "4",
            "--seed",
            "99",
            "--quiet",
        ]
        code, _, err = run_cli([*common, "--scheduler", address, "-o", str(remote)], capsys)
        assert code == 0, err
        code, _, err = run_cli([*common, "--workers", "0", "-o", str(local)], capsys)
        assert code == 0, err
        assert len(runs_rows(remote)) == 8
        assert runs_rows(remote) == runs_rows(local)
    finally:
        for proc in reversed(procs):
            _stop(proc)
        for log in logs:
            log.close()
    assert PROJECT.exists()
