"""The replay file: self-contained and offline, small enough, and a side's file holds only that
side's knowledge (RULES.md §8.6), checked on the file's bytes against the side's jsonl."""

from __future__ import annotations

import io
import json
import re

from campaign.events import BattleFought, DivisionRaised, Reinforced, StrengthLearned
from campaign.printers.jsonl import write_jsonl
from campaign.replay import render_replay, replay_views, write_replay
from campaign.replay.data import replay_data
from campaign.report.view import side_view

from .conftest import SEED
from .conftest import replay_data_of as _data


def _jsonl(events) -> str:
    out = io.StringIO()
    write_jsonl(events, out)
    return out.getvalue()


def _division_ids(events) -> set[str]:
    ids: set[str] = set()
    for e in events:
        if isinstance(e, DivisionRaised):
            ids.add(e.division)
        elif isinstance(e, Reinforced):
            ids.update(e.divisions)
    return ids


def test_the_file_makes_no_network_request_and_names_no_other_file(replay_files):
    text = replay_files["umpire"].read_text(encoding="utf-8")
    assert "default-src 'none'" in text  # the page's own policy forbids any request
    urls = set(re.findall(r"(?:https?|wss?|ftp)://[^\s\"'<>)]*", text))
    assert urls <= {"http://www.w3.org/2000/svg"}, urls  # the SVG namespace is a name only
    for pattern in (r"<link\b", r"\bsrc\s*=", r"@import", r"\bfetch\(", "XMLHttpRequest", r"url\("):
        assert not re.search(pattern, text), pattern


def test_sizes_of_a_default_campaign_file_stay_under_3_mb(replay_files):
    size = replay_files["umpire"].stat().st_size
    assert 50_000 < size < 3_000_000, size


def test_the_red_file_names_no_division_reds_stream_does_not_name(default_campaign, tmp_path):
    """On the file's bytes: the campaign up to Red's first sighting, when Red knows no Blue
    division, and the whole campaign (every division id in the file is in Red's stream)."""
    cmap, events, rules = default_campaign
    first = min(e.t for e in side_view(events, "red") if type(e).__name__ == "Sighted")
    for stream in ([e for e in events if e.t < first], events):
        red_jsonl = _jsonl(side_view(stream, "red"))
        path = write_replay(stream, cmap, tmp_path / "red.html", ["red"], rules=rules)
        text = path.read_text(encoding="utf-8")
        blue = sorted(d for d in _division_ids(events) if d.startswith("B"))
        hidden = [d for d in blue if not re.search(rf'"{d}"', red_jsonl)]
        if stream is not events:
            assert hidden == blue  # the morning before the first sighting: none known
        for d in hidden:  # the id as a word, anywhere in the file's bytes
            assert not re.search(rf"\b{d}\b", text), f"{d} is in the Red file"
        for d in set(re.findall(r"\b[RB]\d+\b", text)):
            assert f'"{d}"' in red_jsonl, f"{d} is in the Red file, not in Red's stream"


def test_the_red_file_holds_no_strength_or_position_reds_stream_lacks(
    default_campaign, replay_files
):
    _, events, _ = default_campaign
    red = side_view(events, "red")
    red_jsonl = _jsonl(red)
    data = _data(replay_files["red"])
    assert list(data["views"]) == ["red"]
    view = data["views"]["red"]
    learned = {(e.enemy, e.units, e.boxes) for e in red if isinstance(e, StrengthLearned)}
    seen_at = set()
    for e in red:
        who = getattr(e, "enemy", None) or getattr(e, "division", None)
        for key in ("junction", "origin", "destination"):
            if hasattr(e, key):
                seen_at.add((who, getattr(e, key)))
        if isinstance(e, BattleFought):
            for ids in e.divisions.values():
                seen_at.update((d, j) for d in ids for j in (e.road or (e.place,)))
    enemies = 0
    for division, track in view["tracks"].items():
        assert f'"{division}"' in red_jsonl, division
        if track["own"]:
            continue
        enemies += 1
        for _t, where, _seen, boxes, units, _alive in track["steps"]:
            for j in where[1:3] if where[0] == "road" else where[1:2]:
                assert (division, j) in seen_at, (division, where)
            if boxes is not None:
                assert (division, units, boxes) in learned, (division, units, boxes)
    assert enemies > 0
    assert data["seed"] is None and f"seed {events[0].seed}" not in replay_files["red"].read_text()
    assert _data(replay_files["umpire"])["seed"] == events[0].seed
    blue_checks = [e for e in events if type(e).__name__ == "WithdrawalCheck" and e.side == "blue"]
    text = replay_files["red"].read_text(encoding="utf-8")
    for e in blue_checks:  # Blue's loss % at its evening check is Blue's alone (§7.6)
        assert f"{e.casualty_percent:g}%" not in text


