"""Issue 29, item 8: a dusk meeting with no shots reads "they face each other overnight", a
certain evening check says so instead of listing the dice, reserves stand in the order of
battle with the day they enter, and the final table runs in side and division order."""

from __future__ import annotations

import re

import pytest

from battle.events import Factor
from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import BattleFought, CampaignEnded, DivisionRaised, WithdrawalCheck
from campaign.maps import load_map
from campaign.printers.battle_story import faced_overnight
from campaign.printers.narrative import Narrator, narrate
from campaign.printers.odds import OddsBook
from campaign.report import render_html


@pytest.fixture(scope="module")
def seed42():
    cmap = load_map()
    loaded = load_rules()
    return cmap, run_campaign(cmap, loaded, 42, None, record_events=True).events


def test_a_dusk_meeting_without_a_shot_is_said_as_facing_each_other():
    """Seed 46 (seed 42 until the road victor's rally of issue 31: its winner of the road
    battle no longer reaches Mont Fère with the beaten B2 at dusk)."""
    cmap = load_map()
    events = run_campaign(cmap, load_rules(), 46, None, record_events=True).events
    names = {n: d["name"] for n, d in cmap.graph.nodes(data=True)}
    entries = narrate(events, names, odds=OddsBook(load_rules().rules, 46))
    quiet = [x for x in entries if isinstance(x.event, BattleFought) and faced_overnight(x.event)]
    fought = [x for x in entries if isinstance(x.event, BattleFought) and x not in quiet]
    assert len(quiet) == 1  # seed 46: La Croisée, day 1 19:30
    e = quiet[0].event
    assert e.winner is None and e.reason == "nightfall" and not any(e.hits.values())
    assert quiet[0].text.startswith("At La Croisée at dusk: ")
    assert quiet[0].text.endswith("face each other overnight")
    assert quiet[0].details == [
        "Nightfall came after two bounds (0 h 30 min), before either side took a hit or lost a "
        "movement card: by the rules a draw."
    ]
    for x in fought:  # every other battle keeps its odds and its account
        assert x.text.startswith("Battle at ") and x.details[0].startswith("Before the battle")


def _check(total: int, die: int = 6, success: int = 12) -> WithdrawalCheck:
    rolls = tuple([1] * max(total, 0))
    return WithdrawalCheck(
        1200,
        "red",
        40.0,
        (Factor("losses 40%", total),),
        total,
        rolls,
        total >= success,
        die,
        success,
    )


@pytest.mark.parametrize(
    ("total", "said"),
    [
        (14, "14 dice cannot roll under 12, so withdrawal is certain: Red withdraws"),
        (12, "12 dice cannot roll under 12, so withdrawal is certain: Red withdraws"),
        (1, "one die cannot reach 12, so it is certain to hold: Red fights on"),
        (2, "two dice rolled 1+1 = 2, 12 or more to withdraw: Red fights on"),
        (11, "11 dice rolled"),
        (0, "they come to 0, so there is nothing to roll: Red fights on"),
    ],
)
def test_an_evening_check_says_certain_when_the_dice_cannot_change_it(total, said):
    entry = Narrator().one(_check(total), 1)
    assert entry is not None
    assert said in entry.text, entry.text


def test_reserves_stand_in_the_order_of_battle_with_the_day_they_enter(seed42):
    cmap, events = seed42
    html = render_html(events, cmap, "umpire", None, load_rules().rules, detail="summary")
    cover = html.split('<nav class="contents">')[0]
    late = [e for e in events if isinstance(e, DivisionRaised) and e.t >= 1440]
    assert {e.division for e in late} == {"R4", "B4"}  # the default map's day-2 reserves
    for e in late:
        assert re.search(
            rf"<strong>{e.division}</strong>, [^<]*, in reserve, enters on day 2 at", cover
        )
    early = [e for e in events if isinstance(e, DivisionRaised) and e.t < 1440]
    for e in early:
        assert not re.search(rf"<strong>{e.division}</strong>[^<]*in reserve", cover)


def test_the_final_table_runs_in_side_and_division_order(seed42):
    cmap, events = seed42
    end = next(e for e in events if isinstance(e, CampaignEnded))
    assert [d.division for d in end.divisions] != sorted(
        (d.division for d in end.divisions), key=lambda d: (d[0] != "R", int(d[1:]))
    ), "the engine's own order puts the reserves last: the printers sort"
    names = {n: d["name"] for n, d in cmap.graph.nodes(data=True)}
    table = next(x for x in narrate(events, names) if x.kind == "end").table
    assert [row[0].split()[0] for row in table[1:]] == [
        "R1",
        "R2",
        "R3",
        "R4",
        "B1",
        "B2",
        "B3",
        "B4",
    ]
