"""The battle's rules and forces as the kernel's arrays (:mod:`battle.kernel.layout`).

:func:`rule_arrays` packs a :class:`~battle.tables.Tables` once per rules object;
:func:`doctrine_arrays` packs a pair of tactical doctrines (RULES.md §6.7); :func:`new_state`
lays out one battle's units (both forces and every late arrival, in id order) and decks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter

import numpy as np
from numpy.typing import NDArray

from battle.arrivals import Arrival
from battle.errors import ForceError
from battle.kernel import layout as L
from battle.tables import Tables
from battle.units import GRADES, ID, Force, UnitSpec

__all__ = [
    "Layout",
    "Packed",
    "UnitRows",
    "doctrine_arrays",
    "new_state",
    "refuse_type",
    "rule_arrays",
]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
#: sentinel of the change-total table: no change between the two formations (RULES.md §5.2)
NO_CHANGE = -(10**9)


#: what of a unit spec its row of U depends on, besides its side and arrival
_ROW_KEY = attrgetter("kind", "formation", "grade", "irregular", "hits")
_HITS = attrgetter("hits")
#: the battle scalars before the first bound (RULES.md §6.8: no winner yet)
_S0 = [0] * L.NS
_S0[L.S_WINNER] = _S0[L.S_FCT] = _S0[L.S_MAXB] = -1


class UnitRows:
    """The rows of ``U`` met so far under one rules object, one per (side, arrival, unit
    spec key): a battle's ``U`` is one fancy index of them (laying out a unit is then a dict
    look-up). Also the read-only arrays shared by battles of the same sizes."""

    __slots__ = ("_array", "_groups", "_positions", "_rows", "decks", "epoch")

    def __init__(self) -> None:
        self._groups: dict[tuple[int, int], dict[tuple[object, ...], int]] = {}
        self._rows: list[list[int]] = []
        self._array: IntArray = np.zeros((0, L.NU), np.int64)
        self._positions: dict[int, FloatArray] = {}
        #: (units of side 0, units of side 1) -> their decks as DK (no late arrivals)
        self.decks: dict[tuple[int, int], IntArray] = {}
        #: how many times the rows started again (a row number is valid within one epoch)
        self.epoch = 0

    def of(
        self, t: Tables, p: Packed, side: int, arrival: int, units: Sequence[UnitSpec]
    ) -> list[int]:
        """The row of each of ``units`` of ``side`` (-1 for a destroyed one, RULES.md §1.2);
        ``arrival`` is the index of the arrival that brings them, -1 for the start."""
        known = self._groups.get((side, arrival))
        if known is None or len(self._rows) > 100_000:
            if len(self._rows) > 100_000:  # bounded: start again (in a new table: layouts
                self._groups.clear()  # made before keep the rows they point to)
                self._rows.clear()
                self._array = np.zeros((0, L.NU), np.int64)
                self.epoch += 1
            known = self._groups[(side, arrival)] = {}
        rows: list[int | None] = list(map(known.get, map(_ROW_KEY, units)))
        if None in rows:
            for j, spec in enumerate(units):
                if rows[j] is None:
                    row = self._add(t, p, side, arrival, spec)
                    rows[j] = known[_ROW_KEY(spec)] = row
        return rows  # type: ignore[return-value]

    def _add(self, t: Tables, p: Packed, side: int, arrival: int, spec: UnitSpec) -> int:
        """Lay out one unit (RULES.md §1.2–§1.3): its type, formation (its own or its type's
        default), hits carried, grade's morale; -1 if it is destroyed (left out). Raises
        ForceError for a type or formation not in the rules (checked once per unit key)."""
        refuse_type(t, spec)
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
        k = len(self._rows)
        self._rows.append(u)
        if self._array.shape[0] <= k:  # room for twice as many rows
            grown = np.zeros((2 * k + 16, L.NU), np.int64)
            grown[:k] = self._array[:k]
            self._array = grown
        self._array[k] = u
        return k

    def table(self) -> IntArray:
        """Every row met so far, as one array (and spare rows after them)."""
        return self._array

    def positions(self, t: Tables, n: int) -> FloatArray:
        """``P`` of ``n`` units before the first bound: each deployed (RULES.md §6.1)."""
        P = self._positions.get(n)
        if P is None:
            P = np.zeros((n, L.NP), np.float64)
            P[:, L.P_POS] = t.deploy
            P.flags.writeable = False
            if len(self._positions) > 1024:
                self._positions.clear()
            self._positions[n] = P
        return P


@dataclass(frozen=True, slots=True)
class Packed:
    """One rules object as arrays, with the names the decoder needs.

    ``arrays`` is the kernel's rule tuple without the doctrines (RI, RF, FI, FF, TI, CT, MNF,
    HD, LS); ``kinds`` the unit type names by index; ``formations`` the (type, formation)
    names by formation index; ``fid`` the inverse; ``unit_rows`` the units laid out so far.
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
    #: the units laid out so far under these rules (see :class:`UnitRows`)
    unit_rows: UnitRows = field(default_factory=UnitRows, compare=False)


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


