"""Battles begun the same minute are logged in the order they began (issue 28's finding: a
battle whose record stayed at the end of the stream did not move a later battle of the same
minute down, so battle 6 could be printed before battle 5; default seeds 12 and 23)."""

from __future__ import annotations

import pytest

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import BattleFought
from campaign.maps import load_map


def _battle_numbers(map_name: str | None, seed: int) -> list[int]:
    """Each BattleFought's battle number, in stream order: its dice stream's counter
    (``battle_seed``), which the desk gives battles in the order they begin."""
    events = run_campaign(load_map(map_name), load_rules(), seed, record_events=True).events
    return [e.battle_seed[-1] for e in events if isinstance(e, BattleFought)]


@pytest.mark.parametrize("seed", [12, 23])
def test_two_battles_of_one_minute_keep_their_order(seed: int) -> None:
    events = run_campaign(load_map(None), load_rules(), seed, record_events=True).events
    fought = [e for e in events if isinstance(e, BattleFought)]
    starts = [e.t for e in fought]
    assert len(starts) != len(set(starts)), "the case: two battles begun the same minute"
    numbers = _battle_numbers(None, seed)
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)


@pytest.mark.parametrize("map_name", [None, "waterloo-1815"])
def test_every_battle_is_logged_in_the_order_it_began(map_name: str | None) -> None:
    for seed in range(30):
        numbers = _battle_numbers(map_name, seed)
        assert numbers == sorted(numbers), (map_name, seed, numbers)
