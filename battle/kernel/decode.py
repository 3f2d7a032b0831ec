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
    END_REASONS,
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


#: withdrawal checks by their row and dice (the same check recurs across battles)
_CHECKS: dict[tuple[float, ...], WithdrawalChecked] = {}


def _withdrawals(t: Tables, E: FloatArray, n: int) -> tuple[WithdrawalChecked, ...]:
    """Every withdrawal check of the battle (RULES.md §7.2–§7.4), from its event rows."""
    out = []
    for i in np.flatnonzero(E[:n, 0] == L.EV_WD).tolist():
        r = E[i].tolist()
        nrolls = int(r[7])
        rolls = E[i + 1 : i + 1 + nrolls, 3].tolist()
        key = (id(t), *r[1:16], *rolls)
        check = _CHECKS.get(key)
        if check is None:
            pct = r[4]
            own = SideTally(int(r[8]), int(r[9]), int(r[10]), int(r[11]))
            enemy = SideTally(int(r[12]), int(r[13]), int(r[14]), int(r[15]))
            check = WithdrawalChecked(
                int(r[1]),
                int(r[2]),
                int(r[3]),
                round(pct, 3),
                tuple(t.withdrawal.factors(own, enemy, pct)),
                int(r[5]),
                tuple([int(x) for x in rolls]),
                bool(r[6]),
                t.withdrawal_die,
                t.withdrawal_success_total,
            )
            if len(_CHECKS) > 100_000:
                _CHECKS.clear()
            _CHECKS[key] = check
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


def events(
    t: Tables,
    p: Packed,
    lay: Layout,
    attacker: int,
    E: FloatArray,
    checks: tuple[WithdrawalChecked, ...],
) -> list[BattleEvent]:
    """The battle's events, in order, from its event rows ``E`` (one row per event, see
    :mod:`battle.kernel.layout`) and the start, from its layout."""
    ids = [s.id for s in lay.specs]
    names = p.formations
    ints = E[:, :13].astype(np.int64).tolist()
    out: list[BattleEvent] = [_started(p, lay, attacker)]
    append = out.append
    kinds, phases, moves, states = L.TEST_KINDS, PHASES, L.MOVES, L.STATES
    wd = iter(checks)
    i = 0
    count = len(ints)
    while i < count:
        r = ints[i]
        i += 1
        kind = r[0]
        if kind == L.EV_PHASE:
            key = (r[1], r[2], r[3], r[4])
            ev = _PHASE_EVENTS.get(key)
            if ev is None:
                ev = _PHASE_EVENTS[key] = PhaseStarted(r[1], r[2], r[3], phases[r[4]])
            append(ev)
        elif kind == L.EV_TEST:
            tk, unit, die, why, arg = r[3], r[4], r[5], r[9], r[10]
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
                    r[1],
                    r[2],
                    kinds[tk],
                    ids[unit] if unit >= 0 else "",
                    _dice_name(die, tk == L.TK_INITIATIVE),
                    r[6],
                    r[7],
                    r[8] != 0,
                    reason,
                )
            )
        elif kind == L.EV_HIT:
            v = r[11:13]
            append(
                HitResolved(
                    r[1],
                    r[2],
                    L.HOWS[r[3]],
                    ids[r[4]],
                    ids[r[5]],
                    r[6] != 0,
                    r[7],
                    r[8],
                    r[9],
                    r[10],
                    v[0],
                    v[1],
                )
            )
        elif kind == L.EV_MOVED:
            f = E[i - 1, 5:7].tolist()
            target = r[7]
            append(
                Moved(
                    r[1],
                    r[2],
                    ids[r[3]],
                    moves[r[4]],
                    f[0],
                    f[1],
                    ids[target] if target >= 0 else "",
                )
            )
        elif kind == L.EV_CARD:
            who = ids[r[7]]
            why_text = (
                f"{who} failed a {kinds[r[8]]} test"
                if r[6] == L.CC_FAILED
                else f"{who} lost a melee"
            )
            append(CardLost(r[1], r[2], r[3], r[4], r[5], why_text))
        elif kind == L.EV_STATE:
            append(
                StateChanged(r[1], r[2], ids[r[3]], states[r[4]], _reason(r[5], r[6], r[2], names))
            )
        elif kind == L.EV_BOUND:
            n = r[6]
            acts = tuple([ids[ints[i + k][3]] for k in range(n)])
            i += n
            append(BoundStarted(r[1], r[2], r[3], r[4], r[5], acts))
        elif kind == L.EV_MELEE:
            append(
                MeleeResolved(
                    r[1],
                    r[2],
                    ids[r[3]],
                    ids[r[4]],
                    r[5],
                    r[6],
                    ids[r[7]] if r[7] >= 0 else "",
                    L.OUTCOMES[r[8]],
                )
            )
        elif kind == L.EV_FORMED:
            append(FormationChanged(r[1], r[2], ids[r[3]], names[r[4]], names[r[5]]))
        elif kind == L.EV_WD:
            append(next(wd))
            i += r[7]
        elif kind == L.EV_END:
            append(BattleEnded(r[1], r[2], None if r[3] < 0 else r[3], L.END_REASONS[r[4]]))
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
