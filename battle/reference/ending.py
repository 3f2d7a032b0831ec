"""Who goes first and when a battle ends, one function a rule: the initiative roll (RULES.md
§6.2, variant roll-initiative), the end checks after every phase (§6.8 a, c), the withdrawal
phase (§7.2–§7.4) and the end itself. Each reads and changes one
:class:`~battle.reference.state.BattleState`.
"""

from __future__ import annotations

from functools import partial

from battle.events import BattleEnded, TestRolled, WithdrawalChecked
from battle.reference.state import BattleState
from battle.withdrawal import roll_withdrawals

__all__ = ["check_end", "finish", "first_side", "withdrawal_phase"]


def first_side(st: BattleState) -> int:
    """Who has the first bound this turn (RULES.md §6.2; variant roll-initiative)."""
    if not st.t.initiative_roll:
        return st.attacker
    die = st.t.initiative_die
    a, b = st.dice.d(die), st.dice.d(die)
    first = st.attacker if a == b else (0 if a > b else 1)
    if st.record:
        st.emit(
            TestRolled(
                st.turn,
                st.bounds + 1,
                "initiative",
                "",
                f"d{die} vs d{die}",
                a,
                b,
                first == 0,
                f"side {first} has the first bound",
            )
        )
    return first


def check_end(st: BattleState) -> bool:
    """End at once on last card or no units (RULES.md §6.8 a, c); True if over."""
    if not st.changed:  # no card lost and no unit gone since the last check
        return st.over
    st.changed = False
    if st.over:
        return True
    lose = st.t.lose_at_cards
    out0 = len(st.decks[0].cards) <= lose
    out1 = len(st.decks[1].cards) <= lose
    if out0 or out1:
        if out0 and out1:
            finish(st, None, "both-cards")
        else:
            finish(st, 1 if out0 else 0, "cards")
        return True
    gone0 = st.on_field[0] <= 0
    gone1 = st.on_field[1] <= 0
    if gone0 or gone1:
        finish(st, None if gone0 and gone1 else (1 if gone0 else 0), "no-units")
        return True
    return False


def withdrawal_phase(st: BattleState) -> None:
    """End-of-turn withdrawal checks (RULES.md §7.2–§7.4)."""
    t = st.t
    if st.record:
        st.phase(-1, "withdrawal")
    checks = []
    for s in (0, 1):
        pct = 100.0 * st.lost[s] / st.boxes[s] if st.boxes[s] else 0.0  # §7.1
        if pct >= t.withdrawal_threshold:
            rows = t.withdrawal.factors(st.tally[s], st.tally[1 - s], pct)
            checks.append((s, pct, rows))
    if not checks:
        return
    if st.first_check_turn is None:
        st.first_check_turn = st.turn
    roll_die = partial(st.dice.d, t.withdrawal_die)
    made = roll_withdrawals(checks, roll_die, t.withdrawal_success_total, t.withdrawal_die)
    withdrew = []
    for c in made:  # a Check's fields are the event's, after the turn and bound
        ev = WithdrawalChecked(st.turn, st.bounds, *c)
        st.withdrawals.append(ev)
        if st.record:
            st.emit(ev)
        if c.withdraws:
            withdrew.append(c.side)
    if len(withdrew) == 2:
        finish(st, None, "both-withdrew")
    elif withdrew:
        finish(st, 1 - withdrew[0], "withdrawal")


def finish(st: BattleState, winner: int | None, reason: str) -> None:
    """The battle ends (RULES.md §6.8): ``winner`` (None: a draw) and why."""
    st.winner, st.reason, st.over = winner, reason, True
    if st.record:
        st.emit(BattleEnded(st.turn, st.bounds, winner, reason))