class Layout:
    """One battle's units and decks before the first bound. ``arrays`` is the kernel's tuple
    of the layout (:data:`battle.kernel.jit.LAY`): ``TB`` (the rows of
    :class:`UnitRows`), ``P``, ``S``, ``DK`` (copied for each battle, never written; ``P`` and
    ``DK`` are shared between battles of the same sizes, and read-only), the arrivals' ``AB``,
    ``AS``, ``ADK``, ``ADN``, and ``AT``, the row of ``TB`` of each unit in index (id) order.

    ``listed_ids`` are the ids of the units in the order of every unit listing (side 0's
    first, each side by id) and ``split`` how many are of side 0; ``late`` whether any unit is
    a late arrival; ``decks`` each side's deck at the start. What only events and unit
    outcomes read is made when first read: ``U`` (the units' rows), ``specs`` (the units in
    index order), ``listed`` (their specs in listing order) and ``listed_sides``.
    """

    __slots__ = (
        "AB",
        "ADK",
        "ADN",
        "AS",
        "AT",
        "DK",
        "P",
        "S",
        "_U",
        "_listed",
        "_members",
        "_specs",
        "arrays",
        "decks",
        "late",
        "listed_ids",
        "split",
    )

    def __init__(
        self,
        members: list[UnitSpec],
        arrays: tuple[
            IntArray,
            FloatArray,
            IntArray,
            IntArray,
            IntArray,
            IntArray,
            IntArray,
            IntArray,
            IntArray,
        ],
        decks: tuple[tuple[int, ...], tuple[int, ...]],
        listed_ids: list[str],
        split: int,
        late: bool,
    ) -> None:
        self._members = members  # every unit in the battle, in no particular order
        self.arrays = arrays
        _, self.P, self.S, self.DK, self.AB, self.AS, self.ADK, self.ADN, self.AT = arrays
        self.decks = decks
        self.listed_ids = listed_ids
        self.split = split
        self.late = late
        self._U: IntArray | None = None
        self._specs: list[UnitSpec] | None = None
        self._listed: list[UnitSpec] | None = None

    @property
    def U(self) -> IntArray:
        """The units' rows before the first bound (``[units, NU]``, index order)."""
        if self._U is None:
            self._U = self.arrays[0].take(self.AT, 0)
        return self._U

    @property
    def specs(self) -> list[UnitSpec]:
        """The units' specs in index (id) order."""
        if self._specs is None:
            self._specs = sorted(self._members, key=ID)
        return self._specs

    @property
    def listed(self) -> list[UnitSpec]:
        """The units' specs in the order of every unit listing (``listed_ids``)."""
        if self._listed is None:
            by_id = {u.id: u for u in self._members}
            self._listed = list(map(by_id.__getitem__, self.listed_ids))
        return self._listed

    @property
    def listed_sides(self) -> list[int]:
        """The side of each unit of ``listed``."""
        return [0] * self.split + [1] * (len(self.listed_ids) - self.split)


_EMPTY = np.zeros(0, np.int64)
_EMPTY2 = np.zeros((0, 1), np.int64)


