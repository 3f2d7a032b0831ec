"""One battle's units as the kernel names them (:func:`new_state`): the rows of both forces'
units and of every late arrival, in index (id) order, and the order of every unit listing.
The kernel lays them out itself (:func:`battle.kernel.start.lay_out`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from operator import attrgetter

import numpy as np

from battle.arrivals import Arrival
from battle.errors import ForceError
from battle.kernel.pack import FloatArray, Group, IntArray, Packed, rule_arrays
from battle.kernel.start import lay_out
from battle.tables import Tables
from battle.units import ID, Force, UnitSpec

__all__ = ["Layout", "new_state"]

_EMPTY = np.zeros(0, np.int64)
_BOUND = attrgetter("bound")
_SIDE = attrgetter("side")


class Layout:
    """One battle's units before the first bound. ``arrays`` is the kernel's tuple of the
    layout (:data:`battle.kernel.jit.LAY`): ``TB`` (the rows of
    :class:`~battle.kernel.pack.UnitRows`), ``AT``
    (the row of ``TB`` of each unit, in index (id) order) and each late arrival's bound
    ``AB`` and side ``AS``.

    ``listed_ids`` are the ids of the units in the order of every unit listing (side 0's
    first, each side by id) and ``split`` how many are of side 0; ``late`` whether any unit is
    a late arrival. What only events and unit outcomes read is made when first read:
    ``U`` (the units' rows), ``specs`` (the units in index order), ``listed`` (their specs in
    listing order), ``listed_sides``, and :meth:`start`.
    """

    __slots__ = ("AB", "AS", "AT", "_groups", "_specs", "arrays", "late", "listed_ids", "split")

    def __init__(
        self,
        arrays: tuple[IntArray, IntArray, IntArray, IntArray],
        groups: list[Group],
        listed_ids: list[str],
        split: int,
        late: bool,
    ) -> None:
        self.arrays = arrays
        _, self.AT, self.AB, self.AS = arrays
        self._groups = groups  # every group of units of the battle
        self.listed_ids = listed_ids
        self.split = split
        self.late = late
        self._specs: list[UnitSpec] | None = None

    @property
    def U(self) -> IntArray:
        """The units' rows before the first bound (``[units, NU]``, index order)."""
        return self.arrays[0].take(self.AT, 0)

    def start(self, p: Packed, attacker: int) -> tuple[IntArray, FloatArray, IntArray, IntArray]:
        """``U``, ``P``, ``S`` and ``DK`` before the first bound, as the kernel lays them
        out with the rules ``p`` and ``attacker`` (:func:`battle.kernel.start.lay_out`)."""
        TB, AT, AB, _ = self.arrays
        ri, rf, *_, xd = p.arrays
        return lay_out(TB, AT, AB.shape[0], attacker, ri, rf, xd)

    @property
    def specs(self) -> list[UnitSpec]:
        """The units' specs in index (id) order."""
        if self._specs is None:
            self._specs = sorted(chain.from_iterable(g.specs for g in self._groups), key=ID)
        return self._specs

    @property
    def listed(self) -> list[UnitSpec]:
        """The units' specs in the order of every unit listing (``listed_ids``)."""
        by_id = {u.id: u for u in self.specs}
        return list(map(by_id.__getitem__, self.listed_ids))

    @property
    def listed_sides(self) -> list[int]:
        """The side of each unit of ``listed``."""
        return [0] * self.split + [1] * (len(self.listed_ids) - self.split)


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


def _refuse_repeats(listed: list[str]) -> None:
    """Refuse a battle whose unit ids repeat; raises ForceError."""
    if len(set(listed)) != len(listed):
        dup = sorted({i for i in listed if listed.count(i) > 1})
        raise ForceError(f"unit ids repeat: {', '.join(dup)}", fix="Give every unit its own id.")


def _index_rows(listed: list[str], rows: list[int]) -> IntArray:
    """``AT``: the rows of the units in index (id) order, from their ids and rows in listing
    order."""
    order = sorted(range(len(listed)), key=listed.__getitem__)
    return np.array(list(map(rows.__getitem__, order)), np.int64)


def new_state(
    t: Tables,
    forces: tuple[Force, Force],
    due: Sequence[Arrival],
    p: Packed | None = None,
) -> Layout:
    """Name a battle's units: those of both forces and of every arrival (``due``, sorted by
    bound), destroyed ones left out (RULES.md §1.2), each as its row of the rules' unit rows
    (:class:`~battle.kernel.pack.UnitRows`: type, formation, hits carried, morale, §1.3), in
    index (id) order. ``p``: ``rule_arrays(t)``, if the caller has it. A battle of forces
    whose units were met before together, without arrivals, reuses its layout.

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
    rows.bound()
    a = rows.group(t, p, 0, -1, forces[0].units)
    b = rows.group(t, p, 1, -1, forces[1].units)
    if not due:
        hit = rows.pairs.get((id(a), id(b)))
        if hit is not None and hit[0] is a and hit[1] is b:
            return hit[2]  # type: ignore[return-value]
    _refuse_force(t, forces[0], len(a.ids))
    _refuse_force(t, forces[1], len(b.ids))
    if not due:
        listed = a.ids + b.ids
        _refuse_repeats(listed)
        AT = _index_rows(listed, a.rows + b.rows)
        lay = Layout((rows.table(), AT, _EMPTY, _EMPTY), [a, b], listed, len(a.ids), False)
        if len(rows.pairs) > 20_000:
            rows.pairs.clear()
        rows.pairs[(id(a), id(b))] = (a, b, lay)
        return lay
    groups = [a, b]
    sides: list[list[tuple[str, int]]] = [
        list(zip(a.ids, a.rows, strict=True)),
        list(zip(b.ids, b.rows, strict=True)),
    ]
    for k, arrival in enumerate(due):
        g = rows.group(t, p, arrival.side, k, arrival.units)
        groups.append(g)
        sides[arrival.side] += zip(g.ids, g.rows, strict=True)
    for side in sides:
        side.sort()
    listed = [i for i, _ in sides[0]] + [i for i, _ in sides[1]]
    _refuse_repeats(listed)
    AT = _index_rows(listed, [r for _, r in sides[0]] + [r for _, r in sides[1]])
    AB = np.array(list(map(_BOUND, due)), np.int64)
    AS = np.array(list(map(_SIDE, due)), np.int64)
    return Layout((rows.table(), AT, AB, AS), groups, listed, len(sides[0]), True)
