"""Small uniform integers drawn the cheap way (campaign/bounded.py, issue 15) are numpy's
``Generator.integers(n)`` draw for draw: the same opening plans and side order."""

from __future__ import annotations

import numpy as np
import pytest

from campaign.bounded import BoundedDraws
from campaign.streams import SIDE_ORDER, STRATEGY, Streams

# small ranges as the campaign draws them, and ranges where Lemire's method rejects often
# (2**31 + 1: about half the words) or never draws (1)
_RANGES = [2, 3, 5, 7, 1, 10, 64, 100, 2**31 + 1, 2**32 - 1, 1, 3, 2**31 + 1, 9]


def _generators(seed: int) -> list[np.random.Generator]:
    streams = Streams(seed)
    return [
        streams.generator(STRATEGY["red"]),
        np.random.default_rng(seed),  # PCG64
        np.random.Generator(np.random.SFC64(seed)),
    ]


@pytest.mark.parametrize("seed", [0, 1, 42, 2026])
def test_bounded_draws_are_numpys_integers_draw_for_draw(seed) -> None:
    for plain, lean in zip(_generators(seed), _generators(seed), strict=True):
        draws = BoundedDraws(lean)
        ns = _RANGES * 40
        expected = [int(plain.integers(n)) for n in ns]
        assert [draws.below(n) for n in ns] == expected
        # and the generators are left at the same point of their streams
        assert lean.bit_generator.random_raw() == plain.bit_generator.random_raw()


def test_the_side_order_draw_is_integers_2() -> None:
    for seed in range(300):
        plain = int(Streams(seed).restart(SIDE_ORDER).integers(2))
        assert BoundedDraws(Streams(seed).restart(SIDE_ORDER)).below(2) == plain


def test_bounded_draws_refuse_what_they_cannot_draw_alike() -> None:
    with pytest.raises(ValueError, match="MT19937"):
        BoundedDraws(np.random.Generator(np.random.MT19937(1)))
    draws = BoundedDraws(np.random.default_rng(1))
    for n in (0, -3, 2**32):
        with pytest.raises(ValueError, match="1 <= n < 2"):
            draws.below(n)
