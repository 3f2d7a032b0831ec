"""Tactical doctrines (RULES.md §6.7) in the kernel: which units a side activates and what
each does (RULES.md §6.3 step 1). Deterministic given the state; ties go to the lowest id.

A doctrine is data (``battle.doctrines.<name>`` in config/rules.yaml), packed per side by
:func:`battle.kernel.pack.doctrine_arrays`: flags ``DI``, numbers ``DF``, the activation rank
of each unit type ``DR``, and per type the formation a foot unit forms to fire (``DFF``) and
the one it advances in (``DAF``), -1 where the type has none.
"""

from __future__ import annotations

from numba import types as nt

from battle.kernel.jit import A1B, A1I, A2I, B1, BT, F8, I8, VOID, rule
from battle.kernel.layout import (
    A_ADVANCE,
    A_CHARGE,
    A_FORM,
    A_RALLY,
    D_ADV_DEF,
    D_CAV_SQ,
    D_CH_DIS,
    D_CH_SH,
    D_CH_ST,
    D_HOLD,
    D_RALLY,
    D_SHAKEN_RANK,
    D_SQ_VS_CAV,
    DF_CAV_STOP,
    DF_FORM_LINE,
    DF_RATIO,
    DF_STOP_SHORT,
    DF_UNLIMBER,
    F_MAYCHARGE,
    F_SQUARE,
    FF_MOVE,
    FF_RANGE,
    FF_REACH,
    O_ACTION,
    O_FORM,
    O_TARGET,
    O_UNIT,
    R_DESTROYED,
    RF_DEPTH,
    T_DEPLOYS,
    T_FOOT,
    T_MOUNTED,
    T_SQUARE,
    U_CBY,
    U_CING,
    U_DISORD,
    U_FID,
    U_KIND,
    U_MELEE,
    U_NOCH,
    U_SHAKEN,
    U_TOTAL,
    WK_CAV,
    WK_TARGETS,
)
from battle.kernel.phases import on_field

#: an order: action (-1 none), target, formation, stop gap
ORDER = nt.Tuple((I8, I8, I8, F8))


@rule(B1, A2I, A2I, I8, I8, inline=True)
def in_state(U, DI, side, e):
    """Whether enemy ``e`` is in a state the side's doctrine charges (``charge_when``)."""
    if U[e, U_DISORD]:
        return DI[side, D_CH_DIS] == 1
    if U[e, U_SHAKEN]:
        return DI[side, D_CH_SH] == 1
    return DI[side, D_CH_ST] == 1


@rule(B1, I8, I8, F8, I8, I8, F8, inline=True)
def before(k1, k2, k3, b1, b2, b3):
    """Whether the key (k1, k2, k3) sorts before (b1, b2, b3)."""
    if k1 != b1:
        return k1 < b1
    if k2 != b2:
        return k2 < b2
    return k3 < b3


@rule(I8, BT, I8, I8, A1I, I8, A1B)
def charge_target(b, side, u, targets, ntargets, taken):
    """The enemy ``u`` would charge now, or -1 (RULES.md §6.4, §6.9).

    Only a unit whose type and formation may charge (§1, §1.7) and that is not shaken,
    disordered or in melee may charge, and only an enemy within its move + 3 inches (its
    reach) and not ``taken``. It charges a target in a state listed in ``charge_when``, or one
    with at most 1/ratio of its strength. Preference: disordered or shaken first, then most
    hits, then nearest, then lowest id. ``targets``: the enemies not in melee and not charged.
    """
    U, P, RI, FI, FF, TI, DI, DF = b.U, b.P, b.RI, b.FI, b.FF, b.TI, b.DI, b.DF
    fid = U[u, U_FID]
    if not FI[fid, F_MAYCHARGE] or U[u, U_NOCH] or U[u, U_SHAKEN] or U[u, U_DISORD]:
        return -1
    if U[u, U_MELEE] >= 0:
        return -1
    reach = FF[fid, FF_REACH]
    if reach <= 0.0:  # a square, or a unit that cannot move
        return -1
    full, ratio = RI[R_DESTROYED], DF[side, DF_RATIO]
    mine = full - U[u, U_TOTAL]
    no_squares = TI[U[u, U_KIND], T_MOUNTED] and not DI[side, D_CAV_SQ]
    base = b.RF[RF_DEPTH] - P[u, 0]  # the gap to an enemy is base - its position
    best = -1
    bk1, bk2, bk3 = 0, 0, 0.0
    for k in range(ntargets):
        e = targets[k]
        if taken[e]:
            continue
        gap = base - P[e, 0]
        if gap > reach:
            continue
        if no_squares and FI[U[e, U_FID], F_SQUARE]:
            continue
        if not (in_state(U, DI, side, e) or mine >= ratio * (full - U[e, U_TOTAL])):
            continue
        k1 = 0 if (U[e, U_DISORD] or U[e, U_SHAKEN]) else 1
        k2 = -U[e, U_TOTAL]
        if best < 0 or before(k1, k2, gap, bk1, bk2, bk3):  # (then the lower id: e ascends)
            best, bk1, bk2, bk3 = e, k1, k2, gap
    return best


