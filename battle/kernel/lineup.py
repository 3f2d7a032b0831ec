"""One battle's units as the kernel names them (:func:`new_state`): the row of each unit of
both forces and of every late arrival, and their index (id) order. The kernel lays them out
itself (:func:`battle.kernel.start.lay_out`).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

import numpy as np

from battle.arrivals import Arrival
from battle.kernel import layout as L
from battle.kernel.pack import FloatArray, IntArray, Packed, rule_arrays
from battle.kernel.start import index_order, lay_out
from battle.refusals import refuse_force
from battle.tables import Tables
from battle.units import Force, UnitSpec

__all__ = ["Layout", "new_state"]

_EMPTY = np.zeros(0, np.int64)
_BOUND = attrgetter("bound")
#: the ids and codes of the two forces' units: side 0's, then side 1's
Named = tuple[list[str], list[int], list[str], list[int]]
_SIDE = attrgetter("side")


class Layout:
    """One battle's units before the first bound, in two orders: *listing* order, each side's
    units as given (side 0's first: its force's, then those of its arrivals in turn), and
    *index* order, by id (RULES.md §6.9 ties go to the lowest id), the order of the kernel's
    arrays. ``arrays`` is the kernel's tuple of the layout (:data:`battle.kernel.jit.LAY`):
    ``TB`` (the rows of :class:`~battle.kernel.pack.UnitRows`), ``RX`` (each unit's code in
    listing order: its id's rank and its row of ``TB``, from which the kernel orders them,
    :func:`~battle.kernel.start.index_order`), and each late arrival's bound ``AB`` and side
    ``AS``.

    ``listed_ids`` are the units' ids in listing order and ``split`` how many are of side 0;
    ``late`` whether any unit is a late arrival. What only events and unit outcomes read is
    made when first read: ``U`` (the units' rows), ``listed`` and ``specs`` (the units in
    listing and index order), ``listed_sides``, and :meth:`start`.
    """

    __slots__ = ("AB", "AS", "_given", "_specs", "arrays", "late", "listed_ids", "split")

    def __init__(
        self,
        arrays: tuple[IntArray, IntArray, IntArray, IntArray],
        given: tuple[tuple[Sequence[UnitSpec], ...], int],
        listed_ids: list[str],
        split: int,
        late: bool,
    ) -> None:
        self.arrays = arrays
        self.AB, self.AS = arrays[2], arrays[3]
        self._given = given  # the units as given (destroyed ones too), in runs, and destroyed_at
        self.listed_ids = listed_ids
        self.split = split
        self.late = late
        self._specs: list[UnitSpec] | None = None

    @property
    def U(self) -> IntArray:
        """The units' rows before the first bound (``[units, NU]``, index order)."""
        TB, RX = self.arrays[:2]
        return TB.take(RX.take(index_order(RX)) & L.ROW_MASK, 0)

    def start(self, p: Packed, attacker: int) -> tuple[IntArray, FloatArray, IntArray, IntArray]:
        """``U``, ``P``, ``S`` and ``DK`` before the first bound, as the kernel lays them
        out with the rules ``p`` and ``attacker`` (:func:`battle.kernel.start.lay_out`)."""
        TB, RX, AB, _ = self.arrays
        ri, rf, *_, xd = p.arrays
        return lay_out(TB, RX, AB.shape[0], attacker, ri, rf, xd)

    @property
    def listed(self) -> list[UnitSpec]:
        """The units' specs in listing order (``listed_ids``)."""
        runs, destroyed_at = self._given
        return [u for units in runs for u in units if u.hits < destroyed_at]

    @property
    def specs(self) -> list[UnitSpec]:
        """The units' specs in index (id) order."""
        if self._specs is None:
            listed = self.listed
            self._specs = list(map(listed.__getitem__, index_order(self.arrays[1]).tolist()))
        return self._specs

    @property
    def listed_sides(self) -> list[int]:
        """The side of each unit of ``listed``."""
        return [0] * self.split + [1] * (len(self.listed_ids) - self.split)


