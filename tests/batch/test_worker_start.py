"""What a pool worker loads while it starts (issue 15): the battle engine without
scipy.linalg, the first cell's map and rules, and nothing of the program that started it."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import campaign.batch.runner as runner_module
import campaign.batch.server as server_module
import campaign.batch.worker as worker_module
from campaign.batch import kernel_load
from campaign.batch.plan import chunk_tasks
from campaign.batch.todo import MissingRuns
from campaign.batch.worker import run_chunk

from .conftest import runs_rows, small_plan, subprocess_env


def worker_state() -> dict[str, object]:
    """Run in a pool worker: what its start-up left loaded."""
    return {
        "scipy.linalg": "scipy.linalg" in sys.modules,
        "numba": "numba" in sys.modules,
        # the parent's main module (here pytest's script) run again as the worker's __main__
        "main run again": hasattr(sys.modules["__main__"], "__file__"),
        "maps cached": worker_module._cached_map.cache_info().currsize,
        "rules cached": worker_module._cached_rules.cache_info().currsize,
        "frozen": worker_module.gc.get_freeze_count() > 0,
        "held back": [m for m in worker_module.NOT_FOR_THE_KERNEL if m in sys.modules],
        # numba's compiler registries: never loaded, even by kernel functions the campaign
        # calls from Python (loaded from the cache on their first call, in the first chunk)
        "registries": "numba.np.linalg" in sys.modules,
        "lean loads": kernel_load.lean_loads["count"] > 1,
    }


def test_a_pool_worker_starts_warm_and_lean() -> None:
    cell = small_plan().cells[0]
    preload = (cell.map_path, cell.map_sha, cell.cell.variants, cell.cell.overrides_json)
    pool = runner_module._start_pool(1, preload)
    task = next(chunk_tasks(small_plan(), 7, MissingRuns(6, {0: set(), 1: set()}), 6))
    try:
        chunk = pool.submit(run_chunk, task).result(timeout=120)
        state = pool.submit(worker_state).result(timeout=120)
    finally:
        pool.shutdown(wait=True)
    assert state == {
        "scipy.linalg": False,  # numba's BLAS check held back: the kernel does no linear algebra
        "numba": True,  # the kernel is loaded and warm
        "main run again": False,  # the program that started the pool is not imported again
        "maps cached": 1,
        "rules cached": 1,
        "frozen": True,
        "held back": [],  # the import system's entries are removed again after numba's import
        "registries": False,
        "lean loads": True,
    }
    assert chunk.count == 6 and chunk.battles["battle"].length > 0


def test_scipy_linalg_stays_importable_after_the_engine_is(tmp_path: Path) -> None:
    """Holding numba's BLAS check back leaves scipy.linalg importable by later code, and the
    battle engine fights as usual."""
    code = textwrap.dedent(
        """
        import sys
        from campaign.batch.worker import _import_battle_engine, warm_up
        _import_battle_engine()
        assert "scipy.linalg" not in sys.modules
        warm_up()
        import scipy.linalg
        print(scipy.linalg.cython_blas.__name__)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "scipy.linalg.cython_blas"


def test_a_script_without_a_main_guard_runs_a_batch(tmp_path: Path) -> None:
    """A script calling run_batch at its top level: the workers do not run it again (with
    spawn they used to, and multiprocessing stopped the batch with an error)."""
    out = tmp_path / "script.duckdb"
    script = tmp_path / "no_guard.py"
    script.write_text(
        textwrap.dedent(
            f"""
            from campaign.batch.runner import run_batch
            from tests.batch.conftest import small_plan
            outcome = run_batch(small_plan(), {str(out)!r}, workers=2, progress=False)
            print(outcome.done_now, outcome.complete)
            """
        )
    )
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["12", "True"]
    reference = tmp_path / "ref.duckdb"
    runner_module.run_batch(small_plan(), reference, workers=0, progress=False)
    assert runs_rows(out) == runs_rows(reference)


