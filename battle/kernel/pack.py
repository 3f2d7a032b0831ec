"""The battle's rules and forces as the kernel's arrays (:mod:`battle.kernel.layout`).

:func:`rule_arrays` packs a :class:`~battle.tables.Tables` once per rules object;
:func:`doctrine_arrays` packs a pair of tactical doctrines (RULES.md §6.7); :func:`new_state`
lays out one battle's units (both forces and every late arrival, in id order) and decks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from battle.arrivals import Arrival
from battle.kernel import layout as L
from battle.tables import Tables
from battle.units import GRADES, Force, UnitSpec

__all__ = ["Packed", "doctrine_arrays", "new_state", "rule_arrays"]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
#: sentinel of the change-total table: no change between the two formations (RULES.md §5.2)
NO_CHANGE = -(10**9)


@dataclass(frozen=True, slots=True)
class Packed:
    """One rules object as arrays, with the names the decoder needs.

    ``arrays`` is the kernel's rule tuple without the doctrines (RI, RF, FI, FF, TI, CT, MNF,
    HD, LS); ``kinds`` the unit type names by index; ``formations`` the (type, formation)
    names by formation index; ``fid`` the inverse.
    """

    arrays: tuple[
        IntArray,
        FloatArray,
        IntArray,
        FloatArray,
        IntArray,
        IntArray,
        IntArray,
        IntArray,
        FloatArray,
    ]
    kinds: tuple[str, ...]
    kind_index: dict[str, int]
    formations: tuple[str, ...]
    fid: dict[tuple[str, str], int]


_PACKED: dict[int, tuple[Tables, Packed]] = {}
_DOCTRINES: dict[tuple[int, str, str], tuple[Tables, tuple[object, ...]]] = {}


def rule_arrays(t: Tables) -> Packed:
    """The kernel's arrays of ``t`` (cached per Tables)."""
    hit = _PACKED.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    r = t.rules
    kinds = tuple(t.unit_types)
    pairs = [(k, f) for k in kinds for f in t.unit_types[k].formations]
    fid = {p: i for i, p in enumerate(pairs)}
    ri = np.zeros(L.NRI, np.int64)
    fc = r.formation_change
    w = r.withdrawal
    for slot, value in (
        (L.R_INIT_ROLL, t.initiative_roll),
        (L.R_CUMUL, t.cumulative_morale),
        (L.R_SHAKEN_PEN, t.shaken_penalty),
        (L.R_DESTROYED, t.destroyed_at),
        (L.R_HALF, t.half_strength_at),
        (L.R_CAS_PER_H, t.casualty_per_morale_hit),
        (L.R_HITS_PASS, t.hits_on_pass),
        (L.R_HITS_FAIL, t.hits_on_fail),
        (L.R_LOSE_AT, t.lose_at_cards),
        (L.R_DRAW_THROUGH, t.deck_draw == "draw-through"),
        (L.R_REMOVE_RANDOM, t.deck_removal == "random"),
        (L.R_REACTION_DIE, t.reaction_die),
        (L.R_INIT_DIE, t.initiative_die),
        (L.R_CHARGE_BONUS, t.charge_bonus),
        (L.R_WEAK_BONUS, t.charge_weak_target_bonus),
        (L.R_FIRE_AND_CHARGE, t.fire_and_charge),
        (L.R_WD_DIE, t.withdrawal_die),
        (L.R_WD_SUCCESS, t.withdrawal_success_total),
        (L.R_MAX_TURNS, t.max_turns),
        (L.R_FROM_CHECK, t.turns_from_first_check),
        (L.R_TURNS_CAP, t.max_turns_cap),
        (L.R_NO_CHARGE_AFTER_FAIL, t.no_charge_after_fail),
        (L.R_COUNTERCHARGE, t.countercharge),
        (L.R_PURSUIT, t.pursuit),
        (L.R_PURSUIT_X, t.pursuit_x),
        (L.R_FREE_ATTACK, t.free_attack),
        (L.R_FREE_X, t.free_attack_x),
        (L.R_MOVE_FIRE, t.move_and_fire),
        (L.R_MOVE_FIRE_X, t.move_and_fire_x),
        (L.R_PCT_DIE, r.percentage_dice),
        (L.R_HD_CONST, t.hit_dice._const),
        (L.R_FC_HBF, fc.hit_by_fire),
        (L.R_FC_RAW, fc.raw_irregular_or_shaken),
        (L.R_FC_CT, fc.charge_target),
        (L.R_FC_VET, fc.veteran_or_elite),
        (L.R_W_FLAG + L.T_FLAGS, w.flag),
        (L.R_W_FLAG + L.T_BATTERIES, w.battery),
        (L.R_W_FLAG + L.T_RETSH, w.retiring_shaken),
        (L.R_W_FLAG + L.T_OFFT, w.off_table),
    ):
        ri[slot] = int(value)
    rf = np.zeros(L.NRF, np.float64)
    rf[L.RF_DEPTH] = t.depth
    rf[L.RF_DEPLOY] = t.deploy
    rf[L.RF_FALL_BACK] = t.fall_back
    rf[L.RF_DROP_BACK] = t.failed_charge_drop_back
    rf[L.RF_STOP_SHORT] = t.stop_short
    rf[L.RF_MF_FRACTION] = t.move_and_fire_fraction
    rf[L.RF_WD_THRESHOLD] = t.withdrawal_threshold
    nf = len(pairs)
    fi = np.zeros((nf, L.NFI), np.int64)
    ff = np.zeros((nf, L.NFF), np.float64)
    mnf = np.zeros((nf, nf), np.int64)
    ct = np.full((nf, nf), NO_CHANGE, np.int64)
    for i, (k, f) in enumerate(pairs):
        n = t.formations[(k, f)]
        fi[i] = (n.fire_cd, n.melee_cd, n.fired_at_x, n.may_charge, n.square, kinds.index(k))
        ff[i] = (n.fire_range, n.move, n.reach)
        for g in n.may_not_form:
            if (k, g) in fid:
                mnf[i, fid[(k, g)]] = 1
    for (k, old, new), cost in t.change_totals.items():
        ct[fid[(k, old)], fid[(k, new)]] = cost
    ti = np.zeros((len(kinds), L.NTI), np.int64)
    for i, k in enumerate(kinds):
        tn = t.unit_types[k]
        ti[i] = (
            tn.battery,
            tn.mounted,
            tn.foot,
            tn.light,
            tn.vs_square_x,
            tn.charge_vs_foot_x,
            fid[(k, tn.deploys_to)] if tn.deploys_to else -1,
            fid[(k, tn.square_formation)] if tn.square_formation else -1,
        )
    hd = np.array(t.hit_dice._dice, np.int64).reshape(-1, 2)
    ls = np.array(t.withdrawal.losses, np.float64).reshape(-1, 2)
    packed = Packed(
        (ri, rf, fi, ff, ti, ct, mnf, hd, ls),
        kinds,
        {k: i for i, k in enumerate(kinds)},
        tuple(f for _, f in pairs),
        fid,
    )
    if len(_PACKED) > 64:
        _PACKED.clear()
    _PACKED[id(t)] = (t, packed)
    return packed


