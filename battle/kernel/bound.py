"""A whole battle in the kernel (RULES.md §6): turns of two bounds, each bound's phases with
the end check after every phase (§6.8), late arrivals joining at the start of a bound (§8.4),
the withdrawal phase at the end of each turn (§7), and the turn limit and nightfall.
"""

from __future__ import annotations

import numpy as np

from battle.kernel.core import (
    check_end,
    draw_card,
    finish,
    phase,
    withdrawal_phase,
)
from battle.kernel.draw import d
from battle.kernel.jit import (
    A1F,
    A1I,
    A2F,
    A2I,
    BT,
    I8,
    LAY,
    RL,
    RT,
    ST,
    VOID,
    Battle,
    BattleArrays,
    FloatArray,
    IntArray,
    LayoutArrays,
    RuleArrays,
    Rules,
    entry,
    new_battle,
    new_rules,
    rule,
    rules_at,
    unmanaged,
)
from battle.kernel.layout import (
    A_ADVANCE,
    END_FLAGS,
    END_NIGHTFALL,
    END_TURN_LIMIT,
    NO,
    NS,
    O_ACTION,
    O_UNIT,
    OUT_COLUMNS,
    PH_CHECKS,
    PH_FIRE,
    PH_MANOEUVRE,
    PH_MELEE,
    PH_RESPONSE,
    R_DESTROYED,
    R_FROM_CHECK,
    R_INIT_DIE,
    R_INIT_ROLL,
    R_MAX_TURNS,
    R_MOVE_FIRE,
    R_TURNS_CAP,
    S_ATTACKER,
    S_BITGEN,
    S_BOUNDS,
    S_BOX,
    S_CHANGED,
    S_CL,
    S_DEALT,
    S_DN,
    S_DNUM,
    S_DUP,
    S_FCT,
    S_MAXB,
    S_NARR,
    S_NEXTARR,
    S_ONF,
    S_OVER,
    S_RECORD,
    S_TURN,
    U_ACT,
    U_ADV,
    U_ARR,
    U_HB,
    U_PRESENT,
    U_SIDE,
    WK_ROWS,
)
from battle.kernel.orders import choose_orders
from battle.kernel.phases import (
    completion_tests,
    declare_charges,
    end_bound,
    fire_phase,
    half_strength_checks,
    manoeuvre_phase,
    melee_phase,
    stand_tests,
)
from battle.kernel.rows import act_row, bound_row, initiative_row, joined_row
from battle.kernel.start import deck_cards, index_order, lay_out


@rule(I8, BT)
def first_side(b: Battle) -> int:
    """Who has the first bound this turn (RULES.md §6.2): the attacker; under the variant
    roll-initiative, the higher of two dice (ties to the attacker)."""
    S, RI = b.S, b.RI
    if not RI[R_INIT_ROLL]:
        return int(S[S_ATTACKER])
    die = RI[R_INIT_DIE]
    roll_a = d(b, die)
    roll_b = d(b, die)
    first = S[S_ATTACKER] if roll_a == roll_b else (0 if roll_a > roll_b else 1)
    if S[S_RECORD]:
        initiative_row(b, die, roll_a, roll_b, first)
    return first


@rule(VOID, BT)
def join_due(b: Battle) -> None:
    """Join every arrival due at the start of the next bound (RULES.md §8.4; see
    :mod:`battle.arrivals`): its units deploy at their baseline, the side's deck is rebuilt for
    every unit it brought to the battle (§3.1, :func:`battle.kernel.start.deck_cards`) less one
    highest card per card already lost (§3.3), and its casualty base grows by their boxes
    (§7.1). An arrival whose every unit was destroyed before the battle brings nothing."""
    U, S, DK = b.U, b.S, b.DK
    AB, AS = b.AB, b.AS
    next_bound = S[S_BOUNDS] + 1
    while S[S_NEXTARR] < S[S_NARR] and AB[S[S_NEXTARR]] <= next_bound:
        k = S[S_NEXTARR]
        S[S_NEXTARR] = k + 1
        side = AS[k]
        brought = 0  # the side's units from the start and of every arrival up to this one
        joining = 0
        for u in range(U.shape[0]):
            if U[u, U_SIDE] == side and U[u, U_ARR] <= k:
                brought += 1
                if U[u, U_ARR] == k:
                    joining += 1
        if not joining:
            continue  # every unit of it was destroyed: nothing joins
        lost = S[S_CL + side]
        cards = deck_cards(brought, b.XD)
        size = max(cards.shape[0] - lost, 0)
        for c in range(size):
            DK[side, c] = cards[lost + c]
        S[S_DN + side] = size
        S[S_DEALT + side] = 0
        for u in range(U.shape[0]):
            if U[u, U_ARR] != k:
                continue
            U[u, U_PRESENT] = 1
            S[S_ONF + side] += 1
            S[S_BOX + side] += b.RI[R_DESTROYED] - U[u, U_HB]
        if S[S_RECORD]:
            for u in range(U.shape[0]):
                if U[u, U_ARR] == k:
                    joined_row(b, u, size)  # at the start of the next bound


