"""The battle kernel's event rows, written by name: one small writer per kind of
:data:`battle.kernel.layout.EVENT_ROWS` (``L``), each putting its values in the columns the
table names (``E[r, L.EH_HOW] = how``), never by number. :mod:`battle.kernel.decode` reads
them back by the same names; tests/battle/test_kernel_layout.py checks that no other kernel module
writes to the event buffer and that each writer writes only its own kind's columns.

Callers write a row only when the battle records events (``S[S_RECORD]``), except a
withdrawal check's, which the result always lists. The writers of what the kernel wrote in
place before they were declared here (a hit's row, a withdrawal check's and its dice) are
inlined where they are called, as that code was. A full buffer sets ``S_EOVER`` and the
row is dropped: the battle is then fought again with a larger one
(:mod:`battle.kernel.run`).
"""

from __future__ import annotations

from battle.kernel import layout as L
from battle.kernel.jit import B1, BT, F8, I8, VOID, Battle, rule


@rule(I8, BT, I8, inline=True)
def row(b: Battle, kind: int) -> int:
    """A new event row of ``kind`` at the current turn and bound, its values 0; -1 if the
    buffer is full (the battle is then fought again with a larger one)."""
    S, E = b.S, b.E
    r = S[L.S_EN]
    if r >= E.shape[0]:
        S[L.S_EOVER] = 1
        return -1
    S[L.S_EN] = r + 1
    E[r, L.E_KIND] = kind
    E[r, L.E_TURN] = S[L.S_TURN]
    E[r, L.E_BOUND] = S[L.S_BOUNDS]
    for k in range(L.E_VALUES, L.EW):
        E[r, k] = 0.0
    return int(r)


@rule(VOID, BT, I8, I8)
def phase_row(b: Battle, side: int, phase: int) -> None:
    """A phase begins (RULES.md §6.3): ``side`` -1 for the withdrawal phase."""
    r = row(b, L.EV_PHASE)
    if r >= 0:
        E = b.E
        E[r, L.EP_SIDE] = side
        E[r, L.EP_PHASE] = phase


@rule(VOID, BT, I8, I8, I8, I8)
def bound_row(b: Battle, side: int, card: int, deck: int, nact: int) -> None:
    """A bound begins (RULES.md §6.3 step 1): the card drawn, the deck left, and how many
    units it activates (each then has an :func:`act_row`)."""
    r = row(b, L.EV_BOUND)
    if r >= 0:
        E = b.E
        E[r, L.EB_SIDE] = side
        E[r, L.EB_CARD] = card
        E[r, L.EB_DECK] = deck
        E[r, L.EB_NACT] = nact


@rule(VOID, BT, I8)
def act_row(b: Battle, unit: int) -> None:
    """One unit the bound's card activates."""
    r = row(b, L.EV_ACT)
    if r >= 0:
        b.E[r, L.EA_UNIT] = unit


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
    r = row(b, L.EV_TEST)
    if r >= 0:
        E = b.E
        E[r, L.ET_KIND] = kind
        E[r, L.ET_UNIT] = unit
        E[r, L.ET_DIE] = die
        E[r, L.ET_ROLL] = roll
        E[r, L.ET_TARGET] = target
        E[r, L.ET_PASSED] = passed
        E[r, L.ET_WHY] = why
        E[r, L.ET_ARG] = arg


@rule(VOID, BT, I8, I8, I8, I8)
def initiative_row(b: Battle, die: int, roll_a: int, roll_b: int, first: int) -> None:
    """The initiative roll of the next bound (RULES.md §6.2, ``roll-initiative``): side 0's
    roll against side 1's (in the target's column), and who has the first bound."""
    r = row(b, L.EV_TEST)
    if r >= 0:
        E = b.E
        E[r, L.E_BOUND] = b.S[L.S_BOUNDS] + 1
        E[r, L.ET_KIND] = L.TK_INITIATIVE
        E[r, L.ET_UNIT] = -1
        E[r, L.ET_DIE] = die
        E[r, L.ET_ROLL] = roll_a
        E[r, L.ET_TARGET] = roll_b
        E[r, L.ET_PASSED] = first == 0
        E[r, L.ET_WHY] = L.TR_FIRST
        E[r, L.ET_ARG] = first


@rule(I8, BT)
def hit_mark(b: Battle) -> int:
    """Take the row of a hit filter (RULES.md §4) before the tests it causes; filled by
    :func:`hit_row` once the hits are known. -1 when the buffer is full."""
    return row(b, L.EV_HIT)


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
        E[r, L.EH_HOW] = how
        E[r, L.EH_ATTACKER] = attacker
        E[r, L.EH_TARGET] = target
        E[r, L.EH_MELEE] = melee
        E[r, L.EH_D] = d
        E[r, L.EH_BONUS] = bonus
        E[r, L.EH_DIVISOR] = divisor
        E[r, L.EH_MORALE_HITS] = morale_hits
        E[r, L.EH_HITS] = hits
        E[r, L.EH_TOTAL] = total


