"""Movement-card decks (RULES.md §3): the cards of a force. Drawing and losing cards are
rules of the battle kernel (:func:`battle.kernel.core.draw_card`, ``remove_card``).

Examples
--------
>>> deck_composition(8)
[8, 8, 7, 7, 6, 5, 4, 3, 3]
>>> deck_composition(6)
[6, 6, 5, 5, 4, 3, 3]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["deck_composition"]


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
