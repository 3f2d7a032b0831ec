"""The kernel's arrays after a battle, as the public :class:`~battle.result.BattleResult` and
its :mod:`battle.events` (built only when events were recorded)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import compress
from operator import attrgetter

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
from battle.kernel.layout import (
    E_BOUND,
    E_KIND,
    E_TURN,
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
    END_REASONS,
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
    EW,
    EWD_ENEMY,
    EWD_NROLLS,
    EWD_OWN,
    EWD_PERCENT,
    EWD_SIDE,
    EWD_TOTAL,
    EWD_WITHDRAWS,
    NS,
    S_ATTACKER,
    S_BOUNDS,
    S_BOX,
    S_CL,
    S_DN,
    S_EN,
    S_LOST,
    S_NWD,
    S_REASON,
    S_TURN,
    S_WINNER,
)
from battle.kernel.lineup import Layout
from battle.kernel.pack import FloatArray, Packed
from battle.result import BattleResult, UnitColumns, UnitOutcome
from battle.tables import Tables
from battle.units import Force
from battle.withdrawal import SideTally

__all__ = ["events", "result"]

_KIND, _GRADE, _HITS = attrgetter("kind"), attrgetter("grade"), attrgetter("hits")
_SIDE_ID = attrgetter("side", "id")
_outcome = partial(tuple.__new__, UnitOutcome)
#: a UnitColumns from a tuple of its fields (no Python-level __new__: one a battle)
_columns = partial(tuple.__new__, UnitColumns)


def result(
    t: Tables,
    p: Packed,
    lay: Layout,
    forces: tuple[Force, Force],
    out: list[int],
    E: FloatArray,
    record: bool,
) -> BattleResult:
    """The :class:`BattleResult` of a finished battle, from what the kernel wrote to ``OUT``
    (:func:`battle.kernel.bound.fight_arrays`) as a list: its S, then its units'
    ``OUT_COLUMNS`` and state at the end, a run of one per unit (listing order) each; and its
    event rows ``E`` (the battle's own: the result keeps them)."""
    n = len(lay.listed_ids)
    hits = out[NS + 2 * n : NS + 3 * n]
    total = out[NS + 3 * n : NS + 4 * n]
    present = out[NS : NS + n] if lay.late else None
    cols = _columns((lay.listed_ids, lay.split, hits, total, present))
    checks: tuple[WithdrawalChecked, ...] | Callable[[], tuple[WithdrawalChecked, ...]] = ()
    if out[S_NWD]:
        checks = partial(_withdrawals, t, E, out[S_EN])
    winner = out[S_WINNER]
    box0, box1 = out[S_BOX], out[S_BOX + 1]
    bounds = out[S_BOUNDS]
    return BattleResult.of(
        names=(forces[0].name, forces[1].name),
        attacker=out[S_ATTACKER],
        winner=None if winner < 0 else winner,
        reason=END_REASONS[out[S_REASON]],
        bounds=bounds,
        turns=out[S_TURN],
        minutes=bounds * t.bound_minutes,
        recorded_units=partial(_units, p, lay, out, cols),
        unit_columns=cols,
        cards_left=(out[S_DN], out[S_DN + 1]),
        cards_lost=(out[S_CL], out[S_CL + 1]),
        casualty_percent=(
            100.0 * out[S_LOST] / box0 if box0 else 0.0,
            100.0 * out[S_LOST + 1] / box1 if box1 else 0.0,
        ),
        recorded_checks=checks,
        recorded=_decoder(t, p, lay, out[S_ATTACKER], E[: out[S_EN]], checks) if record else (),
    )


def _units(p: Packed, lay: Layout, out: list[int], cols: UnitColumns) -> tuple[UnitOutcome, ...]:
    """Every unit's :class:`UnitOutcome`, side 0 first, each side by id (late arrivals that
    never joined left out), from the battle's output ``out`` (see :func:`result`; units in
    the order of ``lay.listed``)."""
    listed = lay.listed
    n = len(listed)
    at = L.NS
    fid, retsh, state = out[at + n : at + 2 * n], out[at + 4 * n : at + 5 * n], out[at + 5 * n :]
    outcomes = zip(
        cols.ids,
        lay.listed_sides,
        map(_KIND, listed),
        map(_GRADE, listed),
        map(p.formations.__getitem__, fid),
        map(L.END_STATES.__getitem__, state),
        map(_HITS, listed),
        cols.hits,
        cols.total,
        map((1).__eq__, retsh),
        strict=True,
    )
    present = cols.present
    made = map(_outcome, compress(outcomes, present) if present is not None else outcomes)
    return tuple(sorted(made, key=_SIDE_ID))


def _decoder(
    t: Tables,
    p: Packed,
    lay: Layout,
    attacker: int,
    E: FloatArray,
    checks: tuple[WithdrawalChecked, ...] | Callable[[], tuple[WithdrawalChecked, ...]],
) -> Callable[[], tuple[BattleEvent, ...]]:
    """What turns the event rows ``E`` into the battle's events when they are first read."""

    def decode() -> tuple[BattleEvent, ...]:
        made = checks if isinstance(checks, tuple) else checks()
        return tuple(events(t, p, lay, attacker, E, made))

    return decode


#: withdrawal checks by their row and dice (the same check recurs across battles); each entry
#: holds its Tables, so the ``id(t)`` in its key never names a later Tables at a reused address
#: (a dropped rules' "vs 8+" was once read back under the default 12+)
_CHECKS: dict[tuple[float, ...], tuple[Tables, WithdrawalChecked]] = {}


def _withdrawals(t: Tables, E: FloatArray, n: int) -> tuple[WithdrawalChecked, ...]:
    """Every withdrawal check of the battle (RULES.md §7.2–§7.4), from its event rows."""
    out = []
    for i in np.flatnonzero(E[:n, E_KIND] == L.EV_WD).tolist():
        r = E[i].tolist()
        nrolls = int(r[EWD_NROLLS])
        rolls = E[i + 1 : i + 1 + nrolls, ER_ROLL].tolist()
        key = (id(t), *r[E_TURN:EW], *rolls)
        hit = _CHECKS.get(key)
        if hit is not None and hit[0] is t:
            check = hit[1]
        else:
            pct = r[EWD_PERCENT]
            own = SideTally(*[int(x) for x in r[EWD_OWN : EWD_OWN + 4]])
            enemy = SideTally(*[int(x) for x in r[EWD_ENEMY : EWD_ENEMY + 4]])
            check = WithdrawalChecked(
                int(r[E_TURN]),
                int(r[E_BOUND]),
                int(r[EWD_SIDE]),
                round(pct, 3),
                tuple(t.withdrawal.factors(own, enemy, pct)),
                int(r[EWD_TOTAL]),
                tuple([int(x) for x in rolls]),
                bool(r[EWD_WITHDRAWS]),
                t.withdrawal_die,
                t.withdrawal_success_total,
            )
            if len(_CHECKS) > 100_000:
                _CHECKS.clear()
            _CHECKS[key] = (t, check)
        out.append(check)
    return tuple(out)


#: phase events are the most common and the same in many battles: made once each
_PHASE_EVENTS: dict[tuple[int, int, int, int], PhaseStarted] = {}
_STARTS: dict[int, tuple[Layout, int, BattleStarted]] = {}


def _started(p: Packed, lay: Layout, attacker: int) -> BattleStarted:
    """The battle's first event: the attacker, every unit there from the start, the decks
    (made once per layout)."""
    hit = _STARTS.get(id(lay))
    if hit is not None and hit[0] is lay and hit[1] == attacker:
        return hit[2]
    specs = lay.specs
    U0, P0, S0, DK0 = lay.start(p, attacker)
    start = [i for i in range(len(specs)) if U0[i, L.U_PRESENT] and U0[i, L.U_SIDE] == 0]
    start += [i for i in range(len(specs)) if U0[i, L.U_PRESENT] and U0[i, L.U_SIDE] == 1]
    decks = (
        tuple(DK0[0, : S0[L.S_DN]].tolist()),
        tuple(DK0[1, : S0[L.S_DN + 1]].tolist()),
    )
    later = sorted(
        (i for i in range(len(specs)) if not U0[i, L.U_PRESENT] and U0[i, L.U_ARR] >= 0),
        key=lambda i: (int(U0[i, L.U_ARR]), i),
    )

    def unit_start(i: int) -> UnitStart:
        return UnitStart(
            specs[i].id,
            int(U0[i, L.U_SIDE]),
            specs[i].kind,
            specs[i].grade,
            specs[i].irregular,
            p.formations[int(U0[i, L.U_FID])],
            float(P0[i, L.P_POS]),
            specs[i].hits,
            int(U0[i, L.U_MORALE]),
        )

    event = BattleStarted(
        0,
        0,
        attacker,
        tuple(unit_start(i) for i in start),
        decks,
        tuple(unit_start(i) for i in later),
    )
    if len(_STARTS) > 64:
        _STARTS.clear()
    _STARTS[id(lay)] = (lay, attacker, event)
    return event


def _int_width() -> int:
    """The columns :func:`events` reads as whole numbers: up to the last whole value of any
    kind but a withdrawal check (read as floats, by :func:`_withdrawals`), from the schema
    (:data:`battle.kernel.layout.EVENT_ROWS`)."""
    ends = [
        at + width
        for kind, widths in L.EVENT_ROWS
        if kind != "EV_WD"
        for at, (name, width) in zip(L.event_columns(kind), widths, strict=True)
        if name not in L.EVENT_FLOATS
    ]
    return max(ends)


#: the width of the rows' integer copy (a hit's row is the widest)
_INT_WIDTH = _int_width()


def events(
    t: Tables,
    p: Packed,
    lay: Layout,
    attacker: int,
    E: FloatArray,
    checks: tuple[WithdrawalChecked, ...],
) -> list[BattleEvent]:
    """The battle's events, in order, from its event rows ``E`` (one row per event, each
    value read by its name in :data:`battle.kernel.layout.EVENT_ROWS`) and the start, from
    its layout."""
    ids = [s.id for s in lay.specs]
    names = p.formations
    ints = E[:, :_INT_WIDTH].astype(np.int64).tolist()
    out: list[BattleEvent] = [_started(p, lay, attacker)]
    append = out.append
    kinds, phases, moves, states = L.TEST_KINDS, PHASES, L.MOVES, L.STATES
    wd = iter(checks)
    i = 0
    count = len(ints)
    while i < count:
        r = ints[i]
        i += 1
        kind, turn, bound = r[E_KIND], r[E_TURN], r[E_BOUND]
        if kind == L.EV_PHASE:
            key = (turn, bound, r[EP_SIDE], r[EP_PHASE])
            ev = _PHASE_EVENTS.get(key)
            if ev is None:
                ev = _PHASE_EVENTS[key] = PhaseStarted(turn, bound, r[EP_SIDE], phases[r[EP_PHASE]])
            append(ev)
        elif kind == L.EV_TEST:
            tk, unit, why, arg = r[ET_KIND], r[ET_UNIT], r[ET_WHY], r[ET_ARG]
            if why == L.TR_NONE:
                reason = ""
            elif why == L.TR_TARGET:
                reason = ids[arg]
            elif why == L.TR_FORMING:
                reason = f"to complete forming {names[arg]}"
            else:
                reason = f"side {arg} has the first bound"
            append(
                TestRolled(
                    turn,
                    bound,
                    kinds[tk],
                    ids[unit] if unit >= 0 else "",
                    _dice_name(r[ET_DIE], tk == L.TK_INITIATIVE),
                    r[ET_ROLL],
                    r[ET_TARGET],
                    r[ET_PASSED] != 0,
                    reason,
                )
            )
        elif kind == L.EV_HIT:
            append(
                HitResolved(
                    turn,
                    bound,
                    L.HOWS[r[EH_HOW]],
                    ids[r[EH_ATTACKER]],
                    ids[r[EH_TARGET]],
                    r[EH_MELEE] != 0,
                    r[EH_D],
                    r[EH_BONUS],
                    r[EH_DIVISOR],
                    r[EH_MORALE_HITS],
                    r[EH_HITS],
                    r[EH_TOTAL],
                )
            )
        elif kind == L.EV_MOVED:
            inches = E[i - 1, EMV_FROM : EMV_TO + 1].tolist()  # floats: not from ``ints``
            target = r[EMV_TARGET]
            append(
                Moved(
                    turn,
                    bound,
                    ids[r[EMV_UNIT]],
                    moves[r[EMV_ACTION]],
                    inches[0],
                    inches[1],
                    ids[target] if target >= 0 else "",
                )
            )
        elif kind == L.EV_CARD:
            who = ids[r[EC_UNIT]]
            why_text = (
                f"{who} failed a {kinds[r[EC_TEST]]} test"
                if r[EC_CAUSE] == L.CC_FAILED
                else f"{who} lost a melee"
            )
            append(CardLost(turn, bound, r[EC_SIDE], r[EC_CARD], r[EC_LEFT], why_text))
        elif kind == L.EV_STATE:
            reason = _reason(r[ES_WHY], r[ES_ARG], bound, names)
            append(StateChanged(turn, bound, ids[r[ES_UNIT]], states[r[ES_STATE]], reason))
        elif kind == L.EV_BOUND:
            n = r[EB_NACT]
            acts = tuple([ids[ints[i + k][EA_UNIT]] for k in range(n)])
            i += n
            append(BoundStarted(turn, bound, r[EB_SIDE], r[EB_CARD], r[EB_DECK], acts))
        elif kind == L.EV_MELEE:
            loser = r[EM_LOSER]
            append(
                MeleeResolved(
                    turn,
                    bound,
                    ids[r[EM_A]],
                    ids[r[EM_B]],
                    r[EM_BY_A],
                    r[EM_BY_B],
                    ids[loser] if loser >= 0 else "",
                    L.OUTCOMES[r[EM_OUTCOME]],
                )
            )
        elif kind == L.EV_FORMED:
            append(
                FormationChanged(turn, bound, ids[r[EF_UNIT]], names[r[EF_FROM]], names[r[EF_TO]])
            )
        elif kind == L.EV_WD:
            append(next(wd))
            i += r[EWD_NROLLS]
        elif kind == L.EV_END:
            winner = r[EE_WINNER]
            ended = END_REASONS[r[EE_REASON]]
            append(BattleEnded(turn, bound, None if winner < 0 else winner, ended))
    return out


_DICE: dict[tuple[int, bool], str] = {}


def _dice_name(die: int, versus: bool) -> str:
    """``d100``, or ``d6 vs d6`` for the initiative roll (RULES.md §6.2)."""
    name = _DICE.get((die, versus))
    if name is None:
        name = _DICE[(die, versus)] = f"d{die} vs d{die}" if versus else f"d{die}"
    return name


def _reason(why: int, arg: int, bound: int, names: tuple[str, ...]) -> str:
    """The reason text of a StateChanged event."""
    if why == L.SR_NONE:
        return ""
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
    if why == L.SR_MAY_NOT_FORM:
        return f"may not form {names[arg]} directly"
    if why == L.SR_JOINED:
        return f"arrived for bound {bound}; deck rebuilt to {arg} cards"
    return ""
