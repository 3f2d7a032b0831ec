"""The phases of one bound (RULES.md §6.3 steps 2–6) as compiled functions over the battle's
arrays, in the order :func:`battle.kernel.bound.bound` calls them.

Lists the object engine kept (units charged, changing formation, flagged, due a
half-strength test) are per-unit flags here, walked in id order: units are indexed in id
order, which is the order every list was sorted into (RULES.md §6.9).
"""

from __future__ import annotations

from battle.formation import completion_sum
from battle.kernel.core import (
    bad_thing,
    drop_back,
    fall_back,
    hit_filter,
    morale_test,
    state_event,
)
from battle.kernel.draw import d
from battle.kernel.jit import A2I, B1, BT, F8, I8, VOID, Battle, IntArray, rule
from battle.kernel.layout import (
    A_ADVANCE,
    A_CHARGE,
    A_FORM,
    A_RALLY,
    CC_MELEE,
    F_FIRECD,
    F_SQUARE,
    FF_MOVE,
    FF_RANGE,
    FF_REACH,
    HOW_DEFENSIVE,
    HOW_FIRE,
    HOW_FREE,
    HOW_MELEE,
    HOW_MOVE_FIRE,
    HOW_PURSUIT,
    MO_BROKEN,
    MO_DECIDED,
    MO_ENDED,
    MO_TIE,
    MV_ADVANCE,
    MV_CHARGE,
    MV_COUNTER,
    MV_FALL_BACK,
    MV_PURSUE,
    O_ACTION,
    O_FORM,
    O_TARGET,
    O_UNIT,
    R_CHARGE_BONUS,
    R_COUNTERCHARGE,
    R_FC_CT,
    R_FC_HBF,
    R_FC_RAW,
    R_FC_VET,
    R_FIRE_AND_CHARGE,
    R_FREE_ATTACK,
    R_FREE_X,
    R_MOVE_FIRE,
    R_MOVE_FIRE_X,
    R_NO_CHARGE_AFTER_FAIL,
    R_PURSUIT,
    R_PURSUIT_X,
    R_REACTION_DIE,
    R_WEAK_BONUS,
    RF_DEPTH,
    RF_FALL_BACK,
    RF_MF_FRACTION,
    RF_STOP_SHORT,
    S_RECORD,
    SR_FORMED,
    SR_MAY_NOT_FORM,
    ST_RALLIED,
    ST_REFUSED,
    ST_STEADY,
    T_CVF,
    T_FOOT,
    T_MOUNTED,
    TK_CHARGE,
    TK_COMPLETION,
    TK_HALF,
    TK_RALLY,
    TK_STAND,
    TR_FORMING,
    TR_NONE,
    TR_TARGET,
    U_ACT,
    U_ADV,
    U_CBONUS,
    U_CBY,
    U_CCOST,
    U_CDECL,
    U_CHGL,
    U_CING,
    U_CTF,
    U_DISORD,
    U_FAILED,
    U_FID,
    U_FROZEN,
    U_GRADE,
    U_HALFMV,
    U_HALFP,
    U_HBF,
    U_IRREG,
    U_KIND,
    U_MELEE,
    U_NOCH,
    U_OUT,
    U_PRESENT,
    U_SBY,
    U_SHAKEN,
    U_SIDE,
    U_SVS,
    U_TOTAL,
    WK_DUE,
    WK_PAIR_A,
    WK_PAIR_B,
)
from battle.kernel.rows import formed_row, melee_row, moved_row, test_row


@rule(B1, A2I, I8, I8, inline=True)
def on_field(U: IntArray, u: int, side: int) -> bool:
    """Whether unit ``u`` is one of ``side``'s units on the field."""
    return bool(U[u, U_SIDE] == side and U[u, U_PRESENT] == 1 and U[u, U_OUT] == 0)


