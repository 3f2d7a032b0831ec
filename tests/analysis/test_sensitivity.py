"""Global sensitivity: a parameter that cannot matter comes out as not mattering, discrete
parameters take only their listed values, and bad specs exit 2 with the key path."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest
import yaml

from campaign.analysis.sensitivity import Parameter

Cli = Callable[[list[str]], tuple[int, str, str]]


def _spec(tmp_path: Path, **fields: object) -> Path:
    data: dict[str, object] = {
        "name": "t",
        "maps": ["default"],
        "doctrines": ["balanced:cautious"],
        "seed": 11,
        "runs": 6,
        "method": "morris",
        "samples": 4,
        "parameters": {
            "battle.withdrawal_success_total": {"range": [10, 14]},
            "battle.hit_dice": {"values": ["20 + 2*d10", "3d10"]},
            # a safety cap no campaign reaches: it cannot matter
            "campaign.max_events": {"range": [150000, 250000]},
        },
    }
    data.update(fields)
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_discrete_and_integer_parameters_map_the_unit_interval() -> None:
    p = Parameter("battle.hit_dice", values=("a", "b", "c"))
    assert [p.value(u) for u in (0.0, 0.33, 0.34, 0.66, 0.67, 0.999, 1.0)] == [
        "a",
        "a",
        "b",
        "b",
        "c",
        "c",
        "c",
    ]
    q = Parameter("battle.withdrawal_success_total", 10.0, 14.0, integer=True)
    assert sorted({q.value(k / 100) for k in range(101)}) == [10, 11, 12, 13, 14]
    r = Parameter("campaign.rough_road_pass", 30.0, 90.0)
    assert r.value(0.5) == 60.0


@pytest.mark.parametrize("method", ["morris", "sobol"])
def test_a_parameter_that_cannot_matter_does_not(method: str, tmp_path: Path, cli: Cli) -> None:
    spec = _spec(tmp_path, method=method, samples=4)
    out = tmp_path / "s.duckdb"
    code, stdout, err = cli(
        [
            "sensitivity",
            str(spec),
            "--workers",
            "0",
            "--json",
            "-q",
            "--output",
            str(out),
            "--plot",
            str(tmp_path / "charts"),
        ]
    )
    assert code == 0, err
    doc = json.loads(stdout)
    main = doc["main_index"]
    rows = doc["indices"]
    assert {r["outcome"] for r in rows} == {"red_win", "days", "battles", "losses"}
    noop = [r for r in rows if r["parameter"] == "campaign.max_events"]
    assert len(noop) == 4
    for r in noop:  # exactly 0 with a zero-width interval, ranked last
        assert r[main] == 0 and r[f"{main}_high"] == 0 and r["rank"] == 3
    # the hit dice do matter for the losses
    hit = next(r for r in rows if r["parameter"] == "battle.hit_dice" and r["outcome"] == "losses")
    assert hit[main] > 0 and hit["rank"] < 3
    assert (tmp_path / "charts" / "sensitivity.png").stat().st_size > 0
    with duckdb.connect(str(out), read_only=True) as con:
        stored = con.execute("SELECT count(*) FROM sensitivity_indices").fetchone()
        values = con.execute("SELECT DISTINCT overrides_json FROM cells").fetchall()
    assert stored == (12,)
    dice = {json.loads(v)["battle.hit_dice"] for (v,) in values}
    assert dice == {"20 + 2*d10", "3d10"}  # discrete: only the listed values


@pytest.mark.parametrize(
    ("fields", "key", "needle"),
    [
        (
            {"parameters": {"campaign.rough_road_pas": {"range": [1, 2]}}},
            "parameters.campaign.rough_road_pas",
            "rough_road_pass",
        ),
        (
            {"parameters": {"campaign.rough_road_pass": {"range": [90, 30]}}},
            "parameters.campaign.rough_road_pass.range",
            "reversed",
        ),
        (
            {"parameters": {"campaign.rough_road_pass": {"range": [50, 50]}}},
            "parameters.campaign.rough_road_pass.range",
            "empty",
        ),
        (
            {"parameters": {"campaign.rough_road_pass": {"range": [30, 190]}}},
            "parameters.campaign.rough_road_pass",
            "refused",
        ),
        (
            {"parameters": {"battle.hit_dice": {"values": ["3d10"]}}},
            "parameters.battle.hit_dice.values",
            "two distinct",
        ),
        (
            {"parameters": {"campaign": {"range": [1, 2]}}},
            "parameters.campaign",
            "not a config key",
        ),
        ({"doctrines": ["balanced:reckless"]}, "doctrines[0]", "reckless"),
        ({"method": "sobol", "samples": 6}, "samples", "power of 2"),
        ({"runs": 100000, "samples": 5000}, "samples", "at most"),
        ({"parameters": {}}, "parameters", ""),
        ({"runz": 4}, "runz", "unknown key"),
    ],
)
def test_bad_specs_exit_2(fields: dict, key: str, needle: str, tmp_path: Path, cli: Cli) -> None:
    out = tmp_path / "s.duckdb"
    code, _, err = cli(["sensitivity", str(_spec(tmp_path, **fields)), "--output", str(out)])
    assert code == 2, err
    assert key in err and needle in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize(
    ("flags", "needle"),
    [
        (["--samples", "0"], "expected at least 2"),
        (["--samples", "100000"], "expected at most"),
        (["--runs", "0"], "expected at least 1"),
        (["--method", "sobol", "--samples", "6"], "power of 2"),
    ],
)
def test_a_bad_flag_is_named_not_the_spec_file(
    flags: list[str], needle: str, tmp_path: Path, cli: Cli
) -> None:
    """A bad number typed on the command line is blamed on its flag, with the flag's fix:
    the spec file is fine."""
    spec = _spec(tmp_path)
    out = tmp_path / "s.duckdb"
    code, _, err = cli(["sensitivity", str(spec), *flags, "--output", str(out)])
    assert code == 2, err
    flag = "--samples" if "--samples" in flags else "--runs"
    assert err.startswith(f"error: {flag}: "), err
    assert needle in err
    assert needle == "power of 2" or f"Give {flag} a valid value" in err
    assert str(spec) not in err and "Traceback" not in err
    assert not out.exists()