@rule(ORDER, BT, I8, I8, F8, B1, A1I, I8, A1B, B1, B1)
def order_for(b, side, u, nearest, may, targets, ntargets, taken, threatened, advancing):
    """The order of a steady unit ``nearest`` inches from the nearest enemy (RULES.md §6.7):
    ``(action, target, formation, gap)``, action -1 for none.

    ``may``: it may charge this bound (one of ``targets`` not ``taken``); ``threatened``: an
    enemy cavalry unit would charge it next (it forms square, house).
    """
    U, FI, FF, TI, DI, DF, MNF = b.U, b.FI, b.FF, b.TI, b.DI, b.DF, b.MNF
    kind, fid = U[u, U_KIND], U[u, U_FID]
    deploys = TI[kind, T_DEPLOYS]
    if deploys >= 0:  # e.g. artillery: unlimber within reach of the enemy
        if fid != deploys:
            if nearest <= DF[side, DF_UNLIMBER]:
                return A_FORM, -1, deploys, 0.0
            if advancing:
                return A_ADVANCE, -1, -1, DF[side, DF_UNLIMBER]
        return -1, -1, -1, 0.0
    square = TI[kind, T_SQUARE]
    if square >= 0:
        if threatened:
            if fid != square and not MNF[fid, square]:
                return A_FORM, -1, square, 0.0
        elif FI[fid, F_SQUARE]:
            return A_FORM, -1, b.DAF[side, kind], 0.0
    if may:
        target = charge_target(b, side, u, targets, ntargets, taken)
        if target >= 0:
            return A_CHARGE, target, -1, 0.0
    fire_range = FF[fid, FF_RANGE]
    hold = DI[side, D_HOLD]
    if fire_range > 0.0 and nearest <= fire_range and hold:
        return -1, -1, -1, 0.0  # stays to fire
    advance_in, fire_in = b.DAF[side, kind], b.DFF[side, kind]
    forms_fire = TI[kind, T_FOOT] and advance_in >= 0 and fid == advance_in and fire_in >= 0
    if forms_fire and nearest <= DF[side, DF_FORM_LINE]:  # foot near the enemy forms line
        return A_FORM, -1, fire_in, 0.0
    if not advancing or FF[fid, FF_MOVE] <= 0.0:
        return -1, -1, -1, 0.0
    if TI[kind, T_MOUNTED]:
        stop = DF[side, DF_CAV_STOP]
    elif hold and fire_range > 0.0:
        stop = fire_range
    else:
        stop = DF[side, DF_STOP_SHORT]
    if nearest <= stop:
        return -1, -1, -1, 0.0
    return A_ADVANCE, -1, -1, stop


@rule(VOID, BT, I8, A1I, I8, A1B)
def square_candidates(b, side, cav, ncav, threatened):
    """Mark the own infantry an enemy cavalry unit would charge next (one per cavalry unit):
    only that battalion forms square (RULES.md §6.7, house), chosen as a charger would choose
    (§6.9): disordered or shaken first, most hits, nearest, lowest id."""
    U, P, FF, TI, MNF = b.U, b.P, b.FF, b.TI, b.MNF
    depth = b.RF[RF_DEPTH]
    for k in range(ncav):
        e = cav[k]
        reach = FF[U[e, U_FID], FF_REACH]
        best = -1
        bk1, bk2, bk3 = 0, 0, 0.0
        for u in range(U.shape[0]):
            if not on_field(U, u, side):
                continue
            square = TI[U[u, U_KIND], T_SQUARE]
            if square < 0 or MNF[U[u, U_FID], square] or U[u, U_MELEE] >= 0:
                continue
            gap = depth - P[u, 0] - P[e, 0]
            if gap > reach:
                continue
            k1 = 0 if (U[u, U_DISORD] or U[u, U_SHAKEN]) else 1
            k2 = -U[u, U_TOTAL]
            if best < 0 or before(k1, k2, gap, bk1, bk2, bk3):
                best, bk1, bk2, bk3 = u, k1, k2, gap
        if best >= 0:
            threatened[best] = True


