"""Small English phrases of the campaign log: counts in words, possessives, place names.

Shared by the narrative and the diary; they know nothing of events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from battle.events import Check
from campaign.events import Place
from campaign.maps.model import reads_plural

__all__ = [
    "attributive",
    "checks_phrase",
    "count",
    "dice",
    "division_order",
    "figures",
    "hits",
    "objective_held",
    "one_check",
    "place_phrase",
    "plural_name",
    "possessive",
    "side_noun",
    "side_sentence",
    "the_attributive",
    "verb",
]

_NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def count(n: int, one: str, many: str | None = None) -> str:
    """``three dice``, ``one card``, ``12 hits``: small numbers in words.

    >>> count(3, "die", "dice"), count(1, "card"), count(12, "hit")
    ('three dice', 'one card', '12 hits')
    """
    word = _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)
    return f"{word} {one if n == 1 else (many or one + 's')}"


def division_order(side: str, division: str) -> tuple[int, int, str]:
    """Sort key of a division: Red's before Blue's, then by number (``R2`` before ``R10``).

    >>> side = {"R": "red", "B": "blue"}
    >>> sorted(["B1", "R10", "R2"], key=lambda d: division_order(side[d[0]], d))
    ['R2', 'R10', 'B1']
    """
    digits = "".join(ch for ch in division if ch.isdigit())
    return (0 if side == "red" else 1, int(digits) if digits else 0, division)


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


#: Endings of a people's name used as a noun (the French, the Dutch, the British, the
#: Japanese): such a name takes "the" and a plural verb, as plural names do.
_PEOPLE_ENDINGS = ("ch", "sh", "ese")


def plural_name(name: str) -> bool:
    """Whether a side's name names a people and reads as a plural: a plural
    (:func:`campaign.maps.model.reads_plural`: ``Allies``, ``Prussians``) or a people's
    adjective used as a noun (``French``, ``British``, ``Japanese``). Such a name takes
    "the" and a plural verb ("the French raise"); a colour (``Red``) is a proper noun,
    singular and bare ("Red raises").

    >>> plural_name("Allies"), plural_name("French"), plural_name("Red")
    (True, True, False)
    """
    return reads_plural(name) or name.endswith(_PEOPLE_ENDINGS)


def side_noun(name: str, start: bool = False) -> str:
    """A side as the subject or object of a sentence: ``Red``, ``the French``, ``the Allies``
    (``start``: capitalised to open a sentence).

    >>> side_noun("Red"), side_noun("French"), side_noun("Allies", start=True)
    ('Red', 'the French', 'The Allies')
    """
    if not plural_name(name):
        return name
    return f"{'The' if start else 'the'} {name}"


def possessive(name: str, start: bool = False) -> str:
    """A side's name before one of its divisions or its diary: ``Red's R1``, ``the French
    R1``, ``the Allies' B1`` (a people's adjective needs no possessive).

    >>> possessive("Red"), possessive("French"), possessive("Allies", start=True)
    ("Red's", 'the French', "The Allies'")
    """
    if not plural_name(name):
        return f"{name}'s"
    return side_noun(name, start) + ("'" if reads_plural(name) else "")


def attributive(name: str, start: bool = False) -> str:
    """A side's name before a common noun: ``Red scouts``, ``French scouts``, ``the Allies'
    scouts``.

    >>> attributive("Red"), attributive("French"), attributive("Allies", start=True)
    ('Red', 'French', "The Allies'")
    """
    return possessive(name, start) if reads_plural(name) else name


def the_attributive(name: str) -> str:
    """``the Red base``, ``the French base``, ``the Allies' base``: a side's name before a
    common noun, with the article.

    >>> the_attributive("Red"), the_attributive("French"), the_attributive("Allies")
    ('the Red', 'the French', "the Allies'")
    """
    return possessive(name) if reads_plural(name) else f"the {name}"


def verb(name: str, singular: str, plural: str) -> str:
    """The form of a verb or pronoun that agrees with a side's name (:func:`plural_name`).

    >>> verb("Allies", "withdraws", "withdraw"), verb("Red", "its", "their")
    ('withdraw', 'its')
    >>> verb("French", "fights", "fight")
    'fight'
    """
    return plural if plural_name(name) else singular


def side_sentence(text: str, names: Iterable[str]) -> str:
    """A sentence the engine wrote with bare side names (an end's reason, RULES.md §8.7:
    ``French holds the enemy base``) in the log's grammar: ``The French hold the enemy
    base``. The engine's events stay as they are; only the printed words change.

    >>> side_sentence("French holds the enemy base", ["French", "Allies"])
    'The French hold the enemy base'
    >>> side_sentence("time limit reached; Allies hold more", ["French", "Allies"])
    'Time limit reached; the Allies hold more'
    >>> side_sentence("Red has no divisions left", ["Red", "Blue"])
    'Red has no divisions left'
    """
    import re

    for name in names:
        if not plural_name(name):
            continue
        pattern = re.compile(rf"(?<![\w']){re.escape(name)}(?= )(?: (holds|hold|has|have)\b)?")

        def agree(m: re.Match[str], name: str = name) -> str:
            agreed = {"holds": " hold", "hold": " hold", "has": " have", "have": " have"}
            return side_noun(name) + (agreed[m.group(1)] if m.group(1) else "")

        text = pattern.sub(agree, text)
    return text[:1].upper() + text[1:]


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


def objective_held(objectives: dict[str, int | None], side: str) -> str:
    """A side's objective value held at nightfall, or ``not known`` (the enemy's, in a
    side's view: RULES.md §8.6).

    >>> objective_held({"red": 3, "blue": None}, "red"), objective_held({"blue": None}, "blue")
    ('3', 'not known')
    """
    value = objectives.get(side, 0)
    return "not known" if value is None else str(value)
