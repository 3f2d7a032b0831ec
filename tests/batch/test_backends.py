"""Same spec and seeds → identical runs rows with 1 worker, 2 workers and Dask; resume."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from campaign.batch.runner import run_batch
from campaign.batch.worker import run_seed

from .conftest import battles_rows, runs_rows, small_plan


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small batch run in this process (workers=0)."""
    out = tmp_path_factory.mktemp("ref") / "ref.duckdb"
    outcome = run_batch(small_plan(), out, workers=0, progress=False)
    assert outcome.complete and outcome.done_now == 12
    return out


def test_run_seed_is_the_spawned_child() -> None:
    children = np.random.SeedSequence(987).spawn(5)
    for i, child in enumerate(children):
        expected = int(child.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))
        assert run_seed(987, i) == expected
    assert len({run_seed(987, i) for i in range(100)}) == 100


def test_common_random_numbers_across_cells(reference: Path) -> None:
    rows = runs_rows(reference)
    by_cell: dict[int, list[int]] = {}
    for row in rows:
        by_cell.setdefault(row[1], []).append(row[3])
    assert by_cell[0] == by_cell[1] == [run_seed(12345, i) for i in range(6)]


@pytest.mark.parametrize("workers", [1, 2])
def test_local_workers_give_identical_rows(reference: Path, tmp_path: Path, workers: int) -> None:
    out = tmp_path / "local.duckdb"
    run_batch(small_plan(), out, workers=workers, chunk_size=2, progress=False)
    assert runs_rows(out) == runs_rows(reference)
    assert battles_rows(out) == battles_rows(reference)


def test_dask_local_cluster_gives_identical_rows(reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "dask.duckdb"
    # threads of this process keep it fast; test_dask_external covers separate processes
    run_batch(
        small_plan(),
        out,
        workers=2,
        backend="dask",
        chunk_size=3,
        progress=False,
        dask_processes=False,
    )
    assert runs_rows(out) == runs_rows(reference)
    assert battles_rows(out) == battles_rows(reference)


def test_rerun_resumes_and_extends_without_duplicates(reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "grow.duckdb"
    first = run_batch(small_plan(runs=3), out, workers=0, progress=False)
    assert (first.done_now, first.already_done) == (6, 0)
    again = run_batch(small_plan(runs=3), out, workers=0, progress=False)
    assert again.done_now == 0 and again.complete
    more = run_batch(small_plan(runs=6), out, workers=0, progress=False)
    assert (more.done_now, more.already_done) == (6, 6)
    assert runs_rows(out) == runs_rows(reference)
    assert battles_rows(out) == battles_rows(reference)


def test_omitted_seed_reuses_the_stored_entropy(tmp_path: Path) -> None:
    out = tmp_path / "noseed.duckdb"
    plan = small_plan(runs=2)
    from dataclasses import replace

    plan = replace(plan, spec=plan.spec.model_copy(update={"seed": None}))
    first = run_batch(plan, out, workers=0, progress=False)
    second = run_batch(plan, out, workers=0, progress=False)
    assert second.entropy == first.entropy and second.batch_id == first.batch_id
    assert second.done_now == 0
    assert len(runs_rows(out)) == 4