@rule(VOID, BT, I8)
def bound(b: Battle, side: int) -> None:
    """One bound of ``side`` (RULES.md §6.3): draw a card, activate, then the response, fire,
    melee, manoeuvre and checks phases, with the end check after every phase (§6.8). Only a
    lost card or a unit gone can have ended the battle."""
    U, S, OA = b.U, b.S, b.OA
    S[S_BOUNDS] += 1
    record = S[S_RECORD]
    card = draw_card(b, side)
    norders = choose_orders(b, side, card, side == S[S_ATTACKER])
    for k in range(norders):
        U[OA[k, O_UNIT], U_ACT] = 1
    if b.RI[R_MOVE_FIRE]:  # §6.10: an advancing unit may fire as it moves
        for k in range(norders):
            if OA[k, O_ACTION] == A_ADVANCE:
                U[OA[k, O_UNIT], U_ADV] = 1
    if record:
        bound_row(b, side, card, S[S_DN + side], norders)
        for k in range(norders):
            act_row(b, OA[k, O_UNIT])
    phase(b, side, PH_RESPONSE)
    # 2. response: stand tests, formation completion, charge declarations
    stand_tests(b, side)
    completion_tests(b, side)
    declare_charges(b, norders)
    if check_end(b):
        return
    phase(b, side, PH_FIRE)
    fire_phase(b, side)
    if check_end(b):
        return
    phase(b, side, PH_MELEE)
    melee_phase(b)
    if check_end(b):
        return
    phase(b, side, PH_MANOEUVRE)
    manoeuvre_phase(b, side, norders)
    if check_end(b):
        return
    phase(b, side, PH_CHECKS)
    half_strength_checks(b)
    end_bound(b, side, norders)
    check_end(b)


@rule(VOID, BT)
def run_battle(b: Battle) -> None:
    """Fight the battle set up in ``b`` to its end (RULES.md §6.2, §6.8): turns of two
    bounds until a side is beaten or withdraws, the turn limit (``max_turns`` from the start,
    or from the first withdrawal check under ``fifteen-after-check``; ``max_turns_cap`` bounds
    every battle) or nightfall (``S_MAXB`` bounds)."""
    S, RI = b.S, b.RI
    S[S_CHANGED] = 1
    if check_end(b):  # a side may start at its losing card count (arw-1998, one unit)
        return
    limit, cap, from_check = RI[R_MAX_TURNS], RI[R_TURNS_CAP], RI[R_FROM_CHECK]
    while not S[S_OVER]:
        turn = S[S_TURN]
        if from_check:
            first_check = S[S_FCT]
            ended = turn >= cap or (first_check >= 0 and turn >= first_check + limit)
        else:
            ended = turn >= limit or turn >= cap
        if ended:
            finish(b, -1, END_TURN_LIMIT)
            break
        S[S_TURN] = turn + 1
        first = first_side(b)
        for k in range(2):
            side = first if k == 0 else 1 - first
            if S[S_MAXB] >= 0 and S[S_BOUNDS] >= S[S_MAXB]:
                finish(b, -1, END_NIGHTFALL)
                break
            join_due(b)
            bound(b, side)
            if S[S_OVER]:
                break
        if not S[S_OVER]:
            withdrawal_phase(b)


@rule(ST, LAY, I8, A1F, A2F, I8, I8, A1I, A1F, A2I)
def set_out(
    lay: LayoutArrays,
    attacker: int,
    DB: FloatArray,
    E: FloatArray,
    record: int,
    max_bounds: int,
    RI: IntArray,
    RF: FloatArray,
    XD: IntArray,
) -> BattleArrays:
    """The arrays of one battle (``ST``) from its layout ``lay`` (laid out by
    :func:`battle.kernel.start.lay_out` under the rules ``RI``, ``RF`` and ``XD``; the layout
    stays as it was), the side with the first bound ``attacker``, its uniforms ``DB``, its
    event buffer ``E`` (its rows are all the battle may write; what was in it is not read),
    whether it records its events, and nightfall after ``max_bounds`` bounds (-1: none)."""
    TB, RX, AB, AS = lay
    U, P, S, DK = lay_out(TB, RX, AB.shape[0], attacker, RI, RF, XD)
    n = U.shape[0]
    S[S_RECORD] = record
    S[S_MAXB] = max_bounds
    S[S_DNUM] = DB.shape[0]
    return (
        U,
        P,
        S,
        DK,
        np.zeros_like(DK),
        DB,
        E,
        np.zeros((n, NO), np.int64),
        np.zeros(n, np.float64),
        AB,
        AS,
        np.empty((WK_ROWS, n), np.int64),
        np.empty((2, n), np.bool_),
        np.empty((n, 5), np.int64),
        np.empty(n, np.float64),
    )


