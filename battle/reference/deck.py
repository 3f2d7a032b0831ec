"""Movement-card decks (RULES.md §3).

Examples
--------
>>> deck_composition(8)
[8, 8, 7, 7, 6, 5, 4, 3, 3]
>>> deck_composition(6)
[6, 6, 5, 5, 4, 3, 3]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from battle.dice import Dice

if TYPE_CHECKING:
    from battle.tables import Tables

__all__ = ["MovementDeck", "deck_composition", "deck_for"]


def deck_composition(units: int, explicit: Mapping[int, Sequence[int]] | None = None) -> list[int]:
    """The U + 1 cards of a force of U units (RULES.md §3.1), highest first.

    Parameters
    ----------
    units
        U, the number of units in the force (>= 1).
    explicit
        Optional decks given in config for particular U (``battle.deck.explicit``).

    Raises
    ------
    ValueError
        If ``units`` < 1.
    """
    if units < 1:
        raise ValueError(f"a deck needs at least one unit, got {units}")
    if explicit and units in explicit:
        return list(explicit[units])
    u = units
    seq = [u, u, u - 1, u - 1, *range(u - 2, 3, -1)] + [3] * (u + 1)
    return [min(max(v, 1), u) for v in seq[: u + 1]]


class MovementDeck:
    """One side's deck for one battle (RULES.md §3.2–§3.4).

    ``mode`` is ``"reshuffle"`` (every draw from the whole deck; the card goes back) or
    ``"draw-through"`` (deal the deck out; reshuffle when empty or after a bad thing).
    ``removal`` is ``"highest"`` (a bad thing removes one of the highest cards) or
    ``"random"`` (variant arw-1998).
    """

    __slots__ = ("_dealt", "cards", "mode", "removal")

    def __init__(self, cards: Sequence[int], mode: str = "reshuffle", removal: str = "highest"):
        self.cards = sorted(cards, reverse=True)  # a list: bad things remove cards
        self.mode = mode
        self.removal = removal
        self._dealt: list[int] = []

    def __len__(self) -> int:
        return len(self.cards)

    def draw(self, dice: Dice) -> int:
        """Draw one card at random and return its value (the most units to activate).

        Raises
        ------
        RuntimeError
            If the deck is empty — the battle must have ended before (RULES.md §3.4).
        """
        if not self.cards:
            raise RuntimeError("draw from an empty movement deck")
        cards = self.cards
        if self.mode == "reshuffle":
            return cards[dice.index(len(cards))]
        remaining = [c for c in self.cards]
        for c in self._dealt:
            remaining.remove(c)
        if not remaining:
            self._dealt.clear()
            remaining = list(self.cards)
        card = remaining[dice.index(len(remaining))]
        self._dealt.append(card)
        return card

    def remove_for_bad_thing(self, dice: Dice) -> int:
        """Remove one card for a bad thing (RULES.md §3.3); returns the card removed.

        An empty deck stays empty (returns 0).
        """
        if not self.cards:
            return 0
        i = 0 if self.removal == "highest" else dice.index(len(self.cards))
        card = self.cards.pop(i)
        self._dealt.clear()  # draw-through: reshuffle after a bad thing
        return card


def deck_for(t: Tables, units: int) -> list[int]:
    """The §3.1 deck of a force of ``units`` units (>= 1), highest card first, or the deck
    given for that size in ``battle.deck.explicit`` (RULES.md §3.1)."""
    return sorted(deck_composition(units, t.rules.deck.explicit), reverse=True)
