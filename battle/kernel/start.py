"""A battle before its first bound, in the kernel: the units' rows, where they deploy, each
side's deck and casualty base (RULES.md §3.1, §6.1, §7.1); and the deck a side rebuilds when
a late arrival joins (§8.4, :func:`battle.kernel.bound.join_due`).

These compiled functions are the rules: :func:`battle.deck.deck_composition` calls
:func:`deck_cards`, and a battle's layout (:func:`battle.kernel.lineup.new_state`) only names
each unit by its code (its row and the rank of its id) and its arrivals; :func:`index_order`
orders them by id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from numba import types as nt
from numpy.typing import NDArray

from battle.kernel.jit import A1F, A1I, A2F, A2I, I8, rule
from battle.kernel.layout import (
    NP,
    NS,
    NU,
    P_POS,
    R_DESTROYED,
    RF_DEPLOY,
    ROW_BITS,
    ROW_MASK,
    S_ATTACKER,
    S_BOX,
    S_DN,
    S_DUP,
    S_FCT,
    S_MAXB,
    S_NARR,
    S_ONF,
    S_WINNER,
    U_HB,
    U_PRESENT,
    U_SIDE,
)

__all__ = ["START", "deck_cards", "explicit_decks", "index_order", "lay_out"]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
#: what :func:`lay_out` returns: U, P, S and DK of a battle before its first bound
START = nt.Tuple((A2I, A2F, A1I, A2I))


def explicit_decks(explicit: Mapping[int, Sequence[int]]) -> IntArray:
    """``XD``: the decks given in config for particular U (``battle.deck.explicit``, RULES.md
    §3.1) as an int64 array ``[max U + 1, max U + 1]``: row U holds the U + 1 cards of the
    deck of U units as given, or zeros where none is given (every card is 1 or more)."""
    top = max(explicit, default=0)
    width = max([top + 1, *map(len, explicit.values())])
    XD = np.zeros((top + 1, width), np.int64)
    for units, cards in explicit.items():
        XD[units, : len(cards)] = cards
    return XD


@rule(A1I, I8, A2I)
def deck_cards(units: int, XD: IntArray) -> IntArray:
    """The U + 1 cards of a force of U = ``units`` units (>= 1), highest first (RULES.md
    §3.1): the explicit deck for U in ``XD`` (:func:`explicit_decks`) if there is one, else
    U, U, U-1, U-1, U-2, U-3 ... down to 4, then 3s, each at least 1 and at most U
    (8 units: 8 8 7 7 6 5 4 3 3; 2 units: 2 2 1)."""
    out = np.empty(units + 1, np.int64)
    if units < XD.shape[0] and XD[units, 0] > 0:
        for c in range(units + 1):
            out[c] = XD[units, c]
        return out
    for c in range(units + 1):
        if c < 2:
            v = units
        elif c < 4:
            v = units - 1
        else:
            v = max(units + 2 - c, 3)
        out[c] = min(max(v, 1), units)
    return out


@rule(A1I, A1I)
def index_order(RX: IntArray) -> IntArray:
    """The listing position of each of a battle's units in index order: by id, ascending
    (RULES.md §6.9: ties go to the lowest id). ``RX`` holds each unit's code in listing
    order: the rank of its id above ``ROW_BITS`` (ranks are ordered as the ids are, equal
    for equal ids: :class:`battle.kernel.pack.UnitRows`), its row of ``TB`` below. An
    insertion sort: a battle's few units, often nearly in order already."""
    n = RX.shape[0]
    order = np.empty(n, np.int64)
    for i in range(n):
        code = RX[i]
        j = i
        while j > 0 and RX[order[j - 1]] > code:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    return order


@rule(START, A2I, A1I, I8, I8, A1I, A1F, A2I)
def lay_out(
    TB: IntArray,
    RX: IntArray,
    arrivals: int,
    attacker: int,
    RI: IntArray,
    RF: FloatArray,
    XD: IntArray,
) -> tuple[IntArray, FloatArray, IntArray, IntArray]:
    """``U``, ``P``, ``S`` and ``DK`` of a battle before its first bound. ``RX`` holds, for
    the battle's n units, each one's code in listing order (each side's units as given, side
    0's first): the rank of its id and its row of ``TB`` (:func:`index_order`): unit ``i`` in
    index (id) order is the row of code ``RX[index_order(RX)[i]]`` (a row holds the unit's
    side, type, formation, hits carried, morale, and whether it is there from the start or a
    late arrival, see :class:`battle.kernel.pack.UnitRows`), deployed at its baseline
    (RULES.md §6.1); each side's units on the field, its casualty base (§7.1: ``destroyed_at``
    boxes a unit less the hits it carries) and its deck (§3.1, :func:`deck_cards`), of the
    units there from the start; ``arrivals`` late arrivals, ``attacker`` the side with the
    first bound (§6.2), no winner yet (§6.8). ``S_DUP`` is set when two units have the same
    id (the battle must not be fought). ``DK`` is wide enough for a deck of every unit of
    the battle."""
    n = RX.shape[0]
    order = index_order(RX)
    U = np.empty((n, NU), np.int64)
    P = np.zeros((n, NP), np.float64)
    S = np.zeros(NS, np.int64)
    S[S_WINNER] = -1
    S[S_FCT] = -1
    S[S_MAXB] = -1
    S[S_ATTACKER] = attacker
    S[S_NARR] = arrivals
    for i in range(n):
        code = RX[order[i]]
        if i and code >> ROW_BITS == RX[order[i - 1]] >> ROW_BITS:
            S[S_DUP] = 1
        U[i] = TB[code & ROW_MASK]
        P[i, P_POS] = RF[RF_DEPLOY]
        if U[i, U_PRESENT]:
            side = U[i, U_SIDE]
            S[S_ONF + side] += 1
            S[S_BOX + side] += RI[R_DESTROYED] - U[i, U_HB]
    DK = np.zeros((2, n + 1), np.int64)
    for side in range(2):
        if S[S_ONF + side]:
            cards = deck_cards(S[S_ONF + side], XD)
            S[S_DN + side] = cards.shape[0]
            for c in range(cards.shape[0]):
                DK[side, c] = cards[c]
    return U, P, S, DK
