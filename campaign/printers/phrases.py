"""Small English phrases of the campaign log: counts in words, possessives, place names.

Shared by the narrative and the diary; they know nothing of events.
"""

from __future__ import annotations

from campaign.events import Place

__all__ = ["count", "dice", "place_phrase", "possessive"]

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
