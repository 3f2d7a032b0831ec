"""The battle kernel's rules of single steps (RULES.md §0–§4, §6.5, §6.8, §7): dice, decks,
morale tests, bad things, falling back, the hit filter, the end check and the withdrawal
phase, as small compiled functions over the battle's arrays.

Every function takes ``b``, the battle (:class:`battle.kernel.jit.Battle`: its arrays and
the rules as arrays, :mod:`battle.kernel.layout`). Events are written to the
event buffer only when the battle records them (``S[S_RECORD]``); withdrawal checks always
are (the result lists them).
"""

from __future__ import annotations

from battle.fire import morale_hits
from battle.kernel.draw import d, index
from battle.kernel.jit import B1, BT, F8, I8, VOID, Battle, rule
from battle.kernel.layout import (
    CC_FAILED,
    END_BOTH_CARDS,
    END_BOTH_WITHDREW,
    END_CARDS,
    END_NO_UNITS,
    END_WITHDRAWAL,
    F_FIRECD,
    F_FIREDATX,
    F_MELEECD,
    F_SQUARE,
    HOW_MELEE,
    MV_DROP_BACK,
    PH_WITHDRAWAL,
    R_CAS_PER_H,
    R_CUMUL,
    R_DESTROYED,
    R_DRAW_THROUGH,
    R_HALF,
    R_HD_CONST,
    R_HITS_FAIL,
    R_HITS_PASS,
    R_LOSE_AT,
    R_PCT_DIE,
    R_REMOVE_RANDOM,
    R_SHAKEN_PEN,
    R_W_FLAG,
    R_WD_DIE,
    R_WD_SUCCESS,
    RF_DROP_BACK,
    RF_WD_THRESHOLD,
    S_BOX,
    S_CHANGED,
    S_CL,
    S_DEALT,
    S_DN,
    S_FCT,
    S_LOST,
    S_NWD,
    S_ONF,
    S_OVER,
    S_REASON,
    S_RECORD,
    S_TAL,
    S_TURN,
    S_WINNER,
    SR_DESTROYED,
    SR_DROPPED_BACK,
    SR_FELL_BACK,
    SR_ROUT_TEST,
    SR_TEST,
    ST_DESTROYED,
    ST_OFFT,
    ST_ROUTED,
    ST_SHAKEN,
    T_BATTERIES,
    T_BATTERY,
    T_FLAGS,
    T_OFFT,
    T_RETSH,
    T_VSSQ,
    TK_CASUALTY,
    TK_MORALE,
    TR_NONE,
    U_CBONUS,
    U_CBY,
    U_CING,
    U_DESTR,
    U_FAILED,
    U_FID,
    U_HALFP,
    U_HALFT,
    U_HITS,
    U_KIND,
    U_MELEE,
    U_MORALE,
    U_OFFT,
    U_OUT,
    U_RETSH,
    U_ROUTED,
    U_SBY,
    U_SHAKEN,
    U_SIDE,
    U_SVS,
    U_TOTAL,
)
from battle.kernel.rows import (
    card_row,
    end_row,
    hit_mark,
    hit_row,
    moved_row,
    phase_row,
    roll_row,
    state_row,
    test_row,
    withdrawal_mark,
    withdrawal_row,
)
from battle.withdrawal import highest_loss_step, withdrawal_order


@rule(I8, BT)
def hit_dice(b: Battle) -> int:
    """Roll the hit dice D (RULES.md §4.1, ``battle.hit_dice``), term by term, left to right."""
    RI, HD = b.RI, b.HD
    total = RI[R_HD_CONST]
    for k in range(HD.shape[0]):
        total += HD[k, 0] * d(b, HD[k, 1])
    return int(total)


@rule(VOID, BT, I8, I8)
def phase(b: Battle, side: int, name: int) -> None:
    """Record the start of a phase (RULES.md §6.3)."""
    if b.S[S_RECORD]:
        phase_row(b, side, name)


@rule(VOID, BT, I8, I8, I8, I8)
def state_event(b: Battle, unit: int, state: int, why: int, arg: int) -> None:
    """Record that a unit changed state (shaken, routed, destroyed, ...) and why."""
    if b.S[S_RECORD]:
        state_row(b, unit, state, why, arg)


