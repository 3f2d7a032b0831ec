"""Run a planned batch: resume from the results file, farm out chunks, commit as they arrive.

Backends
--------
``local`` (default)
    A :class:`concurrent.futures.ProcessPoolExecutor` with the ``spawn`` start method (asked
    for through a context; the global start method is never changed). ``workers=0`` runs in
    this process (for debugging).
``dask``
    A :class:`distributed.LocalCluster` with ``workers`` single-threaded worker processes, or
    the existing cluster at ``scheduler`` (``tcp://HOST:8786``).

Several machines
----------------
Install the same project version (and numpy) on every machine, e.g. ``pip install -e .`` of
the same commit, and put any map file that is not shipped at the same absolute path (the
worker checks its content hash). Then::

    host-a$ dask scheduler --port 8786                       # once
    host-b$ dask worker tcp://host-a:8786 --nworkers 4 --nthreads 1
    host-c$ dask worker tcp://host-a:8786 --nworkers 8 --nthreads 1
    laptop$ campaign batch spec.yaml --scheduler tcp://host-a:8786 --output results.duckdb

The results file is written only by the coordinating process (where ``campaign batch`` runs).

Every backend computes the same runs rows: run *i* of every cell gets the seed
:func:`~campaign.batch.worker.run_seed` ``(entropy, i)``, whichever worker runs it. At most
``2 × workers`` chunks are in flight. Finished chunks are written to DuckDB together, one
transaction once ``flush_every`` seconds (1 s) have passed since the last, or at
:data:`FLUSH_RUNS` runs (the backends report in when no chunk has come for that long), so
memory stays flat whatever the batch size; an interrupted batch writes the finished chunks it
holds before it stops, so it keeps every finished chunk (a killed one loses at most about the
last second's). ``workers=0`` (in this process) writes each chunk as it finishes.

Workers stay alive for the whole batch and keep their warm state: the map with its route
tables, the rules, and the battle engine, called once at start-up
(:func:`~campaign.batch.worker.warm_up`) so that any compilation happens once per worker.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import logging
import os
import time
from collections.abc import Generator, Iterable, Mapping
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from campaign.batch.cpus import default_workers
from campaign.batch.plan import BatchPlan, chunk_tasks, guided_chunks
from campaign.batch.progress import BatchProgress
from campaign.batch.scheduler import check_scheduler, unreachable
from campaign.batch.server import main_module_hidden, mp_context
from campaign.batch.store import ResultStore
from campaign.batch.worker import ChunkResult, ChunkTask, Preload, init_worker, run_chunk

#: chunk results as the backends yield them, or None when none has come for a while (a cue
#: to write what is held); closed when the batch stops
Results = Generator[ChunkResult | None, None, None]

__all__ = [
    "FLUSH_RUNS",
    "BatchInterrupted",
    "BatchOutcome",
    "BatchTimings",
    "default_workers",
    "run_batch",
]

#: Most finished runs held in memory before they are written (one DuckDB transaction).
FLUSH_RUNS = 2_000


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped the batch; every finished chunk is in the results file."""

    def __init__(self, outcome: BatchOutcome) -> None:
        super().__init__()
        self.outcome = outcome


@dataclass(frozen=True)
class BatchTimings:
    """Where the time of a batch session went (``python -m benchmarks batch`` prints it).

    Parameters
    ----------
    first_result : float
        Wall seconds from the start of :func:`run_batch` to the first finished chunk.
    first_chunk : float
        Wall seconds the worker spent on that first chunk: ``first_result - first_chunk``
        is the start-up (workers starting, the results file opened).
    last_result : float
        Wall seconds from the start to the last finished chunk (what follows is the last
        write and closing).
    chunk_seconds : float
        Wall seconds of every chunk in its worker, summed.
    cpu_seconds : float
        CPU seconds of every chunk in its worker, summed.
    campaign_seconds : float
        CPU seconds inside :func:`campaign.engine.run_campaign`, summed: ``cpu_seconds``
        minus it is what the batch adds in the workers (seeds, rows, encoding).
    """

    first_result: float = 0.0
    first_chunk: float = 0.0
    last_result: float = 0.0
    chunk_seconds: float = 0.0
    cpu_seconds: float = 0.0
    campaign_seconds: float = 0.0


@dataclass
class BatchOutcome:
    """What one session of a batch did (``timings``: where its time went)."""

    batch_id: str
    output: Path
    entropy: int
    total_runs: int
    already_done: int
    done_now: int
    seconds: float
    complete: bool
    timings: BatchTimings = BatchTimings()

    @property
    def rate(self) -> float:
        """Campaigns per second in this session."""
        return self.done_now / self.seconds if self.seconds > 0 else 0.0


def _inline(tasks: Iterable[ChunkTask]) -> Results:
    for task in tasks:
        yield run_chunk(task)