@rule(A1I, A1I)
def listing_of(RX: IntArray) -> IntArray:
    """The index of each unit in listing order (each side's units as given, side 0's first),
    from the layout's ``RX``: the inverse of :func:`battle.kernel.start.index_order`."""
    order = index_order(RX)
    n = order.shape[0]
    out = np.empty(n, np.int64)
    for i in range(n):
        out[order[i]] = i
    return out


@rule(VOID, A2I, A1I, A1I)
def outcome_columns(U: IntArray, listing: IntArray, out: IntArray) -> None:
    """What a result reads of each unit, the units in the order ``listing``, written to
    ``out`` (int64, at least ``(len(OUT_COLUMNS) + 1) * n`` long): one run of n per column of
    ``OUT_COLUMNS`` of ``U``, then each unit's state at the end (the index in ``END_STATES``
    of the first of ``END_FLAGS`` it has set, else steady)."""
    n, m = listing.shape[0], len(OUT_COLUMNS)
    for j in range(m):
        col = OUT_COLUMNS[j]
        for k in range(n):
            out[j * n + k] = U[listing[k], col]
    for k in range(n):
        state = len(END_FLAGS)
        for f in range(len(END_FLAGS)):
            if U[listing[k], END_FLAGS[f]]:
                state = f
                break
        out[m * n + k] = state


@entry(RT(RL))
def rules_of(rl: RuleArrays) -> Rules:
    """The rule tuple ``rl`` as one :class:`~battle.kernel.jit.Rules` (made here, compiled
    and cached on disk: the proxy's own constructor would compile itself in every
    process)."""
    r: Rules = new_rules()
    r.RI, r.RF, r.FI, r.FF, r.TI = rl[0], rl[1], rl[2], rl[3], rl[4]
    r.CT, r.MNF, r.HD, r.LS, r.XD = rl[5], rl[6], rl[7], rl[8], rl[9]
    r.DI, r.DF, r.DR, r.DFF, r.DAF = rl[10], rl[11], rl[12], rl[13], rl[14]
    return r


@entry(VOID(LAY, I8, A1F, I8, A2F, I8, I8, I8, I8, A1I))
def fight_arrays(
    lay: LayoutArrays,
    attacker: int,
    DB: FloatArray,
    drawn: int,
    E: FloatArray,
    record: int,
    max_bounds: int,
    rules: int,
    bitgen: int,
    OUT: IntArray,
) -> None:
    """Fight the battle laid out in ``lay`` with the rules at ``rules`` (the address of a
    :class:`~battle.kernel.jit.Rules`, :func:`~battle.kernel.jit.fields_address`, held by the
    caller; see :func:`set_out` and :func:`run_battle`), its
    uniforms drawn from the bit generator at ``bitgen`` and kept in ``DB`` (whose first
    ``drawn`` were drawn before: :mod:`battle.kernel.draw`), its event rows written to ``E``.
    Writes S at the end to ``OUT[:NS]`` and its units' :func:`outcome_columns` after it
    (``OUT`` int64, at least ``NS + (len(OUT_COLUMNS) + 1) * units`` long): the caller reads
    one array, and may hand the same buffers to every battle. Two units with the same id
    (``S_DUP``): only S is written, and the battle is not fought."""
    r = rules_at(rules)
    st = set_out(lay, attacker, DB, E, record, max_bounds, r.RI, r.RF, r.XD)
    S = st[2]
    S[S_DNUM] = drawn
    S[S_BITGEN] = bitgen
    if S[S_DUP]:  # refused (battle.kernel.run): not fought
        OUT[:NS] = S
        return
    b = new_battle()
    b.U, b.P, b.S = unmanaged(st[0]), unmanaged(st[1]), unmanaged(S)
    b.DK, b.DL, b.DB, b.E = unmanaged(st[3]), unmanaged(st[4]), unmanaged(st[5]), unmanaged(st[6])
    b.OA, b.OG, b.AB, b.AS = unmanaged(st[7]), unmanaged(st[8]), unmanaged(st[9]), unmanaged(st[10])
    b.WK, b.WB, b.CH, b.CG = (
        unmanaged(st[11]),
        unmanaged(st[12]),
        unmanaged(st[13]),
        unmanaged(st[14]),
    )
    b.RI, b.RF, b.FI, b.FF = unmanaged(r.RI), unmanaged(r.RF), unmanaged(r.FI), unmanaged(r.FF)
    b.TI, b.CT, b.MNF, b.HD = unmanaged(r.TI), unmanaged(r.CT), unmanaged(r.MNF), unmanaged(r.HD)
    b.LS, b.XD, b.DI, b.DF = unmanaged(r.LS), unmanaged(r.XD), unmanaged(r.DI), unmanaged(r.DF)
    b.DR, b.DFF, b.DAF = unmanaged(r.DR), unmanaged(r.DFF), unmanaged(r.DAF)
    run_battle(b)  # the rules take the battle's view (StructView): b stays alive meanwhile
    OUT[:NS] = S
    outcome_columns(st[0], listing_of(lay[1]), OUT[NS:])
