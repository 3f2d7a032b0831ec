"""Small uniform integers, drawn exactly as numpy's ``Generator.integers(n)`` draws them, at a
fraction of its cost (issue 15; RULES.md §0.6: the same draws from the same streams).

``Generator.integers(n)`` (default ``int64``, ``1 <= n < 2**32``) takes one 32-bit word at a
time from its bit generator (half of a 64-bit word, the low half first, the high half kept
for the next call) and maps it to ``0..n-1`` by Lemire's multiply-and-reject method
(``numpy/random/src/distributions/distributions.c``: ``buffered_bounded_lemire_uint32``);
``n == 1`` draws nothing. :class:`BoundedDraws` does the same on the bit generator's raw
64-bit words (``random_raw``), about a tenth of the cost of ``integers`` (its argument and
dtype handling), which a campaign paid for every opening plan and its side order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["BoundedDraws"]

_MASK = 0xFFFFFFFF


class BoundedDraws:
    """``rng.integers(n)`` draw for draw, for a generator that nothing else draws from.

    Parameters
    ----------
    rng
        A generator at the start of its stream (no 32-bit half kept from an earlier draw),
        on a bit generator of 64-bit words (Philox, PCG64, SFC64: numpy keeps the spare
        half of each word for the next 32-bit draw, as this class does).

    Raises
    ------
    ValueError
        If ``rng``'s bit generator is MT19937 (32-bit words: drawn differently).
    """

    def __init__(self, rng: np.random.Generator) -> None:
        bits = rng.bit_generator
        if isinstance(bits, np.random.MT19937):
            raise ValueError("BoundedDraws needs a bit generator of 64-bit words, not MT19937")
        self._raw: Any = bits.random_raw
        self._has_half = False
        self._half = 0

    def _uint32(self) -> int:
        """The bit generator's next 32-bit word, as numpy's ``next_uint32`` gives it."""
        if self._has_half:
            self._has_half = False
            return self._half
        word = int(self._raw())
        self._half = word >> 32
        self._has_half = True
        return word & _MASK

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (``1 <= n < 2**32``): ``int(rng.integers(n))``.

        Raises
        ------
        ValueError
            If ``n`` is out of that range.
        """
        if not 1 <= n <= _MASK:
            raise ValueError(f"BoundedDraws.below needs 1 <= n < 2**32, not {n}")
        if n == 1:
            return 0  # numpy draws nothing for a range of one value
        m = self._uint32() * n
        leftover = m & _MASK
        if leftover < n:
            threshold = (_MASK + 1 - n) % n  # (UINT32_MAX - (n - 1)) % n
            while leftover < threshold:
                m = self._uint32() * n
                leftover = m & _MASK
        return m >> 32