@rule(I8, BT, I8)
def draw_card(b: Battle, side: int) -> int:
    """Draw one card (RULES.md §3.2): ``reshuffle`` draws from the whole deck; ``draw-through``
    deals the deck out and reshuffles when it is empty."""
    S, DK, DL = b.S, b.DK, b.DL
    n = S[S_DN + side]
    if n <= 0:
        return 0
    if not b.RI[R_DRAW_THROUGH]:
        return int(DK[side, index(b, n)])
    # the cards not dealt since the last reshuffle, highest first
    dealt = S[S_DEALT + side]
    left = DK[side, :n].copy()
    used = DL[side, :dealt].copy()
    m = 0
    for k in range(n):
        c = DK[side, k]
        hit = -1
        for j in range(dealt):
            if used[j] == c:
                hit = j
                break
        if hit >= 0:
            used[hit] = -1
        else:
            left[m] = c
            m += 1
    if m == 0:
        S[S_DEALT + side] = 0
        dealt = 0
        left = DK[side, :n].copy()
        m = n
    card = left[index(b, m)]
    DL[side, dealt] = card
    S[S_DEALT + side] = dealt + 1
    return int(card)


@rule(I8, BT, I8)
def remove_card(b: Battle, side: int) -> int:
    """A bad thing removes a card (RULES.md §3.3): the highest, or one at random (arw-1998);
    returns it (0 from an empty deck). Draw-through reshuffles."""
    S, DK = b.S, b.DK
    n = S[S_DN + side]
    if n <= 0:
        return 0
    i = index(b, n) if b.RI[R_REMOVE_RANDOM] else 0
    card = DK[side, i]
    for k in range(i, n - 1):
        DK[side, k] = DK[side, k + 1]
    S[S_DN + side] = n - 1
    S[S_DEALT + side] = 0
    return int(card)


@rule(VOID, BT, I8, I8, I8, I8)
def bad_thing(b: Battle, side: int, cause: int, unit: int, kind: int) -> None:
    """A bad thing removes one card from ``side``'s deck (RULES.md §3.3)."""
    S = b.S
    card = remove_card(b, side)
    S[S_CHANGED] = 1
    if card:
        S[S_CL + side] += 1
    if S[S_RECORD]:
        card_row(b, side, card, S[S_DN + side], cause, unit, kind)


@rule(VOID, BT, I8)
def leave_contact(b: Battle, u: int) -> None:
    """``u`` leaves melee and every pending charge or stand it is part of (RULES.md §6.4)."""
    U = b.U
    m = U[u, U_MELEE]
    if m >= 0:
        U[m, U_MELEE] = -1
        U[u, U_MELEE] = -1
    target = U[u, U_CING]  # the enemy u charged: no longer charged by it
    if target >= 0 and U[target, U_CBY] == u:
        U[target, U_CBY] = -1
    charger = U[u, U_CBY]  # the enemy charging u: its charge has nothing left to hit
    if charger >= 0 and U[charger, U_CING] == u:
        U[charger, U_CING] = -1
        U[charger, U_CBONUS] = 0
    stood = U[u, U_SBY]  # the enemy that stood against u's charge: nothing to fire at
    if stood >= 0 and U[stood, U_SVS] == u:
        U[stood, U_SVS] = -1
    U[u, U_CBY] = -1
    U[u, U_CING] = -1
    U[u, U_SVS] = -1
    U[u, U_SBY] = -1
    U[u, U_CBONUS] = 0


@rule(VOID, BT, I8, inline=True)
def gone(b: Battle, u: int) -> None:
    """``u`` leaves the field (a card may now be the last, or a side empty: §6.8)."""
    U, S = b.U, b.S
    S[S_CHANGED] = 1
    U[u, U_OUT] = 1
    S[S_ONF + U[u, U_SIDE]] -= 1


@rule(VOID, BT, I8, I8, I8)
def rout(b: Battle, u: int, why: int, arg: int) -> None:
    """The unit routs and leaves the field at once (RULES.md §1.5); §7.1 counts all its
    remaining boxes as casualties."""
    U, S = b.U, b.S
    if U[u, U_OUT]:
        return
    U[u, U_ROUTED] = 1
    S[S_LOST + U[u, U_SIDE]] += b.RI[R_DESTROYED] - U[u, U_TOTAL]
    gone(b, u)
    leave_contact(b, u)
    state_event(b, u, ST_ROUTED, why, arg)


