"""Chunk rows as Arrow buffers (campaign/batch/columns.py) and guided chunk sizes (issue 15)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from campaign.batch.columns import encode_column, record_batch, table_columns
from campaign.batch.plan import SMALLEST_CHUNK, chunk_tasks, guided_chunks
from campaign.batch.runner import run_batch
from campaign.batch.todo import MissingRuns
from campaign.batch.worker import run_chunk, run_seed

from .conftest import PROJECT, battles_rows, runs_rows, small_plan, subprocess_env


def _arrow(kind: str, values: list[object]) -> list[object]:
    from campaign.batch.columns import _to_arrow

    array = _to_arrow(encode_column(kind, values))
    array.validate(full=True)
    return array.to_pylist()


@pytest.mark.parametrize(
    ("kind", "values"),
    [
        ("INTEGER", [0, -1, 2**31 - 1, -(2**31), None, 7]),
        ("BIGINT", [2**63 - 1, None, 0, -5]),
        ("BOOLEAN", [True, False, None, True, True, False, False, True, True]),
        ("VARCHAR", ["red", None, "", "blue", "Quatre-Bras~Ligny", "é", None]),
        ("VARCHAR", []),
        ("INTEGER", []),
    ],
)
def test_encoded_columns_read_back_as_the_values(kind: str, values: list[object]) -> None:
    assert _arrow(kind, values) == values


def test_an_integer_that_does_not_fit_is_refused_not_wrapped() -> None:
    with pytest.raises(OverflowError):
        encode_column("INTEGER", [2**31])
    with pytest.raises(ValueError, match="no Arrow encoding"):
        encode_column("DOUBLE", [1.0])


def test_record_batch_checks_columns_against_the_schema() -> None:
    task = next(chunk_tasks(small_plan(runs=2), 5, MissingRuns(2, {0: set(), 1: set()}), 2))
    result = run_chunk(task)
    batch = record_batch("runs", result.runs)
    assert batch.schema.names == [name for name, _ in table_columns("runs")]
    assert batch.num_rows == 2 == result.count
    assert batch.schema.field("seed").type == pa.int64()
    assert batch.schema.field("cell").type == pa.int32()
    broken = dict(result.runs)
    del broken["winner"]
    with pytest.raises(ValueError, match=r"runs\.winner: expected a VARCHAR column, got missing"):
        record_batch("runs", broken)


def test_stored_rows_are_the_campaign_results(tmp_path: Path) -> None:
    """Each runs and battles row holds what run_campaign returned for that seed."""
    import json

    from campaign.batch.reasons import battle_reason_text, run_reason_code
    from campaign.config import load_rules
    from campaign.engine import run_campaign
    from campaign.maps import load_map

    plan = small_plan(runs=4)
    out = tmp_path / "r.duckdb"
    run_batch(plan, out, workers=0, progress=False)
    runs = runs_rows(out)
    battles = battles_rows(out)
    cmap = load_map()
    expected_runs, expected_battles = [], []
    for cp in plan.cells:
        loaded = load_rules(list(cp.cell.variants), json.loads(cp.cell.overrides_json))
        doctrines = dict(zip(("red", "blue"), cp.cell.doctrines, strict=True))
        for run in range(4):
            seed = run_seed(12345, run)
            res = run_campaign(cmap, loaded, seed, doctrines, record_events=False)
            expected_runs.append(
                (
                    cp.cell.index,
                    run,
                    seed,
                    res.winner,
                    run_reason_code(res.reason),
                    res.end_minutes,
                    res.days,
                    res.battles,
                    res.losses["red"],
                    res.losses["blue"],
                    res.divisions_left["red"],
                    res.divisions_left["blue"],
                    res.objective_value.get("red", 0),
                    res.objective_value.get("blue", 0),
                    res.reason,
                    res.rough_road_tests,
                    res.rough_road_failures,
                    res.battle_places,
                    res.marches,
                    res.flank_marches,
                    res.base_fell,
                    res.base_fell_day,
                )
            )
            for b in res.battle_rows:
                expected_battles.append(
                    (
                        cp.cell.index,
                        run,
                        b.index,
                        b.t,
                        b.day,
                        b.place,
                        b.road,
                        b.attacker,
                        b.winner,
                        b.reason,
                        b.bounds,
                        b.red_divisions,
                        b.blue_divisions,
                        b.red_units,
                        b.blue_units,
                        b.red_hits,
                        b.blue_hits,
                        b.red_cards_lost,
                        b.blue_cards_lost,
                        battle_reason_text(b.reason),
                    )
                )
    assert [row[1:] for row in runs] == expected_runs
    assert sorted(row[1:] for row in battles) == sorted(expected_battles)
    assert expected_battles  # the check covered battle rows too


def test_guided_chunks_shrink_and_cover_every_run_once() -> None:
    plan = small_plan(runs=300)
    todo = MissingRuns(300, {0: {5, 6}, 1: set()})
    tasks = list(chunk_tasks(plan, 9, todo, guided_chunks(2)))
    got = sorted((t.cell, r) for t in tasks for r in t.runs)
    assert got == sorted(
        (c, r) for c in (0, 1) for r in range(300) if (c, r) not in {(0, 5), (0, 6)}
    )
    last_of_cell = {t.cell: i for i, t in enumerate(tasks)}
    left = 598
    for i, t in enumerate(tasks):  # 1 / (4 x 2 workers) of what is left, 4 to 200 runs
        expected = max(SMALLEST_CHUNK, min(200, -(-left // 8)))
        assert len(t.runs) == expected or (i == last_of_cell[t.cell] and len(t.runs) < expected)
        left -= len(t.runs)
    sizes = [len(t.runs) for t in tasks]
    assert sizes[0] == 75 and max(sizes[-4:]) <= SMALLEST_CHUNK  # large first, small last


def test_default_chunking_on_two_workers_gives_the_same_rows(tmp_path: Path) -> None:
    reference = tmp_path / "ref.duckdb"
    run_batch(small_plan(runs=20), reference, workers=0, chunk_size=20, progress=False)
    out = tmp_path / "two.duckdb"
    outcome = run_batch(small_plan(runs=20), out, workers=2, progress=False)
    assert runs_rows(out) == runs_rows(reference)
    assert battles_rows(out) == battles_rows(reference)
    tm = outcome.timings
    assert 0 < tm.first_result <= tm.last_result <= outcome.seconds
    assert 0 < tm.campaign_seconds <= tm.cpu_seconds


def test_the_coordinator_writes_without_importing_pandas(tmp_path: Path) -> None:
    """pyarrow.array() imports pandas (0.4 s, ~60 MB); the writer wraps buffers instead."""
    code = (
        "import sys\n"
        "from tests.batch.conftest import small_plan\n"
        "from campaign.batch.runner import run_batch\n"
        f"run_batch(small_plan(runs=2), {str(tmp_path / 'r.duckdb')!r}, workers=0,"
        " progress=False)\n"
        "print('pandas' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=PROJECT,
        env=subprocess_env(),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert done.stdout.strip().splitlines()[-1] == "False"


def test_validity_bitmap_is_least_significant_bit_first() -> None:
    column = encode_column("INTEGER", [None, 1, None, 3, 4, 5, 6, 7, 8])
    assert column.validity is not None
    bits = np.unpackbits(np.frombuffer(column.validity, np.uint8), bitorder="little")
    assert bits[:9].tolist() == [0, 1, 0, 1, 1, 1, 1, 1, 1]
