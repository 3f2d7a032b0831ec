"""Issue 29: the diary's detail (summary or full), its running head and contents, and each
day's dispatch written from the view's own events."""

from __future__ import annotations

import re

import pytest

from campaign.cli import main
from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import BattleFought, CampaignStarted, FellBack, RoughRoadTest
from campaign.maps import load_map
from campaign.printers.battle_story import faced_overnight
from campaign.printers.jsonl import write_jsonl
from campaign.printers.narrative import Narrator
from campaign.report import build_diary, render_html
from campaign.report.context import diary_context
from campaign.report.html import _css_string
from campaign.report.view import side_view


def _run(argv: list[str]) -> int:
    try:
        main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


@pytest.fixture(scope="module")
def summaries(campaign_run, odds):
    _, cmap, events = campaign_run
    return {v: render_html(events, cmap, v, odds, detail="summary") for v in ("umpire", "red")}


def test_the_summary_leaves_out_logs_units_and_timed_events(summaries, diaries, campaign_run):
    _, _, events = campaign_run
    battles = [e for e in events if isinstance(e, BattleFought)]
    assert battles and all(b.log for b in battles)
    full, summary = diaries["umpire"], summaries["umpire"]
    assert "Bound by bound" in full and 'class="battle-units"' in full
    assert "Bound by bound" not in summary and 'class="battle-units"' not in summary
    assert 'ol class="narrative"' in full and 'ol class="narrative"' not in summary
    # every battle is still there, with how it ended
    for n in range(1, len(battles) + 1):
        assert f'id="battle-{n}"' in summary
    briefs = re.findall(r'<p class="brief">(.*?)</p>', summary)
    assert len(briefs) == len(battles)
    assert all(" After " in b or b.startswith("After ") for b in briefs)
    assert all(re.search(r"Hits taken: \w+ \d+ \(\d+%\), \w+ \d+ \(\d+%\)", b) for b in briefs)


def test_page_numbers_running_head_and_contents(diaries, campaign_run):
    _, _, events = campaign_run
    html = diaries["umpire"]
    header = next(e for e in events if isinstance(e, CampaignStarted))
    assert '@bottom-center { content: counter(page) " / " counter(pages);' in html
    assert f"@top-right {{ content: {_css_string(f'Seed {header.seed}')};" in html
    days = re.findall(r'<section class="day" id="day-(\d+)">', html)
    assert days
    for d in days:  # each day a named page whose head says the day, linked from the contents
        assert f"#day-{d} {{ page: day-{d}; }}" in html
        assert f"@page day-{d} {{ @top-right {{ content: " in html
        assert f'<li><a href="#day-{d}">Day {d}</a>' in html
    contents = re.findall(r'<nav class="contents">.*?</nav>', html, re.S)[0]
    for anchor in re.findall(r'href="#([^"]+)"', contents):
        assert f'id="{anchor}"' in html


def test_a_css_string_cannot_break_out_of_the_style_sheet():
    text = str(_css_string('Map "A" </style><script>x\\'))
    assert text.startswith('"') and text.endswith('"')
    inner = text[1:-1]
    assert '"' not in inner and "<" not in inner and ">" not in inner
    assert "\\22 " in inner and "\\3c " in inner and "\\5c " in inner


def test_a_bad_detail_exits_2(campaign_run, tmp_path, capsys):
    _, _, events = campaign_run
    path = tmp_path / "events.jsonl"
    with path.open("w", encoding="utf-8") as fp:
        write_jsonl(events, fp)
    out = tmp_path / "diary.html"
    assert _run(["report", str(path), "-o", str(out), "--detail", "short"]) == 2
    err = capsys.readouterr().err
    assert "--detail" in err and "summary, full" in err and "Traceback" not in err
    assert not out.exists()


def _dispatches(campaign_run, odds, view):
    _, cmap, events = campaign_run
    diary = build_diary(events, view, destroyed_at=10)
    return diary, diary_context(diary, cmap, odds)["days"]


def test_the_umpires_dispatch_tells_each_battle_and_fall_back(campaign_run, odds):
    diary, days = _dispatches(campaign_run, odds, "umpire")
    number = 0
    for day, row in zip(diary.days, days, strict=True):
        text = row["dispatch"]
        assert text and text.endswith(".")
        for b in day.battles:
            number += 1
            assert f"#{number} at {b.place_name}" in text
            when = diary.clock.label(b.t)[-5:]
            if faced_overnight(b):
                assert f"#{number} at {b.place_name} ({when}): " in text
                assert "face each other overnight" in text
            elif b.winner is None:
                assert f"#{number} at {b.place_name} ({when}) is drawn" in text
        for f in (e for e in day.events if isinstance(e, FellBack)):
            assert f.division in text
        if not day.battles:
            assert "no battle is fought" in text
        if day.tally is not None:
            assert "objective value held" in text