def test_a_worker_whose_coordinator_died_while_it_started_exits() -> None:
    """The coordinator's pid comes with the initializer: a worker that starts up after its
    coordinator was killed (it is already someone else's child) exits at once, instead of
    watching its new parent for ever (it did before: an orphan per SIGKILL in start-up)."""
    code = textwrap.dedent(
        """
        import os, time
        from campaign.batch.worker import init_worker
        gone = os.getppid() + 1  # not this process's parent: as if the coordinator had died
        init_worker(None, coordinator=gone)
        time.sleep(60)
        """
    )
    assert_exits_with_error(code)


def assert_exits_with_error(code: str) -> None:
    """Run ``code`` in a fresh Python and assert it exits with status 1 (within 120 s)."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr


def pool_worker_parents() -> dict[str, object]:
    """Run in a pool worker: who its parent is, and what it had loaded before its own start."""
    import os

    return {
        "server": worker_module._server["pid"],
        "parent": os.getppid(),
        "engine warm": worker_module._warm["done"],
    }


def test_pool_workers_fork_from_a_warm_server() -> None:
    """On Linux the pool's workers are forked from the batch's fork server, which loaded and
    warmed the battle engine once for all of them (their parent is that server, not the
    coordinator); the engine is warm in every worker."""
    import os

    assert server_module.mp_context().get_start_method() == "forkserver"
    pool = runner_module._start_pool(2)
    try:
        states = [pool.submit(pool_worker_parents).result(timeout=120) for _ in range(4)]
    finally:
        pool.shutdown(wait=True)
    for state in states:
        assert state["server"] is not None and state["server"] != os.getpid()
        assert state["parent"] == state["server"]
        assert state["engine warm"] is True


def test_a_forked_worker_exits_when_its_coordinator_dies() -> None:
    """A worker forked from the fork server keeps its parent (the server) when the
    coordinator dies, so it watches the coordinator itself: a dead one, and it exits."""
    code = textwrap.dedent(
        """
        import os, subprocess, sys, time
        from campaign.batch import worker
        gone = subprocess.Popen([sys.executable, "-c", "pass"])
        gone.wait()  # a process that has ended: as if the coordinator had been killed
        worker._server["pid"] = os.getppid()  # as in a worker forked from the server
        worker.init_worker(None, coordinator=gone.pid)
        time.sleep(60)
        """
    )
    assert_exits_with_error(code)


def test_which_command_lines_start_the_fork_server_first() -> None:
    from campaign.cli import starts_local_batch

    assert starts_local_batch(["batch", "spec.yaml"])
    assert starts_local_batch(["batch", "run", "spec.yaml", "--workers", "2"])
    assert starts_local_batch(["batch", "run", "--workers=3", "spec.yaml"])
    assert not starts_local_batch(["batch"])
    assert not starts_local_batch(["run", "--seed", "42"])
    assert not starts_local_batch(["batch", "report", "results.duckdb"])
    assert not starts_local_batch(["batch", "export", "results.duckdb", "--csv", "out"])
    assert not starts_local_batch(["batch", "spec.yaml", "--backend", "dask"])
    assert not starts_local_batch(["batch", "spec.yaml", "--scheduler=tcp://host:8786"])
    assert not starts_local_batch(["batch", "spec.yaml", "--workers", "0"])
    assert not starts_local_batch(["batch", "run", "--help"])


def test_campaign_batch_starts_the_fork_server_before_the_commands_import(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server warms the engine while the coordinator imports numba and the commands
    (about 1 s of CPU each), instead of after them."""
    from campaign import cli

    order: list[str] = []
    monkeypatch.setattr(server_module, "start_server", lambda: order.append("server"))
    monkeypatch.setattr(cli, "_register", lambda names=None: order.append("commands"))
    with contextlib.suppress(SystemExit):
        cli.main(["batch", "missing-spec.yaml"])
    assert order == ["server", "commands"]
    order.clear()
    with contextlib.suppress(SystemExit):
        cli.main(["batch", "report", "missing.duckdb"])
    assert order == ["commands"]
