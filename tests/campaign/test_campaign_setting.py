"""What every campaign of one map and rules object shares (campaign.setting, issue
15): made once per pair, never shared with another map, rules or time limit, and campaigns
come out the same whether it was made for them or taken from an earlier campaign."""

from __future__ import annotations

import dataclasses

import pytest

import campaign.setting
from campaign.config import load_rules
from campaign.engine import Campaign, run_campaign
from campaign.errors import MapError
from campaign.maps import load_map
from campaign.maps.model import Reinforcement, SideSetup

DOCTRINES = {"red": "balanced", "blue": "cautious"}


def _fresh(cmap, loaded, seed, doctrines=DOCTRINES):
    """A campaign's result with no setting kept from before (each made anew)."""
    campaign.setting.SETTINGS.clear()
    return run_campaign(cmap, loaded, seed, doctrines, record_events=False)


def test_campaigns_of_one_map_and_rules_share_one_setting(default_map, rules) -> None:
    a = Campaign(default_map, rules, 1, DOCTRINES)
    b = Campaign(default_map, rules, 2, {"red": "aggressive", "blue": "raider"})
    assert a.clock is b.clock and a.roads is b.roads and a.bases is b.bases
    assert a.lost_as is b.lost_as and a.ledger.primary_roads is b.ledger.primary_roads
    # what is a campaign's own is not shared
    assert a.objectives is not b.objectives and a.ledger is not b.ledger
    assert a.last_seen is not b.last_seen and a.known_boxes is not b.known_boxes
    # nor the doctrines: each campaign's strategists follow its own
    assert b.strategists["red"].doctrine == rules.rules.campaign.doctrines["aggressive"]
    assert a.strategists["red"].doctrine == rules.rules.campaign.doctrines["balanced"]


def test_other_rules_get_their_own_setting(default_map, rules) -> None:
    other = load_rules(None, {"campaign.max_events": 321, "campaign.day_start_minutes": 300})
    a = Campaign(default_map, rules, 1)
    b = Campaign(default_map, other, 1)
    assert (a.max_events, b.max_events) == (rules.rules.campaign.max_events, 321)
    assert a.clock.day_start == rules.rules.campaign.day_start_minutes
    assert b.clock.day_start == 300
    # and back again: the first rules still get theirs
    assert Campaign(default_map, rules, 1).max_events == rules.rules.campaign.max_events


def test_another_map_or_a_changed_map_gets_its_own_setting(default_map, rules) -> None:
    waterloo = load_map("waterloo-1815")
    a, b = Campaign(default_map, rules, 1), Campaign(waterloo, rules, 1)
    assert a.roads is not b.roads and a.bases != b.bases
    assert b.bases["red"] == (waterloo.sides["red"].base, waterloo.sides["blue"].base)
    # a map is a plain dataclass: a field set anew is seen by the next campaign
    days = a.time_limit_days
    longer = dataclasses.replace(default_map, time_limit_days=days + 3)
    assert Campaign(longer, rules, 1).time_limit_days == days + 3
    longer.time_limit_days = days + 5  # changed in place
    assert Campaign(longer, rules, 1).time_limit_days == days + 5
    red = default_map.sides["red"]
    moved = dataclasses.replace(
        default_map,
        sides={**default_map.sides, "red": SideSetup(red.name, red.starts[0], red.starts)},
    )
    assert Campaign(moved, rules, 1).bases["red"][0] == red.starts[0]
    assert Campaign(default_map, rules, 1).bases["red"][0] == red.base


def test_reinforcements_are_checked_for_each_map_they_come_with(default_map, rules) -> None:
    """A reinforcement entering after the time limit is refused (RULES.md §8.9) even when
    the same graph and rules were set up before without it; the map without it still runs."""
    Campaign(default_map, rules, 1)
    side = default_map.sides["red"]
    late = Reinforcement("red", side.base, 99, 8.0, ("late",), "reinforcements[0]")
    bad = dataclasses.replace(default_map, reinforcements=(late,))
    for _ in range(2):  # refused every time: nothing is kept of a setting that failed
        with pytest.raises(MapError, match="outside the campaign"):
            Campaign(bad, rules, 1)
    Campaign(default_map, rules, 1)


@pytest.mark.parametrize("map_name", [None, "waterloo-1815"])
def test_a_shared_setting_gives_the_campaigns_a_fresh_one_gives(map_name, rules) -> None:
    """Over many seeds, campaigns run one after another on the shared setting come out
    exactly as campaigns each given a setting made anew."""
    cmap = load_map(map_name)
    fresh = [_fresh(cmap, rules, seed) for seed in range(12)]
    shared = [run_campaign(cmap, rules, seed, DOCTRINES, record_events=False) for seed in range(12)]
    for a, b in zip(fresh, shared, strict=True):
        assert a.events == b.events and a.battle_rows == b.battle_rows
        assert (a.winner, a.reason, a.end_minutes, a.losses) == (
            b.winner,
            b.reason,
            b.end_minutes,
            b.losses,
        )