def new_state(
    t: Tables,
    forces: tuple[Force, Force],
    due: Sequence[Arrival],
    p: Packed | None = None,
) -> Layout:
    """Name a battle's units: those of both forces and of every arrival (``due``, sorted by
    bound), destroyed ones left out (RULES.md §1.2), each by its code of the rules' unit
    rows (:class:`~battle.kernel.pack.UnitRows`: its row, of type, formation, hits carried,
    morale, §1.3, and the rank of its id, from which the kernel orders them by id). ``p``:
    ``rule_arrays(t)``, if the caller has it. A battle of the same two forces as the last
    one laid out reuses its layout, or with late arrivals (a campaign's battle fought again,
    RULES.md §8.4) its forces' units.

    Raises
    ------
    ForceError
        If a unit's type or formation is not in the rules, a force has more than
        ``max_units_per_force`` units or none able to fight. Repeated unit ids are refused
        (:func:`battle.refusals.refuse_repeats`) once the kernel has found them (and
        arrivals' by :func:`battle.arrivals.check_arrivals`).
    """
    if p is None:
        p = rule_arrays(t)
    rows = p.unit_rows
    force_a, force_b = forces
    units_a, units_b = force_a.units, force_b.units
    if due:  # its arrivals may add units (a battle that adds none leaves nothing to bound)
        rows.bound()
    last = rows.last
    named: Named | None
    if last is not None and last[0] is force_a and last[1] is force_b:
        reused: Layout | None = last[2]
        if not due and reused is not None:
            return reused
        named = last[3]  # the forces' units (never changed here)
    else:
        named = rows.forces(units_a, units_b)  # every unit known: most battles
    if named is None:  # a unit met for the first time, or destroyed
        rows.bound()
        rows.reranked = False
        named = _name(t, p, units_a, units_b)
        if rows.reranked:  # a new id ranked every id anew: the codes again, of one ranking
            rows.reranked = False
            named = _name(t, p, units_a, units_b)
    ids_a, codes_a, ids_b, codes_b = named
    limit = t.max_units_per_force
    if not codes_a or not codes_b or len(units_a) > limit or len(units_b) > limit:
        refuse_force(t, force_a, bool(codes_a))
        refuse_force(t, force_b, bool(codes_b))
    if due:
        return _with_arrivals(t, p, forces, named, due)
    # each unit's code (its id's rank and its row): the kernel orders them by id and refuses
    # repeated ids (battle.kernel.start.index_order, battle.kernel.run)
    RX = np.array(codes_a + codes_b, np.int64)
    given = ((units_a, units_b), t.destroyed_at)
    lay = Layout((rows.table(), RX, _EMPTY, _EMPTY), given, ids_a + ids_b, len(ids_a), False)
    rows.last = (force_a, force_b, lay, named)
    return lay


def _name(t: Tables, p: Packed, units_a: Sequence[UnitSpec], units_b: Sequence[UnitSpec]) -> Named:
    """The ids and codes of each force's units (:meth:`~battle.kernel.pack.UnitRows.live`),
    side 0's then side 1's, for :func:`new_state`."""
    rows = p.unit_rows
    ids_a, codes_a = rows.live(t, p, 0, -1, units_a)
    ids_b, codes_b = rows.live(t, p, 1, -1, units_b)
    return ids_a, codes_a, ids_b, codes_b


def _with_arrivals(
    t: Tables,
    p: Packed,
    forces: tuple[Force, Force],
    named: Named,
    due: Sequence[Arrival],
) -> Layout:
    """The layout of a battle with late arrivals ``due``, its forces' units ``named``
    (:func:`new_state`): each side's units, its force's then its arrivals' in turn; the
    forces' names are kept for the battle fought again (``rows.last``)."""
    rows = p.unit_rows
    force_a, force_b = forces
    ids_a, codes_a, ids_b, codes_b = named
    rows.reranked = False
    runs_a: list[Sequence[UnitSpec]] = [force_a.units]
    runs_b: list[Sequence[UnitSpec]] = [force_b.units]
    for k, arrival in enumerate(due):
        ids, got = rows.live(t, p, arrival.side, k, arrival.units)
        if arrival.side == 0:  # new lists: the forces' own are kept in rows.last
            ids_a = ids_a + ids
            codes_a = codes_a + got
            runs_a.append(arrival.units)
        else:
            ids_b = ids_b + ids
            codes_b = codes_b + got
            runs_b.append(arrival.units)
    if rows.reranked:  # an arrival's new id ranked every id anew: name them all again
        rows.reranked = False
        return new_state(t, forces, due, p)
    rows.last = (force_a, force_b, None, named)
    RX = np.array(codes_a + codes_b, np.int64)
    AB = np.array(list(map(_BOUND, due)), np.int64)
    AS = np.array(list(map(_SIDE, due)), np.int64)
    given = ((*runs_a, *runs_b), t.destroyed_at)
    return Layout((rows.table(), RX, AB, AS), given, ids_a + ids_b, len(ids_a), True)