@rule(I8, BT, I8, I8, I8)
def charge_bonus(b: Battle, u: int, other: int, bonus: int) -> int:
    """``u``'s charge bonus against ``other`` (RULES.md §6.4; §1.6: a mounted charger
    multiplies it against foot not in square)."""
    U, TI, FI = b.U, b.TI, b.FI
    x = TI[U[u, U_KIND], T_CVF]
    if bonus and x != 1 and TI[U[other, U_KIND], T_FOOT] and not FI[U[other, U_FID], F_SQUARE]:
        bonus *= x
    return bonus


@rule(VOID, BT, I8, I8, I8, I8, I8, I8, I8)
def resolve_melee(
    b: Battle, a: int, c: int, bonus_a: int, bonus_b: int, x_a: int, x_b: int, how: int
) -> None:
    """One round of melee between ``a`` and ``c`` (RULES.md §4.5), as
    :func:`battle.reference.phases.resolve_melee` (which says how it goes) fights it between
    its ``a`` and ``b``: both apply the hit filter, then the outcome."""
    U, RI = b.U, b.RI
    hits_by_a = hit_filter(b, a, c, how, bonus_a, x_a)
    hits_by_b = hit_filter(b, c, a, how, bonus_b, x_b)
    loser = -1
    if U[a, U_OUT] and U[c, U_OUT]:
        outcome = MO_ENDED
    elif U[a, U_OUT] or U[c, U_OUT]:
        outcome = MO_BROKEN
        loser = a if U[a, U_OUT] else c
    elif hits_by_a == hits_by_b:
        outcome = MO_TIE
    else:
        outcome = MO_DECIDED
        loser = a if hits_by_a < hits_by_b else c
    if b.S[S_RECORD]:
        melee_row(b, a, c, hits_by_a, hits_by_b, loser, outcome)
    if loser < 0:
        return
    bad_thing(b, U[loser, U_SIDE], CC_MELEE, loser, 0)
    if U[loser, U_OUT]:
        return
    winner = c if loser == a else a
    if RI[R_FREE_ATTACK] and not U[winner, U_OUT]:
        hit_filter(b, winner, loser, HOW_FREE, 0, RI[R_FREE_X])
        if U[loser, U_OUT]:
            return
    fall_back(b, loser, b.RF[RF_FALL_BACK], MV_FALL_BACK)


@rule(VOID, BT, I8, I8, I8)
def pursue(b: Battle, c: int, u: int, bonus: int) -> None:
    """Variant ``pursuit`` (RULES.md §6.10): charger ``c`` follows ``u``, which failed to
    stand, with the rest of its charge reach, and fights it at once, ``u`` at CD x2."""
    U, P, FF = b.U, b.P, b.FF
    used = P[c, 0] - P[c, 1]
    gap = b.RF[RF_DEPTH] - P[c, 0] - P[u, 0]
    if gap <= 0.0 or FF[U[c, U_FID], FF_REACH] - used < gap or U[c, U_MELEE] >= 0:
        return
    if U[u, U_MELEE] >= 0:
        return
    before = P[c, 0]
    P[c, 0] += gap
    if b.S[S_RECORD]:
        moved_row(b, c, MV_PURSUE, before, P[c, 0], u)
    U[c, U_MELEE] = u
    U[u, U_MELEE] = c
    bonus_c = charge_bonus(b, c, u, bonus)
    resolve_melee(b, c, u, bonus_c, 0, 1, b.RI[R_PURSUIT_X], HOW_PURSUIT)


