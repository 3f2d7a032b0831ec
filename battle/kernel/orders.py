"""Tactical doctrines (RULES.md §6.7) in the kernel: which units a side activates and what
each does (RULES.md §6.3 step 1). Deterministic given the state; ties go to the lowest id.

A doctrine is data (``battle.doctrines.<name>`` in config/rules.yaml), packed per side by
:func:`battle.kernel.pack.doctrine_arrays`: flags ``DI``, numbers ``DF``, the activation rank
of each unit type ``DR``, and per type the formation a foot unit forms to fire (``DFF``) and
the one it advances in (``DAF``), -1 where the type has none.
"""

from __future__ import annotations

from numba import types as nt

from battle.kernel.jit import (
    A1B,
    A1F,
    A1I,
    A2I,
    B1,
    BT,
    F8,
    I8,
    VOID,
    Battle,
    BoolArray,
    FloatArray,
    IntArray,
    rule,
)
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
    D_SQ_SKIRM,
    D_SQ_VS_CAV,
    DF_CAV_STOP,
    DF_FORM_LINE,
    DF_LEAVE_SKIRM,
    DF_LIMBER,
    DF_RATIO,
    DF_STOP_SHORT,
    DF_UNLIMBER,
    F_MAYCHARGE,
    F_SKIRM,
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
    T_DEFAULT,
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
Order = tuple[int, int, int, float]


@rule(B1, A2I, A2I, I8, I8, inline=True)
def in_state(U: IntArray, DI: IntArray, side: int, e: int) -> bool:
    """Whether enemy ``e`` is in a state the side's doctrine charges (``charge_when``)."""
    if U[e, U_DISORD]:
        return bool(DI[side, D_CH_DIS] == 1)
    if U[e, U_SHAKEN]:
        return bool(DI[side, D_CH_SH] == 1)
    return bool(DI[side, D_CH_ST] == 1)


@rule(B1, I8, I8, F8, I8, I8, F8, inline=True)
def before(k1: int, k2: int, k3: float, b1: int, b2: int, b3: float) -> bool:
    """Whether the key (k1, k2, k3) sorts before (b1, b2, b3)."""
    if k1 != b1:
        return k1 < b1
    if k2 != b2:
        return k2 < b2
    return k3 < b3


@rule(I8, BT, I8, I8, A1I, I8, A1B)
def charge_target(
    b: Battle, side: int, u: int, targets: IntArray, ntargets: int, taken: BoolArray
) -> int:
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


@rule(ORDER, BT, I8, I8, F8, B1)
def battery_order(b: Battle, side: int, u: int, nearest: float, advancing: bool) -> Order:
    """The order of a unit that deploys to fire, e.g. a battery (RULES.md §6.7): it deploys
    (unlimbers) once an enemy is within ``unlimber_within_inches``, else advances if its side
    advances; deployed, it limbers up again (§5.2: back to its type's default formation)
    when its side advances and no enemy is within ``limber_beyond_inches`` (-1: never)."""
    U, TI, DF = b.U, b.TI, b.DF
    kind, fid = U[u, U_KIND], U[u, U_FID]
    deploys = TI[kind, T_DEPLOYS]
    if fid == deploys:
        beyond = DF[side, DF_LIMBER]
        if beyond >= 0.0 and advancing and nearest > beyond:
            return A_FORM, -1, TI[kind, T_DEFAULT], 0.0
        return -1, -1, -1, 0.0
    if nearest <= DF[side, DF_UNLIMBER]:
        return A_FORM, -1, deploys, 0.0
    if advancing:
        return A_ADVANCE, -1, -1, DF[side, DF_UNLIMBER]
    return -1, -1, -1, 0.0


@rule(B1, BT, I8, I8, I8, inline=True)
def tries_square(b: Battle, side: int, fid: int, square: int) -> bool:
    """Whether a unit in formation ``fid`` is ordered into ``square`` against cavalry: only
    from a formation that may form it directly (RULES.md §1.7: not from skirmish order),
    unless the doctrine is the ``square_from_skirmish`` drill (§1.7 then refuses it)."""
    return bool(b.DI[side, D_SQ_SKIRM] == 1 or not b.MNF[fid, square])


