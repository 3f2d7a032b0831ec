"""``campaign batch`` end to end: specs, flags, bad input, report, export, plots."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
import yaml

from campaign.batch.spec import BatchSpec, expand_cells, load_spec, spec_from_flags
from campaign.errors import BatchSpecError

from .conftest import PROJECT, run_cli, runs_rows

BATCHES = PROJECT / "config" / "batches"


@pytest.mark.parametrize("name", ["rough-road-sweep", "doctrines-waterloo"])
def test_shipped_specs_expand(name: str) -> None:
    spec = load_spec(BATCHES / f"{name}.yaml")
    cells = expand_cells(spec)
    assert len(cells) in (3, 4)
    assert len({c.label for c in cells}) == len(cells)


#: the levels of the shipped rough-road sweep (one cell each)
LEVELS = load_spec(BATCHES / "rough-road-sweep.yaml").set["campaign.rough_road_pass"]


def test_rough_road_sweep_levels() -> None:
    cells = expand_cells(load_spec(BATCHES / "rough-road-sweep.yaml"))
    assert [dict(c.overrides)["campaign.rough_road_pass"] for c in cells] == LEVELS
    assert cells[0].label == f"campaign.rough_road_pass={LEVELS[0]}"


def test_flags_override_the_spec() -> None:
    base = load_spec(BATCHES / "rough-road-sweep.yaml")
    spec = spec_from_flags(
        base, {"runs": 3, "set": ["campaign.rough_road_pass=[50]"], "maps": None}, "x"
    )
    assert spec.runs == 3 and spec.set == {"campaign.rough_road_pass": [50]}
    assert spec.maps == ["default"]


def test_grid_is_a_product() -> None:
    spec = BatchSpec(
        maps=["default", "waterloo-1815"],
        variants=["default", "two-dice+cumulative"],
        set={"campaign.rough_road_pass": [60, 70], "campaign.hold_minutes": 30},
        doctrines=["balanced:cautious", "aggressive:aggressive"],
    )
    cells = expand_cells(spec)
    assert len(cells) == 16
    assert cells[-1].variants == ("two-dice", "cumulative")
    assert dict(cells[0].factors).keys() == {
        "map",
        "variant",
        "campaign.rough_road_pass",
        "doctrines",
    }


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--variant", "no-such-variant"], "no variant named 'no-such-variant'"),
        (["--set", "campaign.rough_road_passs=[60,70]"], "unknown config key"),
        (["--map", "atlantis"], "no map file or shipped map named 'atlantis'"),
        (["--runs", "0"], "runs"),
        (["--set", "campaign.rough_road_pass"], "is not KEY=VALUE"),
        (["--set", "campaign.rough_road_pass=[60,"], "not valid YAML"),
        (["--set", "campaign.rough_road_pass=[60, lots]"], "expected a number"),
        (["--doctrines", "bold"], "not a doctrine pair"),
    ],
)
def test_bad_flags_exit_2_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    out = tmp_path / "never.duckdb"
    code, _, err = run_cli(
        ["batch", *args, "--runs" if "--runs" not in args else "--seed", "1", "-o", str(out)],
        capsys,
    )
    assert code == 2
    assert err.startswith("error: ") and needle in err
    assert "Traceback" not in err
    assert not out.exists()  # nothing started


def test_bad_spec_file_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "bad.yaml"
    spec.write_text(yaml.safe_dump({"maps": ["default"], "runz": 5}))
    code, _, err = run_cli(["batch", str(spec)], capsys)
    assert code == 2 and "runz" in err and "unknown key" in err and str(spec) in err
    spec.write_text(yaml.safe_dump({"runs": 0}))
    code, _, err = run_cli(["batch", str(spec)], capsys)
    assert code == 2 and "runs" in err
    code, _, err = run_cli(["batch", str(tmp_path / "missing.yaml")], capsys)
    assert code == 2 and "not found" in err
    with pytest.raises(BatchSpecError):
        load_spec(tmp_path / "missing.yaml")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from campaign.cli import main

    out = tmp_path_factory.mktemp("cli") / "rr.duckdb"
    with pytest.raises(SystemExit) as stop:
        main(
            [
                "batch",
                str(BATCHES / "rough-road-sweep.yaml"),
                "--runs",
                "8",
                "--workers",
                "0",
                "-o",
                str(out),
                "--quiet",
            ]
        )
    assert stop.value.code in (0, None)
    return out


def test_spec_run_report_export_plot(
    results: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "250")  # the wide table (xdist workers set COLUMNS=80)
    assert len(runs_rows(results)) == 8 * len(LEVELS)
    code, out, _ = run_cli(["batch", "report", str(results), "--plot", str(tmp_path)], capsys)
    assert code == 0
    assert "campaign.rough_road_pass=70" in out and "Wilson" in out
    assert "Paired differences" in out and f"{LEVELS[0]} → {LEVELS[-1]}" in out
    # what no cell column shows: the settings every cell shares (the rules vary here)
    assert (
        "the same in every cell: map default; doctrines Red balanced against Blue cautious" in out
    )
    for name in ("win-rate", "campaign-length"):
        for ext in ("png", "svg"):
            assert (tmp_path / f"{name}.{ext}").stat().st_size > 1000
    code, out, _ = run_cli(["batch", "report", str(results), "--json"], capsys)
    doc = json.loads(out)
    assert [c["n"] for c in doc[0]["cells"]] == [8] * len(LEVELS)
    assert doc[0]["fixed"] == {"map": "default", "doctrines": "Red balanced against Blue cautious"}
    n = len(LEVELS)  # every pair of levels, 4 metrics each
    assert len(doc[0]["paired_differences"]) == n * (n - 1) // 2 * 4
    for fmt in ("parquet", "csv"):
        code, _, err = run_cli(
            ["batch", "export", str(results), f"--{fmt}", str(tmp_path / fmt)], capsys
        )
        assert code == 0, err
        assert (tmp_path / fmt / f"runs.{fmt}").exists()
    reader = "read_parquet" if fmt == "parquet" else "read_csv_auto"
    with duckdb.connect() as con:
        n = con.execute(f"SELECT count(*) FROM {reader}('{tmp_path / fmt / 'runs.csv'}')")
        assert n.fetchone()[0] == 8 * len(LEVELS)


def test_batches_table_records_provenance(results: Path) -> None:
    with duckdb.connect(str(results), read_only=True) as con:
        row = con.execute(
            "SELECT name, seed_entropy, numpy_version, code_version, rules_hashes, finished "
            "FROM batches"
        ).fetchone()
    name, entropy, numpy_version, code_version, hashes, finished = row
    assert (name, entropy) == ("rough-road-sweep", "20240601")
    assert numpy_version and code_version and finished is not None
    assert len(set(json.loads(hashes))) == len(LEVELS)


def test_report_of_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["batch", "report", str(tmp_path / "nope.duckdb")], capsys)
    assert code == 2 and "not found" in err
