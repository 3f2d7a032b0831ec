"""The battle kernel's event rows, written by name: one small writer per kind of
:data:`battle.kernel.layout.EVENT_ROWS`, each putting its values in the columns the table
names (``E[r, EH_HOW] = how``), never by number. :mod:`battle.kernel.decode` reads them back
by the same names; tests/battle/test_kernel_layout.py checks that no other kernel module
writes to the event buffer and that each writer writes only its own kind's columns.

Callers write a row only when the battle records events (``S[S_RECORD]``), except a
withdrawal check's, which the result always lists. The writers of what the kernel wrote in
place before they were declared here (a hit's row, a withdrawal check's and its dice) are
inlined where they are called, as that code was. A full buffer sets ``S_EOVER`` and the
row is dropped: the battle is then fought again with a larger one
(:mod:`battle.kernel.run`).
"""

from __future__ import annotations

from battle.kernel.jit import B1, BT, F8, I8, VOID, Battle, rule
from battle.kernel.layout import (
    E_BOUND,
    E_KIND,
    E_TURN,
    E_VALUES,
    EA_UNIT,
    EB_CARD,
    EB_DECK,
    EB_NACT,
    EB_SIDE,
    EC_CARD,
    EC_CAUSE,
    EC_LEFT,
    EC_SIDE,
    EC_TEST,
    EC_UNIT,
    EE_REASON,
    EE_WINNER,
    EF_FROM,
    EF_TO,
    EF_UNIT,
    EH_ATTACKER,
    EH_BONUS,
    EH_D,
    EH_DIVISOR,
    EH_HITS,
    EH_HOW,
    EH_MELEE,
    EH_MORALE_HITS,
    EH_TARGET,
    EH_TOTAL,
    EM_A,
    EM_B,
    EM_BY_A,
    EM_BY_B,
    EM_LOSER,
    EM_OUTCOME,
    EMV_ACTION,
    EMV_FROM,
    EMV_TARGET,
    EMV_TO,
    EMV_UNIT,
    EP_PHASE,
    EP_SIDE,
    ER_ROLL,
    ES_ARG,
    ES_STATE,
    ES_UNIT,
    ES_WHY,
    ET_ARG,
    ET_DIE,
    ET_KIND,
    ET_PASSED,
    ET_ROLL,
    ET_TARGET,
    ET_UNIT,
    ET_WHY,
    EV_ACT,
    EV_BOUND,
    EV_CARD,
    EV_END,
    EV_FORMED,
    EV_HIT,
    EV_MELEE,
    EV_MOVED,
    EV_PHASE,
    EV_ROLL,
    EV_STATE,
    EV_TEST,
    EV_WD,
    EW,
    EWD_ENEMY,
    EWD_NROLLS,
    EWD_OWN,
    EWD_PERCENT,
    EWD_SIDE,
    EWD_TOTAL,
    EWD_WITHDRAWS,
    S_BOUNDS,
    S_EN,
    S_EOVER,
    S_TAL,
    S_TURN,
    SR_JOINED,
    ST_JOINED,
    TK_INITIATIVE,
    TR_FIRST,
)


@rule(I8, BT, I8, inline=True)
def row(b: Battle, kind: int) -> int:
    """A new event row of ``kind`` at the current turn and bound, its values 0; -1 if the
    buffer is full (the battle is then fought again with a larger one)."""
    S, E = b.S, b.E
    r = S[S_EN]
    if r >= E.shape[0]:
        S[S_EOVER] = 1
        return -1
    S[S_EN] = r + 1
    E[r, E_KIND] = kind
    E[r, E_TURN] = S[S_TURN]
    E[r, E_BOUND] = S[S_BOUNDS]
    for k in range(E_VALUES, EW):
        E[r, k] = 0.0
    return int(r)


@rule(VOID, BT, I8, I8)
def phase_row(b: Battle, side: int, phase: int) -> None:
    """A phase begins (RULES.md §6.3): ``side`` -1 for the withdrawal phase."""
    r = row(b, EV_PHASE)
    if r >= 0:
        E = b.E
        E[r, EP_SIDE] = side
        E[r, EP_PHASE] = phase


