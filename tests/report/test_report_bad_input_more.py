"""``campaign report`` on files that are not event streams: one-paragraph errors, exit 2."""

from __future__ import annotations

import duckdb
import pytest

from campaign.cli import main


def _error(capsys, *args: str) -> str:
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    err = capsys.readouterr().err
    assert exc.value.code == 2, err
    assert err.startswith("error: ") and "Traceback" not in err
    assert err.strip().count("\n") == 0, err
    return err


def test_binary_file_is_not_an_event_stream(capsys, tmp_path):
    path = tmp_path / "binary.yaml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00\x81")
    err = _error(capsys, "report", str(path), "-o", str(tmp_path / "x.html"))
    assert "not a JSON-lines event stream" in err and str(path) in err


def test_duckdb_file_is_not_an_event_stream(capsys, tmp_path):
    path = tmp_path / "results.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE runs (x INTEGER)")
    err = _error(capsys, "report", str(path), "-o", str(tmp_path / "x.html"))
    assert str(path) in err and ("JSON-lines" in err or "not a campaign event" in err)


def test_usage_names_the_events_argument(capsys):
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    out = capsys.readouterr().out
    assert "EVENTS.jsonl" in out and "{events}" not in out