@rule(VOID, BT, I8)
def stand_tests(b: Battle, side: int) -> None:
    """Units an enemy charge reached last bound test to stand (RULES.md §6.4), by id.

    The charge is met here. A unit that stands is in melee with its charger and may give
    defensive fire this bound only (§6.9); one that fails falls back without fighting (§6.5)
    and, under ``pursuit`` (§6.10), its charger may follow it and fight at once.
    """
    U, RI = b.U, b.RI
    n = U.shape[0]
    for u in range(n):
        if not (U[u, U_CHGL] and U[u, U_SIDE] == side):
            continue
        U[u, U_CHGL] = 0
        c = U[u, U_CBY]
        if c < 0 or U[u, U_OUT]:
            continue
        U[c, U_CING] = -1  # the charge is met: the charger has no charge pending any more
        if U[c, U_OUT]:
            U[u, U_CBY] = -1
            continue
        if morale_test(b, u, 0, TK_STAND, 0, False, TR_NONE, 0) and not U[u, U_OUT]:
            U[u, U_MELEE] = c
            U[c, U_MELEE] = u
            U[u, U_SVS] = c
            U[c, U_SBY] = u
            U[u, U_CBY] = -1
            continue
        U[u, U_CBY] = -1
        bonus = U[c, U_CBONUS]
        U[c, U_CBONUS] = 0
        if U[u, U_OUT]:
            continue
        if RI[R_NO_CHARGE_AFTER_FAIL]:
            U[u, U_NOCH] = 1
        fall_back(b, u, b.RF[RF_FALL_BACK], MV_FALL_BACK)
        if RI[R_PURSUIT] and not U[u, U_OUT] and not U[c, U_OUT]:
            pursue(b, c, u, bonus)


@rule(VOID, BT, I8)
def completion_tests(b: Battle, side: int) -> None:
    """Disordered units test to complete their formation change (RULES.md §5.2–§5.3), by id:
    a reaction test (§0.3), d6 > T. A unit that fails is frozen for the bound and tests again
    next bound; the retest adds nothing for the failure itself (§5.3).

    T is the change's own cost, + hit by fire, + raw or irregular or shaken (once), + charge
    target, - veteran or elite (§5.2).
    """
    U, RI = b.U, b.RI
    die = RI[R_REACTION_DIE]
    for u in range(U.shape[0]):
        if not (U[u, U_DISORD] and on_field(U, u, side)):
            continue
        grade = U[u, U_GRADE]
        total = completion_sum(
            U[u, U_CCOST],
            grade == 0 or U[u, U_IRREG] == 1 or U[u, U_SHAKEN] == 1,  # raw, irregular, shaken
            grade >= 2,  # veteran or elite
            U[u, U_HBF] == 1,
            U[u, U_CTF] == 1,
            RI[R_FC_HBF],
            RI[R_FC_RAW],
            RI[R_FC_CT],
            RI[R_FC_VET],
        )
        roll = d(b, die)
        passed = roll > total
        if b.S[S_RECORD]:
            test_row(b, TK_COMPLETION, u, die, roll, total, passed, TR_FORMING, U[u, U_FID])
        if passed:
            U[u, U_DISORD] = 0
            U[u, U_FAILED] = 0
            state_event(b, u, ST_STEADY, SR_FORMED, U[u, U_FID])
        else:
            U[u, U_FAILED] = 1
            U[u, U_FROZEN] = 1


@rule(VOID, BT, I8)
def declare_charges(b: Battle, norders: int) -> None:
    """Activated units declare charges; each charger tests morale to go in (RULES.md §6.4),
    +``target_disordered_morale_bonus`` against a disordered or shaken target (house).

    At most one charge at a time per unit and one charger per target: a unit with a charge
    pending, or a target already charged or declared on this bound, is refused. A charger that
    fails drops back (and leaves the table past its baseline).
    """
    U, OA, FI, RI = b.U, b.OA, b.FI, b.RI
    for k in range(norders):
        u, target = OA[k, O_UNIT], OA[k, O_TARGET]
        if OA[k, O_ACTION] != A_CHARGE or target < 0:
            continue
        if U[u, U_OUT] or U[u, U_FROZEN] or U[u, U_SHAKEN] or U[u, U_DISORD]:
            continue
        if U[u, U_MELEE] >= 0 or not FI[U[u, U_FID], 3] or U[u, U_NOCH] or U[u, U_CING] >= 0:
            continue
        if U[target, U_OUT] or U[target, U_MELEE] >= 0 or U[target, U_CBY] >= 0:
            continue
        declared = False  # already the target of a charge declared this bound
        for j in range(k):
            if OA[j, O_TARGET] == target and U[OA[j, O_UNIT], U_CDECL]:
                declared = True
        if declared:
            continue
        weak = U[target, U_DISORD] or U[target, U_SHAKEN]
        bonus = RI[R_WEAK_BONUS] if weak else 0
        if morale_test(b, u, 0, TK_CHARGE, bonus, False, TR_TARGET, target):
            U[u, U_CDECL] = 1
        elif not U[u, U_OUT]:
            if RI[R_NO_CHARGE_AFTER_FAIL]:
                U[u, U_NOCH] = 1
            drop_back(b, u)