@rule(VOID, BT, I8, I8)
def fail_morale(b: Battle, u: int, kind: int) -> None:
    """A failed morale test: a bad thing (§3.3); a steady unit shakes, a shaken one routs
    (§1.5)."""
    U = b.U
    bad_thing(b, U[u, U_SIDE], CC_FAILED, u, kind)
    if U[u, U_SHAKEN]:
        rout(b, u, SR_ROUT_TEST, kind)
    else:
        U[u, U_SHAKEN] = 1
        state_event(b, u, ST_SHAKEN, SR_TEST, kind)


@rule(B1, BT, I8, I8, I8, I8, B1, I8, I8)
def morale_test(
    b: Battle, u: int, minus: int, kind: int, bonus: int, in_melee: bool, why: int, arg: int
) -> bool:
    """A morale test (RULES.md §4.3, §0.2): d100 <= morale - morale hits (+ the §6.4 charge
    bonus, house); a shaken unit tests at -10 (§1.5), as does, in melee, a unit that failed to
    complete a formation change (§5.3). Under ``cumulative`` (§4.3) the hits lower morale for
    good. A failure is a bad thing and shakes or routs the unit; returns whether it passed."""
    U, RI = b.U, b.RI
    if RI[R_CUMUL] and minus:
        U[u, U_MORALE] -= minus
        minus = 0
    target = U[u, U_MORALE] - minus + bonus
    if U[u, U_SHAKEN] or (in_melee and U[u, U_FAILED]):
        target -= RI[R_SHAKEN_PEN]
    die = RI[R_PCT_DIE]
    roll = d(b, die)
    passed = roll <= target
    if b.S[S_RECORD]:
        test_row(b, kind, u, die, roll, target, passed, why, arg)
    if not passed:
        fail_morale(b, u, kind)
    return bool(passed)


@rule(VOID, BT, I8, I8)
def off_table(b: Battle, u: int, why: int) -> None:
    """Past its baseline the unit leaves the table (RULES.md §6.5; §7.2 counts it)."""
    U, S = b.U, b.S
    U[u, U_OFFT] = 1
    gone(b, u)
    leave_contact(b, u)
    S[S_TAL + 4 * U[u, U_SIDE] + T_OFFT] += 1
    state_event(b, u, ST_OFFT, why, 0)


@rule(VOID, BT, I8, F8, I8)
def fall_back(b: Battle, u: int, inches: float, action: int) -> None:
    """Retire toward the own baseline (RULES.md §6.5); past it the unit leaves the table. A
    shaken unit that retires counts once for §7.2."""
    U, P, S = b.U, b.P, b.S
    if U[u, U_SHAKEN] and not U[u, U_RETSH]:
        U[u, U_RETSH] = 1
        S[S_TAL + 4 * U[u, U_SIDE] + T_RETSH] += 1
    leave_contact(b, u)
    before = P[u, 0]
    P[u, 0] = before - inches
    if S[S_RECORD]:
        moved_row(b, u, action, before, max(P[u, 0], 0.0), -1)
    if P[u, 0] < 0.0:
        off_table(b, u, SR_FELL_BACK)


@rule(VOID, BT, I8)
def drop_back(b: Battle, u: int) -> None:
    """A charger that failed its test drops back (RULES.md §6.4); past its baseline it leaves
    the table (§6.5)."""
    P, S = b.P, b.S
    before = P[u, 0]
    P[u, 0] = before - b.RF[RF_DROP_BACK]
    if S[S_RECORD]:
        moved_row(b, u, MV_DROP_BACK, before, max(P[u, 0], 0.0), -1)
    if P[u, 0] < 0.0:
        off_table(b, u, SR_DROPPED_BACK)