@rule(I8, BT, I8, I8, B1)
def choose_orders(b, side, card, attacking):
    """Pick at most ``card`` units of ``side`` to activate and their orders (RULES.md §6.3
    step 1, §6.7); writes them to the order array and returns how many.

    Units are taken in the doctrine's ``activation_order`` categories, then by id, until
    ``card`` have an order. Units in melee, charged last bound or with a charge pending are not
    activated; a shaken unit rallies if the doctrine says so; a disordered one waits. At most
    one charger per target (§6.4): a unit whose target an earlier charger took picks again.
    """
    U, P, RI, FI, FF, TI, DI = b.U, b.P, b.RI, b.FI, b.FF, b.TI, b.DI
    OA, OG = b.OA, b.OG
    n = U.shape[0]
    if card <= 0:
        return 0
    enemy = 1 - side
    # one pass over the enemy: its furthest-forward position, who could be charged at all
    # (not in melee, not already charged), and the cavalry that could charge next bound
    targets, cav = b.WK[WK_TARGETS], b.WK[WK_CAV]
    ntargets = ncav = 0
    front = 0.0
    any_enemy = False
    for e in range(n):
        if not on_field(U, e, enemy):
            continue
        if not any_enemy or P[e, 0] > front:
            front = P[e, 0]
        any_enemy = True
        if U[e, U_MELEE] < 0:
            if U[e, U_CBY] < 0:
                targets[ntargets] = e
                ntargets += 1
            if TI[U[e, U_KIND], T_MOUNTED] and not U[e, U_SHAKEN]:
                cav[ncav] = e
                ncav += 1
    if not any_enemy:
        return 0
    threatened, taken = b.WB[0], b.WB[1]
    threatened[:] = False
    taken[:] = False
    if ncav and DI[side, D_SQ_VS_CAV]:
        square_candidates(b, side, cav, ncav, threatened)
    advancing = attacking or DI[side, D_ADV_DEF] == 1
    depth = b.RF[RF_DEPTH]
    full = RI[R_DESTROYED]
    odds_known = False
    any_in_state = False
    need = 0.0
    # chosen orders: rank, unit, action, target, formation; gaps
    ch, chg = b.CH, b.CG
    nch = 0
    charging = 0
    for u in range(n):
        if not on_field(U, u, side):
            continue
        if U[u, U_MELEE] >= 0 or U[u, U_CBY] >= 0 or U[u, U_CING] >= 0:
            continue
        if U[u, U_SHAKEN]:
            if DI[side, D_RALLY]:
                ch[nch, 0], ch[nch, 1], ch[nch, 2] = DI[side, D_SHAKEN_RANK], u, A_RALLY
                ch[nch, 3], ch[nch, 4] = -1, -1
                chg[nch] = 0.0
                nch += 1
            continue
        if U[u, U_DISORD]:
            continue  # still completing a formation change
        nearest = depth - P[u, 0] - front
        fid = U[u, U_FID]
        reach = FF[fid, FF_REACH]
        may = False
        if ntargets and FI[fid, F_MAYCHARGE] and not U[u, U_NOCH] and 0.0 < reach >= nearest:
            if not odds_known:  # is any target in a charged state; the strength needed
                odds_known = True
                weakest = full
                for k in range(ntargets):
                    e = targets[k]
                    if in_state(U, DI, side, e):
                        any_in_state = True
                    weakest = min(weakest, full - U[e, U_TOTAL])
                need = b.DF[side, DF_RATIO] * weakest
            may = any_in_state or full - U[u, U_TOTAL] >= need
        action, target, form, gap = order_for(
            b, side, u, nearest, may, targets, ntargets, taken, threatened[u], advancing
        )
        if action >= 0:
            ch[nch, 0], ch[nch, 1], ch[nch, 2] = b.DR[side, U[u, U_KIND]], u, action
            ch[nch, 3], ch[nch, 4] = target, form
            chg[nch] = gap
            nch += 1
            if action == A_CHARGE:
                charging += 1
    if nch == 0:
        return 0
    # activation order: rank, then id (insertion sort: stable, units already in id order)
    for i in range(1, nch):
        j = i
        while j > 0 and ch[j - 1, 0] > ch[j, 0]:
            for c in range(5):
                ch[j - 1, c], ch[j, c] = ch[j, c], ch[j - 1, c]
            chg[j - 1], chg[j] = chg[j], chg[j - 1]
            j -= 1
    count = min(card, nch)
    clash = False
    if charging >= 2:  # two chargers may have picked one target (RULES.md §6.4)
        for i in range(count):
            for j in range(i):
                if ch[i, 2] == A_CHARGE and ch[j, 2] == A_CHARGE and ch[i, 3] == ch[j, 3]:
                    clash = True
    if not clash:
        for i in range(count):
            OA[i, O_UNIT], OA[i, O_ACTION], OA[i, O_TARGET], OA[i, O_FORM] = (
                ch[i, 1],
                ch[i, 2],
                ch[i, 3],
                ch[i, 4],
            )
            OG[i] = chg[i]
        return count
    # walk the orders in activation order; a unit whose target an earlier charger took picks
    # again among the targets left (another target or another order; none: it is not
    # activated and the next unit is)
    m = 0
    for i in range(nch):
        if m >= card:
            break
        u, action, target, form, gap = ch[i, 1], ch[i, 2], ch[i, 3], ch[i, 4], chg[i]
        if action == A_CHARGE and target >= 0:
            if taken[target]:
                left = False
                for k in range(ntargets):
                    if not taken[targets[k]]:
                        left = True
                nearest = depth - P[u, 0] - front
                action, target, form, gap = order_for(
                    b, side, u, nearest, left, targets, ntargets, taken, False, advancing
                )
                if action < 0:
                    continue
            if action == A_CHARGE and target >= 0:
                taken[target] = True
        OA[m, O_UNIT], OA[m, O_ACTION], OA[m, O_TARGET], OA[m, O_FORM] = u, action, target, form
        OG[m] = gap
        m += 1
    return m