@rule(ORDER, BT, I8, I8, F8, B1, A1I, I8, A1B, B1, B1)
def order_for(
    b: Battle,
    side: int,
    u: int,
    nearest: float,
    may: bool,
    targets: IntArray,
    ntargets: int,
    taken: BoolArray,
    threatened: bool,
    advancing: bool,
) -> Order:
    """The order of a steady unit ``nearest`` inches from the nearest enemy (RULES.md §6.7):
    ``(action, target, formation, gap)``, action -1 for none.

    ``may``: it may charge this bound (one of ``targets`` not ``taken``); ``threatened``: an
    enemy cavalry unit would charge it next (it forms square, house).
    """
    U, FI, FF, TI, DI, DF = b.U, b.FI, b.FF, b.TI, b.DI, b.DF
    kind, fid = U[u, U_KIND], U[u, U_FID]
    if TI[kind, T_DEPLOYS] >= 0:  # e.g. artillery: unlimber within reach of the enemy
        return battery_order(b, side, u, nearest, advancing)
    square = TI[kind, T_SQUARE]
    if square >= 0:
        if threatened:
            if fid != square and tries_square(b, side, fid, square):
                return A_FORM, -1, square, 0.0
        elif FI[fid, F_SQUARE]:
            return A_FORM, -1, b.DAF[side, kind], 0.0
    if may:
        target = charge_target(b, side, u, targets, ntargets, taken)
        if target >= 0:
            return A_CHARGE, target, -1, 0.0
    advance_in, fire_in = b.DAF[side, kind], b.DFF[side, kind]
    within = DF[side, DF_LEAVE_SKIRM]  # skirmishers form the fire formation (§1.7, §5.2)
    if within >= 0.0 and nearest <= within and FI[fid, F_SKIRM] and fire_in >= 0:
        return A_FORM, -1, fire_in, 0.0
    fire_range = FF[fid, FF_RANGE]
    hold = DI[side, D_HOLD]
    if fire_range > 0.0 and nearest <= fire_range and hold:
        return -1, -1, -1, 0.0  # stays to fire
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
def square_candidates(
    b: Battle, side: int, cav: IntArray, ncav: int, threatened: BoolArray
) -> None:
    """Mark the own infantry an enemy cavalry unit would charge next (one per cavalry unit):
    only that battalion forms square (RULES.md §6.7, house), chosen as a charger would choose
    (§6.9): disordered or shaken first, most hits, nearest, lowest id."""
    U, P, FF, TI = b.U, b.P, b.FF, b.TI
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
            if square < 0 or not tries_square(b, side, U[u, U_FID], square):
                continue
            if U[u, U_MELEE] >= 0:
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


#: the enemy as a side's orders see it: how many enemy units may be charged (listed in
#: WK[WK_TARGETS]), how many cavalry units could charge next (WK[WK_CAV]), the enemy's
#: furthest-forward position, and whether any enemy unit is on the field
ENEMY = nt.Tuple((I8, I8, F8, B1))
Enemy = tuple[int, int, float, bool]
#: whether any enemy that may be charged is in a state the doctrine charges, and the strength
#: a unit needs to charge the weakest of them (RULES.md §6.7 ``charge_when``, ``ratio``)
ODDS = nt.Tuple((B1, F8))
Odds = tuple[bool, float]
#: a chosen order's columns in CH: its activation rank, unit, action, target, formation (its
#: stop gap in CG)
CH_RANK, CH_UNIT, CH_ACTION, CH_TARGET, CH_FORM = 0, 1, 2, 3, 4
NCH = 5


@rule(ENEMY, BT, I8)
def survey_enemy(b: Battle, side: int) -> Enemy:
    """One pass over the enemy of ``side``: the units that may be charged (on the field, not
    in melee, not already charged: RULES.md §6.4), its unshaken cavalry (which could charge
    next bound, §6.7's squares), written to ``b.WK``; see :data:`ENEMY`."""
    U, P, TI = b.U, b.P, b.TI
    targets, cav = b.WK[WK_TARGETS], b.WK[WK_CAV]
    enemy = 1 - side
    ntargets = ncav = 0
    front = 0.0
    any_enemy = False
    for e in range(U.shape[0]):
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
    return ntargets, ncav, front, any_enemy