@rule(I8, BT, I8, I8)
def take_hits(b: Battle, u: int, hits: int) -> int:
    """Mark actual hits (at most up to ``destroyed_at``, RULES.md §1.2); returns those taken.
    A unit first at half strength is due its test (§6.3 step 6); one at ``destroyed_at`` is
    destroyed (a flag or battery lost, §7.2)."""
    U, S, RI = b.U, b.S, b.RI
    destroyed_at = RI[R_DESTROYED]
    total = U[u, U_TOTAL]
    room = destroyed_at - total
    if hits > room:
        hits = room if room > 0 else 0
    U[u, U_HITS] += hits
    total += hits
    U[u, U_TOTAL] = total
    side = U[u, U_SIDE]
    if not U[u, U_ROUTED]:  # a routed unit's remaining boxes were counted when it routed
        S[S_LOST + side] += hits
    if not U[u, U_HALFT] and total >= RI[R_HALF]:
        U[u, U_HALFT] = 1
        U[u, U_HALFP] = 1
    if total >= destroyed_at and not U[u, U_DESTR]:
        if U[u, U_ROUTED]:
            U[u, U_ROUTED] = 0
        else:
            gone(b, u)
        U[u, U_DESTR] = 1
        if b.TI[U[u, U_KIND], T_BATTERY]:
            S[S_TAL + 4 * side + T_BATTERIES] += 1
        else:
            S[S_TAL + 4 * side + T_FLAGS] += 1
        leave_contact(b, u)
        state_event(b, u, ST_DESTROYED, SR_DESTROYED, destroyed_at)
    return hits


@rule(I8, BT, I8, I8, I8, I8, I8)
def hit_filter(b: Battle, a: int, tg: int, how: int, bonus: int, cd_x: int) -> int:
    """The 4-step hit filter of ``a`` on ``tg`` (RULES.md §4.1–§4.4); returns actual hits.

    Fire (``how`` < HOW_MELEE: fire, defensive fire, moving fire) uses ``a``'s fire CD times
    ``tg``'s fired-at multiplier (§1.7 skirmishers); melee, free attack and pursuit its melee
    CD (times the mounted multiplier against a square, §1.6). ``bonus`` is added to D (§6.4);
    ``cd_x`` multiplies the CD (§6.10 options). The hit's event goes before the tests it
    caused.
    """
    U, S, RI, FI, TI = b.U, b.S, b.RI, b.FI, b.TI
    mark = hit_mark(b) if S[S_RECORD] else -1
    d_roll = hit_dice(b)
    melee = how >= HOW_MELEE
    if melee:
        cd = FI[U[a, U_FID], F_MELEECD]
        if FI[U[tg, U_FID], F_SQUARE]:
            cd *= TI[U[a, U_KIND], T_VSSQ]
    else:
        cd = FI[U[a, U_FID], F_FIRECD] * FI[U[tg, U_FID], F_FIREDATX]
    cd *= cd_x
    h = morale_hits(d_roll + bonus, cd)  # D / CD rounded up (§4.2)
    morale_test(b, tg, h, TK_MORALE, 0, melee, TR_NONE, 0)
    die = RI[R_PCT_DIE]
    roll = d(b, die)
    target = RI[R_CAS_PER_H] * h
    passed = roll <= target
    if S[S_RECORD]:
        test_row(b, TK_CASUALTY, tg, die, roll, target, passed, TR_NONE, 0)
    hits = take_hits(b, tg, RI[R_HITS_PASS] if passed else RI[R_HITS_FAIL])
    if mark >= 0:  # recording
        hit_row(b, mark, how, a, tg, melee, d_roll, bonus, cd, h, hits, U[tg, U_TOTAL])
    return hits


@rule(VOID, BT, I8, I8)
def finish(b: Battle, winner: int, reason: int) -> None:
    S = b.S
    S[S_WINNER] = winner
    S[S_REASON] = reason
    S[S_OVER] = 1
    if S[S_RECORD]:
        end_row(b, winner, reason)


