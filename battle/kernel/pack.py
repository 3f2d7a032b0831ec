"""The battle's rules and forces as the kernel's arrays (:mod:`battle.kernel.layout`).

:func:`rule_arrays` packs a :class:`~battle.tables.Tables` once per rules object;
:func:`doctrine_arrays` packs a pair of tactical doctrines (RULES.md §6.7); :func:`new_state`
names one battle's units (both forces and every late arrival, in id order): the kernel lays
them out (positions, decks, casualty bases: :func:`battle.kernel.start.lay_out`).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

import numpy as np
from numpy.typing import NDArray

from battle.kernel import layout as L
from battle.kernel.bound import rules_of
from battle.kernel.jit import RuleArrays, Rules, TableArrays, fields_address
from battle.kernel.start import explicit_decks
from battle.refusals import refuse_doctrines, refuse_unit_type
from battle.tables import Tables
from battle.units import GRADES, UnitSpec

__all__ = [
    "Packed",
    "UnitRows",
    "doctrine_arrays",
    "doctrine_rules",
    "rule_arrays",
]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
#: sentinel of the change-total table: no change between the two formations (RULES.md §5.2)
NO_CHANGE = -(10**9)


#: what of a unit spec its row of U depends on, besides its side and arrival
_ROW_KEY = attrgetter("kind", "formation", "grade", "irregular", "hits")
#: rows a table holds before it starts again (a bound on memory)
MAX_ROWS = 100_000
#: unit ids ranked before the ranks start again (a bound on memory and on the cost of
#: ranking a new id)
MAX_IDS = 20_000


class UnitRows:
    """The rows of ``U`` met so far under one rules object, one per (side, arrival, unit
    spec): a battle's ``U`` gathers its units' rows (laying out a unit is then a dict
    look-up). Units are looked up by identity (unit specs are immutable values a campaign
    shares, so a unit met before is found at once); every unit looked up is kept, so that an
    identity is never reused for another unit while its row is known. Units alike share a
    row.

    A unit is named to the kernel by its *code*: its row, and the rank of its id among every
    id met so far (string order, :data:`~battle.kernel.layout.ROW_BITS` up), from which the
    kernel orders a battle's units by id (:func:`battle.kernel.start.index_order`). A new id
    ranks every id after it anew: codes made before are then dropped (``reranked``)."""

    __slots__ = (
        "_array",
        "_by_key",
        "_groups",
        "_ids",
        "_kept",
        "_rank",
        "_start",
        "epoch",
        "last",
        "reranked",
    )

    def __init__(self) -> None:
        #: (side, arrival) -> id of a unit spec -> its code (-1: destroyed, left out); and
        #: the groups of the two sides' forces (arrival -1)
        self._groups: dict[tuple[int, int], dict[int, int]] = {}
        self._start: tuple[dict[int, int], dict[int, int]] = ({}, {})
        #: (side, arrival, row key) -> row
        self._by_key: dict[tuple[object, ...], int] = {}
        self._kept: list[UnitSpec] = []
        self._array: IntArray = np.zeros((16, L.NU), np.int64)
        #: the forces of the last battle laid out, its layout if it had no arrivals (else
        #: None), and the ids and codes of each force's units in the battle (ids and codes of
        #: side 0, then of side 1): a battle of the same forces again reuses its layout, or
        #: with late arrivals its forces' part
        self.last: (
            tuple[object, object, Any, tuple[list[str], list[int], list[str], list[int]]] | None
        ) = None
        #: how many times the rows started again (a row number is valid within one epoch)
        self.epoch = 0
        #: every unit id ranked so far, in order, and its rank (its place in that order)
        self._ids: list[str] = []
        self._rank: dict[str, int] = {}
        #: set when a new id ranked the ids anew: codes looked up before it are stale
        self.reranked = False
        self._drop_codes()

    def bound(self) -> None:
        """Start again (in a new table: layouts made before keep the rows they point to)
        once more than ``MAX_ROWS`` units are known, or rank ids afresh once more than
        ``MAX_IDS`` are ranked; called before a battle's units are looked up, never
        between."""
        if len(self._kept) > MAX_ROWS:
            self._by_key.clear()
            self._kept.clear()
            self._array = np.zeros((16, L.NU), np.int64)
            self.epoch += 1
            self._drop_codes()
        if len(self._ids) > MAX_IDS:
            self._ids = []
            self._rank = {}
            self._drop_codes()

    def _drop_codes(self) -> None:
        """Forget every unit's code (and the last battle's layout, made of them)."""
        self._start = ({}, {})
        self._groups = {(0, -1): self._start[0], (1, -1): self._start[1]}
        self.last = None

    def forces(
        self, units_a: Sequence[UnitSpec], units_b: Sequence[UnitSpec]
    ) -> tuple[list[str], list[int], list[str], list[int]] | None:
        """:meth:`live` of the two forces' units (sides 0 and 1, there from the start) in one
        step, when every unit is known and none is destroyed: ids and codes of side 0, then
        of side 1; else None (:meth:`live` then names them, after :meth:`bound`: a battle
        whose units are all known adds nothing to bound)."""
        # comprehensions, not map(): Python 3.11 specialises their look-ups (faster here)
        start_a, start_b = self._start
        try:
            codes_a = [start_a[id(u)] for u in units_a]
            codes_b = [start_b[id(u)] for u in units_b]
        except KeyError:  # a unit not met before
            return None
        if -1 in codes_a or -1 in codes_b:  # a destroyed unit, left out
            return None
        return [u.id for u in units_a], codes_a, [u.id for u in units_b], codes_b

    def rank(self, uid: str) -> int:
        """The rank of unit id ``uid`` among the ids ranked so far (string order: RULES.md
        §6.9, ties go to the lowest id). A new id ranks every id anew and drops every code
        made before (``reranked``)."""
        got = self._rank.get(uid)
        if got is not None:
            return got
        known = self._ids
        bisect.insort(known, uid)
        self._rank = {i: k for k, i in enumerate(known)}
        self._drop_codes()
        self.reranked = True
        return self._rank[uid]

    def live(
        self, t: Tables, p: Packed, side: int, arrival: int, units: Sequence[UnitSpec]
    ) -> tuple[list[str], list[int]]:
        """The ids and codes of those of ``units`` (of ``side``) in the battle: destroyed
        ones are left out (RULES.md §1.2). ``arrival`` is the index of the arrival that
        brings them, -1 for the start. Raises ForceError for a type or formation not in the
        rules. If it sets ``reranked``, the codes it returns may be stale (and any looked
        up before it are): look them up again."""
        known = self._start[side] if arrival < 0 else self._groups.get((side, arrival))
        if known is None:
            known = self._groups[(side, arrival)] = {}
        codes: list[int | None] = [known.get(id(u)) for u in units]
        if None in codes:
            for j, spec in enumerate(units):
                if codes[j] is None:
                    row = self._add(t, p, side, arrival, spec)
                    code = -1 if row < 0 else (self.rank(spec.id) << L.ROW_BITS) | row
                    known = self._groups.setdefault((side, arrival), {})  # anew if reranked
                    codes[j] = known[id(spec)] = code
                    self._kept.append(spec)
        ids = [u.id for u in units]
        found: list[int] = codes  # type: ignore[assignment]  # every code is known now
        if -1 in found:
            return [i for i, r in zip(ids, found, strict=True) if r >= 0], [
                r for r in found if r >= 0
            ]
        return ids, found

    def _add(self, t: Tables, p: Packed, side: int, arrival: int, spec: UnitSpec) -> int:
        """Lay out one unit (RULES.md §1.2–§1.3): its type, formation (its own or its type's
        default), hits carried, grade's morale; -1 if it is destroyed (left out). Raises
        ForceError for a type or formation not in the rules."""
        key = (side, arrival, *_ROW_KEY(spec))
        k = self._by_key.get(key)
        if k is not None:  # a unit alike was laid out: its type and formation are known
            return k
        refuse_unit_type(t, spec)
        if spec.hits >= t.destroyed_at:
            return -1
        u = [0] * L.NU
        for col in (L.U_MELEE, L.U_CBY, L.U_CING, L.U_SVS, L.U_SBY):
            u[col] = -1
        u[L.U_SIDE] = side
        u[L.U_KIND] = p.kind_index[spec.kind]
        formation = spec.formation or t.unit_types[spec.kind].default_formation
        u[L.U_FID] = p.fid[(spec.kind, formation)]
        u[L.U_HB] = u[L.U_TOTAL] = spec.hits
        u[L.U_MORALE] = t.morale[spec.grade]
        u[L.U_GRADE] = GRADES.index(spec.grade)
        u[L.U_IRREG] = spec.irregular
        u[L.U_PRESENT] = arrival < 0
        u[L.U_HALFT] = spec.hits >= t.half_strength_at  # already tested (§6.3 step 6)
        u[L.U_ARR] = arrival
        k = self._by_key[key] = len(self._by_key)
        if self._array.shape[0] <= k:  # room for twice as many rows
            grown = np.zeros((2 * k + 16, L.NU), np.int64)
            grown[:k] = self._array[:k]
            self._array = grown
        self._array[k] = u
        return k

    def table(self) -> IntArray:
        """Every row met so far, as one array (and spare rows after them)."""
        return self._array


@dataclass(frozen=True, slots=True)
class Packed:
    """One rules object as arrays, with the names the decoder needs.

    ``arrays`` is the kernel's rule tuple without the doctrines (RI, RF, FI, FF, TI, CT, MNF,
    HD, LS, XD); ``kinds`` the unit type names by index; ``formations`` the (type, formation)
    names by formation index; ``fid`` the inverse; ``unit_rows`` the units laid out so far.
    """

    arrays: TableArrays
    kinds: tuple[str, ...]
    kind_index: dict[str, int]
    formations: tuple[str, ...]
    fid: dict[tuple[str, str], int]
    #: the units laid out so far under these rules (see :class:`UnitRows`)
    unit_rows: UnitRows = field(default_factory=UnitRows, compare=False)


_PACKED: dict[int, tuple[Tables, Packed]] = {}
_DOCTRINES: dict[tuple[int, str, str], tuple[Tables, RuleArrays]] = {}


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
        skirm = (k, f) in t.skirmish
        fi[i] = (n.fire_cd, n.melee_cd, n.fired_at_x, n.may_charge, n.square, kinds.index(k), skirm)
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
            fid[(k, tn.default_formation)],
        )
    hd = np.array(t.hit_dice._dice, np.int64).reshape(-1, 2)
    ls = np.array(t.withdrawal.losses, np.float64).reshape(-1, 2)
    packed = Packed(
        (ri, rf, fi, ff, ti, ct, mnf, hd, ls, explicit_decks(r.deck.explicit)),
        kinds,
        {k: i for i, k in enumerate(kinds)},
        tuple(f for _, f in pairs),
        fid,
    )
    if len(_PACKED) > 64:
        _PACKED.clear()
    _PACKED[id(t)] = (t, packed)
    return packed


def doctrine_arrays(t: Tables, names: tuple[str, str]) -> RuleArrays:
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
            doc.square_from_skirmish,
        )
        df[side] = (
            doc.charge_min_strength_ratio,
            doc.form_line_within_inches,
            doc.unlimber_within_inches,
            max(t.stop_short, doc.cavalry_wait_inches),
            t.stop_short,
            _or_never(doc.leave_skirmish_within_inches),
            _or_never(doc.limber_beyond_inches),
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


def _or_never(inches: float | None) -> float:
    """A doctrine's optional distance for the kernel: -1.0 for None (never, RULES.md §6.7)."""
    return -1.0 if inches is None else inches


_RULES: dict[tuple[int, str, str], tuple[Tables, Packed, Rules, int]] = {}


def doctrine_rules(t: Tables, names: tuple[str, str]) -> tuple[Packed, Rules, int]:
    """:func:`rule_arrays` of ``t``, :func:`doctrine_arrays` as one
    :class:`~battle.kernel.jit.Rules`, and the address of its fields (what a compiled battle
    is passed; the caller holds the Rules while it is used), cached: one look-up a battle.
    Raises ConfigError if a doctrine name is not in ``t.doctrines`` (checked once)."""
    key = (id(t), names[0], names[1])
    hit = _RULES.get(key)
    if hit is not None and hit[0] is t:
        return hit[1], hit[2], hit[3]
    refuse_doctrines(t, names)
    made: Rules = rules_of(doctrine_arrays(t, names))
    if len(_RULES) > 256:
        _RULES.clear()
    _RULES[key] = (t, rule_arrays(t), made, fields_address(made))
    return _RULES[key][1], made, _RULES[key][3]