@rule(I8, BT, I8)
def fire_target(b: Battle, side: int) -> int:
    """The enemy unit every firer of ``1 - side`` aims at (RULES.md §6.9): the nearest, then
    most hits, then lowest id; units in melee are not fired on. -1: none.

    The gap to an enemy depends only on its position, so every firer ranks the enemy units
    the same way and the nearest is the one furthest forward.
    """
    U, P = b.U, b.P
    best = -1
    for e in range(U.shape[0]):
        if not on_field(U, e, side) or U[e, U_MELEE] >= 0:
            continue
        if best >= 0:  # keep best unless e is further forward, or level with more hits
            if P[e, 0] < P[best, 0]:
                continue
            if P[e, 0] == P[best, 0] and U[e, U_TOTAL] <= U[best, U_TOTAL]:
                continue  # (ids ascend: on equal hits the lower id, best, stays)
        best = e
    return best


@rule(VOID, BT, I8)
def fire_phase(b: Battle, side: int) -> None:
    """Fire (RULES.md §6.3 step 3, §6.9 targets: nearest, most hits, lowest id).

    A unit that stood against a charge this bound fires at its charger unless it is
    disordered or cannot fire, and never later for that charge (§6.9). Activated units do
    not fire, except a declared charger under ``fire-and-charge`` (§4.6) and an advancing
    unit under ``move-and-fire`` (§6.10: CD x2, then it moves half).
    """
    U, P, RI, FI, FF = b.U, b.P, b.RI, b.FI, b.FF
    depth = b.RF[RF_DEPTH]
    target = -1
    for u in range(U.shape[0]):
        if not on_field(U, u, side):
            continue
        stood = U[u, U_SVS]
        cannot = U[u, U_DISORD] or FI[U[u, U_FID], F_FIRECD] == 0
        if stood >= 0:
            U[u, U_SVS] = -1  # defensive fire happens in this bound or not at all (§6.9)
            if not (cannot or U[stood, U_OUT]):
                hit_filter(b, u, stood, HOW_DEFENSIVE, 0, 1)
                U[stood, U_HBF] = 1
            continue
        if cannot or U[u, U_MELEE] >= 0 or U[u, U_CING] >= 0:
            continue  # a unit whose charge is pending is charging: it may not fire (§4.6)
        moving = False
        if U[u, U_ACT]:
            if RI[R_MOVE_FIRE] and U[u, U_ADV]:
                moving = True
            elif not (RI[R_FIRE_AND_CHARGE] and U[u, U_CDECL]):
                continue
        if target < 0 or U[target, U_OUT]:
            target = fire_target(b, 1 - side)
            if target < 0:
                continue
        if P[target, 0] >= depth - P[u, 0] - FF[U[u, U_FID], FF_RANGE]:  # in range
            if moving:
                hit_filter(b, u, target, HOW_MOVE_FIRE, 0, RI[R_MOVE_FIRE_X])
                U[u, U_HALFMV] = 1
            else:
                hit_filter(b, u, target, HOW_FIRE, 0, 1)
            U[target, U_HBF] = 1


