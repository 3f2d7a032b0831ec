"""Batch plumbing of issue 15: grouped writes, chunk sizes, warm workers, interrupts."""

from __future__ import annotations

from pathlib import Path

import pytest

import campaign.batch.runner as runner_module
import campaign.batch.worker as worker_module
from campaign.batch.runner import BatchInterrupted, run_batch
from campaign.batch.store import ResultStore

from .conftest import battles_rows, runs_rows, small_plan


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """12 runs (2 cells x 6) in this process, one run per chunk, each written alone."""
    out = tmp_path_factory.mktemp("ref") / "ref.duckdb"
    run_batch(small_plan(), out, workers=0, chunk_size=1, progress=False)
    return out


def _count_writes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the number of chunks of every non-empty write of the coordinator."""
    calls: list[int] = []
    real = ResultStore.write_chunks

    def counting(self, batch_id, results):
        if results:
            calls.append(len(results))
        return real(self, batch_id, results)

    monkeypatch.setattr(runner_module.ResultStore, "write_chunks", counting)
    return calls


@pytest.mark.parametrize("chunk_size", [2, 5, 12])
def test_chunked_and_grouped_writes_give_the_same_rows(
    reference: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk_size: int
) -> None:
    calls = _count_writes(monkeypatch)
    out = tmp_path / "grouped.duckdb"
    outcome = run_batch(
        small_plan(), out, workers=1, chunk_size=chunk_size, flush_every=60, progress=False
    )
    assert outcome.complete and outcome.done_now == 12
    assert runs_rows(out) == runs_rows(reference)
    assert battles_rows(out) == battles_rows(reference)
    chunks = sum(-(-6 // chunk_size) for _ in range(2))  # chunks never mix cells
    assert calls == [chunks]  # every chunk held, then written in one transaction


def test_writes_are_forced_at_flush_runs(
    reference: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _count_writes(monkeypatch)
    monkeypatch.setattr(runner_module, "FLUSH_RUNS", 4)
    out = tmp_path / "bounded.duckdb"
    run_batch(small_plan(), out, workers=1, chunk_size=2, flush_every=60, progress=False)
    assert calls == [2, 2, 2]  # never more than FLUSH_RUNS runs held
    assert runs_rows(out) == runs_rows(reference)


def test_two_workers_grouped_give_the_same_rows(reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "two.duckdb"
    run_batch(small_plan(), out, workers=2, chunk_size=3, flush_every=60, progress=False)
    assert runs_rows(out) == runs_rows(reference)
    assert battles_rows(out) == battles_rows(reference)


def test_ctrl_c_while_waiting_keeps_the_held_chunks(
    reference: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chunks held for a grouped write are written before the batch stops on Ctrl-C."""

    def two_chunks_then_ctrl_c(pool, tasks, workers, tick):
        it = iter(tasks)
        yield worker_module.run_chunk(next(it))
        yield worker_module.run_chunk(next(it))
        raise KeyboardInterrupt

    monkeypatch.setattr(runner_module, "_local", two_chunks_then_ctrl_c)
    calls = _count_writes(monkeypatch)
    out = tmp_path / "stopped.duckdb"
    with pytest.raises(BatchInterrupted) as stop:
        run_batch(small_plan(), out, workers=1, chunk_size=2, flush_every=60, progress=False)
    assert calls == [2]  # both held chunks, written on the way out
    assert stop.value.outcome.done_now == 4
    kept = runs_rows(out)
    assert len(kept) == 4
    assert set(kept) <= set(runs_rows(reference))
    resumed = run_batch(small_plan(), out, workers=0, progress=False)
    assert resumed.already_done == 4 and resumed.complete
    assert runs_rows(out) == runs_rows(reference)


def test_warm_up_fights_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    import battle.engine

    fought: list[int] = []
    real = battle.engine.fight

    def counting(*args, **kwargs):
        fought.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(battle.engine, "fight", counting)
    monkeypatch.setitem(worker_module._warm, "done", False)
    worker_module.warm_up()
    worker_module.warm_up()
    assert fought == [1]
    assert worker_module._warm["done"]


