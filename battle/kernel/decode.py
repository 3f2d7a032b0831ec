"""The kernel's arrays after a battle, as the public :class:`~battle.result.BattleResult` and
its :mod:`battle.events` (built only when events were recorded)."""

from __future__ import annotations

import numpy as np

from battle.events import (
    PHASES,
    BattleEnded,
    BattleEvent,
    BattleStarted,
    BoundStarted,
    CardLost,
    FormationChanged,
    HitResolved,
    MeleeResolved,
    Moved,
    PhaseStarted,
    StateChanged,
    TestRolled,
    UnitStart,
    WithdrawalChecked,
)
from battle.kernel import layout as L
from battle.kernel.pack import FloatArray, IntArray, Layout, Packed
from battle.result import BattleResult, UnitOutcome
from battle.tables import Tables
from battle.units import Force
from battle.withdrawal import SideTally

__all__ = ["events", "result"]

_new_tuple = tuple.__new__
_STATE_BY_FLAG = ((L.U_DESTR, "destroyed"), (L.U_ROUTED, "routed"), (L.U_OFFT, "off-table"))


def unit_state(u: IntArray) -> str:
    """``destroyed``, ``routed``, ``off-table``, ``shaken``, ``disordered`` or ``steady``."""
    if u[L.U_DESTR]:
        return "destroyed"
    if u[L.U_ROUTED]:
        return "routed"
    if u[L.U_OFFT]:
        return "off-table"
    if u[L.U_SHAKEN]:
        return "shaken"
    if u[L.U_DISORD]:
        return "disordered"
    return "steady"


def result(
    t: Tables,
    p: Packed,
    lay: Layout,
    forces: tuple[Force, Force],
    U: IntArray,
    S: IntArray,
    E: FloatArray,
    record: bool,
) -> BattleResult:
    """The :class:`BattleResult` of a finished battle (units listed side 0 first, by id)."""
    specs = lay.specs
    Ul = U.tolist()
    order = [i for i, u in enumerate(Ul) if u[L.U_PRESENT] and u[L.U_SIDE] == 0]
    order += [i for i, u in enumerate(Ul) if u[L.U_PRESENT] and u[L.U_SIDE] == 1]
    kinds, formations = p.kinds, p.formations
    units = tuple(
        [
            _new_tuple(
                UnitOutcome,
                (
                    specs[i].id,
                    Ul[i][L.U_SIDE],
                    kinds[Ul[i][L.U_KIND]],
                    specs[i].grade,
                    formations[Ul[i][L.U_FID]],
                    unit_state(Ul[i]),
                    Ul[i][L.U_HB],
                    Ul[i][L.U_HITS],
                    Ul[i][L.U_TOTAL],
                    Ul[i][L.U_RETSH] == 1,
                ),
            )
            for i in order
        ]
    )
    s = S.tolist()
    n = s[L.S_EN]
    rows = E[:n].tolist() if n else []
    checks = tuple(_withdrawals(t, rows))
    winner = s[L.S_WINNER]
    box0, box1 = s[L.S_BOX], s[L.S_BOX + 1]
    return BattleResult(
        names=(forces[0].name, forces[1].name),
        attacker=s[L.S_ATTACKER],
        winner=None if winner < 0 else winner,
        reason=L.END_REASONS[s[L.S_REASON]],
        bounds=s[L.S_BOUNDS],
        turns=s[L.S_TURN],
        minutes=s[L.S_BOUNDS] * t.bound_minutes,
        units=units,
        cards_left=(s[L.S_DN], s[L.S_DN + 1]),
        cards_lost=(s[L.S_CL], s[L.S_CL + 1]),
        casualty_percent=(
            100.0 * s[L.S_LOST] / box0 if box0 else 0.0,
            100.0 * s[L.S_LOST + 1] / box1 if box1 else 0.0,
        ),
        withdrawal_checks=checks,
        events=tuple(events(t, p, lay, s[L.S_ATTACKER], rows, checks)) if record else (),
    )


def _withdrawals(t: Tables, rows: list[list[float]]) -> list[WithdrawalChecked]:
    """Every withdrawal check of the battle (RULES.md §7.2–§7.4), from its rows."""
    out = []
    for i, r in enumerate(rows):
        if r[0] != L.EV_WD:
            continue
        nrolls = int(r[7])
        pct = r[4]
        own = SideTally(int(r[8]), int(r[9]), int(r[10]), int(r[11]))
        enemy = SideTally(int(r[12]), int(r[13]), int(r[14]), int(r[15]))
        out.append(
            WithdrawalChecked(
                int(r[1]),
                int(r[2]),
                int(r[3]),
                round(pct, 3),
                tuple(t.withdrawal.factors(own, enemy, pct)),
                int(r[5]),
                tuple([int(rows[i + 1 + k][3]) for k in range(nrolls)]),
                bool(r[6]),
                t.withdrawal_die,
                t.withdrawal_success_total,
            )
        )
    return out


