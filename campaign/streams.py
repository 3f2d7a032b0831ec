"""The random streams of one seed (RULES.md §0.6): one Philox key, one counter block a stream.

A seed becomes a 128-bit key once, ``SeedSequence(seed).generate_state(2, uint64)``. Every
stream drawn from that seed is numpy's counter-based :class:`numpy.random.Philox` under that
key, its counter starting at ``[0, 0, 0, stream]``: the stream id is the counter's top word.
Philox's output is a keyed bijection of its counter (Random123's intended use), so two
streams are independent and a stream has 2**192 blocks of four 64-bit draws before it would
reach the next one. The stream ids are the constants below:

========================  ======================================================
stream id                 what draws from it
========================  ======================================================
``FORCES``                raising divisions and reinforcements (RULES.md §2.1, §8.9)
``MARCH``                 rough roads, roll-offs, withdrawal checks of the campaign
``SIDE_ORDER``            who acts first within a minute (one draw per campaign)
``STRATEGY[side]``        each side's strategy doctrine (RULES.md §8.8)
``BATTLE + n``            campaign battle ``n`` (1, 2, … in the order they begin), and
                          battle ``n`` (from 0) of ``campaign battle --seed S [--odds N]``
``ODDS | s``              the odds a diary quotes for the battle fought on stream ``s``
========================  ======================================================

This layout replaced ``SeedSequence.spawn`` children and a ``default_rng`` per stream and per
battle (issue 15: making them cost about a sixth of a campaign); it is that issue's one
deliberate reorganisation of the random draws, so logs from before it differ.

A campaign makes one generator per long-lived stream and keeps one more, :meth:`Streams.restart`,
that is put back at the start of a short stream (the side order, each battle) before each use:
setting a Philox's state costs a fraction of making one. A campaign hands its generators
back when it ends (:meth:`Streams.release`): the next campaign of the process sets their
state instead of making new ones (issue 15: the same draws, cheaper).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from numpy.random.bit_generator import ISeedSequence

__all__ = [
    "BATTLE",
    "FORCES",
    "MARCH",
    "ODDS",
    "SIDE_ORDER",
    "STRATEGY",
    "Streams",
    "key_words",
    "odds_stream",
    "remember_keys",
    "seed_key",
    "sequence_states",
    "uint32_words",
]

FORCES = 1
MARCH = 2
SIDE_ORDER = 3
STRATEGY: dict[str, int] = {"red": 4, "blue": 5}
#: battle streams: ``BATTLE + n`` (campaign battle n from 1; ``campaign battle`` battle i from 0)
BATTLE = 1 << 32
#: the odds of a battle: ``ODDS | its stream`` (RULES.md §0.6: never the campaign's own dice)
ODDS = 1 << 62
_TOP = 192  # a stream id is the counter's top 64-bit word


#: SeedSequence's hash constants (numpy/random/bit_generator.pyx), for :func:`_block_keys`
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_MASK32 = 0xFFFFFFFF
#: the keys of seeds below 2**32 are worked out this many at a time (a block of consecutive
#: seeds, as a batch runs them): about 0.3 us a seed, where one SeedSequence takes 5 to 20.
#: A power of two, so that the last block ends at 2**32
_BLOCK = 512
#: block number (seed // _BLOCK) -> the keys of its seeds, for the next seeds of this process;
#: at most _BLOCKS_KEPT blocks are kept (then it starts afresh)
_KEYS: dict[int, list[tuple[int, int]]] = {}
_BLOCKS_KEPT = 4


def key_words(seed: int) -> tuple[int, int]:
    """The 128-bit Philox key of ``seed`` (an int >= 0) as two ints < 2**64: the uint64 words
    of ``SeedSequence(seed).generate_state(2, uint64)``, so that near seeds give unrelated
    keys. Put together from its four 32-bit words as numpy does (little end first): the same
    ints without a uint64 array and its scalars (each campaign's :class:`Streams` makes one).

    A seed below 2**32 (one 32-bit word of entropy) gets its key from a block of consecutive
    seeds hashed together (:func:`_block_keys`), kept for the next seeds of this process; a
    seed given to :func:`remember_keys` beforehand (a batch's chunk of runs) gets the key
    worked out then. The same words, checked against numpy (tests/campaign/test_streams.py),
    at a fraction of the cost (issues 26 and 31's speed).

    Raises
    ------
    ValueError, TypeError
        If ``seed`` is negative, or not an integer.
    """
    seed = operator.index(seed)
    if 0 <= seed <= _MASK32:
        block, at = divmod(seed, _BLOCK)
        keys = _KEYS.get(block)
        if keys is None:
            if len(_KEYS) >= _BLOCKS_KEPT:
                _KEYS.clear()
            keys = _KEYS[block] = _block_keys(block * _BLOCK, _BLOCK)
        return keys[at]
    known = _REMEMBERED.get(seed)
    if known is not None:
        return known
    low0, high0, low1, high1 = np.random.SeedSequence(seed).generate_state(4, np.uint32).tolist()
    return low0 | high0 << 32, low1 | high1 << 32


def remember_keys(seeds: Sequence[int]) -> None:
    """Work out the keys of ``seeds`` (ints >= 2**32; smaller ones have theirs by blocks, and
    negative ones are left to :func:`key_words` to refuse) all at once, for the next
    :class:`Streams` of this process: a batch worker's chunk of runs, whose seeds are
    spread over [0, 2**63) (:func:`campaign.batch.worker.run_seed`). Below
    :data:`_TOGETHER` seeds of one word count, they are left to :func:`key_words` (arrays
    too short to pay). At most :data:`_REMEMBERED_MAX` keys are kept: the oldest go first."""
    by_size: dict[int, list[int]] = {}
    for seed in seeds:
        if seed > _MASK32 and seed not in _REMEMBERED:
            by_size.setdefault((seed.bit_length() + 31) // 32, []).append(seed)
    for size, group in by_size.items():
        if len(group) < _TOGETHER:
            continue
        entropy = [
            np.array([seed >> 32 * k & _MASK32 for seed in group], np.uint32) for k in range(size)
        ]
        if len(_REMEMBERED) + len(group) > _REMEMBERED_MAX:
            _REMEMBERED.clear()
        _REMEMBERED.update(zip(group, _keys_of(sequence_states(entropy, 4)), strict=True))


#: seeds of one word count worked out together by :func:`remember_keys`, at the least
_TOGETHER = 16
#: seed -> key, of the seeds given to :func:`remember_keys`
_REMEMBERED: dict[int, tuple[int, int]] = {}
_REMEMBERED_MAX = 4096


#: uint32 words, one a seed (numpy's integer arrays wrap modulo 2**32, as its C code does)
Words = np.ndarray[Any, np.dtype[np.uint32]]


def _hashed(value: Words, before: int, after: int) -> Words:
    """SeedSequence's ``hashmix`` of ``value`` between the hash constants ``before`` and
    ``after``: xor ``before``, times ``after``, then xor itself shifted right 16."""
    value = (value ^ np.uint32(before)) * np.uint32(after)
    return value ^ value >> np.uint32(16)


def uint32_words(value: int) -> list[int]:
    """``value`` (an int >= 0) as SeedSequence reads an entropy integer: its 32-bit words,
    the low one first; 0 is one word, ``[0]``."""
    words = [value & _MASK32]
    value >>= 32
    while value:
        words.append(value & _MASK32)
        value >>= 32
    return words


def sequence_states(entropy: Sequence[Words], n_words: int) -> list[Words]:
    """``SeedSequence(...).generate_state(n_words, uint32)`` of many seed sequences at once:
    word ``i`` of each one's assembled entropy is ``entropy[i]`` (equal-length arrays, one
    element a sequence; as numpy assembles it, spawn keys after the entropy padded to four
    words), and the answer's word ``j`` of each one is element ``j`` of the list. By
    SeedSequence's own steps on uint32 arrays (:data:`Words`): the entropy hashed into a
    pool of four words, each pool word mixed into every other, the entropy beyond four
    words mixed into each, then the pool hashed out (``mix_entropy`` and
    ``generate_state`` of numpy/random/bit_generator.pyx).

    Raises
    ------
    ValueError
        If ``entropy`` is empty.
    """
    if not entropy:
        raise ValueError("a seed sequence has at least one word of entropy")
    hash_const = _INIT_A

    def hashmix(value: Words) -> Words:
        nonlocal hash_const
        before, hash_const = hash_const, hash_const * _MULT_A & _MASK32
        return _hashed(value, before, hash_const)

    def mix(into: Words, value: Words) -> Words:
        mixed: Words = into * np.uint32(_MIX_MULT_L) - hashmix(value) * np.uint32(_MIX_MULT_R)
        return mixed ^ mixed >> np.uint32(16)

    zeros = np.zeros_like(entropy[0])
    pool = [hashmix(entropy[k] if k < len(entropy) else zeros) for k in range(4)]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = mix(pool[dst], pool[src])
    for word in entropy[4:]:
        for dst in range(4):
            pool[dst] = mix(pool[dst], word)
    hash_const = _INIT_B
    state: list[Words] = []
    for k in range(n_words):
        before, hash_const = hash_const, hash_const * _MULT_B & _MASK32
        state.append(_hashed(pool[k % 4], before, hash_const))
    return state


def _keys_of(state: list[Words]) -> list[tuple[int, int]]:
    """Keys (:func:`key_words`) from four state words of many seeds (:func:`sequence_states`)."""
    low0, high0, low1, high1 = (word.astype(np.uint64) for word in state)
    low = low0 | high0 << np.uint64(32)
    high = low1 | high1 << np.uint64(32)
    return list(zip(low.tolist(), high.tolist(), strict=True))


def _block_keys(first: int, count: int) -> list[tuple[int, int]]:
    """:func:`key_words` of the seeds ``first .. first + count - 1`` (all below 2**32): one
    word of entropy each (:func:`sequence_states`)."""
    return _keys_of(sequence_states([np.arange(first, first + count, dtype=np.uint32)], 4))


def seed_key(seed: int) -> np.ndarray[Any, Any]:
    """:func:`key_words` of ``seed`` as a uint64 array of two (Philox's ``key=``).

    Raises
    ------
    ValueError, TypeError
        If ``seed`` is negative, or not an integer.
    """
    return np.array(key_words(seed), dtype=np.uint64)


def odds_stream(battle_seed: tuple[int, ...]) -> int:
    """The stream of the odds of a battle recorded with ``battle_seed``
    (:attr:`campaign.events.BattleFought.battle_seed`, ``(stream,)``).

    An events file from before the streams (its ``battle_seed`` a spawn key such as
    ``(2, 5)``) gets the odds stream of its last number: still one fixed stream a battle.

    Examples
    --------
    >>> odds_stream((BATTLE + 3,)) == ODDS | (BATTLE + 3)
    True
    """
    return ODDS | (int(battle_seed[-1]) % ODDS) if battle_seed else ODDS


class _Key(ISeedSequence):
    """Hands Philox a key already made (numpy's seed-sequence interface): a Philox made with
    ``key=`` would draw fresh OS entropy first, only to discard it (about 5 us each)."""

    __slots__ = ("key",)

    def __init__(self, key: np.ndarray[Any, Any]) -> None:
        self.key = key

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> np.ndarray[Any, Any]:
        """The key; Philox asks for exactly two 64-bit words. Raises ValueError otherwise."""
        if n_words != 2 or np.dtype(dtype) != np.uint64:
            raise ValueError(f"a Philox key is 2 uint64 words, not {n_words} of {dtype}")
        return self.key


#: a placeholder key for a Philox made only to have its state set at once
_NO_KEY = cast(np.random.SeedSequence, _Key(np.zeros(2, dtype=np.uint64)))
#: generators handed back by :meth:`Streams.release`, for the next streams of this process
_FREE: list[tuple[np.random.Philox, np.random.Generator]] = []
#: at most this many are kept (a campaign lends five)
_FREE_MAX = 16


class Streams:
    """The streams of one seed (see the module's table).

    Parameters
    ----------
    seed
        The campaign's (or ``campaign battle``'s) seed, an int >= 0.

    Raises
    ------
    ValueError, TypeError
        As :func:`seed_key`.
    """

    __slots__ = ("_lent", "_restart", "_state", "key")

    def __init__(self, seed: int) -> None:
        #: the 128-bit Philox key: two ints < 2**64 (:func:`key_words`)
        self.key: tuple[int, int] = key_words(seed)
        #: (bit generator, generator) pairs this object handed out, for :meth:`release`
        self._lent: list[tuple[np.random.Philox, np.random.Generator]] = []
        self._restart: tuple[np.random.Philox, np.random.Generator] | None = None
        # the state dict of a Philox at the start of a stream: counter and buffer as plain
        # lists (the state setter takes any sequence), the counter's top word set per use
        self._state: Any = {
            "bit_generator": "Philox",
            "state": {"counter": [0, 0, 0, 0], "key": list(self.key)},
            "buffer": [0, 0, 0, 0],
            "buffer_pos": 4,
            "has_uint32": 0,
            "uinteger": 0,
        }

    def _take(self, stream: int) -> tuple[np.random.Philox, np.random.Generator]:
        """A generator at the start of ``stream``: one handed back by a finished campaign, or
        a new one, its state set (the same draws as ``Philox(key, counter=stream << 192)``)."""
        if _FREE:
            pair = _FREE.pop()
        else:
            bits = np.random.Philox(_NO_KEY)
            pair = (bits, np.random.Generator(bits))
        self._state["state"]["counter"][3] = stream
        pair[0].state = self._state
        self._lent.append(pair)
        return pair

    def generator(self, stream: int) -> np.random.Generator:
        """A generator at the start of ``stream`` (0 <= stream < 2**64), the caller's to keep
        (until :meth:`release`, if it is ever called)."""
        return self._take(stream)[1]

    def restart(self, stream: int) -> np.random.Generator:
        """This object's one shared generator, put back at the start of ``stream``.

        Only for a caller that is done with it before the next :meth:`restart`: the next
        call moves it to another stream (the battle engine keeps nothing of its generator
        once :func:`battle.engine.fight` returns).
        """
        pair = self._restart
        if pair is None:
            pair = self._restart = self._take(stream)
            return pair[1]
        self._state["state"]["counter"][3] = stream
        pair[0].state = self._state
        return pair[1]

    def coin(self, stream: int) -> int:
        """0 or 1, drawn at the start of ``stream``: what ``restart(stream).integers(2)``
        draws — numpy's bounded draw (Lemire's) of 0..1 from the low 32 bits of the
        stream's first 64-bit word, which is their top bit, bit 31 — read from the bit
        generator itself, without the generator's general integer path (a campaign's side
        order, issue 15). Moves the shared generator as :meth:`restart` does."""
        return self.restart(stream).bit_generator.random_raw() >> 31 & 1

    def release(self) -> None:
        """Hand every generator made by this object back, for the next :class:`Streams` of
        this process to reuse (a campaign calls it as it ends: setting a state costs a
        fraction of making a Philox). Nothing may draw from them afterwards: the next
        campaign puts them at the start of its own streams. Its own later calls make or take
        generators afresh."""
        room = _FREE_MAX - len(_FREE)
        if room > 0:
            _FREE.extend(self._lent[:room])
        self._lent = []
        self._restart = None