def test_a_chunk_warms_a_cold_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Dask worker has no initializer: its first chunk calls warm_up."""
    from campaign.batch.plan import chunk_tasks
    from campaign.batch.todo import MissingRuns

    warmed: list[int] = []
    monkeypatch.setattr(worker_module, "warm_up", lambda: warmed.append(1))
    plan = small_plan(runs=1)
    task = next(chunk_tasks(plan, 3, MissingRuns(1, {0: set(), 1: set()}), 1))
    assert worker_module.run_chunk(task).count == 1
    assert warmed == [1]


def _one_chunk(plan, store, runs: int):
    from campaign.batch.plan import chunk_tasks

    todo = store.done_runs("b", len(plan.cells), runs)
    return worker_module.run_chunk(next(iter(chunk_tasks(plan, 1, todo, runs))))


def test_writer_memory_is_capped_and_doubled_when_a_write_needs_more(tmp_path: Path) -> None:
    import campaign.batch.store as store_module

    plan = small_plan(runs=40)
    store = ResultStore(tmp_path / "r.duckdb")
    try:
        assert store.memory_mb == store_module.WRITER_MEMORY_MB
        limit = store.con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
        assert limit == "122.0 MiB"  # 128 MB as DuckDB reports it
        store.begin_batch("b", plan, 1)
        result = _one_chunk(plan, store, 40)
        store._set_memory(1)  # far too little for DuckDB to insert anything
        assert store.write_chunks("b", [result]) == 40
        assert store.memory_mb > 1  # raised (and the write retried) until it fitted
        assert store.con.execute("SELECT count(*) FROM runs").fetchone()[0] == 40
    finally:
        store.close()


def test_out_of_memory_at_the_cap_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import campaign.batch.store as store_module
    from campaign.errors import EnvironmentFailure

    plan = small_plan(runs=40)
    store = ResultStore(tmp_path / "r.duckdb")
    try:
        store.begin_batch("b", plan, 1)
        result = _one_chunk(plan, store, 40)
        monkeypatch.setattr(store_module, "MAX_WRITER_MEMORY_MB", 1)
        store._set_memory(1)
        with pytest.raises(EnvironmentFailure, match="out of memory") as failure:
            store.write_chunks("b", [result])
        assert "smaller batches" in failure.value.fix
        assert store.con.execute("SELECT count(*) FROM runs").fetchone()[0] == 0
    finally:
        store.close()


def test_a_write_of_rows_already_stored_keeps_one_copy_and_adds_the_new(tmp_path: Path) -> None:
    """A write holding rows already stored (a resumed batch): no row twice, none lost, the
    new rows of the same write stored."""
    plan = small_plan(runs=8)
    store = ResultStore(tmp_path / "r.duckdb")
    try:
        store.begin_batch("b", plan, 1)
        first = _one_chunk(plan, store, 4)  # runs 0-3 of cell 0
        assert store.write_chunks("b", [first]) == 4
        empty = ResultStore(tmp_path / "empty.duckdb")
        try:
            wider = _one_chunk(plan, empty, 8)  # runs 0-7 of cell 0
        finally:
            empty.close()
        assert store.write_chunks("b", [wider]) == 8
        stored = store.con.execute("SELECT run FROM runs ORDER BY run").fetchall()
        assert [r for (r,) in stored] == list(range(8))
        dupes = store.con.execute(
            "SELECT count(*) FROM (SELECT run, battle, count(*) AS n FROM battles "
            "GROUP BY run, battle HAVING n > 1)"
        ).fetchone()[0]
        assert dupes == 0
        battles = store.con.execute("SELECT count(*) FROM battles").fetchone()[0]
        assert battles == wider.battles["battle"].length > first.battles["battle"].length
    finally:
        store.close()


def test_workers_start_only_for_runs_that_remain(tmp_path, monkeypatch):
    # a batch already stored starts no worker process (each costs ~0.6 s of CPU to start);
    # a resumed one starts no more workers than runs remain; a new one, no more than it has
    from campaign.batch import runner as runner_module
    from campaign.batch.runner import run_batch

    from .conftest import runs_rows, small_plan

    started: list[int] = []
    real = runner_module._start_pool

    def counting(workers, preload=None):
        started.append(workers)
        return real(workers, preload)

    monkeypatch.setattr(runner_module, "_start_pool", counting)
    out = tmp_path / "r.duckdb"
    plan = small_plan(runs=3)  # two cells: 6 runs
    run_batch(plan, out, workers=0, progress=False, runs_per_cell={0: 3, 1: 2})
    assert started == []
    outcome = run_batch(plan, out, workers=2, progress=False)  # one run remains
    assert started == [1] and outcome.done_now == 1 and outcome.complete
    again = run_batch(plan, out, workers=2, progress=False)  # nothing remains
    assert started == [1] and again.done_now == 0 and again.already_done == 6
    assert len(runs_rows(out)) == 6
    fresh = tmp_path / "new.duckdb"
    run_batch(small_plan(runs=1), fresh, workers=8, progress=False)  # 2 runs in all
    assert started == [1, 2]
