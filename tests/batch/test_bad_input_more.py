"""Bad input to ``campaign batch``, unwritable outputs, and Ctrl-C reaching DuckDB."""

from __future__ import annotations

import duckdb
import pytest

from campaign.batch import cpus as cpus_module
from campaign.batch import runner as runner_module
from campaign.batch.runner import BatchInterrupted, run_batch
from campaign.batch.store import ResultStore
from campaign.errors import BatchSpecError

from .conftest import run_cli, runs_rows, small_plan


def _one_error(code: int, err: str) -> str:
    assert code == 2, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


@pytest.fixture
def spec(tmp_path):
    path = tmp_path / "spec.yaml"
    path.write_text("runs: 2\nseed: 1\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("results") / "r.duckdb"
    run_batch(small_plan(runs=2), out, workers=0, progress=False)
    return out


@pytest.mark.parametrize(
    ("flag", "value"), [("--runs", "0"), ("--workers", "-1"), ("--seed", "-1")]
)
def test_bad_flag_value_names_the_flag(capsys, spec, tmp_path, flag, value):
    code, _, err = run_cli(["batch", str(spec), flag, value, "-o", str(tmp_path / "x")], capsys)
    line = _one_error(code, err)
    assert line.startswith(f"error: {flag}:"), line
    assert str(spec) not in line


def test_unknown_map_flag_names_the_flag(capsys, spec, tmp_path):
    argv = ["batch", str(spec), "--map", "nosuch", "-o", str(tmp_path / "x")]
    line = _one_error(*run_cli(argv, capsys)[::2])
    assert "--map" in line and "nosuch" in line and str(spec) not in line


def test_bad_value_in_the_spec_still_names_the_spec(capsys, tmp_path):
    path = tmp_path / "spec.yaml"
    path.write_text("runs: 0\n", encoding="utf-8")
    line = _one_error(*run_cli(["batch", str(path), "-o", str(tmp_path / "x")], capsys)[::2])
    assert f"{path}: runs:" in line


def test_binary_spec(capsys, tmp_path):
    path = tmp_path / "binary.yaml"
    path.write_bytes(b"\xff\xfe\x00\x81 not text")
    line = _one_error(*run_cli(["batch", str(path), "-o", str(tmp_path / "x")], capsys)[::2])
    assert str(path) in line and "not a text file" in line


def test_malformed_spec_is_one_line(capsys, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("maps: [default\nruns: 3\n", encoding="utf-8")
    line = _one_error(*run_cli(["batch", str(path), "-o", str(tmp_path / "x")], capsys)[::2])
    assert "not valid YAML" in line and "line " in line and "column " in line


def test_export_to_an_unwritable_place(capsys, results, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    argv = ["batch", "export", str(results), "--csv", str(blocker / "ex")]
    line = _one_error(*run_cli(argv, capsys)[::2])
    assert "--csv" in line and "ex" in line


def test_plot_folder_is_a_file(capsys, results, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    argv = ["batch", "report", str(results), "--plot", str(blocker)]
    line = _one_error(*run_cli(argv, capsys)[::2])
    assert "--plot" in line and str(blocker) in line


def test_help_keeps_the_list_brackets(capsys):
    code, out, _ = run_cli(["batch", "run", "--help"], capsys)
    assert code == 0
    assert "a [list] sweeps" in " ".join(out.split())


class _InterruptingConnection:
    """A DuckDB connection whose battles insert is interrupted (as by Ctrl-C)."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self._con = con

    def execute(self, sql: str, *args):
        if "INTO battles" in sql:
            raise duckdb.InterruptException("INTERRUPT Error: Interrupted!")
        return self._con.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self._con, name)


def test_interrupted_write_rolls_back_and_raises_keyboard_interrupt(tmp_path):
    from campaign.batch.plan import chunk_tasks
    from campaign.batch.worker import run_chunk

    plan = small_plan(runs=2)
    store = ResultStore(tmp_path / "r.duckdb")
    try:
        store.begin_batch("b", plan, 1)
        task = next(iter(chunk_tasks(plan, 1, store.done_runs("b", len(plan.cells), 2), 2)))
        result = run_chunk(task)
        real = store.con
        store.con = _InterruptingConnection(real)  # type: ignore[assignment]
        with pytest.raises(KeyboardInterrupt):
            store.write_chunk("b", result)
        store.con = real
        assert real.execute("SELECT count(*) FROM runs").fetchone()[0] == 0  # rolled back
        assert store.write_chunk("b", result) == 2  # the connection is still usable
    finally:
        store.close()


def test_duckdb_interrupt_stops_the_batch_like_ctrl_c(tmp_path, monkeypatch):
    calls = {"n": 0}
    real_write = ResultStore.write_chunks

    def write_then_interrupt(self, batch_id, results):
        calls["n"] += 1
        if calls["n"] == 2:
            self.con = _InterruptingConnection(self.con)
        return real_write(self, batch_id, results)

    monkeypatch.setattr(runner_module.ResultStore, "write_chunks", write_then_interrupt)
    out = tmp_path / "r.duckdb"
    with pytest.raises(BatchInterrupted) as stop:
        run_batch(small_plan(runs=4), out, workers=0, chunk_size=2, progress=False)
    assert stop.value.outcome.done_now == 2
    assert len(runs_rows(out)) == 2  # the first chunk is kept, the interrupted one is not


def test_cli_exit_130_on_duckdb_interrupt(capsys, tmp_path, monkeypatch):
    def interrupt(self, batch_id, results):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner_module.ResultStore, "write_chunks", interrupt)
    argv = ["batch", "--runs", "2", "--seed", "1", "--workers", "0", "-q"]
    code, _, err = run_cli([*argv, "-o", str(tmp_path / "r.duckdb")], capsys)
    assert code == 130
    assert "of 2 runs are stored" in err and "run the same command again" in err


def test_max_runs_without_precision_is_refused(tmp_path, capsys):
    from .conftest import run_cli

    out = tmp_path / "x.duckdb"
    code, _, err = run_cli(
        ["batch", "run", "--runs", "2", "--max-runs", "20", "-o", str(out)], capsys
    )
    assert code == 2 and "--precision" in err and not out.exists()


def test_a_bad_flag_points_to_the_help_that_lists_the_flags(capsys, spec, tmp_path):
    line = _one_error(*run_cli(["batch", str(spec), "--runs", "0"], capsys)[::2])
    assert "`campaign batch run --help`" in line, line


@pytest.mark.parametrize("asked", [9, 999])
def test_more_local_workers_than_the_machine_can_hold_are_refused(
    capsys, spec, tmp_path, monkeypatch, asked
):
    # bounded before any work: 4 per usable CPU (2 here), whether a flag or the spec asks
    monkeypatch.setattr(cpus_module, "default_workers", lambda: 2)
    out = tmp_path / "x.duckdb"
    line = _one_error(
        *run_cli(["batch", str(spec), "--workers", str(asked), "-o", str(out)], capsys)[::2]
    )
    assert line.startswith("error: --workers:") and f"{asked:,} worker processes" in line
    assert "2 usable CPUs" in line and "at most 8 workers" in line
    assert not out.exists()
    spec.write_text(f"runs: 2\nworkers: {asked}\n", encoding="utf-8")
    line = _one_error(*run_cli(["batch", str(spec), "-o", str(out)], capsys)[::2])
    assert line.startswith(f"error: {spec}: workers:"), line
    assert not out.exists()


def test_the_worker_bound_leaves_clusters_and_the_bound_itself_alone(monkeypatch):
    from campaign.batch.plan import MAX_WORKERS_PER_CPU, check_local_workers
    from campaign.batch.spec import BatchSpec

    monkeypatch.setattr(cpus_module, "default_workers", lambda: 3)
    check_local_workers(BatchSpec(workers=MAX_WORKERS_PER_CPU * 3))  # at the bound: fine
    check_local_workers(BatchSpec(workers=500, backend="dask", scheduler="tcp://h:8786"))
    with pytest.raises(BatchSpecError, match="13 worker processes"):
        check_local_workers(BatchSpec(workers=13, backend="dask"))  # a LocalCluster is local


def test_results_files_that_cannot_be_results_files(capsys, spec, tmp_path):
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("x", encoding="utf-8")
    line = _one_error(
        *run_cli(["batch", str(spec), "-o", str(in_the_way / "r.duckdb")], capsys)[::2]
    )
    assert "is a file, not a folder" in line and "mkdir" not in line
    other = tmp_path / "notes.duckdb"
    other.write_text("my notes\n", encoding="utf-8")
    line = _one_error(*run_cli(["batch", str(spec), "-o", str(other)], capsys)[::2])
    assert "not a DuckDB results file" in line and "left as it is" in line
    assert other.read_text(encoding="utf-8") == "my notes\n"


def test_runs_beside_precision_is_refused_and_the_help_says_so(tmp_path, capsys):
    from .conftest import run_cli

    out = tmp_path / "x.duckdb"
    argv = ["batch", "run", "--precision", "5", "--runs", "10", "-o", str(out)]
    line = _one_error(*run_cli(argv, capsys)[::2])
    assert line == (
        "error: --runs 10 with --precision: --precision decides how many runs each cell "
        "needs, so a fixed --runs would be ignored. Fix: cap the runs with --max-runs 10 "
        "instead, or leave --precision out to run exactly 10 per cell."
    )
    assert not out.exists()
    code, helptext, _ = run_cli(["batch", "run", "--help"], capsys)
    assert code == 0
    assert "--runs is refused with it" in " ".join(helptext.split())
