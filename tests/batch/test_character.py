"""The campaign's character in batch results: ``runs`` columns and the report's line."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from campaign.batch.character import cell_character, character_line
from campaign.batch.reasons import run_reason_code
from campaign.batch.schema import TABLES
from campaign.batch.store import RUN_COLUMNS_ADDED, ResultStore, run_columns
from campaign.batch.worker import run_seed
from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import BattleFought, MarchBegun, Ordered, RoughRoadTest
from campaign.maps import load_map
from campaign.strategy import count_flank_marches

from .conftest import run_cli

SPEC = """\
name: character
maps: [default]
variants: [default]
set:
  campaign.rough_road_pass: [70]
doctrines: ["aggressive:cautious"]
runs: 12
seed: 777
"""


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    from campaign.cli import main

    folder = tmp_path_factory.mktemp("character")
    spec = folder / "spec.yaml"
    spec.write_text(SPEC, encoding="utf-8")
    out = folder / "c.duckdb"
    with pytest.raises(SystemExit) as stop:
        main(["batch", str(spec), "--workers", "0", "-o", str(out), "--quiet"])
    assert stop.value.code in (0, None)
    return spec, out


def test_runs_rows_hold_the_character_of_each_campaign(results: tuple[Path, Path]) -> None:
    """Each row's character columns equal what the same seed's event stream shows."""
    _, out = results
    names = ", ".join(name for name, _ in RUN_COLUMNS_ADDED)
    with duckdb.connect(str(out), read_only=True) as con:
        rows = con.execute(f"SELECT run, seed, days, {names} FROM runs ORDER BY run").fetchall()
        entropy = int(con.execute("SELECT seed_entropy FROM batches").fetchone()[0])
    assert len(rows) == 12
    cmap, rules = load_map(), load_rules(overrides={"campaign.rough_road_pass": 70})
    for run, seed, days, tests, fails, places, marches, flanks, fell, fell_day in rows:
        assert seed == run_seed(entropy, run)
        events = run_campaign(cmap, rules, seed, {"red": "aggressive", "blue": "cautious"}).events
        rough = [e for e in events if isinstance(e, RoughRoadTest)]
        assert tests == len(rough) and fails == sum(not e.passed for e in rough)
        assert marches == sum(isinstance(e, MarchBegun) for e in events)
        battles = [e for e in events if isinstance(e, BattleFought)]
        keys = {e.place if e.road is None else tuple(sorted(e.road)) for e in battles}
        assert places == len(keys)
        orders = [(e.division, e.code, e.goal) for e in events if isinstance(e, Ordered)]
        assert flanks == count_flank_marches(orders)
        end = events[-1]
        if run_reason_code(end.reason) == "base-taken":
            assert fell == ("blue" if end.winner == "red" else "red") and fell_day == days
        else:
            assert fell is None and fell_day is None


def test_report_prints_a_character_line_per_cell(
    results: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = results
    code, text, _ = run_cli(["batch", "report", str(out)], capsys)
    assert code == 0
    flat = " ".join(text.split())  # the line wraps at the terminal's width
    line = flat[flat.index("cell 0 character:") :]
    for word in ("days", "battles", "distinct places", "rough-road tests"):
        assert word in line
    code, text, _ = run_cli(["batch", "report", str(out), "--json"], capsys)
    doc = json.loads(text)
    (character,) = doc[0]["character"]
    assert character["n"] == 12 and character["stored"] is True


def _old_file(path: Path) -> None:
    """A results file as the previous release wrote it (no character columns)."""
    with duckdb.connect(str(path)) as con:
        con.execute(
            "CREATE TABLE runs (batch_id VARCHAR, cell INTEGER, run BIGINT, seed BIGINT, "
            "winner VARCHAR, reason VARCHAR, end_minutes INTEGER, days INTEGER, "
            "battles INTEGER, red_losses INTEGER, blue_losses INTEGER, "
            "red_divisions_left INTEGER, blue_divisions_left INTEGER, "
            "red_objective_value INTEGER, blue_objective_value INTEGER, "
            "PRIMARY KEY (batch_id, cell, run))"
        )
        con.execute(
            "INSERT INTO runs VALUES ('b', 0, 0, 1, 'red', 'r', 840, 1, 2, 5, 6, 3, 2, 4, 5)"
        )
        con.execute(
            "INSERT INTO runs VALUES ('b', 0, 1, 2, NULL, 'r', 840, 3, 4, 5, 6, 3, 2, 4, 5)"
        )


def test_an_older_results_file_is_reported_and_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    _old_file(path)
    with duckdb.connect(str(path), read_only=True) as con:
        (c,) = cell_character(con, "b")
    assert not c.stored and c.days == (2.0, 2.0) and c.battles == (3.0, 3.0)
    assert "not stored" in character_line(c)
    store = ResultStore(path)  # opened for writing (a resumed batch): columns are added
    try:
        assert run_columns(store.con) == [c for c, _, _ in TABLES["runs"]]
        (c,) = cell_character(store.con, "b")
        assert not c.stored  # the old rows have no character to report
    finally:
        store.close()


def test_flank_marches_are_counted_from_the_strategy_s_orders() -> None:
    """A flank march of several roads is one march; a new goal is a new one (§8.8)."""
    orders = [
        ("R1", "flank", "d"),  # 1
        ("R1", "flank", "d"),  # the next road of the same march
        ("R1", "advance", "d"),
        ("R1", "flank", "d"),  # 2: flanking again after a straight stretch
        ("R2", "flank", "d"),  # 3: another division
        ("R2", "flank", "e"),  # 4: a new goal
        ("R2", "pursue", "e"),
    ]
    assert count_flank_marches(orders) == 4
    assert count_flank_marches([]) == 0