@rule(VOID, BT)
def melee_phase(b: Battle) -> None:
    """Every pair in contact fights, both at once (RULES.md §4.5), side 0's unit first, by
    id."""
    U = b.U
    n = U.shape[0]
    first, second = b.WK[WK_PAIR_A], b.WK[WK_PAIR_B]  # the pairs in melee
    npairs = 0
    for u in range(n):
        if U[u, U_SIDE] != 0 or not U[u, U_PRESENT]:
            continue
        m = U[u, U_MELEE]
        if m >= 0 and not U[u, U_OUT] and not U[m, U_OUT]:
            first[npairs], second[npairs] = u, m
            npairs += 1
    for k in range(npairs):
        a, c = first[k], second[k]
        if U[a, U_MELEE] != c:  # contact ended earlier this phase
            continue
        bonus_a = charge_bonus(b, a, c, U[a, U_CBONUS])
        bonus_b = charge_bonus(b, c, a, U[c, U_CBONUS])
        U[a, U_CBONUS] = 0
        U[c, U_CBONUS] = 0
        resolve_melee(b, a, c, bonus_a, bonus_b, 1, 1, HOW_MELEE)


@rule(VOID, BT, I8, I8)
def charge_move(b: Battle, u: int, target: int) -> None:
    """Move a charger into contact (RULES.md §6.4); under ``countercharge`` (§6.10) a mounted
    target that is neither disordered nor shaken meets it halfway, both count as chargers."""
    U, P, RI = b.U, b.P, b.RI
    if target < 0 or U[target, U_OUT] or U[target, U_MELEE] >= 0 or U[target, U_CBY] >= 0:
        return
    before = P[u, 0]
    depth = b.RF[RF_DEPTH]
    record = b.S[S_RECORD]
    weak = U[target, U_DISORD] or U[target, U_SHAKEN]
    if RI[R_COUNTERCHARGE] and b.TI[U[target, U_KIND], T_MOUNTED] and not weak:
        half = (depth - P[u, 0] - P[target, 0]) / 2
        P[u, 0] += half
        other_before = P[target, 0]
        P[target, 0] += half
        U[u, U_MELEE] = target
        U[target, U_MELEE] = u
        U[u, U_CBONUS] = RI[R_CHARGE_BONUS]
        U[target, U_CBONUS] = RI[R_CHARGE_BONUS]
        if record:
            moved_row(b, u, MV_CHARGE, before, P[u, 0], target)
            moved_row(b, target, MV_COUNTER, other_before, P[target, 0], u)
        return
    P[u, 1] = before
    P[u, 0] = depth - P[target, 0]
    U[target, U_CBY] = u
    U[u, U_CING] = target
    U[target, U_CHGL] = 1
    U[target, U_CTF] = 1
    U[u, U_CBONUS] = RI[R_CHARGE_BONUS]
    if record:
        moved_row(b, u, MV_CHARGE, before, P[u, 0], target)


@rule(VOID, BT, I8, I8)
def change_formation(b: Battle, u: int, new: int) -> None:
    """Begin a formation change (RULES.md §5.1): at once in the new formation, disordered.

    Its completion total starts from the change's own cost (§5.2, with the reforming row
    when it leaves skirmish order, §1.7). A change the type cannot make (no cost for the
    pair, or ``may_not_form``) is not made; one ``may_not_form`` forbids (§1.7: no square
    straight from skirmish order) is logged as refused.
    """
    U, CT = b.U, b.CT
    old = U[u, U_FID]
    if new < 0:
        return
    if CT[old, new] == -(10**9):
        if b.MNF[old, new]:
            state_event(b, u, ST_REFUSED, SR_MAY_NOT_FORM, new)
        return
    if b.S[S_RECORD]:
        formed_row(b, u, old, new)
    U[u, U_FID] = new
    U[u, U_CCOST] = CT[old, new]
    U[u, U_DISORD] = 1


