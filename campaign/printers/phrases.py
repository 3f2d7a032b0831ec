"""Small English phrases of the campaign log: counts in words, possessives, place names.

Shared by the narrative and the diary; they know nothing of events.
"""

from __future__ import annotations

from campaign.events import Place

__all__ = ["count", "dice", "figures", "hits", "one_check", "place_phrase", "possessive"]

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
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def plural_name(name: str) -> bool:
    """Whether a side's name reads as a plural (``Allies``, ``Prussians``): it ends in s.

    The same test as :func:`possessive`; ``Red``, ``French`` read as singular.

    >>> plural_name("Allies"), plural_name("Red")
    (True, False)
    """
    return name.endswith("s")


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
