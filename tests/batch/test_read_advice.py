"""``batch report`` and ``batch export`` only read a results file: their errors give advice
about reading one (never "a new file is created" or "no other batch is writing")."""

from __future__ import annotations

import duckdb
import pytest

from campaign.batch.runner import run_batch

from .conftest import run_cli, small_plan


def _one_error(code: int, err: str) -> str:
    assert code == 2, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("results") / "r.duckdb"
    run_batch(small_plan(runs=2), out, workers=0, progress=False)
    return out


@pytest.mark.parametrize("command", ["report", "export"])
def test_a_yaml_file_is_not_a_results_file(capsys, tmp_path, command):
    path = tmp_path / "m1.yaml"
    path.write_text("junctions: []\n", encoding="utf-8")
    extra = ["--csv", str(tmp_path / "out")] if command == "export" else []
    line = _one_error(*run_cli(["batch", command, str(path), *extra], capsys)[::2])
    assert line == (
        f"error: {path}: this file is not a DuckDB results file. Give the .duckdb file a batch "
        "wrote (`campaign batch run ... -o FILE`); the file is left as it is."
    )
    assert "created" not in line


def test_a_folder_is_not_a_results_file(capsys, tmp_path):
    line = _one_error(*run_cli(["batch", "report", str(tmp_path)], capsys)[::2])
    assert line == (
        f"error: {tmp_path}: this is a folder, not a results file. Give the .duckdb file a "
        f"batch wrote (e.g. {tmp_path / 'NAME.duckdb'})."
    )
    assert "writing" not in line


def test_an_unknown_batch_id_lists_the_ids_of_the_file(capsys, results):
    with duckdb.connect(str(results), read_only=True) as con:
        (batch_id, name), *_ = con.execute("SELECT batch_id, name FROM batches").fetchall()
    typo = batch_id[:-1] + ("x" if batch_id[-1] != "x" else "y")
    line = _one_error(*run_cli(["batch", "report", str(results), "--batch", typo], capsys)[::2])
    assert line == (
        f"error: {results}: --batch: no batch with id {typo!r} (the file holds: {batch_id} "
        f"({name})). Did you mean {batch_id!r}? Give one of these ids, or leave --batch out "
        "to report every batch."
    )


def test_export_without_a_format_says_what_to_give(capsys, results):
    line = _one_error(*run_cli(["batch", "export", str(results)], capsys)[::2])
    assert line == (
        f"error: {results}: nothing to write: batch export writes the results tables "
        "(batches, cells, runs, battles) into a folder. Give --parquet DIR (one Parquet file "
        "a table) or --csv DIR (one CSV file a table), e.g. --csv results-csv."
    )


def test_export_with_both_formats_says_give_one(capsys, results, tmp_path):
    argv = ["batch", "export", str(results), "--csv", str(tmp_path), "--parquet", str(tmp_path)]
    line = _one_error(*run_cli(argv, capsys)[::2])
    assert line.startswith("error: --parquet and --csv: give only one")