def _start_pool(workers: int, preload: Preload | None = None) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes, started at once: forked from the fork server
    (:func:`~campaign.batch.server.mp_context`), which has the battle engine loaded and
    warm, or spawned (they import it and warm up themselves); each loads ``preload``'s map
    and rules
    (:func:`~campaign.batch.worker.init_worker`) while the coordinator opens the results
    file and works out which runs are missing."""
    ctx = mp_context()
    pool = ProcessPoolExecutor(
        workers, mp_context=ctx, initializer=init_worker, initargs=(preload, os.getpid())
    )
    with main_module_hidden():
        for _ in range(workers):  # a task with no idle worker starts one more process
            pool.submit(int)
    return pool


def _local(
    pool: ProcessPoolExecutor, tasks: Iterable[ChunkTask], workers: int, tick: float
) -> Results:
    it = iter(tasks)
    pending = {pool.submit(run_chunk, t) for t in itertools.islice(it, 2 * workers)}
    try:
        while pending:
            done, pending = wait(pending, timeout=tick, return_when=FIRST_COMPLETED)
            if not done:
                yield None
                continue
            results = [future.result() for future in done]
            for _ in results:
                nxt = next(it, None)
                if nxt is not None:
                    pending.add(pool.submit(run_chunk, nxt))
            yield from results
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def _dask(
    tasks: Iterable[ChunkTask], workers: int, scheduler: str | None, processes: bool, tick: float
) -> Results:
    from distributed import Client, LocalCluster
    from distributed import wait as wait_for

    cluster = None
    if scheduler:
        check_scheduler(scheduler)  # a port that answers something else: refused here
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError, MemoryError) as exc:
            raise unreachable(scheduler, str(exc) or type(exc).__name__) from None
    else:
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=processes,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
        client = Client(cluster)
    try:
        slots = max(1, sum(client.nthreads().values()))
        it = iter(tasks)
        first = list(itertools.islice(it, 2 * slots))
        pending = list(client.map(run_chunk, first, pure=False))
        while pending:
            try:
                done, _ = wait_for(pending, timeout=tick, return_when="FIRST_COMPLETED")
            except TimeoutError:
                yield None
                continue
            pending = [f for f in pending if f not in done]
            for future in done:
                result = future.result()
                future.release()
                nxt = next(it, None)
                if nxt is not None:
                    pending.append(client.submit(run_chunk, nxt, pure=False))
                yield result
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


class _HeldChunks:
    """Finished chunks not written yet: written together once ``every`` seconds have
    passed since the last write, or at :data:`FLUSH_RUNS` runs."""

    def __init__(self, store: ResultStore, batch_id: str, bar: BatchProgress, every: float):
        self.store, self.batch_id, self.bar, self.every = store, batch_id, bar, every
        self.chunks: list[ChunkResult] = []
        self.runs = 0
        #: (arrival time, chunk wall, chunk CPU, CPU in run_campaign) of every chunk
        self.arrivals: list[tuple[float, float, float, float]] = []
        self.since = time.perf_counter()
        #: a write is under way (a Ctrl-C then rolled it back: it is not retried)
        self.writing = False

    def add(self, result: ChunkResult | None) -> None:
        """Hold a finished chunk (None: no news) and write what is held when it is due."""
        if result is not None:
            self.chunks.append(result)
            self.runs += result.count
            self.arrivals.append(
                (
                    time.perf_counter(),
                    result.seconds,
                    result.cpu_seconds,
                    result.campaign_seconds,
                )
            )
        if self.runs >= FLUSH_RUNS or time.perf_counter() - self.since >= self.every:
            self.write()

    def timings(self, start: float) -> BatchTimings:
        """The chunks' timings so far, times counted from ``start`` (a perf_counter)."""
        if not self.arrivals:
            return BatchTimings()
        return BatchTimings(
            first_result=self.arrivals[0][0] - start,
            first_chunk=self.arrivals[0][1],
            last_result=self.arrivals[-1][0] - start,
            chunk_seconds=sum(a[1] for a in self.arrivals),
            cpu_seconds=sum(a[2] for a in self.arrivals),
            campaign_seconds=sum(a[3] for a in self.arrivals),
        )

    def write(self) -> None:
        """Write every held chunk in one transaction and count its runs as done."""
        self.writing = True
        written = self.store.write_chunks(self.batch_id, self.chunks)
        self.writing = False
        self.chunks.clear()
        self.runs, self.since = 0, time.perf_counter()
        self.bar.advance(written)


def _batch_id(design_hash: str, entropy: int) -> str:
    return hashlib.sha256(f"{design_hash}:{entropy}".encode()).hexdigest()[:16]


