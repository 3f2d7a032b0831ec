"""What a battle takes from a side, one function a rule: a bad thing (RULES.md §3.3), a failed
morale test (§1.5: shaken, then routed), leaving contact (§6.4), falling back and dropping
back (§6.4, §6.5), leaving the table (§6.5, §7.2). Each reads and changes one
:class:`~battle.reference.state.BattleState`.
"""

from __future__ import annotations

from battle.events import CardLost, Moved, StateChanged
from battle.reference.state import BattleState
from battle.reference.unit import Unit

__all__ = [
    "bad_thing",
    "drop_back",
    "fail_morale",
    "fall_back",
    "gone",
    "leave_contact",
    "off_table",
    "rout",
]


def bad_thing(st: BattleState, side: int, cause: str) -> None:
    """A bad thing removes one card from ``side``'s deck (RULES.md §3.3)."""
    card = st.decks[side].remove_for_bad_thing(st.dice)
    st.changed = True
    if card:
        st.cards_lost[side] += 1
    if st.record:
        st.emit(CardLost(st.turn, st.bounds, side, card, len(st.decks[side]), cause))


def fail_morale(st: BattleState, u: Unit, cause: str) -> None:
    """A failed morale test: a bad thing (§3.3), and a steady unit shakes, a shaken one
    routs (§1.5)."""
    record = st.record
    bad_thing(st, u.side, f"{u.id} failed a {cause} test" if record else cause)
    if u.shaken:
        rout(st, u, f"failed a {cause} test while shaken" if record else cause)
    else:
        u.shaken = True
        if st.record:
            st.emit(StateChanged(st.turn, st.bounds, u.id, "shaken", cause))


def leave_contact(st: BattleState, u: Unit) -> None:
    """``u`` leaves melee and every pending charge or stand it is part of (RULES.md §6.4)."""
    if u.melee is not None:
        u.melee.melee = None
        u.melee = None
    target = u.charging  # the enemy u charged: no longer charged by it
    if target is not None and target.charged_by is u:
        target.charged_by = None
    charger = u.charged_by  # the enemy charging u: its charge has nothing left to hit
    if charger is not None and charger.charging is u:
        charger.charging = None
        charger.charge_bonus = 0
    stood = u.stood_by  # the enemy that stood against u's charge: nothing to fire at
    if stood is not None and stood.stood_vs is u:
        stood.stood_vs = None
    u.charged_by = u.charging = u.stood_vs = u.stood_by = None
    u.charge_bonus = 0


def gone(st: BattleState, u: Unit) -> None:
    """``u`` leaves the field for good (routed, destroyed or off the table): its side has one
    unit fewer on the field (RULES.md §6.8 c is checked at the next end check)."""
    st.changed = True
    u.out = True
    st.on_field[u.side] -= 1
    st.field[u.side].remove(u)


def rout(st: BattleState, u: Unit, reason: str) -> None:
    """The unit routs and leaves the field at once (RULES.md §1.5)."""
    if u.out:
        return
    u.routed = True
    # §7.1: a routed unit counts all its remaining boxes as casualties
    st.lost[u.side] += st.t.destroyed_at - u.total_hits
    gone(st, u)
    leave_contact(st, u)
    if st.record:
        st.emit(StateChanged(st.turn, st.bounds, u.id, "routed", reason))


def fall_back(st: BattleState, u: Unit, inches: float, action: str) -> None:
    """Retire toward the own baseline (RULES.md §6.5); past it the unit leaves the table."""
    if u.shaken and not u.retired_shaken:
        u.retired_shaken = True
        st.tally[u.side].retiring_shaken += 1
    leave_contact(st, u)
    before = u.pos
    u.pos -= inches
    if st.record:
        st.emit(Moved(st.turn, st.bounds, u.id, action, before, max(u.pos, 0.0)))
    if u.pos < 0.0:
        off_table(st, u, "fell back past its baseline")


def drop_back(st: BattleState, u: Unit) -> None:
    """A charger that failed its test drops back (RULES.md §6.4); past its baseline it
    leaves the table (§6.5), a unit retreating off the table for §7.2."""
    before = u.pos
    u.pos -= st.t.failed_charge_drop_back
    if st.record:
        st.emit(Moved(st.turn, st.bounds, u.id, "drop-back", before, max(u.pos, 0.0)))
    if u.pos < 0.0:
        off_table(st, u, "dropped back past its baseline")


def off_table(st: BattleState, u: Unit, reason: str) -> None:
    """``u`` has gone past its baseline and leaves the table (RULES.md §6.5): a unit
    retreating off the table for §7.2."""
    u.off_table = True
    gone(st, u)
    leave_contact(st, u)
    st.tally[u.side].off_table += 1
    if st.record:
        st.emit(StateChanged(st.turn, st.bounds, u.id, "off-table", reason))
