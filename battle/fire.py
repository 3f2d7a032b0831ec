"""The arithmetic of the 4-step hit filter (RULES.md §4).

The kernel rolls the dice (:func:`battle.kernel.core.hit_filter`) and calls the arithmetic
here, compiled, so that it can be tested on its own.

Examples
--------
>>> morale_hits(30, 10), morale_hits(31, 10)
(3, 4)
"""

from __future__ import annotations

from battle.compiled import I8, rule

__all__ = ["morale_hits"]


@rule(I8, I8, I8, inline=True)
def morale_hits(d: int, cd: int) -> int:
    """Morale hits ``h = ceil(D / CD)`` (RULES.md §4.2).

    Parameters
    ----------
    d
        The hit-dice roll D (§4.1), with any charge bonus (§6.4) already added; usually
        22..40 (the default ``20 + 2*d10``) or 3..30 (``3d10``).
    cd
        The firing or fighting unit's combat divisor (§1.1, §1.6), >= 1.

    Returns
    -------
    int
        D divided by CD, rounded **up** (the article's "40/3 or 13" rounds down against its
        own rule; §4.1 settles it: §4.2's round-up governs).

    Raises
    ------
    ZeroDivisionError
        If ``cd`` is 0 (the rules model forbids it: every divisor is >= 1).

    Examples
    --------
    >>> morale_hits(40, 3)
    14
    >>> morale_hits(22, 4), morale_hits(20, 5), morale_hits(21, 5)
    (6, 4, 5)
    """
    return -(-d // cd)