def run_batch(
    plan: BatchPlan,
    output: str | Path,
    *,
    workers: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    chunk_size: int | None = None,
    progress: bool = True,
    progress_every: float = 5.0,
    dask_processes: bool = True,
    runs_per_cell: Mapping[int, int] | None = None,
    flush_every: float = 1.0,
) -> BatchOutcome:
    """Run (or resume) a batch and store every run in ``output``.

    Parameters
    ----------
    plan : BatchPlan
        The validated batch (:func:`campaign.batch.plan.plan_batch`).
    output : str or Path
        The DuckDB results file (created when missing; an existing batch resumes).
    workers : int or None
        Worker processes (local) or LocalCluster workers (dask); None → every usable CPU;
        0 → run in this process (local backend only).
    backend : {"local", "dask"}
        Where the campaigns run; ``scheduler`` implies ``dask``.
    scheduler : str or None
        Address of an existing Dask scheduler, e.g. ``tcp://10.0.0.5:8786``.
    chunk_size : int or None
        Runs per task (≥ 1); None → guided sizes (:func:`~campaign.batch.plan.guided_chunks`:
        up to 200 runs, shrinking to 4 near the end).
    progress : bool
        Show a progress bar (stderr).
    progress_every : float
        Seconds between plain progress lines when stderr is not a terminal.
    dask_processes : bool
        LocalCluster workers as processes (True) or threads of this process (tests).
    runs_per_cell : mapping of int to int, optional
        Run only the first N runs (seed order) of each cell, N at most ``spec.runs``
        (``campaign batch run --precision`` grows these between looks).
    flush_every : float
        Seconds (≥ 0) finished chunks may wait to be written together; 0 writes each chunk
        as it arrives. Writing is also forced at :data:`FLUSH_RUNS` runs and at the end.

    Returns
    -------
    BatchOutcome

    Raises
    ------
    BatchInterrupted
        On Ctrl-C, after the pool has stopped; finished chunks are stored.
    SimulatorError
        If a worker cannot load a map or rules (e.g. a different map file on a remote host).
    """
    spec = plan.spec
    if scheduler:
        backend = "dask"
    n_workers = default_workers() if workers is None else workers
    if backend == "dask":
        n_workers = max(1, n_workers)
    start = time.perf_counter()
    with contextlib.ExitStack() as stack:
        pool = None
        first = plan.cells[0]  # its map and rules load while the workers start
        preload = (first.map_path, first.map_sha, first.cell.variants, first.cell.overrides_json)

        def start_pool(runs: int) -> ProcessPoolExecutor:
            # never more workers than runs: each chunk holds one run or more
            started = _start_pool(min(n_workers, runs), preload)
            stack.callback(started.shutdown, wait=True, cancel_futures=True)
            return started

        local = backend == "local" and n_workers > 0
        if local and not Path(output).exists():  # a new batch: every run is to do, so the
            pool = start_pool(plan.total_runs)  # workers start up while the file is created
        store = ResultStore(output)
        stack.callback(store.close)
        entropy = spec.seed
        if entropy is None:
            entropy = store.find_entropy(plan.design_hash)
        if entropy is None:
            entropy = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
        batch_id = _batch_id(plan.design_hash, entropy)
        store.begin_batch(batch_id, plan, entropy)
        todo = store.done_runs(batch_id, len(plan.cells), spec.runs)
        if runs_per_cell is not None:  # the first N runs of each cell, in seed order
            todo = todo.first(runs_per_cell)
        total_runs = (
            plan.total_runs
            if runs_per_cell is None
            else sum(min(n, spec.runs) for n in runs_per_cell.values())
        )
        missing = todo.count
        if local and pool is None and missing:  # a resumed batch: workers only if runs remain
            pool = start_pool(missing)
        tasks = chunk_tasks(plan, entropy, todo, chunk_size or guided_chunks(n_workers))
        tick = max(flush_every, 0.05)
        if not missing:  # all stored already: no pool, no cluster
            results = _inline(())
        elif backend == "dask":
            results = _dask(tasks, n_workers, scheduler, dask_processes, tick)
        elif pool is None:
            results = _inline(tasks)
        else:
            results = _local(pool, tasks, n_workers, tick)
        bar = BatchProgress(missing, enabled=progress, every_seconds=progress_every)
        held = _HeldChunks(store, batch_id, bar, 0.0 if n_workers == 0 else flush_every)

        def outcome() -> BatchOutcome:
            return BatchOutcome(
                batch_id=batch_id,
                output=Path(output),
                entropy=entropy,
                total_runs=total_runs,
                already_done=total_runs - missing,
                done_now=bar.done,
                seconds=time.perf_counter() - start,
                complete=bar.done == missing,
                timings=held.timings(start),
            )

        try:
            with bar:
                for result in results:
                    held.add(result)
                held.write()
        except KeyboardInterrupt:
            results.close()
            if not held.writing:  # Ctrl-C while waiting for workers: keep what finished
                with contextlib.suppress(KeyboardInterrupt):
                    held.write()
            raise BatchInterrupted(outcome()) from None
        finally:
            results.close()
        if bar.done == missing:
            store.finish_batch(batch_id)
        return outcome()
    raise AssertionError("unreachable")  # pragma: no cover - the with block returns or raises