@rule(VOID, BT, I8, I8, I8, I8)
def bound_row(b: Battle, side: int, card: int, deck: int, nact: int) -> None:
    """A bound begins (RULES.md §6.3 step 1): the card drawn, the deck left, and how many
    units it activates (each then has an :func:`act_row`)."""
    r = row(b, EV_BOUND)
    if r >= 0:
        E = b.E
        E[r, EB_SIDE] = side
        E[r, EB_CARD] = card
        E[r, EB_DECK] = deck
        E[r, EB_NACT] = nact


@rule(VOID, BT, I8)
def act_row(b: Battle, unit: int) -> None:
    """One unit the bound's card activates."""
    r = row(b, EV_ACT)
    if r >= 0:
        b.E[r, EA_UNIT] = unit


@rule(VOID, BT, I8, I8, I8, I8, I8, B1, I8, I8)
def test_row(
    b: Battle,
    kind: int,
    unit: int,
    die: int,
    roll: int,
    target: int,
    passed: bool,
    why: int,
    arg: int,
) -> None:
    """A test (RULES.md §0.2, §0.3): its kind, unit, die, roll, target, verdict and reason."""
    r = row(b, EV_TEST)
    if r >= 0:
        E = b.E
        E[r, ET_KIND] = kind
        E[r, ET_UNIT] = unit
        E[r, ET_DIE] = die
        E[r, ET_ROLL] = roll
        E[r, ET_TARGET] = target
        E[r, ET_PASSED] = passed
        E[r, ET_WHY] = why
        E[r, ET_ARG] = arg


@rule(VOID, BT, I8, I8, I8, I8)
def initiative_row(b: Battle, die: int, roll_a: int, roll_b: int, first: int) -> None:
    """The initiative roll of the next bound (RULES.md §6.2, ``roll-initiative``): side 0's
    roll against side 1's (in the target's column), and who has the first bound."""
    r = row(b, EV_TEST)
    if r >= 0:
        E = b.E
        E[r, E_BOUND] = b.S[S_BOUNDS] + 1
        E[r, ET_KIND] = TK_INITIATIVE
        E[r, ET_UNIT] = -1
        E[r, ET_DIE] = die
        E[r, ET_ROLL] = roll_a
        E[r, ET_TARGET] = roll_b
        E[r, ET_PASSED] = first == 0
        E[r, ET_WHY] = TR_FIRST
        E[r, ET_ARG] = first


@rule(I8, BT)
def hit_mark(b: Battle) -> int:
    """Take the row of a hit filter (RULES.md §4) before the tests it causes; filled by
    :func:`hit_row` once the hits are known. -1 when the buffer is full."""
    return row(b, EV_HIT)


@rule(VOID, BT, I8, I8, I8, I8, B1, I8, I8, I8, I8, I8, I8, inline=True)
def hit_row(
    b: Battle,
    r: int,
    how: int,
    attacker: int,
    target: int,
    melee: bool,
    d: int,
    bonus: int,
    divisor: int,
    morale_hits: int,
    hits: int,
    total: int,
) -> None:
    """Fill the hit filter's row ``r`` (RULES.md §4), written before the tests it caused
    (taken with :func:`hit_mark` first; -1: none): how, who on whom, D, its bonus, the combat
    divisor, morale hits, actual hits and the target's total (:func:`hit_mark`)."""
    if r >= 0:
        E = b.E
        E[r, EH_HOW] = how
        E[r, EH_ATTACKER] = attacker
        E[r, EH_TARGET] = target
        E[r, EH_MELEE] = melee
        E[r, EH_D] = d
        E[r, EH_BONUS] = bonus
        E[r, EH_DIVISOR] = divisor
        E[r, EH_MORALE_HITS] = morale_hits
        E[r, EH_HITS] = hits
        E[r, EH_TOTAL] = total


@rule(VOID, BT, I8, I8, I8, I8, I8, I8)
def melee_row(b: Battle, a: int, c: int, by_a: int, by_b: int, loser: int, outcome: int) -> None:
    """A round of melee (RULES.md §4.5): the pair, the actual hits each inflicted, the loser
    (-1 none) and the outcome."""
    r = row(b, EV_MELEE)
    if r >= 0:
        E = b.E
        E[r, EM_A] = a
        E[r, EM_B] = c
        E[r, EM_BY_A] = by_a
        E[r, EM_BY_B] = by_b
        E[r, EM_LOSER] = loser
        E[r, EM_OUTCOME] = outcome


