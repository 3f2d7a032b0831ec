"""``campaign report EVENTS.jsonl -o FILE [--view] [--map]``."""

from __future__ import annotations

import json

import pytest

from campaign.cli import main
from campaign.printers.jsonl import write_jsonl


def _run(argv: list[str]) -> int:
    try:
        main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


@pytest.fixture
def saved(campaign_run, tmp_path):
    _, cmap, events = campaign_run
    path = tmp_path / "events.jsonl"
    with path.open("w", encoding="utf-8") as fp:
        write_jsonl(events, fp)
    return path, cmap


def test_report_rebuilds_the_diary_from_saved_events(saved, diaries, tmp_path):
    path, _ = saved
    out = tmp_path / "diary.html"
    assert _run(["report", str(path), "-o", str(out), "--view", "red"]) == 0
    assert out.read_text(encoding="utf-8") == diaries["red"]


def test_a_missing_map_names_the_file_and_the_option(saved, tmp_path, capsys):
    path, cmap = saved
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["map_source"] = str(tmp_path / "gone" / "map.yaml")
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    out = tmp_path / "diary.html"
    assert _run(["report", str(path), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "gone/map.yaml" in err and "--map" in err
    assert _run(["report", str(path), "-o", str(out), "--map", cmap.source]) == 0
    assert out.exists()


def test_a_bad_view_exits_2(saved, tmp_path, capsys):
    path, _ = saved
    assert _run(["report", str(path), "-o", str(tmp_path / "d.html"), "--view", "x"]) == 2
    assert "--view" in capsys.readouterr().err


def test_a_sides_stream_gives_only_that_sides_diary(campaign_run, tmp_path, capsys):
    from campaign.report.view import side_view

    _, _, events = campaign_run
    path = tmp_path / "red.jsonl"
    with path.open("w", encoding="utf-8") as fp:
        write_jsonl(side_view(events, "red"), fp)
    for view in ("blue", "umpire"):
        assert _run(["report", str(path), "-o", str(tmp_path / "d.html"), "--view", view]) == 2
        err = capsys.readouterr().err
        assert "red's view only" in err and "--view red" in err
    assert _run(["report", str(path), "-o", str(tmp_path / "d.html"), "--view", "red"]) == 0
    out = tmp_path / "own.html"  # no --view: the stream's own view, Red's diary
    assert _run(["report", str(path), "-o", str(out)]) == 0
    title = out.read_text(encoding="utf-8").split("<title>")[1].split("</title>")[0]
    assert "only what" in title and "umpire" not in title, title


def test_a_stream_without_battle_logs_is_reported_with_a_note(campaign_run, tmp_path, capsys):
    # the fixture's campaign has battle logs: no note; the same stream without them: a note
    from dataclasses import replace

    from campaign.events import BattleFought

    _, _, events = campaign_run
    assert any(isinstance(e, BattleFought) and e.log for e in events)
    bare = [replace(e, log=()) if isinstance(e, BattleFought) else e for e in events]
    for stream, noted in ((events, False), (bare, True)):
        path = tmp_path / "events.jsonl"
        with path.open("w", encoding="utf-8") as fp:
            write_jsonl(stream, fp)
        capsys.readouterr()
        assert _run(["report", str(path), "-o", str(tmp_path / "d.html")]) == 0
        err = capsys.readouterr().err
        assert ("no bound-by-bound battle logs" in err) is noted, err
        assert ("--battles full" in err) is noted


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["run", "--seed", "1", "--report", "{missing}/d.html"], "--report"),
        (["run", "--seed", "1", "-o", "{missing}/log.txt"], "--output"),
        (["report", "{events}", "-o", "{missing}/d.html"], "--output"),
    ],
)
def test_an_output_into_a_missing_folder_is_refused_before_any_work(
    saved, tmp_path, capsys, argv, flag
):
    # like every output file: a folder is never created for it (a mistyped folder name would
    # put the file somewhere unexpected); the campaign is not played first
    path, _ = saved
    missing = tmp_path / "no" / "such"
    args = [a.format(missing=missing, events=path) for a in argv]
    assert _run(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and "seed" not in err
    assert f"{flag}: cannot write there (the folder '{missing}' does not exist)" in err
    assert f"mkdir -p {missing}" in err
    assert not missing.exists()