def test_every_view_of_the_umpire_file_is_the_sides_own_file(replay_files):
    umpire = _data(replay_files["umpire"])
    assert list(umpire["views"]) == ["umpire", "red", "blue"]
    for side in ("red", "blue"):
        own = _data(replay_files[side])
        assert own["views"][side] == umpire["views"][side]
        assert own["map"] == umpire["map"]


def test_a_sides_own_stream_gives_the_same_replay(default_campaign):
    cmap, events, rules = default_campaign
    red = side_view(events, "red")
    assert replay_views(red, None) == ["red"]
    a = replay_data(events, cmap, ["red"], destroyed_at=rules.battle.destroyed_at_hits)
    b = replay_data(red, cmap, ["red"], destroyed_at=rules.battle.destroyed_at_hits)
    assert a["views"] == b["views"]


def test_no_text_in_the_data_can_close_the_script_element(default_campaign):
    cmap, events, rules = default_campaign
    data = replay_data(events, cmap, ["red"], destroyed_at=rules.battle.destroyed_at_hits)
    data["title"] = "</script><script>alert(1)</script><!-- @DATA@ @JS@ @CSS@"
    page = render_replay(data)
    body = page[page.index('id="replay-data">') :]
    assert body.count("</script>") == 2  # the data's and the program's own ends
    start = page.index('id="replay-data">') + len('id="replay-data">')
    assert json.loads(page[start : page.index("</script>", start)])["title"] == data["title"]
    title = page[page.index("<title>") + 7 : page.index("</title>")]
    assert title == (
        "Replay: &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!-- @DATA@ @JS@ @CSS@"
    )
    assert page.count("window.replay = {") == 1


def test_tracks_start_at_dawn_and_follow_each_march(default_campaign):
    cmap, events, rules = default_campaign
    data = replay_data(events, cmap, ["umpire"], destroyed_at=rules.battle.destroyed_at_hits)
    tracks = data["views"]["umpire"]["tracks"]
    first = next(e for e in events if isinstance(e, DivisionRaised))
    step = tracks[first.division]["steps"][0]
    assert step[0] == 0 and step[1][:2] in (["at", first.junction], ["road", first.junction])
    assert step[4] == len(first.units) and step[3] == sum(
        rules.battle.destroyed_at_hits for _ in first.units
    )
    assert data["dawns"][0] == 0 and all(
        b - a == 1440 for a, b in zip(data["dawns"], data["dawns"][1:], strict=False)
    )
    assert data["end"] == max(e.t for e in events)
    assert events[0].seed == SEED


def test_log_rows_run_forward_and_a_day_heading_opens_its_day(default_campaign):
    cmap, events, rules = default_campaign
    data = replay_data(events, cmap, ["blue"], destroyed_at=rules.battle.destroyed_at_hits)
    log = data["views"]["blue"]["log"]
    times = [r[0] for r in log]
    assert times == sorted(times)
    days = [(i, r) for i, r in enumerate(log) if r[1] == "day"]
    assert [r[3] for _, r in days] == [f"Day {n}" for n in range(1, len(days) + 1)]
    assert len(days) >= 2
    for i, row in days:
        n = int(row[3].split()[1])
        assert row[0] == log[i + 1][0]  # shown with the day's first row
        assert (row[0] + data["clock"]["day_start"]) // 1440 + 1 == n


def test_the_replays_log_speaks_with_the_maps_own_names():
    """The log panel names generals and places as the text log does: the map's own
    commanders (issue 29's names: Vandamme leads the French III Corps on the Waterloo map),
    never the config's generic lists, and the junction's terrain in a battle's header."""
    import subprocess
    import sys

    from campaign.config import load_rules
    from campaign.engine import run_campaign
    from campaign.maps import load_map

    cmap = load_map("waterloo-1815")
    events = run_campaign(cmap, load_rules(), 1815, battle_logs=True).events
    data = replay_data(events, cmap, ["umpire"], destroyed_at=10)
    rows = " ".join(str(row[3]) for row in data["views"]["umpire"]["log"])
    text = subprocess.run(
        [sys.executable, "-m", "campaign", "run", "waterloo-1815", "--seed", "1815"],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout  # fmt: skip
    generals = set(re.findall(r"\b([RB]\d) \(([^)]+)\)", text))
    assert ("R1", "Vandamme") in generals
    assert generals == set(re.findall(r"\b([RB]\d) \(([^)]+)\)", rows))