@rule(VOID, BT, I8, I8, I8, I8, I8, I8)
def melee_row(b: Battle, a: int, c: int, by_a: int, by_b: int, loser: int, outcome: int) -> None:
    """A round of melee (RULES.md §4.5): the pair, the actual hits each inflicted, the loser
    (-1 none) and the outcome."""
    r = row(b, L.EV_MELEE)
    if r >= 0:
        E = b.E
        E[r, L.EM_A] = a
        E[r, L.EM_B] = c
        E[r, L.EM_BY_A] = by_a
        E[r, L.EM_BY_B] = by_b
        E[r, L.EM_LOSER] = loser
        E[r, L.EM_OUTCOME] = outcome


@rule(VOID, BT, I8, I8, I8, I8, I8, I8)
def card_row(b: Battle, side: int, card: int, left: int, cause: int, unit: int, test: int) -> None:
    """A card lost to a bad thing (RULES.md §3.3): which, how many left, and why."""
    r = row(b, L.EV_CARD)
    if r >= 0:
        E = b.E
        E[r, L.EC_SIDE] = side
        E[r, L.EC_CARD] = card
        E[r, L.EC_LEFT] = left
        E[r, L.EC_CAUSE] = cause
        E[r, L.EC_UNIT] = unit
        E[r, L.EC_TEST] = test


@rule(VOID, BT, I8, I8, I8, I8)
def state_row(b: Battle, unit: int, state: int, why: int, arg: int) -> None:
    """A unit changed state (shaken, routed, destroyed, ...): the state and why."""
    r = row(b, L.EV_STATE)
    if r >= 0:
        E = b.E
        E[r, L.ES_UNIT] = unit
        E[r, L.ES_STATE] = state
        E[r, L.ES_WHY] = why
        E[r, L.ES_ARG] = arg


@rule(VOID, BT, I8, I8)
def joined_row(b: Battle, unit: int, deck: int) -> None:
    """A late arrival's unit joins at the start of the next bound (RULES.md §8.4), its side's
    deck rebuilt to ``deck`` cards."""
    r = row(b, L.EV_STATE)
    if r >= 0:
        E = b.E
        E[r, L.E_BOUND] = b.S[L.S_BOUNDS] + 1
        E[r, L.ES_UNIT] = unit
        E[r, L.ES_STATE] = L.ST_JOINED
        E[r, L.ES_WHY] = L.SR_JOINED
        E[r, L.ES_ARG] = deck


@rule(VOID, BT, I8, I8, F8, F8, I8)
def moved_row(b: Battle, unit: int, action: int, before: float, after: float, target: int) -> None:
    """A unit moved (advance, charge, fall back, ...): from and to, in inches from its own
    baseline, and the enemy it moved against (-1 none)."""
    r = row(b, L.EV_MOVED)
    if r >= 0:
        E = b.E
        E[r, L.EMV_UNIT] = unit
        E[r, L.EMV_ACTION] = action
        E[r, L.EMV_FROM] = before
        E[r, L.EMV_TO] = after
        E[r, L.EMV_TARGET] = target


@rule(VOID, BT, I8, I8, I8)
def formed_row(b: Battle, unit: int, old: int, new: int) -> None:
    """A unit changed formation (RULES.md §5): from and to (formation indices)."""
    r = row(b, L.EV_FORMED)
    if r >= 0:
        E = b.E
        E[r, L.EF_UNIT] = unit
        E[r, L.EF_FROM] = old
        E[r, L.EF_TO] = new


@rule(VOID, BT, I8, inline=True)
def roll_row(b: Battle, roll: int) -> None:
    """One die of a withdrawal check (RULES.md §7.3), after the check's row."""
    r = row(b, L.EV_ROLL)
    if r >= 0:
        b.E[r, L.ER_ROLL] = roll


@rule(I8, BT)
def withdrawal_mark(b: Battle) -> int:
    """Take the row of a withdrawal check (RULES.md §7.3) before its dice's rows; filled by
    :func:`withdrawal_row`. -1 when the buffer is full."""
    return row(b, L.EV_WD)


@rule(VOID, BT, I8, I8, F8, I8, B1, inline=True)
def withdrawal_row(b: Battle, r: int, side: int, pct: float, total: int, withdraws: bool) -> None:
    """Fill the withdrawal check's row ``r`` (RULES.md §7.2–§7.3; taken with
    :func:`withdrawal_mark` before its dice's rows; -1: none): the side, its casualty
    percent, its factors' total, the verdict, how many dice, and both sides' §7.2 tallies."""
    if r >= 0:
        E, S = b.E, b.S
        E[r, L.EWD_SIDE] = side
        E[r, L.EWD_PERCENT] = pct
        E[r, L.EWD_TOTAL] = total
        E[r, L.EWD_WITHDRAWS] = withdraws
        E[r, L.EWD_NROLLS] = max(total, 0)
        for j in range(4):
            E[r, L.EWD_OWN + j] = S[L.S_TAL + 4 * side + j]
            E[r, L.EWD_ENEMY + j] = S[L.S_TAL + 4 * (1 - side) + j]


@rule(VOID, BT, I8, I8)
def end_row(b: Battle, winner: int, reason: int) -> None:
    """The battle ended (RULES.md §6.8): the winner (-1 a draw) and why."""
    r = row(b, L.EV_END)
    if r >= 0:
        E = b.E
        E[r, L.EE_WINNER] = winner
        E[r, L.EE_REASON] = reason