@rule(ODDS, BT, I8, A1I, I8)
def charge_odds(b: Battle, side: int, targets: IntArray, ntargets: int) -> Odds:
    """Whether any of ``targets`` is in a state ``side``'s doctrine charges, and the strength
    (boxes left) a unit needs to charge the weakest of them: ``ratio`` × its strength
    (RULES.md §6.7)."""
    U, DI = b.U, b.DI
    full = b.RI[R_DESTROYED]
    any_in_state = False
    weakest = full
    for k in range(ntargets):
        e = targets[k]
        if in_state(U, DI, side, e):
            any_in_state = True
        weakest = min(weakest, full - U[e, U_TOTAL])
    return any_in_state, b.DF[side, DF_RATIO] * weakest


@rule(VOID, A2I, A1F, I8, I8, I8, I8, I8, I8, F8, inline=True)
def put_order(
    ch: IntArray,
    chg: FloatArray,
    i: int,
    rank: int,
    u: int,
    action: int,
    target: int,
    form: int,
    gap: float,
) -> None:
    """Write row ``i`` of the chosen orders (:data:`CH_RANK` ... and its gap)."""
    ch[i, CH_RANK], ch[i, CH_UNIT], ch[i, CH_ACTION] = rank, u, action
    ch[i, CH_TARGET], ch[i, CH_FORM] = target, form
    chg[i] = gap


@rule(I8, BT, I8, I8, F8, B1)
def candidate_orders(b: Battle, side: int, ntargets: int, front: float, advancing: bool) -> int:
    """Every unit of ``side`` that would act this bound, with its order, in ``b.CH``/``b.CG``
    (id order); returns how many (RULES.md §6.7).

    Units in melee, charged last bound or with a charge pending act not; a shaken unit
    rallies if the doctrine says so (at its ``shaken`` rank); a disordered one waits (still
    completing a formation change); any other takes :func:`order_for`'s order, if any.
    """
    U, P, FI, FF, DI = b.U, b.P, b.FI, b.FF, b.DI
    targets = b.WK[WK_TARGETS]
    threatened, taken = b.WB[0], b.WB[1]
    depth = b.RF[RF_DEPTH]
    full = b.RI[R_DESTROYED]
    odds_known = False
    any_in_state = False
    need = 0.0
    nch = 0
    for u in range(U.shape[0]):
        if not on_field(U, u, side):
            continue
        if U[u, U_MELEE] >= 0 or U[u, U_CBY] >= 0 or U[u, U_CING] >= 0:
            continue
        if U[u, U_SHAKEN]:
            if DI[side, D_RALLY]:
                put_order(b.CH, b.CG, nch, DI[side, D_SHAKEN_RANK], u, A_RALLY, -1, -1, 0.0)
                nch += 1
            continue
        if U[u, U_DISORD]:
            continue
        nearest = depth - P[u, 0] - front
        fid = U[u, U_FID]
        reach = FF[fid, FF_REACH]
        may = False
        if ntargets and FI[fid, F_MAYCHARGE] and not U[u, U_NOCH] and 0.0 < reach >= nearest:
            if not odds_known:  # worked out once, for the first unit that needs them
                odds_known = True
                any_in_state, need = charge_odds(b, side, targets, ntargets)
            may = any_in_state or full - U[u, U_TOTAL] >= need
        action, target, form, gap = order_for(
            b, side, u, nearest, may, targets, ntargets, taken, threatened[u], advancing
        )
        if action >= 0:
            put_order(b.CH, b.CG, nch, b.DR[side, U[u, U_KIND]], u, action, target, form, gap)
            nch += 1
    return nch