@rule(B1, BT)
def check_end(b: Battle) -> bool:
    """End at once on a side's last card or no units left (RULES.md §6.8 a, c); True if over.
    Only a lost card or a unit gone (``S_CHANGED``) can have ended the battle."""
    S = b.S
    if not S[S_CHANGED]:
        return bool(S[S_OVER] == 1)
    S[S_CHANGED] = 0
    if S[S_OVER]:
        return True
    lose = b.RI[R_LOSE_AT]
    out0 = S[S_DN] <= lose
    out1 = S[S_DN + 1] <= lose
    if out0 or out1:
        if out0 and out1:
            finish(b, -1, END_BOTH_CARDS)
        else:
            finish(b, 1 if out0 else 0, END_CARDS)
        return True
    gone0 = S[S_ONF] <= 0
    gone1 = S[S_ONF + 1] <= 0
    if gone0 or gone1:
        finish(b, -1 if gone0 and gone1 else (1 if gone0 else 0), END_NO_UNITS)
        return True
    return False


@rule(F8, BT, I8)
def casualty_percent(b: Battle, side: int) -> float:
    """RULES.md §7.1: this battle's hits plus routed units' remaining boxes, over boxes."""
    S = b.S
    box = S[S_BOX + side]
    return 100.0 * S[S_LOST + side] / box if box else 0.0


@rule(I8, BT, I8, F8)
def withdrawal_total(b: Battle, side: int, pct: float) -> int:
    """The sum of one army's withdrawal factors (RULES.md §7.2): own losses add, the same
    suffered by the enemy subtract, plus the highest losses step reached."""
    S, RI, LS = b.S, b.RI, b.LS
    total = 0
    for k in range(4):
        w = RI[R_W_FLAG + k]
        total += w * S[S_TAL + 4 * side + k] - w * S[S_TAL + 4 * (1 - side) + k]
    return total + highest_loss_step(pct, LS)


@rule(B1, BT, I8, F8, I8)
def roll_withdrawal(b: Battle, side: int, pct: float, total: int) -> bool:
    """One army's withdrawal check (RULES.md §7.3): ``total`` d6 (none when 0 or less); it
    withdraws on ``withdrawal_success_total`` or more. Always recorded: the result lists
    every check (its casualty percent ``pct``, factors, dice and both sides' §7.2 counts)."""
    S, RI = b.S, b.RI
    die = RI[R_WD_DIE]
    r = withdrawal_mark(b)
    S[S_NWD] += 1
    rolled = 0
    for _ in range(total):  # none when the total is 0 or less
        roll = d(b, die)
        rolled += roll
        roll_row(b, roll)
    withdraws = rolled >= RI[R_WD_SUCCESS]
    if r >= 0:
        withdrawal_row(b, r, side, pct, total, withdraws)
    return bool(withdraws)


@rule(VOID, BT)
def withdrawal_phase(b: Battle) -> None:
    """End-of-turn withdrawal checks (RULES.md §7.2–§7.4): an army at or over the threshold
    rolls its factors in d6; the one with more factors first, and if it withdraws the other
    does not roll; with equal factors both roll (both may withdraw)."""
    S = b.S
    phase(b, -1, PH_WITHDRAWAL)
    threshold = b.RF[RF_WD_THRESHOLD]
    pct0, pct1 = casualty_percent(b, 0), casualty_percent(b, 1)
    check0, check1 = pct0 >= threshold, pct1 >= threshold
    if not (check0 or check1):
        return
    if S[S_FCT] < 0:
        S[S_FCT] = S[S_TURN]
    # the armies that check, in side order: a, then b when both do
    side_a, pct_a = (0, pct0) if check0 else (1, pct1)
    total_a = withdrawal_total(b, side_a, pct_a)
    side_b, pct_b = 1, pct1
    total_b = withdrawal_total(b, 1, pct1) if check0 and check1 else 0
    swap, equal = withdrawal_order(int(check0) + int(check1), total_a, total_b)
    if swap:  # the army with more factors rolls first
        side_a, side_b = side_b, side_a
        pct_a, pct_b = pct_b, pct_a
        total_a, total_b = total_b, total_a
    a_withdraws = roll_withdrawal(b, side_a, pct_a, total_a)
    if not (check0 and check1) or (a_withdraws and not equal):
        if a_withdraws:
            finish(b, 1 - side_a, END_WITHDRAWAL)
        return
    b_withdraws = roll_withdrawal(b, side_b, pct_b, total_b)
    if a_withdraws and b_withdraws:
        finish(b, -1, END_BOTH_WITHDREW)
    elif a_withdraws or b_withdraws:
        finish(b, 1 - (side_a if a_withdraws else side_b), END_WITHDRAWAL)