@pytest.mark.parametrize("view", ["red", "blue"])
def test_a_sides_dispatch_names_only_divisions_it_knew_of(campaign_run, odds, view):
    """Every division a side's dispatch names appears in that side's own filtered stream by
    that day (its own, or an enemy it saw or fought); the enemy's strength is never given
    whole."""
    _, _, events = campaign_run
    diary, days = _dispatches(campaign_run, odds, view)
    known: set[str] = set()
    shown = side_view(events, view)
    for day, row in zip(diary.days, days, strict=True):
        for e in shown:
            if diary.clock.day(e.t) <= day.number:
                known.update(re.findall(r"\b[RB]\d+\b", repr(e)))
        named = set(re.findall(r"\b[RB]\d+\b", row["dispatch"]))
        assert named <= known, (day.number, named - known)
        enemy = diary.side_name("blue" if view == "red" else "red")
        assert not re.search(rf"{enemy} \d+ boxes(?! in the divisions fought)", row["dispatch"])


def _rough(t: int, origin: str, dest: str, passed: bool, roll: int = 50) -> RoughRoadTest:
    return RoughRoadTest(t, "red", "R2", origin, dest, roll, 40.0, passed)


def test_a_divisions_rough_road_tries_fold_into_one_line():
    from campaign.report.context import _narrative
    from campaign.report.days import Day

    names = {"a": "Pernau", "b": "Fellin", "c": "Dorpat"}
    events = [
        _rough(60, "a", "b", False),
        _rough(120, "a", "b", False),
        _rough(180, "a", "b", False),
        _rough(240, "a", "b", True, 12),
        _rough(300, "b", "c", False, 77),
        _rough(360, "a", "c", True, 5),  # another road: a run of its own
    ]
    rows = _narrative(Narrator(names), Day(1, events=list(events)), {})
    assert [r["text"] for r in rows] == [
        "R2 tries the rough road from Pernau to Fellin four times and gets through at 10:00",
        "R2 tries the rough road from Fellin to Dorpat: rolls 77, needing 40 or less, and "
        "cannot pass and stays at Fellin",
        "R2 tries the rough road from Pernau to Dorpat: rolls 5, needing 40 or less, and gets "
        "through",
    ]
    assert [r["time"] for r in rows] == ["10:00", "11:00", "12:00"]
    failed = _narrative(Narrator(names), Day(1, events=events[:3]), {})
    assert [r["text"] for r in failed] == [
        "R2 tries the rough road from Pernau to Fellin three times and cannot pass (last roll "
        "50, needing 40 or less); it stays at Pernau"
    ]


def test_a_long_chain_of_minor_junctions_folds():
    from campaign.printers.folding import fold_stops as _stops

    assert _stops(["A", "B", "C"]) == "A, B, C"
    chain = ["Leal", "h1", "h2", "Fellin", "h3", "h4", "Dorpat"]
    assert _stops(chain, frozenset({"Fellin", "Dorpat", "Leal"})) == (
        "Leal by way of Fellin to Dorpat"
    )
    assert _stops(chain) == "Leal by way of Fellin to Dorpat"  # none major: the middle stop
    assert _stops(["A", "h1", "h2", "h3", "A"], frozenset({"A"})) == "A by way of h2 to A"


def test_the_markdown_summary_tells_each_battle_in_a_paragraph(tmp_path):
    """As the printed summary does (issue 29): in Markdown too a summary battle is one
    paragraph (where, when, who attacked whom, the odds, how it ended, the hits), with no
    heading, sides table, unit table or bound-by-bound log; the full diary keeps them."""
    from campaign.report.html import render_markdown
    from campaign.report.request import DiaryRequest

    cmap = load_map(None)
    events = run_campaign(cmap, load_rules(), 42, record_events=True).events
    battles = sum(isinstance(e, BattleFought) for e in events)
    summary = render_markdown(DiaryRequest(events, cmap, tmp_path / "s.md", detail="summary"))
    full = render_markdown(DiaryRequest(events, cmap, tmp_path / "f.md", detail="full"))
    assert "### Battle #" not in summary and "| Unit | Side |" not in summary
    assert "| Side | Divisions |" not in summary and "Bound by bound" not in summary
    paragraphs = re.findall(r"(?m)^\*\*#(\d+) .*\.\*\* .*Hits taken: .*\.$", summary)
    assert [int(n) for n in paragraphs] == list(range(1, battles + 1))
    assert full.count("### Battle #") == battles
    # seed 42: 525 of 794 lines (288 of 574 before issue 31's generals' plans made it a
    # six-day campaign of five battles: its days, kept whole in a summary, now outweigh its
    # battles; printed, its summary is 11 pages of the full diary's 35)
    assert len(summary.splitlines()) < 0.7 * len(full.splitlines())
