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


def test_a_diary_over_its_own_stream_is_refused_and_the_stream_kept(capsys, tmp_path):
    """report LOG.html -o LOG.html replaced the stream by its diary (found by a fresh-eyes
    run); refused before reading, the file kept byte for byte."""
    path = tmp_path / "log.html"
    path.write_text('{"type": "CampaignStarted"}\n', encoding="utf-8")
    err = _error(capsys, "report", str(path), "-o", str(path))
    assert "EVENTS and --output name the same file" in err
    assert path.read_text(encoding="utf-8") == '{"type": "CampaignStarted"}\n'
