"""Dice, dice expressions and the three tests of RULES.md §0.

All randomness comes from an injected :class:`numpy.random.Generator` (RULES.md §0.6). Scalar
numpy draws cost about a microsecond each, so :class:`Dice` draws uniforms from the generator
in fixed-size blocks and hands them out one by one: the stream is still entirely the
generator's, and the same generator state always gives the same rolls.

Examples
--------
>>> import numpy as np
>>> dice = Dice(np.random.default_rng(1))
>>> 1 <= dice.d(100) <= 100
True
>>> parse_dice("20 + 2*d10").bounds()
(22, 40)
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from math import floor
from typing import NoReturn

import numpy as np

from battle.errors import DiceExpressionError

__all__ = [
    "Dice",
    "DiceExpression",
    "DiceTerm",
    "parse_dice",
    "percentage_test",
    "reaction_test",
    "withdrawal_roll",
]

_BLOCK = 64  # a battle rolls about 100 dice; converting unused uniforms costs time
_TERM = re.compile(
    r"""^(?:
        (?P<const>\d+)                                   # 20
      | (?:(?P<mult>\d+)\s*\*\s*)?(?P<count>\d*)d(?P<sides>\d+)   # d10, 3d10, 2*d10, 2*3d6
      | (?P<a>\d+)\s*\*\s*(?P<b>\d+)                     # 2*3
    )$""",
    re.VERBOSE,
)


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """One signed term: ``sign * multiplier * (sum of count dice with sides faces)``.

    ``sides == 0`` marks a constant term worth ``sign * multiplier``.
    """

    sign: int
    multiplier: int
    count: int
    sides: int


@dataclass(frozen=True, slots=True)
class DiceExpression:
    """A parsed dice expression (RULES.md §0.5), e.g. ``20 + 2*d10`` or ``3d10``.

    ``2*d10`` is twice one d10; ``2d10`` is the sum of two d10.
    """

    text: str
    terms: tuple[DiceTerm, ...]
    _const: int = field(default=0, init=False, repr=False, compare=False)
    _dice: tuple[tuple[int, int], ...] = field(default=(), init=False, repr=False, compare=False)
    #: ``(constant, factor, sides)`` when the expression has exactly one die (``20 + 2*d10``,
    #: ``d100``): the hot path rolls it as ``constant + factor * d(sides)``; else None
    single: tuple[int, int, int] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The roll's plan, worked out once: the constant part and one (factor, sides) per die.
        const = sum(t.sign * t.multiplier for t in self.terms if t.sides == 0)
        dice = tuple(
            (t.sign * t.multiplier, t.sides) for t in self.terms if t.sides for _ in range(t.count)
        )
        object.__setattr__(self, "_const", const)
        object.__setattr__(self, "_dice", dice)
        if len(dice) == 1:
            object.__setattr__(self, "single", (const, dice[0][0], dice[0][1]))

    def roll(self, dice: Dice) -> int:
        """Roll the expression once with ``dice``; returns an integer.

        Dice are rolled term by term, left to right, one die at a time.
        """
        total = self._const
        for factor, sides in self._dice:
            total += factor * dice.d(sides)
        return total

    def bounds(self) -> tuple[int, int]:
        """The smallest and largest possible results."""
        lo = hi = 0
        for t in self.terms:
            if t.sides == 0:
                a = b = t.sign * t.multiplier
            else:
                a = t.sign * t.multiplier * t.count
                b = t.sign * t.multiplier * t.count * t.sides
            lo += min(a, b)
            hi += max(a, b)
        return lo, hi

    def distribution(self) -> dict[int, Fraction]:
        """Exact probability of every result, by enumeration (for statistical tests).

        Raises
        ------
        DiceExpressionError
            If the expression has more than 10**6 outcomes to enumerate.
        """
        dist: Counter[int] = Counter({0: 1})
        denom = 1
        for t in self.terms:
            if t.sides == 0:
                dist = Counter({v + t.sign * t.multiplier: n for v, n in dist.items()})
                continue
            denom *= t.sides**t.count
            if denom > 10**6:  # refused before any enumeration
                raise DiceExpressionError(
                    f"dice expression {self.text!r} has too many outcomes to enumerate"
                )
            faces = range(1, t.sides + 1)
            sums = Counter(sum(c) for c in itertools.product(faces, repeat=t.count))
            new: Counter[int] = Counter()
            for v, n in dist.items():
                for s, m in sums.items():
                    new[v + t.sign * t.multiplier * s] += n * m
            dist = new
        return {v: Fraction(n, denom) for v, n in sorted(dist.items())}


def parse_dice(text: str) -> DiceExpression:
    """Parse a dice expression once (RULES.md §0.5).

    Parameters
    ----------
    text
        Terms joined by ``+`` or ``-``: integers, ``dN``, ``KdN`` (sum of K dice),
        ``M*dN`` / ``M*KdN`` (M times the roll), ``M*N``. Spaces are ignored.

    Returns
    -------
    DiceExpression

    Raises
    ------
    DiceExpressionError
        When the text is empty, a term is malformed (``2*``, ``abc``, ``d-5``) or a die has
        fewer than 1 face or a count of 0 (``3d0``, ``0d6``).

    Examples
    --------
    >>> parse_dice("3d10").bounds()
    (3, 30)
    """
    if not isinstance(text, str) or not text.strip():
        raise DiceExpressionError(
            f"empty dice expression {text!r}",
            fix="Write one such as '20 + 2*d10', '3d10' or 'd100'.",
        )
    compact = text.replace(" ", "").lower()
    if compact[0] in "+-":  # a leading sign applies to the first term
        compact = "0" + compact
    parts = re.split(r"([+-])", compact)
    terms: list[DiceTerm] = []
    sign = 1
    expect_term = True
    for part in parts:
        if part in ("+", "-"):
            if expect_term:
                _bad(text, f"an operator {part!r} where a term was expected")
            sign = 1 if part == "+" else -1
            expect_term = True
            continue
        if not expect_term:  # pragma: no cover - re.split alternates parts and operators
            _bad(text, f"unexpected {part!r}")
        if part == "":
            _bad(text, "a missing term")
        m = _TERM.match(part)
        if m is None:
            _bad(text, f"the term {part!r} is not a number, dN, KdN or M*dN")
        if m["const"] is not None:
            terms.append(DiceTerm(sign, int(m["const"]), 0, 0))
        elif m["a"] is not None:
            terms.append(DiceTerm(sign, int(m["a"]) * int(m["b"]), 0, 0))
        else:
            sides = int(m["sides"])
            count = int(m["count"]) if m["count"] else 1
            mult = int(m["mult"]) if m["mult"] else 1
            if sides < 1:
                _bad(text, f"a die with {sides} faces in {part!r}")
            if count < 1:
                _bad(text, f"a count of {count} dice in {part!r}")
            if count > 100:
                _bad(text, f"{count} dice in {part!r} (at most 100)")
            terms.append(DiceTerm(sign, mult, count, sides))
        sign = 1
        expect_term = False
    if expect_term:
        _bad(text, "a missing term at the end")
    return DiceExpression(text=text, terms=tuple(terms))


def _bad(text: str, what: str) -> NoReturn:
    raise DiceExpressionError(
        f"bad dice expression {text!r}: {what}",
        fix="Use terms like 20, d10, 3d10 or 2*d10 joined by + or - (RULES.md §0.5).",
    )


class Dice:
    """A die roller fed by a numpy ``Generator`` (RULES.md §0.1, §0.6).

    Uniform floats are drawn from the generator in blocks of 64 and consumed in order, so
    rolls are a pure function of the generator's state.

    Parameters
    ----------
    rng
        The run's (or battle's) random generator; never a global one.
    """

    __slots__ = ("_block", "_i", "_n", "rng")

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self._block: list[float] = []
        self._i = 0
        self._n = 0

    def _refill(self) -> int:
        """Draw the next block of uniforms from the generator; returns the index to read (0)."""
        self._block = self.rng.random(_BLOCK).tolist()
        self._n = _BLOCK
        return 0

    def uniform(self) -> float:
        """One uniform float in [0, 1)."""
        i = self._i
        if i >= self._n:
            i = self._refill()
        self._i = i + 1
        return self._block[i]

    def d(self, sides: int) -> int:
        """Roll one ``d<sides>``: a uniform integer in 1..sides (RULES.md §0.1).

        The same as ``floor(self.uniform() * sides) + 1``, written out: it is the hot path.
        """
        i = self._i
        if i >= self._n:
            i = self._refill()
        self._i = i + 1
        return floor(self._block[i] * sides) + 1  # floor: int() of a float is slower

    def index(self, n: int) -> int:
        """A uniform index in 0..n-1 (a random pick, e.g. a card from a deck).

        The same as ``floor(self.uniform() * n)``, written out like :meth:`d`.
        """
        i = self._i
        if i >= self._n:
            i = self._refill()
        self._i = i + 1
        return floor(self._block[i] * n)


def percentage_test(dice: Dice, percent: float) -> tuple[bool, int]:
    """Percentage test at P (RULES.md §0.2): passes when d100 <= P.

    Returns ``(passed, roll)``. P <= 0 never passes, P >= 100 always does.

    >>> import numpy as np
    >>> percentage_test(Dice(np.random.default_rng(0)), 100)[0]
    True
    """
    roll = dice.d(100)
    return roll <= percent, roll


def reaction_test(dice: Dice, total: int, *, sides: int) -> tuple[bool, int]:
    """Reaction test with total T (RULES.md §0.3): passes when dN > T.

    ``sides`` is the reaction die, ``battle.reaction_die`` in config (6). Returns
    ``(passed, roll)``; T <= 0 always passes, T >= ``sides`` never does.

    >>> import numpy as np
    >>> reaction_test(Dice(np.random.default_rng(0)), 0, sides=6)[0]
    True
    >>> reaction_test(Dice(np.random.default_rng(0)), 6, sides=6)[0]
    False
    """
    roll = dice.d(sides)
    return roll > total, roll


def withdrawal_roll(
    dice: Dice, factors: int, *, sides: int, success_total: int
) -> tuple[bool, list[int]]:
    """Withdrawal roll with F factors (RULES.md §0.4): F dN, success (withdraws) on a total.

    ``sides`` and ``success_total`` are ``battle.withdrawal_die`` (6) and
    ``battle.withdrawal_success_total`` (12) in config. Returns ``(withdraws, rolls)``.
    F <= 0 rolls nothing and never succeeds.

    >>> import numpy as np
    >>> withdrawal_roll(Dice(np.random.default_rng(0)), 0, sides=6, success_total=12)
    (False, [])
    >>> withdraws, rolls = withdrawal_roll(
    ...     Dice(np.random.default_rng(0)), 3, sides=6, success_total=12
    ... )
    >>> len(rolls), withdraws == (sum(rolls) >= 12)
    (3, True)
    """
    rolls = [dice.d(sides) for _ in range(max(factors, 0))]
    return sum(rolls) >= success_total, rolls