def refuse_type(t: Tables, spec: UnitSpec) -> None:
    """Refuse a unit whose type or formation is not in the rules; raises ForceError."""
    kind = t.unit_types.get(spec.kind)
    if kind is None:
        raise ForceError(
            f"unit {spec.id} is of unknown type {spec.kind!r}",
            key="battle.units",
            fix=f"Use one of: {', '.join(t.unit_types)}, or add the type to "
            "battle.units in config/rules.yaml.",
        )
    if spec.formation is not None and (spec.kind, spec.formation) not in t.formations:
        raise ForceError(
            f"unit {spec.id} ({spec.kind}) has no formation {spec.formation!r}",
            key=f"battle.units.{spec.kind}.formations",
            fix=f"Use one of: {', '.join(kind.formations)}.",
        )


def _refuse_force(t: Tables, force: Force, live: int) -> None:
    """Refuse a force of more than ``max_units_per_force`` units, or with no unit able to
    fight (``live`` of its units have fewer than ``destroyed_at`` hits); raises ForceError."""
    limit = t.max_units_per_force
    if len(force.units) > limit:
        raise ForceError(
            f"force {force.name!r} has {len(force.units)} units, more than the "
            f"{limit} a battle allows",
            key="battle.max_units_per_force",
            fix=f"Give it at most {limit} units, or raise "
            "battle.max_units_per_force (e.g. --set battle.max_units_per_force=500).",
        )
    if not live:
        raise ForceError(
            f"force {force.name!r} has no unit able to fight",
            fix=f"Give each side at least one unit with fewer than {t.destroyed_at} hits.",
        )


def _live(group: Sequence[UnitSpec], got: list[int]) -> tuple[Sequence[UnitSpec], list[int]]:
    """The units of ``group`` in the battle and their rows (``got``: -1 for a destroyed one,
    left out, RULES.md §1.2)."""
    if -1 not in got:
        return group, got
    return [u for u, r in zip(group, got, strict=True) if r >= 0], [r for r in got if r >= 0]


_Forces = tuple[
    list[int], list[int], Sequence[UnitSpec], Sequence[UnitSpec], list[str], tuple[int, int]
]
#: the last pair of forces laid out under each rules object (id of Tables -> Tables, the
#: forces, the rows' epoch, their part of the layout): a battle fought again with a late
#: arrival reuses it
_FORCES: dict[int, tuple[Tables, Force, Force, int, _Forces]] = {}


def _lay_forces(t: Tables, p: Packed, forces: tuple[Force, Force]) -> _Forces:
    """The two forces' part of a battle's layout (see :func:`new_state`): each side's rows
    and units in the battle (destroyed ones left out, RULES.md §1.2), every unit's id (in the
    forces' order, side 0's first) and each side's §7.1 boxes. Raises ForceError."""
    rows = p.unit_rows
    units_a, units_b = forces[0].units, forces[1].units
    # each unit's row in rows.table(); checks each unit's type, once per unit key
    got_a = rows.of(t, p, 0, -1, units_a)
    got_b = rows.of(t, p, 1, -1, units_b)
    every = list(map(ID, units_a))
    every += map(ID, units_b)
    live_a, got_a = _live(units_a, got_a)
    _refuse_force(t, forces[0], len(got_a))
    live_b, got_b = _live(units_b, got_b)
    _refuse_force(t, forces[1], len(got_b))
    if len(set(every)) != len(every):
        dup = sorted({i for i in every if every.count(i) > 1})
        raise ForceError(f"unit ids repeat: {', '.join(dup)}", fix="Give every unit its own id.")
    destroyed_at = t.destroyed_at
    boxes = (
        destroyed_at * len(got_a) - sum(map(_HITS, live_a)),
        destroyed_at * len(got_b) - sum(map(_HITS, live_b)),
    )
    return got_a, got_b, live_a, live_b, every, boxes


