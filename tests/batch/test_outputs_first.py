"""A batch's outputs are checked before any work or output (issue: a new user's trial), the
summary names every setting, keeps the batch id whole, and a repeated level is refused."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from campaign.batch import store as store_module
from campaign.batch.runner import run_batch
from campaign.batch.store import ResultStore
from campaign.errors import BatchSpecError

from .conftest import only_error as _only_error
from .conftest import run_cli, small_plan

#: a two-campaign batch from flags only, run inline
QUICK = ["batch", "run", "--runs", "2", "--seed", "1", "--workers", "0"]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("results") / "r.duckdb"
    run_batch(small_plan(runs=2), out, workers=0, progress=False)
    return out


# ---------------------------------------------------------------- 1. --plot first
@pytest.mark.parametrize("under", [False, True])
def test_batch_run_refuses_a_plot_file_before_running(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, under: bool
) -> None:
    blocker = tmp_path / "b1.duckdb"
    blocker.write_bytes(b"")
    plot = blocker / "charts" if under else blocker
    out = tmp_path / "x.duckdb"
    argv = [*QUICK, "-o", str(out), "--plot", str(plot)]
    line = _only_error(*run_cli(argv, capsys))
    assert line.startswith(f"error: {plot}: --plot: "), line
    assert "is a file" in line and "folder" in line
    assert not out.exists()  # no campaign was run


def test_batch_report_refuses_a_plot_file_before_printing(
    capsys: pytest.CaptureFixture[str], results: Path, tmp_path: Path
) -> None:
    plot = tmp_path / "b1.duckdb"
    plot.write_bytes(b"")
    line = _only_error(*run_cli(["batch", "report", str(results), "--plot", str(plot)], capsys))
    assert line.startswith(f"error: {plot}: --plot: ") and "Give a folder" in line


# ---------------------------------------------------------------- 2. -o first
def test_batch_run_refuses_a_folder_as_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    line = _only_error(*run_cli([*QUICK, "-o", str(tmp_path)], capsys))
    assert line == (
        f"error: {tmp_path}: --output: it is a folder, not a file. Name a results file "
        f"inside it, e.g. --output {tmp_path / 'results.duckdb'}."
    )


def test_a_spec_files_output_folder_is_blamed_on_the_spec(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"output: {tmp_path}\nruns: 2\n", encoding="utf-8")
    line = _only_error(*run_cli(["batch", str(spec), "--workers", "0"], capsys))
    assert line == (
        f"error: {spec}: output: {tmp_path}: it is a folder, not a file. Name a results "
        f"file inside it, e.g. output: {tmp_path / 'results.duckdb'}."
    )


def test_batch_run_refuses_a_missing_folder_before_its_header(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "nope" / "x.duckdb"
    line = _only_error(*run_cli([*QUICK, "-o", str(out)], capsys))
    assert "does not exist" in line and "mkdir -p" in line


def test_batch_run_refuses_a_file_that_is_not_duckdb(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "ev.jsonl"
    out.write_text('{"a": 1}\n', encoding="utf-8")
    line = _only_error(*run_cli([*QUICK, "-o", str(out)], capsys))
    assert "not a DuckDB results file" in line and "left as it is" in line
    assert out.read_text(encoding="utf-8") == '{"a": 1}\n'


# ---------------------------------------------------------------- 3. not DuckDB / locked
@pytest.mark.parametrize("content", [b'{"a": 1}\n', b""])
def test_report_of_a_file_that_is_not_duckdb_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "ev.jsonl"
    path.write_bytes(content)
    line = _only_error(*run_cli(["batch", "report", str(path)], capsys))
    assert line == (
        f"error: {path}: this file is not a DuckDB results file. Give the .duckdb file a "
        "batch wrote (`campaign batch run ... -o FILE`); the file is left as it is."
    )


def test_only_a_real_lock_gets_the_locking_advice(
    monkeypatch: pytest.MonkeyPatch, results: Path
) -> None:
    def locked(*args: object, **kwargs: object) -> None:
        raise duckdb.IOException(
            f'IO Error: Could not set lock on file "{results}": Conflicting lock is held'
        )

    monkeypatch.setattr(store_module.duckdb, "connect", locked)
    with pytest.raises(BatchSpecError) as caught:
        ResultStore(results, read_only=True)
    assert "locked" in caught.value.what and "Wait until that batch ends" in str(caught.value.fix)

    def other(*args: object, **kwargs: object) -> None:
        raise duckdb.IOException("IO Error: Permission denied")

    monkeypatch.setattr(store_module.duckdb, "connect", other)
    with pytest.raises(BatchSpecError) as caught:
        ResultStore(results, read_only=True)
    assert "lock" not in caught.value.message.lower()


# ---------------------------------------------------------------- 4, 5. the summary
def test_summary_names_overrides_the_same_in_every_cell_and_keeps_the_id_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COLUMNS", "40")  # narrower than the title
    out = tmp_path / "fx.duckdb"
    argv = [*QUICK, "--variant", "default", "--variant", "pursuit"]
    argv += ["--set", "battle.max_turns=20", "--set", "campaign.rough_road_pass=60"]
    code, printed, err = run_cli([*argv, "-o", str(out)], capsys)
    assert code == 0, err
    with duckdb.connect(str(out), read_only=True) as con:
        (batch_id,) = con.execute("SELECT batch_id FROM batches").fetchone()
    code, report, err = run_cli(["batch", "report", str(out)], capsys)
    assert code == 0, err
    for text in (printed, report):
        flat = " ".join(text.split())
        assert "overrides battle.max_turns=20, campaign.rough_road_pass=60" in flat
        assert batch_id in text.split()  # on one line, never split by the wrap
        assert all(len(line) <= 40 or " " not in line.strip() for line in text.splitlines())
    assert "config/batches/*.yaml" in printed.split()  # the spec folder is not broken either
    code, doc, _ = run_cli(["batch", "report", str(out), "--json"], capsys)
    fixed = json.loads(doc)[0]["fixed"]
    assert fixed["overrides"] == "battle.max_turns=20, campaign.rough_road_pass=60"
    assert "rules" not in fixed and "variants" not in fixed


# ---------------------------------------------------------------- 6. a level twice
@pytest.mark.parametrize(
    ("flags", "flag", "level"),
    [
        (["--variant", "pursuit", "--variant", "pursuit"], "--variant", "pursuit"),
        (["--map", "default", "--map", "default"], "--map", "default"),
        (["--doctrines", "balanced:cautious"] * 2, "--doctrines", "balanced:cautious"),
        (["--set", "campaign.rough_road_pass=[60, 70, 60]"], "--set", "60"),
    ],
)
def test_a_level_given_twice_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, flags: list[str], flag: str, level: str
) -> None:
    out = tmp_path / "x.duckdb"
    line = _only_error(*run_cli([*QUICK, *flags, "-o", str(out)], capsys))
    assert line.startswith(f"error: {flag}: ") and f"{level} is given twice" in line
    assert line.endswith(f"Give each {flag} value once.")
    assert not out.exists()


def test_a_level_twice_in_a_spec_file_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("variants: [pursuit, [pursuit]]\nruns: 2\n", encoding="utf-8")
    line = _only_error(*run_cli(["batch", str(spec), "-o", str(tmp_path / "x.duckdb")], capsys))
    assert line.startswith(f"error: {spec}: variants: pursuit is given twice"), line
