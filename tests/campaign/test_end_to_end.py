"""Whole campaigns on the default map end, for many seeds and every doctrine pair."""

from __future__ import annotations

import itertools

import pytest

from campaign.engine import run_campaign
from campaign.events import BattleFought, CampaignEnded, CampaignStarted

DOCTRINES = ("aggressive", "cautious", "balanced")


@pytest.mark.slow
@pytest.mark.parametrize(("red", "blue"), list(itertools.product(DOCTRINES, repeat=2)))
def test_default_map_finishes_for_every_doctrine_pair(default_map, rules, red, blue):
    limit = rules.rules.campaign.time_limit_days * 1440
    for seed in range(12):
        result = run_campaign(default_map, rules, seed, {"red": red, "blue": blue})
        assert isinstance(result.events[0], CampaignStarted)
        end = result.events[-1]
        assert isinstance(end, CampaignEnded)
        assert end.reason
        assert result.winner in ("red", "blue", None)
        assert result.end_minutes <= limit + 1
        assert 1 <= result.days <= rules.rules.campaign.time_limit_days
        battles = [e for e in result.events if isinstance(e, BattleFought)]
        assert len(battles) == result.battles


def test_same_seed_same_events(default_map, rules):
    a = run_campaign(default_map, rules, 99, {"red": "aggressive", "blue": "balanced"})
    b = run_campaign(default_map, rules, 99, {"red": "aggressive", "blue": "balanced"})
    assert a.events == b.events
    c = run_campaign(default_map, rules, 100, {"red": "aggressive", "blue": "balanced"})
    assert c.events != a.events


def test_events_off_gives_the_same_outcome(default_map, rules):
    for seed in range(5):
        full = run_campaign(default_map, rules, seed)
        lean = run_campaign(default_map, rules, seed, record_events=False)
        assert (lean.winner, lean.reason, lean.battles, lean.losses) == (
            full.winner,
            full.reason,
            full.battles,
            full.losses,
        )
        assert len(lean.events) == 1 and isinstance(lean.events[0], CampaignEnded)


def test_two_cautious_sides_still_end(default_map, rules):
    for seed in range(10):
        result = run_campaign(default_map, rules, seed, {"red": "cautious", "blue": "cautious"})
        assert isinstance(result.events[-1], CampaignEnded)
