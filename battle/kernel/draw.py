"""The battle's dice in the kernel (RULES.md §0.1, §0.6): every uniform a battle reads, in
order, from its own generator.

A compiled battle draws each uniform itself, straight from the numpy bit generator of the
battle's generator (``S_BITGEN``: the address of its ``bitgen_t``, see
:func:`battle.kernel.jit.next_double`), exactly as ``Generator.random`` would in turn, and keeps
it in ``DB``: a battle fought again (its event buffer was too small) replays the uniforms it
drew. Uniforms already in ``DB`` (``S_DNUM`` of them) are read first: scripted dice in
tests, and the whole battle's dice in plain Python (``NUMBA_DISABLE_JIT=1``, where they are
drawn beforehand in blocks of 64). Past the end of ``DB`` a uniform is 0.5 and the shortfall
is counted (``S_DUSED``): the battle is then fought again with a larger ``DB``.
"""

from __future__ import annotations

from battle.kernel.jit import BT, F8, I8, Battle, next_double, rule
from battle.kernel.layout import S_BITGEN, S_DI, S_DNUM, S_DUSED

__all__ = ["d", "index", "uniform"]


@rule(F8, BT, inline=True)
def uniform(b: Battle) -> float:
    """The battle's next uniform in [0, 1) (RULES.md §0.6): the next of ``DB`` if it was
    drawn before, else drawn now from the battle's generator and kept in ``DB``; past the end
    of ``DB``, 0.5 (the shortfall is counted in ``S_DUSED``)."""
    S, DB = b.S, b.DB
    i = S[S_DI]
    S[S_DI] = i + 1
    S[S_DUSED] = i + 1
    if i < S[S_DNUM]:
        return float(DB[i])
    if S[S_BITGEN] != 0 and i < DB.shape[0]:
        u = next_double(S[S_BITGEN])
        DB[i] = u
        S[S_DNUM] = i + 1
        return float(u)
    return 0.5


@rule(I8, BT, I8, inline=True)
def d(b: Battle, sides: int) -> int:
    """One ``d<sides>``: ``floor(u * sides) + 1`` (RULES.md §0.1)."""
    return int(uniform(b) * sides) + 1


@rule(I8, BT, I8, inline=True)
def index(b: Battle, n: int) -> int:
    """A uniform index in 0..n-1 (a random card)."""
    return int(uniform(b) * n)
