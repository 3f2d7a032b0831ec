"""Movement-card decks (RULES.md §3): the cards of a force. Drawing and losing cards are
rules of the battle kernel (:func:`battle.kernel.core.draw_card`, ``remove_card``).

Examples
--------
>>> deck_composition(3)
[3, 3, 2, 2]
>>> deck_composition(10)
[10, 10, 9, 9, 8, 7, 6, 5, 4, 3, 3]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["deck_composition"]


def deck_composition(units: int, explicit: Mapping[int, Sequence[int]] | None = None) -> list[int]:
    """The U + 1 cards of a force of U units (RULES.md §3.1), highest first: the kernel's
    rule (:func:`battle.kernel.start.deck_cards`), which every battle deals from. Parameters
    and errors as :func:`battle.reference.deck.deck_composition` (the same cards, dealt where
    there is no compiled kernel): ``units`` U >= 1, ``explicit`` decks by U from config.
    """
    if units < 1:
        raise ValueError(f"a deck needs at least one unit, got {units}")
    try:
        from battle.kernel.start import deck_cards, explicit_decks
    except Exception:  # no compiled kernel: the reference engine's rule (the same cards)
        from battle.reference.deck import deck_composition as plain

        return plain(units, explicit)

    return [int(c) for c in deck_cards(units, explicit_decks(explicit or {}))]
