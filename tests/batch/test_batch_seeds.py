"""A chunk's seeds and keys worked out together are numpy's, word for word (issue 26's speed).

:func:`campaign.batch.worker.run_seeds` and :func:`campaign.streams.remember_keys` take
SeedSequence's steps on arrays; the yardstick is numpy's own SeedSequence, one at a time.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from campaign import streams
from campaign.batch.worker import run_seed, run_seeds
from campaign.streams import key_words, remember_keys, sequence_states, uint32_words

#: batch entropies of one to seven 32-bit words (numpy pads fewer than four before a spawn key)
_ENTROPIES = [0, 1, 2024, 2**32 - 1, 2**32, 2**63 + 11, 2**96 + 5, 2**128 - 1, 2**200 + 7]
_ENTROPIES += [random.Random(k).getrandbits(k * 9 % 230 + 1) for k in range(20)]


@pytest.mark.parametrize("entropy", _ENTROPIES)
def test_run_seeds_are_run_seed_of_each_run(entropy: int) -> None:
    rng = random.Random(entropy)
    for runs in (
        tuple(range(0, 300)),
        tuple(range(10_000, 10_017)),
        tuple(sorted(rng.sample(range(2**32), 50))),
        (2**32 - 1, *range(15)),
        tuple(range(5)),  # too few to pay: one at a time, the same seeds
    ):
        assert run_seeds(entropy, runs) == [run_seed(entropy, run) for run in runs]


def test_runs_beyond_one_word_and_bad_entropy_go_the_plain_way() -> None:
    runs = (2**32, *range(20))
    assert run_seeds(7, runs) == [run_seed(7, run) for run in runs]
    with pytest.raises(ValueError):
        run_seeds(-1, tuple(range(20)))


def _numpy_key(seed: int) -> list[int]:
    key: list[int] = np.random.SeedSequence(seed).generate_state(2, np.uint64).tolist()
    return key


def test_remembered_keys_are_numpys_keys() -> None:
    streams._REMEMBERED.clear()
    seeds = run_seeds(2024, tuple(range(600)))  # a batch's seeds: spread over [0, 2**63)
    seeds += [random.Random(k).getrandbits(k % 300 + 33) for k in range(400)]
    seeds += [2**32 + k for k in range(40)] + [5, 77]  # the smallest two words; one word
    remember_keys(seeds)
    assert len(streams._REMEMBERED) >= 600  # worked out here, not by key_words one by one
    for seed in seeds:
        assert list(key_words(seed)) == _numpy_key(seed), seed
    streams._REMEMBERED.clear()


def test_remembered_keys_are_bounded() -> None:
    streams._REMEMBERED.clear()
    for first in range(0, 3 * streams._REMEMBERED_MAX, 200):
        remember_keys([2**40 + first + k for k in range(200)])
        assert len(streams._REMEMBERED) <= streams._REMEMBERED_MAX
    streams._REMEMBERED.clear()


def test_sequence_states_are_generate_state() -> None:
    for entropy in (0, 1, 2**32 + 3, 2**150 + 9):
        words = np.array(uint32_words(entropy), np.uint32)
        assert sum(int(w) << 32 * k for k, w in enumerate(words)) == entropy
        assert len(words) == max(1, -(-entropy.bit_length() // 32))  # 0 is one word
        state = sequence_states([np.array([w], np.uint32) for w in words], 8)
        expected = np.random.SeedSequence(entropy).generate_state(8, np.uint32).tolist()
        assert [int(word[0]) for word in state] == expected
    with pytest.raises(ValueError, match="at least one word"):
        sequence_states([], 4)
