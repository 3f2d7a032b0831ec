"""Late arrivals joining a reference battle (RULES.md §8.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from battle.arrivals import Arrival
from battle.events import StateChanged
from battle.reference.deck import MovementDeck, deck_for
from battle.reference.unit import new_unit
from battle.units import ID

if TYPE_CHECKING:
    from battle.reference.state import BattleState

__all__ = ["join_due"]


def join_due(st: BattleState, due: list[Arrival]) -> None:
    """Join every arrival of ``due`` (sorted by bound) whose bound starts next; pop them."""
    next_bound = st.bounds + 1
    while due and due[0].bound <= next_bound:
        _join(st, due.pop(0))


def _join(st: BattleState, arrival: Arrival) -> None:
    """Late arrivals join their side at the start of its next bound (RULES.md §8.4),
    deployed at their own baseline: "the side's deck is rebuilt for the number of units it
    has brought to the battle, the arrivals and its destroyed or departed units included
    (§3.1; their loss is already counted among its bad things), less one highest card for
    each bad thing it has already suffered (§3.3), and its casualty base (§7.1) grows by
    their boxes". ``st.sides`` keeps every unit a side brought, gone or not: its length is
    that number. A unit that comes already destroyed is not brought (§1.2)."""
    t = st.t
    side = arrival.side
    new = [
        new_unit(t, spec, side, t.deploy)  # deployed at its own baseline (RULES.md §6.1)
        for spec in sorted(arrival.units, key=ID)
        if spec.hits < t.destroyed_at  # a destroyed unit does not come (RULES.md §1.2)
    ]
    if not new:
        return
    units = st.sides[side]
    units.extend(new)
    units.sort(key=ID)
    field = st.field[side]
    field.extend(new)
    field.sort(key=ID)
    st.on_field[side] += len(new)
    boxes = list(st.boxes)
    boxes[side] += sum(t.destroyed_at - u.hits_before for u in new)  # §7.1 casualty base
    st.boxes = (boxes[0], boxes[1])
    old = st.decks[side]
    deck = MovementDeck(deck_for(t, len(units)), old.mode, old.removal)  # §3.1
    del deck.cards[: st.cards_lost[side]]  # one highest card per bad thing so far (§3.3)
    st.decks = (deck, st.decks[1]) if side == 0 else (st.decks[0], deck)
    if st.record:
        why = f"arrived for bound {st.bounds + 1}; deck rebuilt to {len(deck)} cards"
        for u in new:
            st.emit(StateChanged(st.turn, st.bounds + 1, u.id, "in the battle", why))
