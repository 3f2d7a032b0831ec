"""Small English phrases of the campaign log: counts in words, possessives, place names.

Shared by the narrative and the diary; they know nothing of events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from battle.events import Check
from campaign.events import Place
from campaign.maps.model import reads_plural

__all__ = [
    "checks_phrase",
    "count",
    "dice",
    "figures",
    "hits",
    "one_check",
    "place_phrase",
    "possessive",
]

_NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def count(n: int, one: str, many: str | None = None) -> str:
    """``three dice``, ``one card``, ``12 hits``: small numbers in words.

    >>> count(3, "die", "dice"), count(1, "card"), count(12, "hit")
    ('three dice', 'one card', '12 hits')
    """
    word = _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)
    return f"{word} {one if n == 1 else (many or one + 's')}"


def dice(n: int) -> str:
    """``two dice``."""
    return count(n, "die", "dice")


def figures(n: int, one: str, many: str | None = None) -> str:
    """A count in figures, as a table gives it, its noun agreeing (never '1 units').

    >>> figures(1, "unit"), figures(10, "box", "boxes")
    ('1 unit', '10 boxes')
    """
    return f"{n} {one if n == 1 else (many or one + 's')}"


def hits(n: int) -> str:
    """Hits in figures, as a table gives them (never '1 hits').

    >>> hits(1), hits(14)
    ('1 hit', '14 hits')
    """
    return figures(n, "hit")


def one_check(total: int, rolls: tuple[int, ...], withdraws: bool) -> str:
    """One withdrawal check (RULES.md §7.6) as a predicate: its dice, their sum, the outcome.

    >>> one_check(3, (2, 5, 1), False), one_check(0, (), False)
    ('rolled three dice for 8 and held', 'had nothing to roll and held')
    """
    if total <= 0:
        return "had nothing to roll and held"
    return f"rolled {dice(total)} for {sum(rolls)} and {'withdrew' if withdraws else 'held'}"


def possessive(name: str) -> str:
    """``Red's``, ``Allies'``.

    >>> possessive("Red"), possessive("Allies")
    ("Red's", "Allies'")
    """
    return f"{name}'" if reads_plural(name) else f"{name}'s"


def plural_name(name: str) -> bool:
    """Whether a side's name reads as a plural (:func:`campaign.maps.model.reads_plural`).

    >>> plural_name("Allies"), plural_name("Red")
    (True, False)
    """
    return reads_plural(name)


def verb(name: str, singular: str, plural: str) -> str:
    """The form of a verb or pronoun that agrees with a side's name.

    >>> verb("Allies", "withdraws", "withdraw"), verb("Red", "its", "their")
    ('withdraw', 'its')
    """
    return plural if plural_name(name) else singular


def place_phrase(names: dict[str, str], place: Place) -> str:
    """A junction's name, or ``the road between A and B`` for a road's ``(a, b)``.

    >>> place_phrase({"a": "Ligny", "b~c": "Wavre"}, ("a", "b~c"))
    'the road between Ligny and Wavre'
    """
    if isinstance(place, tuple):
        a, b = place
        return f"the road between {names.get(a, a)} and {names.get(b, b)}"
    return names.get(place, place)


def checks_phrase(side_name: Callable[[str], str], checks: Iterable[Check[str]]) -> str:
    """A battle's withdrawal checks (RULES.md §7) in a sentence, per side (``side_name``
    names it), with the sum that withdraws; a side with more than three is summed up: how
    many it held, and how the last one went. '' for no checks.

    >>> from battle.events import Check
    >>> checks_phrase(str.title, [Check("blue", 30.0, (), 4, (5, 6, 2, 4), True, 6, 12)])
    'Withdrawal checks (12 or more withdraws): Blue rolled four dice for 17 and withdrew.'
    """
    by_side: dict[str, list[tuple[int, tuple[int, ...], bool]]] = {}
    needed = ""
    for c in checks:
        by_side.setdefault(c.side, []).append((c.total, c.rolls, c.withdraws))
        needed = f" ({c.success_total} or more withdraws)"
    parts = []
    for side, rows in by_side.items():
        who = side_name(side)
        if len(rows) <= 3:
            parts.append("; ".join(f"{who} {one_check(*r)}" for r in rows))
        else:
            held = sum(1 for r in rows[:-1] if not r[2])
            last = one_check(*rows[-1])
            parts.append(f"{who} held {count(held, 'check')}, then {last} at the last")
    if not parts:
        return ""
    return f"Withdrawal checks{needed}: " + "; ".join(parts) + "."
