"""The campaign diary (issue 6): days, battles, result, fog of war, valid offline HTML."""

from __future__ import annotations

import html
import re
from dataclasses import replace

import pytest

from campaign.clock import default_clock
from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.errors import SimulatorError
from campaign.events import (
    BattleFought,
    CampaignEnded,
    CampaignStarted,
    DayEnded,
    DivisionRaised,
    Sighted,
    StrengthLearned,
)
from campaign.maps import load_map
from campaign.report import build_diary, render_html, write_report
from campaign.report.html import rules_of_stream

CLOCK = default_clock()
#: a fresh unit's boxes under the default rules (RULES.md §1.2), read from config
DESTROYED_AT = load_rules().rules.battle.destroyed_at_hits


def _sections(text: str) -> list[str]:
    """The diary's text cut into its day sections; the closing part counts as the last day."""
    return re.split(r'<section class="day" id="day-\d+">', text)[1:]


def _end(events) -> CampaignEnded:
    return next(e for e in events if isinstance(e, CampaignEnded))


def test_a_map_for_every_day(campaign_run, diaries):
    _, _, events = campaign_run
    end = _end(events)
    for text in diaries.values():
        days = _sections(text)
        assert len(days) == end.days >= 1
        for n, section in enumerate(days, start=1):
            assert f"<h2>Day {n}</h2>" in section
            assert section.count("<svg") >= 1
    assert diaries["umpire"].count('<figure class="map">') == end.days + 1  # + the final map


def test_every_battle_and_the_result(campaign_run, diaries):
    _, _, events = campaign_run
    battles = [e for e in events if isinstance(e, BattleFought)]
    assert battles, "the fixed seed should give battles"
    for text in diaries.values():
        shown = html.unescape(text)  # "'" may be written &#39; or &#x27;
        for i, b in enumerate(battles, start=1):
            # the place with the ground the map gives it, if any: "Sombreffe (village)"
            heading = rf"Battle #{i}: {re.escape(b.place_name)}( \([\w -]+\))?, "
            assert re.search(heading + re.escape(CLOCK.label(b.t)), shown), heading
        end = _end(events)
        assert end.reason in shown
        assert 'id="result"' in text
    umpire = diaries["umpire"]
    assert umpire.count('<div class="log">') == len(battles)  # every log open, for print
    assert "<details" not in umpire


@pytest.mark.parametrize(("view", "enemy"), [("red", "blue"), ("blue", "red")])
def test_a_side_never_names_an_enemy_division_it_had_not_seen(campaign_run, diaries, view, enemy):
    _, _, events = campaign_run
    enemy_ids = [e.division for e in events if isinstance(e, DivisionRaised) and e.side == enemy]

    def first_known_day(division: str) -> int | None:
        days = [
            CLOCK.day(e.t)
            for e in events
            if view in e.seen_by
            and (
                (isinstance(e, Sighted) and e.side == view and e.enemy == division)
                or (isinstance(e, StrengthLearned) and e.side == view and e.enemy == division)
                or (isinstance(e, BattleFought) and division in e.divisions.get(enemy, ()))
            )
        ]
        return min(days) if days else None

    named_somewhere = set()
    for n, section in enumerate(_sections(diaries[view]), start=1):
        for division in enemy_ids:
            if re.search(rf"\b{re.escape(division)}\b", section):
                named_somewhere.add(division)
                known = first_known_day(division)
                assert known is not None and known <= n, (
                    f"{view}'s diary names {division} on day {n}; first known day {known}"
                )
    umpire = diaries["umpire"]
    for division in enemy_ids:
        assert re.search(rf"\b{re.escape(division)}\b", umpire)
    # a side's own divisions are all in its own diary
    own = [e.division for e in events if isinstance(e, DivisionRaised) and e.side == view]
    assert all(re.search(rf"\b{d}\b", diaries[view]) for d in own)


def test_a_side_hides_enemy_strength_until_it_fights(campaign_run):
    _, _, events = campaign_run
    diary = build_diary(events, "red", destroyed_at=DESTROYED_AT)
    learned = {}
    for e in events:
        if isinstance(e, StrengthLearned) and e.side == "red":
            learned.setdefault(e.enemy, e.t)
    for day in diary.days:
        for mark in day.marks:
            if mark.side == "blue" and mark.boxes is not None:
                assert learned[mark.division] <= day.snapshot_t