def events(
    t: Tables,
    p: Packed,
    lay: Layout,
    attacker: int,
    rows: list[list[float]],
    checks: tuple[WithdrawalChecked, ...],
) -> list[BattleEvent]:
    """The battle's events, in order, from its event rows (and the start, from its layout)."""
    specs = lay.specs
    ids = [s.id for s in specs]
    names = p.formations
    U0 = lay.U
    start = [i for i in range(len(specs)) if U0[i, L.U_PRESENT] and U0[i, L.U_SIDE] == 0]
    start += [i for i in range(len(specs)) if U0[i, L.U_PRESENT] and U0[i, L.U_SIDE] == 1]
    out: list[BattleEvent] = [
        BattleStarted(
            0,
            0,
            attacker,
            tuple(
                UnitStart(
                    specs[i].id,
                    int(U0[i, L.U_SIDE]),
                    specs[i].kind,
                    specs[i].grade,
                    specs[i].irregular,
                    names[int(U0[i, L.U_FID])],
                    float(lay.P[i, L.P_POS]),
                    specs[i].hits,
                    int(U0[i, L.U_MORALE]),
                )
                for i in start
            ),
            lay.decks,
        )
    ]
    kinds = L.TEST_KINDS
    wd = iter(checks)
    i = 0
    while i < len(rows):
        r = rows[i]
        i += 1
        kind, turn, bound = int(r[0]), int(r[1]), int(r[2])
        if kind == L.EV_PHASE:
            out.append(PhaseStarted(turn, bound, int(r[3]), PHASES[int(r[4])]))
        elif kind == L.EV_BOUND:
            count = int(r[6])
            acts = tuple(ids[int(rows[i + k][3])] for k in range(count))
            i += count
            out.append(BoundStarted(turn, bound, int(r[3]), int(r[4]), int(r[5]), acts))
        elif kind == L.EV_TEST:
            tk, unit, die, why, arg = int(r[3]), int(r[4]), int(r[5]), int(r[9]), int(r[10])
            dice = f"d{die} vs d{die}" if tk == L.TK_INITIATIVE else f"d{die}"
            if why == L.TR_TARGET:
                reason = ids[arg]
            elif why == L.TR_FORMING:
                reason = f"to complete forming {names[arg]}"
            elif why == L.TR_FIRST:
                reason = f"side {arg} has the first bound"
            else:
                reason = ""
            out.append(
                TestRolled(
                    turn,
                    bound,
                    kinds[tk],
                    ids[unit] if unit >= 0 else "",
                    dice,
                    int(r[6]),
                    int(r[7]),
                    r[8] != 0,
                    reason,
                )
            )
        elif kind == L.EV_HIT:
            v = [int(x) for x in r[3:13]]
            out.append(
                HitResolved(
                    turn,
                    bound,
                    L.HOWS[v[0]],
                    ids[v[1]],
                    ids[v[2]],
                    v[3] != 0,
                    v[4],
                    v[5],
                    v[6],
                    v[7],
                    v[8],
                    v[9],
                )
            )
        elif kind == L.EV_MELEE:
            v = [int(x) for x in r[3:9]]
            out.append(
                MeleeResolved(
                    turn,
                    bound,
                    ids[v[0]],
                    ids[v[1]],
                    v[2],
                    v[3],
                    ids[v[4]] if v[4] >= 0 else "",
                    L.OUTCOMES[v[5]],
                )
            )
        elif kind == L.EV_CARD:
            side, card, left, cause, unit, tk = (int(x) for x in r[3:9])
            if cause == L.CC_FAILED:
                why_text = f"{ids[unit]} failed a {kinds[tk]} test"
            else:
                why_text = f"{ids[unit]} lost a melee"
            out.append(CardLost(turn, bound, side, card, left, why_text))
        elif kind == L.EV_STATE:
            unit, state, why, arg = (int(x) for x in r[3:7])
            out.append(
                StateChanged(
                    turn, bound, ids[unit], L.STATES[state], _reason(why, arg, bound, t, names)
                )
            )
        elif kind == L.EV_MOVED:
            target = int(r[7])
            out.append(
                Moved(
                    turn,
                    bound,
                    ids[int(r[3])],
                    L.MOVES[int(r[4])],
                    r[5],
                    r[6],
                    ids[target] if target >= 0 else "",
                )
            )
        elif kind == L.EV_FORMED:
            out.append(
                FormationChanged(turn, bound, ids[int(r[3])], names[int(r[4])], names[int(r[5])])
            )
        elif kind == L.EV_WD:
            out.append(next(wd))
            i += int(r[7])
        elif kind == L.EV_END:
            winner = int(r[3])
            out.append(
                BattleEnded(turn, bound, None if winner < 0 else winner, L.END_REASONS[int(r[4])])
            )
    return out


def _reason(why: int, arg: int, bound: int, t: Tables, names: tuple[str, ...]) -> str:
    """The reason text of a StateChanged event."""
    if why == L.SR_TEST:
        return L.TEST_KINDS[arg]
    if why == L.SR_ROUT_TEST:
        return f"failed a {L.TEST_KINDS[arg]} test while shaken"
    if why == L.SR_DESTROYED:
        return f"{arg} actual hits"
    if why == L.SR_FELL_BACK:
        return "fell back past its baseline"
    if why == L.SR_DROPPED_BACK:
        return "dropped back past its baseline"
    if why == L.SR_FORMED:
        return f"formed {names[arg]}"
    if why == L.SR_JOINED:
        return f"arrived for bound {bound}; deck rebuilt to {arg} cards"
    return ""


_ = np  # numpy arrays are read through .tolist() above