def doctrine_arrays(t: Tables, names: tuple[str, str]) -> tuple[object, ...]:
    """The whole rule tuple of the kernel for ``t`` with the two sides' doctrines ``names``
    (RULES.md §6.7; names must be in ``t.doctrines``), cached."""
    key = (id(t), names[0], names[1])
    hit = _DOCTRINES.get(key)
    if hit is not None and hit[0] is t:
        return hit[1]
    p = rule_arrays(t)
    nt = len(p.kinds)
    di = np.zeros((2, L.NDI), np.int64)
    df = np.zeros((2, L.NDF), np.float64)
    dr = np.zeros((2, nt), np.int64)
    dff = np.full((2, nt), -1, np.int64)
    daf = np.full((2, nt), -1, np.int64)
    for side, name in enumerate(names):
        doc = t.rules.doctrines[name]
        given = {n: i for i, n in enumerate(doc.activation_order)}
        when = doc.charge_when
        di[side] = (
            "disordered" in when,
            "shaken" in when,
            "steady" in when,
            doc.cavalry_charges_infantry_in_square,
            doc.square_vs_cavalry,
            doc.hold_in_range,
            doc.advance_when_defending,
            doc.rally_shaken,
            given.get("shaken", len(given)),
        )
        df[side] = (
            doc.charge_min_strength_ratio,
            doc.form_line_within_inches,
            doc.unlimber_within_inches,
            max(t.stop_short, doc.cavalry_wait_inches),
            t.stop_short,
        )
        for i, k in enumerate(p.kinds):
            dr[side, i] = given.get(k, len(given))
            dff[side, i] = p.fid.get((k, doc.fire_formation), -1)
            daf[side, i] = p.fid.get((k, doc.advance_formation), -1)
    rl = (*p.arrays, di, df, dr, dff, daf)
    if len(_DOCTRINES) > 256:
        _DOCTRINES.clear()
    _DOCTRINES[key] = (t, rl)
    return rl


