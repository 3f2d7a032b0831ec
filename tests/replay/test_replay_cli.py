"""``campaign replay EVENTS.jsonl -o FILE.html [--view] [--map]`` and ``run --replay``."""

from __future__ import annotations

import json

import pytest

from campaign.cli import main
from campaign.printers.jsonl import write_jsonl
from campaign.report.view import side_view

from .conftest import replay_data_of as _data


def _run(argv: list[str]) -> int:
    try:
        main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


@pytest.fixture
def saved(default_campaign, tmp_path):
    """The umpire's stream and Red's own stream of the default campaign, as JSON lines."""
    cmap, events, _ = default_campaign
    paths = {}
    for view in ("umpire", "red"):
        paths[view] = tmp_path / f"{view}.jsonl"
        with paths[view].open("w", encoding="utf-8") as fp:
            write_jsonl(side_view(events, view), fp)
    return paths, cmap


def test_replay_writes_the_umpire_file_with_all_three_views(saved, replay_files, tmp_path, capsys):
    paths, _ = saved
    out = tmp_path / "replay.html"
    assert _run(["replay", str(paths["umpire"]), "-o", str(out)]) == 0
    assert "umpire, red, blue views" in capsys.readouterr().out
    data = _data(out)
    assert list(data["views"]) == ["umpire", "red", "blue"]
    expected = _data(replay_files["umpire"])  # the same campaign, written in-process
    assert data["views"]["red"] == expected["views"]["red"]
    assert data["map"] == expected["map"]


def test_replay_view_red_holds_reds_view_only(saved, replay_files, tmp_path):
    paths, _ = saved
    for source in ("umpire", "red"):  # from the umpire's stream or Red's own
        out = tmp_path / f"from-{source}.html"
        args = ["replay", str(paths[source]), "-o", str(out)]
        assert _run([*args, "--view", "red"] if source == "umpire" else args) == 0
        assert _data(out)["views"] == _data(replay_files["red"])["views"]


@pytest.mark.parametrize(
    ("stream", "args", "words"),
    [
        ("red", ["--view", "blue"], ["red's view only", "--view red"]),
        ("red", ["--view", "umpire"], ["red's view only", "--view"]),
        ("umpire", ["--view", "green"], ["unknown view 'green'", "--view red"]),
    ],
)
def test_a_view_the_stream_cannot_give_exits_2(saved, tmp_path, capsys, stream, args, words):
    paths, _ = saved
    out = tmp_path / "r.html"
    assert _run(["replay", str(paths[stream]), "-o", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err
    for w in words:
        assert w in err
    assert not out.exists()


def test_a_file_that_is_not_html_exits_2_before_reading(saved, tmp_path, capsys):
    paths, _ = saved
    out = tmp_path / "replay.txt"
    assert _run(["replay", str(paths["umpire"]), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--output" in err and ".html" in err and not out.exists()


def test_a_missing_map_names_the_file_and_the_option(saved, tmp_path, capsys):
    paths, cmap = saved
    lines = paths["umpire"].read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["map_source"] = str(tmp_path / "gone" / "map.yaml")
    paths["umpire"].write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", "utf-8")
    out = tmp_path / "r.html"
    assert _run(["replay", str(paths["umpire"]), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "gone/map.yaml" in err and "--map" in err
    assert _run(["replay", str(paths["umpire"]), "-o", str(out), "--map", cmap.source]) == 0
    assert out.exists()


def test_run_writes_a_replay_beside_its_log(tmp_path, capsys):
    out = tmp_path / "run.html"
    log = tmp_path / "run.jsonl"
    argv = ["run", "--seed", "3", "--format", "jsonl", "-o", str(log), "--replay", str(out)]
    assert _run(argv) == 0
    assert "replay written to" in capsys.readouterr().err
    assert list(_data(out)["views"]) == ["umpire", "red", "blue"]
    red = tmp_path / "red.html"
    assert _run(["run", "--seed", "3", "--view", "red", "--replay", str(red)]) == 0
    assert list(_data(red)["views"]) == ["red"]
    # the replay written by the run is the one `campaign replay` makes of its log
    again = tmp_path / "again.html"
    assert _run(["replay", str(log), "-o", str(again)]) == 0
    assert _data(again)["views"]["blue"] == _data(out)["views"]["blue"]


def test_run_refuses_a_replay_name_before_playing(tmp_path, capsys):
    assert _run(["run", "--seed", "3", "--replay", str(tmp_path / "r.png")]) == 2
    err = capsys.readouterr().err
    assert "--replay" in err and ".html" in err
    assert "seed 3" not in err  # refused before the campaign was played


def test_a_stream_without_battle_logs_is_replayed_with_a_note(default_campaign, tmp_path, capsys):
    from dataclasses import replace

    from campaign.events import BattleFought

    _, events, _ = default_campaign
    bare = [replace(e, log=()) if isinstance(e, BattleFought) else e for e in events]
    path = tmp_path / "summary.jsonl"
    with path.open("w", encoding="utf-8") as fp:
        write_jsonl(bare, fp)
    out = tmp_path / "r.html"
    assert _run(["replay", str(path), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "no bound-by-bound battle logs" in err and "--battles verbose" in err
    assert all(not b["log"] for b in _data(out)["views"]["umpire"]["battles"])


@pytest.mark.parametrize(
    ("extra", "flag"),
    [
        (["--format", "jsonl", "-o", "same.html", "--replay", "same.html"], "--replay"),
        (["-o", "same.html", "--report", "same.html"], "--report"),
    ],
)
def test_run_refuses_two_flags_naming_one_file(tmp_path, capsys, monkeypatch, extra, flag):
    """run -o F --replay F (or --report F) wrote both to F, the log silently over the replay
    (found by a fresh-eyes run); now refused before playing, nothing written."""
    monkeypatch.chdir(tmp_path)
    assert _run(["run", "--seed", "3", *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and f"--output and {flag} name the same file" in err
    assert "seed 3" not in err and not (tmp_path / "same.html").exists()


def test_replay_refuses_to_write_over_its_own_stream(saved, tmp_path, capsys):
    """A stream saved as .html given as both EVENTS and -o is refused and kept byte for byte
    (it was replaced by its own replay)."""
    paths, _ = saved
    stream = tmp_path / "log.html"
    stream.write_bytes(paths["umpire"].read_bytes())
    assert _run(["replay", str(stream), "-o", str(stream)]) == 2
    assert "name the same file" in capsys.readouterr().err
    assert stream.read_bytes() == paths["umpire"].read_bytes()
