"""Damaged, foreign and other-version files are refused with exit 2 and left as they are
(issue 32 item 6): results DuckDB files and event streams."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import duckdb
import pytest

from campaign.batch.filecheck import is_corruption

from .conftest import one_error_line, run_cli


def _corrupted_copy(results: Path, tmp_path: Path) -> Path:
    """A copy of ``results`` with 32 bytes overwritten in the first block whose checksum
    then fails (found by trying each 64 KiB step: DuckDB's free blocks are not checked)."""
    size = results.stat().st_size
    bad = tmp_path / "corrupt.duckdb"
    for start in range(12288, size, 16384):
        shutil.copy(results, bad)
        with bad.open("r+b") as fh:
            fh.seek(start + 100)
            fh.write(b"\xa5" * 32)
        try:
            with duckdb.connect(str(bad), read_only=True) as con:
                for table in ("batches", "cells", "runs", "battles"):
                    con.execute(f"SELECT bit_xor(hash(t)) FROM {table} t").fetchone()
        except duckdb.Error as exc:
            if is_corruption(exc):
                return bad
    pytest.skip("no overwritten block made DuckDB report a checksum error")


@pytest.mark.parametrize(
    "argv", [["batch", "report", "{db}", "--json"], ["batch", "report", "{db}"]]
)
def test_a_corrupt_results_file_is_refused(
    results: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    bad = _corrupted_copy(results, tmp_path)
    code, _, err = run_cli([a.format(db=bad) for a in argv], capsys)
    line = one_error_line(err)
    assert code == 2 and str(bad) in line and "damaged" in line and "Restore it" in line


def test_a_batch_never_writes_into_a_corrupt_file(
    results: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _corrupted_copy(results, tmp_path)
    before = bad.read_bytes()
    code, _, err = run_cli(
        ["batch", "run", "--runs", "2", "--workers", "0", "-q", "-o", str(bad)], capsys
    )
    assert code == 2 and "nothing was written" in one_error_line(err)
    assert bad.read_bytes() == before


def _foreign(tmp_path: Path) -> Path:
    path = tmp_path / "foreign.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE sales (day DATE, amount DOUBLE)")
        con.execute("INSERT INTO sales VALUES ('2026-01-01', 3.5)")
    return path


def test_a_foreign_duckdb_file_is_refused_for_reading_and_writing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _foreign(tmp_path)
    code, _, err = run_cli(["batch", "report", str(path), "--json"], capsys)
    assert code == 2 and "not a results file of campaign batch: it holds sales" in one_error_line(
        err
    )
    before = path.read_bytes()
    code, _, err = run_cli(
        ["batch", "run", "--runs", "2", "--workers", "0", "-q", "-o", str(path)], capsys
    )
    assert code == 2 and "nothing was written" in one_error_line(err)
    with duckdb.connect(str(path), read_only=True) as con:
        tables = con.execute("SELECT table_name FROM duckdb_tables()").fetchall()
    assert tables == [("sales",)]
    assert len(path.read_bytes()) == len(before)


def test_a_file_of_another_schema_version_is_refused(
    results: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    newer = tmp_path / "newer.duckdb"
    shutil.copy(results, newer)
    with duckdb.connect(str(newer)) as con:
        con.execute("ALTER TABLE runs ADD COLUMN weather VARCHAR")
    for argv in (
        ["batch", "report", str(newer), "--json"],
        ["batch", "run", "--runs", "2", "--workers", "0", "-q", "-o", str(newer)],
    ):
        code, _, err = run_cli(argv, capsys)
        line = one_error_line(err)
        assert code == 2 and "another schema version" in line and "weather" in line


def _stream(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    path = tmp_path / "events.jsonl"
    code, _, _ = run_cli(["run", "--seed", "4", "--format", "jsonl", "-o", str(path)], capsys)
    assert code == 0
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize(
    ("t", "words"),
    [
        (-(2**70), "out of range"),
        (-5, "expected 0..527040 minutes"),
        (10**9, "expected 0..527040 minutes"),
        ("NaN", "finite"),
        ("back", "out of order"),
    ],
)
def test_an_event_stream_with_times_out_of_range_or_order_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], t: object, words: str
) -> None:
    lines = _stream(tmp_path, capsys)
    events = [json.loads(line) for line in lines]
    k = next(i for i, e in enumerate(events) if i > 2 and e["t"] > 0)
    if t == "back":
        events[k - 1]["t"] = events[k]["t"] + 1
        bad_line = k + 1
    else:
        events[k]["t"] = float("nan") if t == "NaN" else t
        bad_line = k + 1
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in events) + "\n", encoding="utf-8")
    code, _, err = run_cli(["report", str(path), "-o", str(tmp_path / "d.html")], capsys)
    line = one_error_line(err)
    assert code == 2 and words in line and f"line {bad_line}" in line, line


@pytest.mark.parametrize(
    ("kind", "key", "value", "words"),
    [  # each of these hung the diary past 20 s, or raised, before (issue 32's long fuzz)
        ("CampaignEnded", "days", 10**9, "expected 0..367"),
        ("CampaignEnded", "days", 300, "past the campaign's time"),
        ("BattleFought", "minutes", 10**9, "expected 0..1440"),
        ("CampaignStarted", "day_start", 10**9, "expected 0..1439"),
        ("CampaignStarted", "day_start", -1, "expected 0..1439"),
        ("CampaignStarted", "day_end", 300, "not before it ends"),
        ("CampaignStarted", "seed", -1, "expected 0..18446744073709551616"),
        ("DayEnded", "day", -1, "expected 1..367"),
    ],
)
@pytest.mark.parametrize("command", ["report", "replay"])
def test_an_event_stream_with_a_number_no_run_writes_is_refused_at_once(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    key: str,
    value: int,
    words: str,
    command: str,
) -> None:
    events = [json.loads(line) for line in _stream(tmp_path, capsys)]
    k = next(i for i, e in enumerate(events) if e["type"] == kind)
    events[k][key] = value
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in events) + "\n", encoding="utf-8")
    before = path.read_bytes()
    start = time.process_time()
    code, _, err = run_cli([command, str(path), "-o", str(tmp_path / "d.html")], capsys)
    line = one_error_line(err)
    assert code == 2 and words in line and f"line {k + 1}" in line and str(path) in line, line
    assert "Give the JSON-lines file" in line  # the fix
    assert time.process_time() - start < 5  # refused before any work
    assert path.read_bytes() == before and not (tmp_path / "d.html").exists()
