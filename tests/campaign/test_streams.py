"""The random streams of a seed (campaign/streams.py, RULES.md §0.6): one Philox key per seed,
a stream per counter block, and a campaign's battles each on their own stream."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import BattleFought
from campaign.maps import load_map
from campaign.streams import (
    BATTLE,
    FORCES,
    MARCH,
    ODDS,
    SIDE_ORDER,
    STRATEGY,
    Streams,
    odds_stream,
    seed_key,
)


def test_a_stream_is_a_pure_function_of_seed_and_stream_id() -> None:
    a = Streams(42).generator(MARCH).random(8)
    b = Streams(42).generator(MARCH).random(8)
    assert a.tolist() == b.tolist()
    assert a.tolist() != Streams(43).generator(MARCH).random(8).tolist()
    assert a.tolist() != Streams(42).generator(FORCES).random(8).tolist()
    assert seed_key(42).tolist() == np.random.SeedSequence(42).generate_state(2, np.uint64).tolist()


def test_the_stream_id_is_the_counters_top_word() -> None:
    # the layout itself: stream s starts at counter [0, 0, 0, s] under the seed's key
    key = seed_key(7)
    bits = np.random.Philox(key=key, counter=[0, 0, 0, BATTLE + 3])
    expected = np.random.Generator(bits).random(5)
    assert Streams(7).generator(BATTLE + 3).random(5).tolist() == expected.tolist()


def test_neighbouring_streams_never_overlap() -> None:
    # with the id in a low word, stream k's second block would be stream k + 1's first
    streams = Streams(3)
    draws = [streams.generator(BATTLE + k).random(4_000) for k in range(4)]
    for i in range(4):
        for j in range(i + 1, 4):
            assert not set(draws[i].tolist()) & set(draws[j].tolist())


def test_the_first_draws_of_many_battle_streams_are_uniform() -> None:
    # 2,000 battles' first uniforms: Kolmogorov-Smirnov against U(0, 1), fixed seed; a p-value
    # under 0.001 would mean the streams' starts are related (one run in a thousand by chance)
    streams = Streams(2026)
    firsts = [streams.restart(BATTLE + n).random() for n in range(1, 2_001)]
    assert stats.kstest(firsts, "uniform").pvalue > 0.001


def test_restart_puts_the_shared_generator_back_at_the_start() -> None:
    streams = Streams(11)
    fresh = streams.generator(BATTLE + 1).random(70).tolist()
    rng = streams.restart(BATTLE + 1)
    assert rng.random(70).tolist() == fresh  # past the first block of four
    rng.random(3)  # left mid-block
    streams.restart(SIDE_ORDER)
    assert streams.restart(BATTLE + 1) is rng  # the same object, reset
    assert rng.random(70).tolist() == fresh
    assert len({SIDE_ORDER, FORCES, MARCH, *STRATEGY.values()}) == 5 and BATTLE > 5


def test_a_campaigns_battles_are_on_streams_in_the_order_they_begin() -> None:
    result = run_campaign(load_map(), load_rules(), 42)
    fought = [e for e in result.events if isinstance(e, BattleFought)]
    assert len(fought) >= 5
    assert [e.battle_seed for e in fought] == [(BATTLE + n,) for n in range(1, len(fought) + 1)]


@pytest.mark.parametrize(
    ("battle_seed", "expected"),
    [((BATTLE + 3,), ODDS | (BATTLE + 3)), ((2, 5), ODDS | 5), ((), ODDS)],
)
def test_odds_stream_of_new_and_older_event_files(battle_seed, expected) -> None:
    assert odds_stream(battle_seed) == expected
    assert odds_stream(battle_seed) not in {BATTLE + n for n in range(1, 1000)}