def new_state(
    t: Tables,
    forces: tuple[Force, Force],
    due: Sequence[Arrival],
    attacker: int,
    p: Packed | None = None,
) -> Layout:
    """Lay out a battle: units of both forces and of every arrival (``due``, sorted by
    bound), destroyed ones left out (RULES.md §1.2), each with its type, formation (its own
    or its type's default), grade's morale (§1.3) and position (deployed, §6.1); decks
    (§3.1), one per side and one rebuilt per arrival (§8.4). ``p``: ``rule_arrays(t)``, if
    the caller has it.

    Raises
    ------
    ForceError
        If a unit's type or formation is not in the rules, a force has more than
        ``max_units_per_force`` units or none able to fight, or unit ids of the two forces
        repeat (arrivals are checked by :func:`battle.arrivals.check_arrivals`).
    """
    if p is None:
        p = rule_arrays(t)
    rows = p.unit_rows
    hit = _FORCES.get(id(t))
    if (
        hit is not None
        and hit[0] is t
        and hit[1] is forces[0]
        and hit[2] is forces[1]
        and hit[3] == rows.epoch
    ):
        got_a, got_b, live_a, live_b, every, boxes = hit[4]  # fought again: an arrival added
    else:
        laid = _lay_forces(t, p, forces)
        got_a, got_b, live_a, live_b, every, boxes = laid
        if len(_FORCES) > 64:
            _FORCES.clear()
        _FORCES[id(t)] = (t, forces[0], forces[1], rows.epoch, laid)
    members = [*live_a, *live_b]
    ids = every.copy() if len(members) == len(every) else list(map(ID, members))
    at = got_a + got_b
    counts = [len(got_a), len(got_b)]
    listed_a, listed_b = ids[: counts[0]], ids[counts[0] :]
    live: list[int] = []  # units of each arrival in the battle
    for k, a in enumerate(due):
        units, got = _live(a.units, rows.of(t, p, a.side, k, a.units))
        members += units
        more = list(map(ID, units))
        ids += more
        (listed_a if a.side == 0 else listed_b).extend(more)
        at += got
        live.append(len(got))
    row_of = dict(zip(ids, at, strict=True))
    ids.sort()
    listed_a.sort()
    listed_b.sort()
    AT = np.array(list(map(row_of.__getitem__, ids)), np.int64)
    decks = (t.deck_for(counts[0]), t.deck_for(counts[1]))
    S = _S0.copy()
    S[L.S_ATTACKER] = attacker
    S[L.S_NARR] = len(due)
    S[L.S_DN], S[L.S_DN + 1] = len(decks[0]), len(decks[1])
    S[L.S_ONF], S[L.S_ONF + 1] = counts
    S[L.S_BOX], S[L.S_BOX + 1] = boxes
    if not due:
        DK = rows.decks.get((counts[0], counts[1]))
        if DK is None:
            DK = _deck_array(decks, [])
            DK.flags.writeable = False
            if len(rows.decks) > 4096:
                rows.decks.clear()
            rows.decks[(counts[0], counts[1])] = DK
        AB = AS = ADN = _EMPTY
        ADK = _EMPTY2
    else:
        new_decks: list[tuple[int, ...]] = []
        ADN = np.full(len(due), -1, np.int64)
        for k, a in enumerate(due):
            if live[k]:
                counts[a.side] += live[k]
                new_decks.append(t.deck_for(counts[a.side]))
                ADN[k] = len(new_decks[-1])
            else:
                new_decks.append(())
        DK = _deck_array(decks, new_decks)
        ADK = np.zeros((len(due), DK.shape[1]), np.int64)
        for k, cards in enumerate(new_decks):
            ADK[k, : len(cards)] = cards
        DK.flags.writeable = False
        AB = np.array([a.bound for a in due], np.int64)
        AS = np.array([a.side for a in due], np.int64)
    P = rows.positions(t, len(ids))
    arrays = (rows.table(), P, np.array(S, np.int64), DK, AB, AS, ADK, ADN, AT)
    return Layout(members, arrays, decks, listed_a + listed_b, len(listed_a), bool(due))


def _deck_array(
    decks: tuple[tuple[int, ...], tuple[int, ...]], new_decks: list[tuple[int, ...]]
) -> IntArray:
    """``DK``: each side's deck, highest card first, as wide as the widest deck of the battle
    (``new_decks``: those rebuilt for late arrivals, RULES.md §8.4), zero-padded."""
    width = max([len(decks[0]), len(decks[1]), *(len(x) for x in new_decks)])
    return np.array([list(d) + [0] * (width - len(d)) for d in decks], np.int64)