def test_the_umpire_replay_matches_the_nightly_tally(campaign_run):
    _, _, events = campaign_run
    diary = build_diary(events, "umpire", destroyed_at=DESTROYED_AT)
    tallies = [e for e in events if isinstance(e, DayEnded)]
    assert tallies
    for tally in tallies:
        day = diary.days[tally.day - 1]
        assert day.strength == tally.strength
        where = {m.division: m.junction or tuple(m.road or ()) for m in day.marks}
        assert set(where) == set(tally.positions)
        for division, place in tally.positions.items():
            if place:
                assert where[division] == place, division
            else:  # the engine reports '' while a division waits on a road after a battle there
                assert isinstance(where[division], tuple), division


def test_the_html_is_valid_and_loads_nothing_from_the_network(diaries, html_errors, network_loads):
    for view, text in diaries.items():
        errors = html_errors(text)
        assert errors == [], f"{view}: {errors[:5]}"
        assert network_loads(text) == [], view
        assert "<svg" in text and 'xmlns="http://www.w3.org/2000/svg"' in text


def test_the_same_events_give_a_byte_identical_diary(campaign_run, diaries, odds):
    _, cmap, events = campaign_run
    assert render_html(events, cmap, "red", odds) == diaries["red"]


def test_markdown_diary_with_png_pictures(campaign_run, tmp_path):
    _, cmap, events = campaign_run
    path = write_report(events, cmap, tmp_path / "diary.md", "blue")
    text = path.read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    battles = _end(events).battles
    # days, the final map, four charts, a small map of each battle
    assert len(images) == _end(events).days + 5 + battles
    for image in images:
        png = tmp_path / image
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "#### Bound by bound" in text


def test_report_suffix_and_view_are_checked(campaign_run, tmp_path):
    _, cmap, events = campaign_run
    with pytest.raises(SimulatorError, match=r"\.html"):
        write_report(events, cmap, tmp_path / "diary.docx")
    with pytest.raises(SimulatorError, match="--view"):
        write_report(events, cmap, tmp_path / "diary.html", "green")


def test_diary_strengths_read_destroyed_at_hits_from_the_streams_rules():
    """With 12 boxes a unit (``--set battle.destroyed_at_hits=12``) the replayed strengths
    still match the engine's nightly tally: the diary reads the rule, it keeps no copy."""
    loaded = load_rules(overrides={"battle.destroyed_at_hits": 12})
    events = run_campaign(load_map(None), loaded, 5, None, record_events=True).events
    rules = rules_of_stream(events)  # rebuilt from the CampaignStarted header
    assert rules.battle.destroyed_at_hits == 12
    diary = build_diary(events, "umpire", destroyed_at=rules.battle.destroyed_at_hits)
    # the armies raised at the start (the default map's reserves come on day 2, §8.9)
    raised = [e for e in events if isinstance(e, DivisionRaised) and e.t == 0]
    t0, first = diary.series[0]  # the points of one moment are merged
    assert t0 == max(e.t for e in raised)
    assert first == {
        side: 12 * sum(len(e.units) for e in raised if e.side == side) for side in first
    }
    tallies = [e for e in events if isinstance(e, DayEnded)]
    assert tallies
    for tally in tallies:
        assert diary.days[tally.day - 1].strength == tally.strength


def test_a_stream_whose_rules_cannot_be_rebuilt_is_a_clear_error(campaign_run, tmp_path):
    _, cmap, events = campaign_run
    edited = [
        replace(e, rules_hash="0" * 16) if isinstance(e, CampaignStarted) else e for e in events
    ]
    with pytest.raises(SimulatorError, match="destroyed_at_hits") as info:
        write_report(edited, cmap, tmp_path / "diary.html")
    assert info.value.fix
    # the rules given with the stream (as campaign run --report does) need no header
    rules = load_rules().rules
    assert write_report(edited, cmap, tmp_path / "diary.html", rules=rules).exists()
