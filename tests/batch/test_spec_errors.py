"""A batch spec's problems come in one message, each with its key path and the value found;
flags are named as flags, and a spec's ``set:`` value is blamed on the spec's key path."""

from __future__ import annotations

import pytest

from .conftest import run_cli

DOC_FIX = (
    "See config/batches/*.yaml for the documented keys: name, maps, variants, set, doctrines, "
    "runs, seed, workers, backend, scheduler, chunk_size, output."
)


def _error(capsys, argv: list[str]) -> str:
    code, _, err = run_cli(argv, capsys)
    assert code == 2, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def test_every_mistake_of_a_spec_in_one_message(capsys, tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "wrkers: 2\nruns: -4\nseed: abc\nchunk_size: 0\nbackend: foo\n"
        "doctrines: [balanced]\nmaps: []\n",
        encoding="utf-8",
    )
    line = _error(capsys, ["batch", "run", str(spec), "-o", str(tmp_path / "r.duckdb")])
    assert line == (
        f"error: {spec}: maps: give at least 1 item (found []); doctrines: [0] 'balanced' "
        "is not a doctrine pair RED:BLUE (write e.g. balanced:cautious); runs: expected at "
        "least 1 (found -4); seed: expected a whole number (found 'abc'); backend: expected "
        "'local' or 'dask' (found 'foo'); chunk_size: expected at least 1 (found 0); wrkers: "
        f"unknown key (did you mean 'workers'?). {DOC_FIX}"
    )


def test_the_files_and_the_flags_mistakes_together(capsys, tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text("runs: 0\n", encoding="utf-8")
    argv = ["batch", "run", str(spec), "--workers=-1", "--seed=-3", "-o", str(tmp_path / "r")]
    line = _error(capsys, argv)
    assert line == (
        f"error: {spec}: runs: expected at least 1 (found 0); --seed: expected at least 0 "
        f"(found -3); --workers: expected at least 0 (found -1). {DOC_FIX}"
    )


def test_flag_mistakes_without_a_spec_name_only_flags(capsys, tmp_path):
    line = _error(capsys, ["batch", "run", "--runs", "0", "--seed=-1", "-o", str(tmp_path / "r")])
    assert line == (
        "error: --runs: expected at least 1 (found 0); --seed: expected at least 0 (found -1). "
        "Give --runs and --seed a valid value; see `campaign batch run --help`."
    )


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--map", "nosuch"], "--map: no map file or shipped map named 'nosuch'"),
        (["--set", "campaign.rough_road_pass=abc"], "--set: campaign.rough_road_pass: expected"),
    ],
)
def test_errors_from_flags_do_not_blame_a_spec(capsys, tmp_path, argv, words):
    line = _error(capsys, ["batch", "run", "--runs", "2", *argv, "-o", str(tmp_path / "r")])
    assert line.startswith(f"error: cell 0 (all): {words}"), line
    assert line.endswith(" No campaign has run.")
    assert "spec" not in line and "flags:" not in line


def test_a_bad_value_in_the_specs_set_is_blamed_on_its_key_path(capsys, tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text("runs: 2\nset:\n  campaign.rough_road_pass: abc\n", encoding="utf-8")
    line = _error(capsys, ["batch", "run", str(spec), "-o", str(tmp_path / "r")])
    assert line == (
        f"error: {spec}: cell 0 (all): set.campaign.rough_road_pass: expected a number (found "
        "'abc'). Fix these keys; config/rules.yaml documents every key with its RULES.md "
        "section. Fix the spec before the batch starts; no campaign has run."
    )
    assert "--set" not in line


def test_a_typo_in_the_specs_set_is_blamed_on_the_spec(capsys, tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text("runs: 2\nset:\n  campaign.rough_road_pas: 3\n", encoding="utf-8")
    line = _error(capsys, ["batch", "run", str(spec), "-o", str(tmp_path / "r")])
    assert line.startswith(
        f"error: {spec}: cell 0 (all): set.campaign.rough_road_pas: unknown config key "
        "'campaign.rough_road_pas' (did you mean 'campaign.rough_road_pass'?)."
    )
    assert "--set" not in line
