"""Work bounded by map size × days, refused before work (issue 32 item 5; campaign/workload.py):
a campaign past 100,000 junction-days, a diary past 20,000, exit 2 with the limit and the
longest time limit the map may have; within the bounds nothing changes."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from campaign.errors import MapError, SimulatorError
from campaign.workload import (
    MAX_CAMPAIGN_JUNCTION_DAYS,
    MAX_DIARY_JUNCTION_DAYS,
    check_campaign_work,
    check_diary_work,
    check_hold_work,
)

from .conftest import one_error_line, run_cli


def _grid_map(tmp_path: Path, width: int, height: int) -> Path:
    """A ``width`` × ``height`` grid of junctions, 2-hour roads, bases in opposite corners."""
    lines = ["name: grid", "junctions:"]
    lines += [f"  - {{id: j{x}_{y}, pos: [{x}, {y}]}}" for x in range(width) for y in range(height)]
    lines.append("roads:")
    for x in range(width):
        for y in range(height):
            if x + 1 < width:
                lines.append(f"  - [j{x}_{y}, j{x + 1}_{y}, {{hours: 2}}]")
            if y + 1 < height:
                lines.append(f"  - [j{x}_{y}, j{x}_{y + 1}, {{hours: 2}}]")
    far = f"j{width - 1}_{height - 1}"
    lines += [
        "sides:",
        "  red: {base: j0_0, start: [j0_0]}",
        f"  blue: {{base: {far}, start: [{far}]}}",
    ]
    path = tmp_path / "grid.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_bounds_are_products_of_junctions_and_days() -> None:
    check_campaign_work(1000, 100, "m.yaml")  # exactly at the bound: accepted
    check_campaign_work(23, 365, "m.yaml")  # the default map, the longest time limit
    with pytest.raises(MapError, match="at most 99 days"):
        check_campaign_work(1001, 100, "m.yaml")
    check_diary_work(1000, 20, "m.yaml", "--report")
    check_diary_work(23, 365, "m.yaml", "--report")
    with pytest.raises(SimulatorError, match="at most 20 days"):
        check_diary_work(1000, 21, "m.yaml", "--report")
    assert MAX_CAMPAIGN_JUNCTION_DAYS == 100_000 and MAX_DIARY_JUNCTION_DAYS == 20_000


def test_a_campaign_past_the_bound_is_refused_before_it_is_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grid = _grid_map(tmp_path, 20, 15)  # 300 junctions x 365 days = 109,500 junction-days
    start = time.process_time()
    argv = ["run", str(grid), "--seed", "1", "--set", "campaign.time_limit_days=365"]
    code, out, err = run_cli(argv, capsys)
    line = one_error_line(err)
    assert code == 2 and out == ""
    assert "109,500 junction-days" in line and "100,000" in line and "at most 333 days" in line
    assert str(grid) in line
    assert time.process_time() - start < 10  # before any campaign work


def test_a_diary_past_the_bound_is_refused_before_the_campaign_is_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grid = _grid_map(tmp_path, 10, 10)  # 100 junctions x 365 days: a campaign, not a diary
    diary = tmp_path / "d.html"
    argv = ["run", str(grid), "--seed", "1", "--set", "campaign.time_limit_days=365"]
    code, _, err = run_cli([*argv, "--report", str(diary)], capsys)
    line = one_error_line(err)
    assert code == 2 and "36,500 junction-days" in line and "--report" in line
    assert "at most 200 days" in line and not diary.exists()


def test_holds_that_could_think_too_often_are_refused_before_the_campaign(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Divisions holding with nowhere to go think again every ``hold_minutes``: 22 divisions
    (10 a side and the default map's 2 reinforcements) × 128 days × 840 minutes of daylight
    at 1 minute could think 2.4 million times (the fuzz's 128-day case ran 569 s)."""
    check_hold_work(8, 128, 840, 1, None)  # 860,160: 17 s of CPU, accepted
    start = time.process_time()
    argv = ["run", "--seed", "3", "--set", "campaign.time_limit_days=128"]
    argv += ["--set", "campaign.hold_minutes=1", "--set", "campaign.divisions_per_side=10"]
    code, out, err = run_cli(argv, capsys)
    line = one_error_line(err)
    assert code == 2 and out == "" and "2,365,440 times" in line and "1,000,000" in line
    assert "campaign.hold_minutes=3" in line
    assert time.process_time() - start < 10


def test_a_batch_past_a_bound_is_refused_before_its_results_file_is_made(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A batch whose cells a campaign would refuse (here the holds' bound) is refused when it
    is planned: exit 2, and no results file left behind (a new, empty one was, before)."""
    spec, out = tmp_path / "spec.yaml", tmp_path / "r.duckdb"
    spec.write_text(
        "set:\n  campaign.time_limit_days: [128]\n  campaign.hold_minutes: [1]\n"
        "  campaign.divisions_per_side: [10]\nruns: 2\n",
        encoding="utf-8",
    )
    code, _, err = run_cli(["batch", "run", str(spec), "-o", str(out), "--workers", "0"], capsys)
    assert code == 2 and "1,000,000" in one_error_line(err), err
    assert not out.exists()