@dataclass(slots=True)
class Layout:
    """One battle's units and decks before the first bound (copied for each battle).

    ``specs`` are the units in index (id) order with their sides; ``starting`` the indices of
    the units there from the start, side 0's first (the order of every unit listing).
    """

    specs: list[UnitSpec]
    U: IntArray
    P: FloatArray
    S: IntArray
    DK: IntArray
    decks: tuple[tuple[int, ...], tuple[int, ...]]
    AB: IntArray
    AS: IntArray
    ADK: IntArray
    ADN: IntArray


def new_state(
    t: Tables, forces: tuple[Force, Force], due: Sequence[Arrival], attacker: int
) -> Layout:
    """Lay out a battle: units of both forces and of every arrival (``due``, sorted by
    bound), destroyed ones left out (RULES.md §1.2), each with its type, formation (its own
    or its type's default), grade's morale (§1.3) and position (deployed, §6.1); decks
    (§3.1), one per side and one rebuilt per arrival (§8.4)."""
    p = rule_arrays(t)
    destroyed_at = t.destroyed_at
    rows: list[tuple[str, int, UnitSpec, int]] = []
    for side, force in enumerate(forces):
        rows.extend((s.id, side, s, -1) for s in force.units if s.hits < destroyed_at)
    for k, a in enumerate(due):
        rows.extend((s.id, a.side, s, k) for s in a.units if s.hits < destroyed_at)
    rows.sort(key=lambda r: r[0])
    n = len(rows)
    # each unit's row, built as a list (setting numpy elements one by one is slow)
    blank = [0] * L.NU
    for col in (L.U_MELEE, L.U_CBY, L.U_CING, L.U_SVS, L.U_SBY):
        blank[col] = -1
    morale, half_at, kind_index, fids = t.morale, t.half_strength_at, p.kind_index, p.fid
    table = []
    for _, side, spec, arr in rows:
        u = blank.copy()
        u[L.U_SIDE] = side
        u[L.U_KIND] = kind_index[spec.kind]
        formation = spec.formation or t.unit_types[spec.kind].default_formation
        u[L.U_FID] = fids[(spec.kind, formation)]
        u[L.U_HB] = u[L.U_TOTAL] = spec.hits
        u[L.U_MORALE] = morale[spec.grade]
        u[L.U_GRADE] = GRADES.index(spec.grade)
        u[L.U_IRREG] = spec.irregular
        u[L.U_PRESENT] = arr < 0
        u[L.U_HALFT] = spec.hits >= half_at  # already tested (§6.3 step 6)
        u[L.U_ARR] = arr
        table.append(u)
    U = np.array(table, np.int64).reshape(n, L.NU)
    P = np.zeros((n, L.NP), np.float64)
    P[:, L.P_POS] = t.deploy
    counts = [0, 0]
    for _, side, _, arr in rows:
        if arr < 0:
            counts[side] += 1
    decks = (t.deck_for(counts[0]), t.deck_for(counts[1]))
    new_decks: list[tuple[int, ...]] = []
    ADN = np.full(len(due), -1, np.int64)
    for k, a in enumerate(due):
        live = sum(1 for _, _, _, arr in rows if arr == k)
        if live:
            counts[a.side] += live
            new_decks.append(t.deck_for(counts[a.side]))
            ADN[k] = len(new_decks[-1])
        else:
            new_decks.append(())
    width = max([len(decks[0]), len(decks[1]), *(len(x) for x in new_decks)])
    DK = np.zeros((2, width), np.int64)
    ADK = np.zeros((len(due), width), np.int64)
    for side in (0, 1):
        DK[side, : len(decks[side])] = decks[side]
    for k, cards in enumerate(new_decks):
        ADK[k, : len(cards)] = cards
    S = np.zeros(L.NS, np.int64)
    S[L.S_WINNER] = -1
    S[L.S_ATTACKER] = attacker
    S[L.S_FCT] = -1
    S[L.S_MAXB] = -1
    S[L.S_NARR] = len(due)
    boxes = [0, 0]
    for _, side, spec, arr in rows:
        if arr < 0:
            boxes[side] += destroyed_at - spec.hits
    for side in (0, 1):
        S[L.S_DN + side] = len(decks[side])
        S[L.S_ONF + side] = sum(1 for _, s2, _, arr in rows if s2 == side and arr < 0)
        S[L.S_BOX + side] = boxes[side]
    return Layout(
        [r[2] for r in rows],
        U,
        P,
        S,
        DK,
        decks,
        np.array([a.bound for a in due], np.int64),
        np.array([a.side for a in due], np.int64),
        ADK,
        ADN,
    )
