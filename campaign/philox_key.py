"""The 128-bit Philox key of a seed (RULES.md §0.6), worked out with integers (issue 15).

:func:`key_words` is numpy's ``SeedSequence(seed).generate_state(2, numpy.uint64)``, the key
:mod:`campaign.streams` gives every stream of a seed, step for step: numpy's seed-sequence
hash (``numpy/random/bit_generator.pyx``: ``hashmix``, ``mix``, ``mix_entropy`` over a pool
of four 32-bit words, then ``generate_state``) on Python integers. The same words come out
(``tests/campaign/test_streams.py`` checks it against numpy for thousands of seeds, small
and large); compiled (``campaign.native``), it costs about a tenth of building a
``SeedSequence``, which a campaign did once per seed.
"""

from __future__ import annotations

__all__ = ["key_words"]

_MASK = 0xFFFFFFFF  # numpy's uint32 arithmetic wraps at 2**32
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_SHIFT = 16  # XSHIFT: half a 32-bit word
_POOL = 4  # DEFAULT_POOL_SIZE


def key_words(seed: int) -> tuple[int, int]:
    """``SeedSequence(seed).generate_state(2, uint64)`` as two ints (each < 2**64).

    ``seed`` is an int >= 0 of any size (its 32-bit words, least significant first, are the
    entropy, as numpy reads an int).

    Raises
    ------
    ValueError
        If ``seed`` is negative (numpy's message says the same).
    """
    if seed < 0:
        raise ValueError("expected non-negative integer")
    entropy: list[int] = []
    n = seed
    while n:
        entropy.append(n & _MASK)
        n >>= 32
    if not entropy:
        entropy.append(0)
    h = _INIT_A  # hashmix's running constant, carried from call to call
    pool = [0, 0, 0, 0]
    for i in range(_POOL):
        v = (entropy[i] if i < len(entropy) else 0) ^ h
        h = (h * _MULT_A) & _MASK
        v = (v * h) & _MASK
        pool[i] = v ^ (v >> _SHIFT)
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                v = pool[src] ^ h
                h = (h * _MULT_A) & _MASK
                v = (v * h) & _MASK
                v ^= v >> _SHIFT
                r = (_MIX_MULT_L * pool[dst] - _MIX_MULT_R * v) & _MASK
                pool[dst] = r ^ (r >> _SHIFT)
    for src in range(_POOL, len(entropy)):
        for dst in range(_POOL):
            v = entropy[src] ^ h
            h = (h * _MULT_A) & _MASK
            v = (v * h) & _MASK
            v ^= v >> _SHIFT
            r = (_MIX_MULT_L * pool[dst] - _MIX_MULT_R * v) & _MASK
            pool[dst] = r ^ (r >> _SHIFT)
    hb = _INIT_B
    out = [0, 0, 0, 0]
    for i in range(_POOL):  # generate_state: four 32-bit words, read as two little-endian 64s
        v = pool[i] ^ hb
        hb = (hb * _MULT_B) & _MASK
        v = (v * hb) & _MASK
        out[i] = v ^ (v >> _SHIFT)
    return out[0] | out[1] << 32, out[2] | out[3] << 32