@rule(VOID, BT, I8, I8, I8, I8, I8, I8)
def card_row(b: Battle, side: int, card: int, left: int, cause: int, unit: int, test: int) -> None:
    """A card lost to a bad thing (RULES.md §3.3): which, how many left, and why."""
    r = row(b, EV_CARD)
    if r >= 0:
        E = b.E
        E[r, EC_SIDE] = side
        E[r, EC_CARD] = card
        E[r, EC_LEFT] = left
        E[r, EC_CAUSE] = cause
        E[r, EC_UNIT] = unit
        E[r, EC_TEST] = test


@rule(VOID, BT, I8, I8, I8, I8)
def state_row(b: Battle, unit: int, state: int, why: int, arg: int) -> None:
    """A unit changed state (shaken, routed, destroyed, ...): the state and why."""
    r = row(b, EV_STATE)
    if r >= 0:
        E = b.E
        E[r, ES_UNIT] = unit
        E[r, ES_STATE] = state
        E[r, ES_WHY] = why
        E[r, ES_ARG] = arg


@rule(VOID, BT, I8, I8)
def joined_row(b: Battle, unit: int, deck: int) -> None:
    """A late arrival's unit joins at the start of the next bound (RULES.md §8.4), its side's
    deck rebuilt to ``deck`` cards."""
    r = row(b, EV_STATE)
    if r >= 0:
        E = b.E
        E[r, E_BOUND] = b.S[S_BOUNDS] + 1
        E[r, ES_UNIT] = unit
        E[r, ES_STATE] = ST_JOINED
        E[r, ES_WHY] = SR_JOINED
        E[r, ES_ARG] = deck


@rule(VOID, BT, I8, I8, F8, F8, I8)
def moved_row(b: Battle, unit: int, action: int, before: float, after: float, target: int) -> None:
    """A unit moved (advance, charge, fall back, ...): from and to, in inches from its own
    baseline, and the enemy it moved against (-1 none)."""
    r = row(b, EV_MOVED)
    if r >= 0:
        E = b.E
        E[r, EMV_UNIT] = unit
        E[r, EMV_ACTION] = action
        E[r, EMV_FROM] = before
        E[r, EMV_TO] = after
        E[r, EMV_TARGET] = target


@rule(VOID, BT, I8, I8, I8)
def formed_row(b: Battle, unit: int, old: int, new: int) -> None:
    """A unit changed formation (RULES.md §5): from and to (formation indices)."""
    r = row(b, EV_FORMED)
    if r >= 0:
        E = b.E
        E[r, EF_UNIT] = unit
        E[r, EF_FROM] = old
        E[r, EF_TO] = new


@rule(VOID, BT, I8, inline=True)
def roll_row(b: Battle, roll: int) -> None:
    """One die of a withdrawal check (RULES.md §7.3), after the check's row."""
    r = row(b, EV_ROLL)
    if r >= 0:
        b.E[r, ER_ROLL] = roll


@rule(I8, BT)
def withdrawal_mark(b: Battle) -> int:
    """Take the row of a withdrawal check (RULES.md §7.3) before its dice's rows; filled by
    :func:`withdrawal_row`. -1 when the buffer is full."""
    return row(b, EV_WD)


@rule(VOID, BT, I8, I8, F8, I8, B1, inline=True)
def withdrawal_row(b: Battle, r: int, side: int, pct: float, total: int, withdraws: bool) -> None:
    """Fill the withdrawal check's row ``r`` (RULES.md §7.2–§7.3; taken with
    :func:`withdrawal_mark` before its dice's rows; -1: none): the side, its casualty
    percent, its factors' total, the verdict, how many dice, and both sides' §7.2 tallies."""
    if r >= 0:
        E, S = b.E, b.S
        E[r, EWD_SIDE] = side
        E[r, EWD_PERCENT] = pct
        E[r, EWD_TOTAL] = total
        E[r, EWD_WITHDRAWS] = withdraws
        E[r, EWD_NROLLS] = max(total, 0)
        for j in range(4):
            E[r, EWD_OWN + j] = S[S_TAL + 4 * side + j]
            E[r, EWD_ENEMY + j] = S[S_TAL + 4 * (1 - side) + j]


@rule(VOID, BT, I8, I8)
def end_row(b: Battle, winner: int, reason: int) -> None:
    """The battle ended (RULES.md §6.8): the winner (-1 a draw) and why."""
    r = row(b, EV_END)
    if r >= 0:
        E = b.E
        E[r, EE_WINNER] = winner
        E[r, EE_REASON] = reason