@rule(VOID, BT, I8, F8, F8)
def advance(b: Battle, u: int, to_gap: float, front: float) -> None:
    """Move up to the unit's move (half of it after moving fire, §6.10), stopping ``to_gap``
    (at least ``stop_short``) inches from the enemy's furthest-forward unit at ``front``
    (< 0: no enemy left)."""
    U, P, RF = b.U, b.P, b.RF
    stop = RF[RF_STOP_SHORT] if RF[RF_STOP_SHORT] > to_gap else to_gap
    room = (0.0 if front < 0 else RF[RF_DEPTH] - P[u, 0] - front) - stop
    move = b.FF[U[u, U_FID], FF_MOVE]
    if U[u, U_HALFMV]:
        move = move * RF[RF_MF_FRACTION]
    step = room if room < move else move
    if step <= 0.0:
        return
    before = P[u, 0]
    P[u, 0] += step
    if b.S[S_RECORD]:
        moved_row(b, u, MV_ADVANCE, before, P[u, 0], -1)


@rule(VOID, BT, I8, I8)
def manoeuvre_phase(b: Battle, side: int, norders: int) -> None:
    """Activated units move, charge, change formation or rally (RULES.md §6.3 step 5), in
    activation order."""
    U, P, OA = b.U, b.P, b.OA
    front = -2.0  # the enemy's furthest-forward position (worked out when first needed)
    for k in range(norders):
        u = OA[k, O_UNIT]
        if U[u, U_OUT] or U[u, U_FROZEN] or U[u, U_MELEE] >= 0:
            continue
        action = OA[k, O_ACTION]
        if action == A_CHARGE:
            if U[u, U_CDECL]:
                charge_move(b, u, OA[k, O_TARGET])
                # a countercharge (RULES.md §6.10) moves an enemy up: the front is worked out
                # again for the next advance, which still stops short of it (§6.4)
                front = -2.0
        elif action == A_RALLY:
            if U[u, U_SHAKEN] and morale_test(b, u, 0, TK_RALLY, 0, False, TR_NONE, 0):
                U[u, U_SHAKEN] = 0
                state_event(b, u, ST_RALLIED, 0, 0)
        elif action == A_FORM:
            change_formation(b, u, OA[k, O_FORM])
        elif action == A_ADVANCE:
            if front < -1.5:
                front = -1.0  # no enemy left
                for e in range(U.shape[0]):
                    if on_field(U, e, 1 - side) and P[e, 0] > front:
                        front = P[e, 0]
            advance(b, u, b.OG[k], front)


@rule(VOID, BT)
def half_strength_checks(b: Battle) -> None:
    """A unit first reduced to half strength (6+ actual hits) takes a morale test (RULES.md
    §6.3 step 6), side 0's first, by id."""
    U = b.U
    n = U.shape[0]
    due = b.WK[WK_DUE]
    ndue = 0
    for side in range(2):
        for u in range(n):
            if U[u, U_HALFP] and U[u, U_SIDE] == side:
                U[u, U_HALFP] = 0
                due[ndue] = u
                ndue += 1
    for k in range(ndue):
        u = due[k]
        if not U[u, U_OUT]:
            morale_test(b, u, 0, TK_HALF, 0, False, TR_NONE, 0)


@rule(VOID, BT, I8, I8)
def end_bound(b: Battle, side: int, norders: int) -> None:
    """Clear the side's per-bound flags: activation, charges declared, frozen, moving fire,
    and hit by fire or charged since its last bound (used by completion tests, §5.2)."""
    U, OA = b.U, b.OA
    for k in range(norders):
        u = OA[k, O_UNIT]
        U[u, U_ACT] = 0
        U[u, U_CDECL] = 0
        U[u, U_ADV] = 0
        U[u, U_HALFMV] = 0
    for u in range(U.shape[0]):
        if U[u, U_SIDE] == side:
            U[u, U_FROZEN] = 0
            U[u, U_HBF] = 0
            U[u, U_CTF] = 0
