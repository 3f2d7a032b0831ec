"""The random streams of a seed (campaign/streams.py, RULES.md §0.6): one Philox key per seed,
a stream per counter block, and a campaign's battles each on their own stream."""

from __future__ import annotations

import random

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


_LARGE_SEEDS = [2**31 - 1, 2**32 - 1, 2**32, 2**32 + 1, 2**63 + 5, 2**64, 2**96 + 3]
_LARGE_SEEDS += [2**128 - 1, 2**128, 3**100, 7**200, 123456789123456789123456789]
_LARGE_SEEDS += [2**k + d for k in range(1, 520, 7) for d in (-1, 0, 1)]
_LARGE_SEEDS += [random.Random(k).getrandbits(k % 700 + 1) for k in range(2_000)]
#: seeds below 2**32 get their keys by blocks of consecutive seeds: the last blocks, and seeds
#: all over the range (each a block of its own, kept a few at a time)
_WORD_SEEDS = [2**32 - 1 - k for k in range(1_100)]
_WORD_SEEDS += [random.Random(k).getrandbits(32) for k in range(300)]


@pytest.mark.parametrize("seeds", [range(0, 3_000), _LARGE_SEEDS, _WORD_SEEDS])
def test_the_key_is_numpys_seed_sequence_word_for_word(seeds) -> None:
    # small seeds (one 32-bit word of entropy) and large ones (more than the pool's four)
    for seed in seeds:
        expected = np.random.SeedSequence(seed).generate_state(2, np.uint64).tolist()
        assert seed_key(seed).tolist() == expected, seed
        assert list(Streams(seed).key) == expected


def test_a_coin_is_what_integers_draws_at_the_start_of_its_stream() -> None:
    for seed in range(1_500):
        streams, again = Streams(seed), Streams(seed)
        for stream in (SIDE_ORDER, BATTLE + seed % 7, ODDS | seed):
            assert streams.coin(stream) == int(again.restart(stream).integers(2))


def test_a_bad_seed_is_refused_as_numpy_refuses_it() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        Streams(-1)
    with pytest.raises(TypeError):
        Streams(1.5)  # type: ignore[arg-type]
    assert Streams(np.int64(42)).key == Streams(42).key  # a numpy integer is an integer


def _fresh(seed: int, stream: int, n: int) -> list[float]:
    """The first ``n`` uniforms of ``stream`` the plain way: a new Philox at its counter."""
    bits = np.random.Philox(key=seed_key(seed), counter=[0, 0, 0, stream])
    return np.random.Generator(bits).random(n).tolist()


def test_released_generators_draw_exactly_what_new_ones_draw() -> None:
    # a campaign hands its generators back as it ends; the next Streams sets their state:
    # left mid-block, with a spare 32-bit half buffered, they still start the new stream
    # exactly where a new Philox would
    first = Streams(5)
    used = [first.generator(s) for s in (FORCES, MARCH, *STRATEGY.values())]
    used.append(first.restart(BATTLE + 2))
    for rng in used:
        rng.random(3)
        rng.integers(0, 10, size=3, dtype=np.uint32)  # leaves a 32-bit half buffered
    first.release()
    second = Streams(9)
    again = [second.generator(s) for s in (FORCES, MARCH, *STRATEGY.values())]
    assert {id(r) for r in again} <= {id(r) for r in used}  # reused, not made afresh
    for s, rng in zip((FORCES, MARCH, *STRATEGY.values()), again, strict=True):
        assert rng.random(9).tolist() == _fresh(9, s, 9)
    assert second.restart(BATTLE + 4).random(9).tolist() == _fresh(9, BATTLE + 4, 9)
    assert second.restart(SIDE_ORDER).random(5).tolist() == _fresh(9, SIDE_ORDER, 5)
    second.release()
    second.release()  # twice: nothing handed back twice
    third, fourth = Streams(1), Streams(2)
    a, b = third.generator(MARCH), fourth.generator(MARCH)
    assert a is not b
    assert a.random(6).tolist() == _fresh(1, MARCH, 6)
    assert b.random(6).tolist() == _fresh(2, MARCH, 6)


def test_a_campaign_comes_out_the_same_on_reused_generators() -> None:
    # the first campaign of a process makes its generators, later ones reuse those handed
    # back: the same seed gives the same campaign either way
    cmap, loaded = load_map(), load_rules()
    first = run_campaign(cmap, loaded, 77)
    run_campaign(cmap, loaded, 78)
    again = run_campaign(cmap, loaded, 77)
    assert again.events == first.events
    assert again.battle_rows == first.battle_rows
