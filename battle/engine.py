"""The abstract quick battle (RULES.md §3–§7): :func:`fight`.

A battle is a sequence of turns of two bounds each (§6.2). Each bound runs the phases of
RULES.md §6.3 for the active side; the battle ends at once when a side is down to its last
card, has no unit left, or withdraws; or as a draw after ``max_turns`` turns (the hard cap) or
at nightfall (``max_bounds``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from battle.arrivals import Arrival, check_arrivals, join_due
from battle.dice import Dice
from battle.doctrine import Order, TacticalDoctrine
from battle.errors import ForceError
from battle.result import BattleResult
from battle.rules import BattleRules
from battle.state import BattleState
from battle.tables import Tables, compile_rules
from battle.units import Force

__all__ = ["fight"]


def fight(
    force_a: Force,
    force_b: Force,
    rules: BattleRules,
    rng: np.random.Generator,
    *,
    attacker: int = 0,
    doctrines: tuple[str, str] = ("steady", "steady"),
    max_bounds: int | None = None,
    record_events: bool = True,
    arrivals: Sequence[Arrival] = (),
) -> BattleResult:
    """Fight one abstract battle between two forces (RULES.md §6).

    Parameters
    ----------
    force_a, force_b
        The two sides (index 0 and 1); each needs at least one unit with fewer than 10 hits.
    rules
        The battle rules (``config/rules.yaml`` ``battle:`` with any variant applied).
    rng
        The battle's own random generator (RULES.md §0.6); nothing else is read.
    attacker
        0 or 1: the side that moved in and has the first bound (§6.2, §6.9).
    doctrines
        Names of each side's tactical doctrine in ``rules.doctrines`` (§6.7).
    max_bounds
        Nightfall: the battle stops as a draw after this many bounds (§8.3). None: no limit
        but the ``max_turns`` cap.
    record_events
        Keep every event (dice included); off for speed in batch runs.
    arrivals
        Units that join a side at the start of a given bound (RULES.md §8.4; see
        :mod:`battle.arrivals`). Arrivals due after the battle ends never join.

    Returns
    -------
    BattleResult

    Raises
    ------
    ForceError
        If a force has no unit able to fight or more than ``rules.max_units_per_force``
        units, unit ids repeat (arrivals included), or an arrival is malformed.
    ConfigError
        If a doctrine name is not in ``rules.doctrines``.
    """
    tables = compile_rules(rules)
    _check_forces(tables, force_a, force_b)
    docs = []
    for name in doctrines:
        if name not in tables.doctrines:
            from battle.errors import ConfigError

            raise ConfigError(
                f"no tactical doctrine named {name!r}",
                key="--doctrine",
                fix=f"Choose one of: {', '.join(sorted(tables.doctrines))}.",
            )
        docs.append(tables.doctrines[name])
    due = sorted(arrivals, key=lambda a: a.bound)
    if due:
        taken = {u.id for f in (force_a, force_b) for u in f.units}
        check_arrivals(due, taken, tables.max_units_per_force)
    st = BattleState(tables, (force_a, force_b), Dice(rng), attacker, record_events)
    cap = tables.max_turns
    while st.winner is None and not st.over:
        if st.turn >= cap:
            st.finish(None, "turn-limit")
            break
        st.turn += 1
        first = st.first_side()
        for side in (first, 1 - first):
            if max_bounds is not None and st.bounds >= max_bounds:
                st.finish(None, "nightfall")
                break
            if due:
                join_due(st, due)
            _bound(st, side, docs[side])
            if st.over:
                break
        if not st.over:
            st.withdrawal_phase()
    return st.result()


def _check_forces(t: Tables, force_a: Force, force_b: Force) -> None:
    """Refuse forces the battle cannot fight (see :func:`fight`); raises ForceError."""
    limit, destroyed_at = t.max_units_per_force, t.destroyed_at
    for force in (force_a, force_b):
        if len(force.units) > limit:
            raise ForceError(
                f"force {force.name!r} has {len(force.units)} units, more than the "
                f"{limit} a battle allows",
                key="battle.max_units_per_force",
                fix=f"Give it at most {limit} units, or raise "
                "battle.max_units_per_force (e.g. --set battle.max_units_per_force=500).",
            )
        if not any(u.hits < destroyed_at for u in force.units):
            raise ForceError(
                f"force {force.name!r} has no unit able to fight",
                fix=f"Give each side at least one unit with fewer than {destroyed_at} hits.",
            )
    ids = {u.id for u in force_a.units}
    ids.update(u.id for u in force_b.units)
    if len(ids) != len(force_a.units) + len(force_b.units):
        every = [u.id for f in (force_a, force_b) for u in f.units]
        dup = sorted({i for i in every if every.count(i) > 1})
        raise ForceError(f"unit ids repeat: {', '.join(dup)}", fix="Give every unit its own id.")


def _bound(st: BattleState, side: int, doc: TacticalDoctrine) -> None:
    """One bound of ``side`` (RULES.md §6.3).

    ``st.changed`` says whether a card was lost or a unit left since the last end check:
    only then can the battle have ended (RULES.md §6.8 a, c).
    """
    st.bounds += 1
    card = st.decks[side].draw(st.dice)
    orders: list[Order] = doc.choose_orders(
        st.field[side], st.field[1 - side], card, attacking=(side == st.attacker)
    )
    for o in orders:
        o.unit.activated = True
    if st.record:
        st.bound_started(side, card, orders)
    # 2. response: stand tests, formation completion, charge declarations
    st.stand_tests(side)
    st.completion_tests(side)
    charges = st.declare_charges(side, orders)
    if st.changed and st.check_end():
        return
    # 3. fire
    st.fire_phase(side, charges)
    if st.changed and st.check_end():
        return
    # 4. melee
    st.melee_phase()
    if st.changed and st.check_end():
        return
    # 5. manoeuvre
    st.manoeuvre_phase(side, orders, charges)
    # 6. checks
    st.half_strength_checks()
    st.end_bound(side, orders)
    if st.changed:
        st.check_end()
