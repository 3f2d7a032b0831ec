"""The results schema as a contract (issue 13): comments on every column, the README table,
reason codes with their text, typed factors, and files of the older layout resumed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pytest

from campaign.batch.reasons import RUN_REASONS, run_reason_code
from campaign.batch.schema import TABLES
from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.maps import load_map
from campaign.paths import MAPS_DIR, PROJECT_ROOT
from tests.batch.conftest import run_cli

SPEC = (
    "name: schema\nmaps: [default]\nvariants: [default]\n"
    "set:\n  campaign.rough_road_pass: [40, 80]\n"
    'doctrines: ["balanced:cautious"]\nruns: {runs}\nseed: 7\n'
)


def _batch(tmp_path: Path, capsys, runs: int, out: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC.format(runs=runs), encoding="utf-8")
    code, _, err = run_cli(["batch", str(spec), "--workers", "0", "-o", str(out), "-q"], capsys)
    assert code == 0, err


@pytest.fixture
def results(tmp_path, capsys) -> Path:
    out = tmp_path / "r.duckdb"
    _batch(tmp_path, capsys, 6, out)
    return out


def test_every_table_and_column_has_a_comment(results):
    with duckdb.connect(str(results), read_only=True) as con:
        tables = dict(
            con.execute(
                "SELECT table_name, comment FROM duckdb_tables() WHERE NOT internal"
            ).fetchall()
        )
        columns = con.execute(
            "SELECT table_name, column_name, comment FROM duckdb_columns() WHERE NOT internal"
        ).fetchall()
    assert set(tables) == set(TABLES) and all(tables.values())
    stored = {(t, c) for t, c, _ in columns}
    assert stored == {(t, c) for t, cols in TABLES.items() for c, _, _ in cols}
    assert all(comment for _, _, comment in columns)
    times = [c for t, c, comment in columns if "06:00 on day 1, nights included" in comment]
    assert set(times) == {"end_minutes", "t"}


def test_the_readme_documents_every_column():
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Results tables") :]
    listed = re.findall(r"^\| `(\w+)\.(\w+)` \| (\w+) \| (.*) \|$", section, re.M)
    # every column once, in table order, with the comment the file stores
    assert listed == [(t, n, k, m) for t, cols in TABLES.items() for n, k, m in cols]


def test_reasons_are_codes_with_their_text(results):
    with duckdb.connect(str(results), read_only=True) as con:
        runs = con.execute("SELECT reason, reason_text FROM runs").fetchall()
        battles = con.execute("SELECT reason, reason_text FROM battles").fetchall()
        factors = [
            json.loads(f) for (f,) in con.execute("SELECT factors_json FROM cells").fetchall()
        ]
    codes = {code for code, _, _ in RUN_REASONS}
    assert runs and all(code in codes and run_reason_code(text) == code for code, text in runs)
    assert battles and all(re.fullmatch(r"[a-z-]+", code) and " " in text for code, text in battles)
    assert [f["campaign.rough_road_pass"] for f in factors] == [40, 80]  # numbers, not "40"


def test_every_way_a_campaign_ends_has_a_code():
    sentences = [
        "Red holds the enemy base, Steinbrück",
        "each side holds the other's base at nightfall: a draw",
        "both armies withdrew the same evening: a draw",
        "Blue withdrew from the campaign (evening withdrawal check, RULES.md §7.6)",
        "neither side has a division left: a draw",
        "Blue has no divisions left",
        "time limit reached; objectives even at 5: a draw",
        "time limit reached; Red holds more objective value (7 to 5)",
        "time limit reached with nothing decided: a draw",
        "event cap reached: a draw",
    ]
    assert [run_reason_code(s) for s in sentences] == [code for code, _, _ in RUN_REASONS]
    plural = ["Allies hold the enemy base, Charleroi", "Allies have no divisions left"]
    plural.append("time limit reached; Allies hold more objective value (7 to 5)")
    assert [run_reason_code(s) for s in plural] == ["base-taken", "no-divisions", "objectives"]
    for path, seeds in ((None, range(40)), (MAPS_DIR / "waterloo-1815.yaml", range(20))):
        cmap = load_map(path)
        for seed in seeds:
            reason = run_campaign(cmap, load_rules(), seed, None, record_events=False).reason
            assert run_reason_code(reason) != "other", reason


def _to_schema_1(path: Path) -> None:
    """Turn a file back into the layout before reason codes (sentences in ``reason``)."""
    with duckdb.connect(str(path)) as con:
        con.execute("UPDATE runs SET reason = reason_text")
        con.execute("ALTER TABLE runs DROP COLUMN reason_text")
        con.execute("ALTER TABLE battles DROP COLUMN reason_text")


def test_a_batch_of_the_older_layout_resumes_and_reports(tmp_path, capsys):
    out = tmp_path / "old.duckdb"
    _batch(tmp_path, capsys, 4, out)
    _to_schema_1(out)
    _batch(tmp_path, capsys, 8, out)  # resume with more runs
    with duckdb.connect(str(out), read_only=True) as con:
        rows = con.execute(
            "SELECT cell, run, reason, reason_text FROM runs ORDER BY ALL"
        ).fetchall()
    assert [(c, r) for c, r, _, _ in rows] == [(c, r) for c in (0, 1) for r in range(8)]
    assert all(run_reason_code(text) == code for _, _, code, text in rows)
    code, report, err = run_cli(["batch", "report", str(out)], capsys)
    assert code == 0, err
    assert "schema" in report