@rule(VOID, A2I, A1F, I8, inline=True)
def sort_by_rank(ch: IntArray, chg: FloatArray, nch: int) -> None:
    """Sort the first ``nch`` chosen orders by activation rank, keeping id order within a
    rank (an insertion sort: stable; the orders come in id order)."""
    for i in range(1, nch):
        j = i
        while j > 0 and ch[j - 1, CH_RANK] > ch[j, CH_RANK]:
            for c in range(NCH):
                ch[j - 1, c], ch[j, c] = ch[j, c], ch[j - 1, c]
            chg[j - 1], chg[j] = chg[j], chg[j - 1]
            j -= 1


@rule(B1, A2I, I8, inline=True)
def two_charge_one(ch: IntArray, count: int) -> bool:
    """Whether two of the first ``count`` chosen orders charge the same target (§6.4)."""
    for i in range(count):
        for j in range(i):
            same = ch[i, CH_TARGET] == ch[j, CH_TARGET]
            if ch[i, CH_ACTION] == A_CHARGE and ch[j, CH_ACTION] == A_CHARGE and same:
                return True
    return False


@rule(VOID, BT, I8, I8, I8, I8, I8, F8, inline=True)
def give_order(b: Battle, m: int, u: int, action: int, target: int, form: int, gap: float) -> None:
    """Write the ``m``-th order of the bound (``b.OA``, ``b.OG``)."""
    OA = b.OA
    OA[m, O_UNIT], OA[m, O_ACTION], OA[m, O_TARGET], OA[m, O_FORM] = u, action, target, form
    b.OG[m] = gap


@rule(I8, BT, I8, I8, I8, I8, F8, B1)
def one_charger_per_target(
    b: Battle, side: int, card: int, nch: int, ntargets: int, front: float, advancing: bool
) -> int:
    """Give the chosen orders in activation order, at most ``card``; a unit whose target an
    earlier charger took picks again among the targets left (another target or another
    order; none: it is not activated and the next unit is). Returns how many (RULES.md §6.4).
    """
    ch, chg, P = b.CH, b.CG, b.P
    targets = b.WK[WK_TARGETS]
    taken = b.WB[1]
    depth = b.RF[RF_DEPTH]
    m = 0
    for i in range(nch):
        if m >= card:
            break
        u, action, target = ch[i, CH_UNIT], ch[i, CH_ACTION], ch[i, CH_TARGET]
        form, gap = ch[i, CH_FORM], chg[i]
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
        give_order(b, m, u, action, target, form, gap)
        m += 1
    return m


@rule(I8, BT, I8, I8, B1)
def choose_orders(b: Battle, side: int, card: int, attacking: bool) -> int:
    """Pick at most ``card`` units of ``side`` to activate and their orders (RULES.md §6.3
    step 1, §6.7); writes them to the order array and returns how many.

    Every unit that would act gets its order (:func:`candidate_orders`); they are taken in
    the doctrine's ``activation_order`` ranks, then by id, until ``card`` have an order. At
    most one charger per target (§6.4): when two of those taken charge the same target,
    :func:`one_charger_per_target` has the later one pick again.
    """
    if card <= 0:
        return 0
    ntargets, ncav, front, any_enemy = survey_enemy(b, side)
    if not any_enemy:
        return 0
    threatened, taken = b.WB[0], b.WB[1]
    threatened[:] = False
    taken[:] = False
    if ncav and b.DI[side, D_SQ_VS_CAV]:
        square_candidates(b, side, b.WK[WK_CAV], ncav, threatened)
    advancing = attacking or b.DI[side, D_ADV_DEF] == 1
    nch = candidate_orders(b, side, ntargets, front, advancing)
    if nch == 0:
        return 0
    sort_by_rank(b.CH, b.CG, nch)
    count = min(card, nch)
    if not two_charge_one(b.CH, count):
        ch = b.CH
        for i in range(count):
            u, action, target, form = (
                ch[i, CH_UNIT],
                ch[i, CH_ACTION],
                ch[i, CH_TARGET],
                ch[i, CH_FORM],
            )
            give_order(b, i, u, action, target, form, b.CG[i])
        return count
    return one_charger_per_target(b, side, card, nch, ntargets, front, advancing)
