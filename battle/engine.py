"""The abstract quick battle (RULES.md §3–§7): :func:`fight`.

A battle is a sequence of turns of two bounds each (§6.2). Each bound runs the phases of
RULES.md §6.3 for the active side; the battle ends at once when a side is down to its last
card, has no unit left, or withdraws — checked after every phase (§6.8) — or as a draw after
``max_turns`` turns (from the start, or from the first withdrawal check under
``fifteen-after-check``; ``max_turns_cap`` bounds every battle) or at nightfall
(``max_bounds``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import attrgetter, is_

import numpy as np

from battle.arrivals import Arrival, check_arrivals
from battle.errors import ConfigError, ForceError
from battle.kernel.run import fight_tables
from battle.result import BattleResult
from battle.rules import BattleRules
from battle.tables import Tables, compile_rules
from battle.units import ID, Force, UnitSpec

__all__ = ["fight"]

#: the last pair of forces checked for each compiled rules (id of Tables -> the pair): batch
#: runs and --odds fight the same frozen forces many times
_CHECKED: dict[int, tuple[Tables, Force, Force]] = {}
_BOUND, _HITS = attrgetter("bound"), attrgetter("hits")
_KIND, _FORMATION = attrgetter("kind"), attrgetter("formation")


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
        The two sides (index 0 and 1); each needs at least one unit with fewer actual hits than
        ``rules.destroyed_at_hits`` (RULES.md §1.2).
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
        units, unit ids repeat (arrivals included), a unit's type or formation is not in
        ``rules.units``, or an arrival is malformed.
    ConfigError
        If a doctrine name is not in ``rules.doctrines``.
    """
    tables = compile_rules(rules)
    seen = _CHECKED.get(id(tables))
    if seen is None or seen[0] is not tables or seen[1] is not force_a or seen[2] is not force_b:
        _check_forces(tables, force_a, force_b)
        if len(_CHECKED) > 64:
            _CHECKED.clear()
        _CHECKED[id(tables)] = (tables, force_a, force_b)  # the same pair again: checked
    for name in doctrines:
        if name not in tables.doctrines:
            raise ConfigError(
                f"no tactical doctrine named {name!r}",
                key="--doctrine",
                fix=f"Choose one of: {', '.join(sorted(tables.doctrines))}.",
            )
    due = sorted(arrivals, key=_BOUND) if arrivals else []
    if due:
        taken = set(map(ID, force_a.units))
        taken.update(map(ID, force_b.units))
        check_arrivals(due, taken, tables.max_units_per_force)
        for a in due:
            _check_types(tables, a.units)
    return fight_tables(
        tables, force_a, force_b, rng, attacker, doctrines, max_bounds, record_events, due
    )


def _check_forces(t: Tables, force_a: Force, force_b: Force) -> None:
    """Refuse forces the battle cannot fight (see :func:`fight`); raises ForceError."""
    limit, destroyed_at = t.max_units_per_force, t.destroyed_at
    for force in (force_a, force_b):
        _check_types(t, force.units)
        if len(force.units) > limit:
            raise ForceError(
                f"force {force.name!r} has {len(force.units)} units, more than the "
                f"{limit} a battle allows",
                key="battle.max_units_per_force",
                fix=f"Give it at most {limit} units, or raise "
                "battle.max_units_per_force (e.g. --set battle.max_units_per_force=500).",
            )
        if not force.units or min(map(_HITS, force.units)) >= destroyed_at:
            raise ForceError(
                f"force {force.name!r} has no unit able to fight",
                fix=f"Give each side at least one unit with fewer than {destroyed_at} hits.",
            )
    ids = set(map(ID, force_a.units))
    ids.update(map(ID, force_b.units))
    if len(ids) != len(force_a.units) + len(force_b.units):
        every = [u.id for f in (force_a, force_b) for u in f.units]
        dup = sorted({i for i in every if every.count(i) > 1})
        raise ForceError(f"unit ids repeat: {', '.join(dup)}", fix="Give every unit its own id.")


def _check_types(t: Tables, units: Sequence[UnitSpec]) -> None:
    """Refuse a unit whose type or formation is not in the rules; raises ForceError."""
    if set(map(_KIND, units)) <= t.unit_types.keys() and all(
        map(is_, map(_FORMATION, units), repeat(None))
    ):
        return  # known types, each in its type's default formation
    for u in units:
        kind = t.unit_types.get(u.kind)
        if kind is None:
            raise ForceError(
                f"unit {u.id} is of unknown type {u.kind!r}",
                key="battle.units",
                fix=f"Use one of: {', '.join(t.unit_types)}, or add the type to "
                "battle.units in config/rules.yaml.",
            )
        if u.formation is not None and (u.kind, u.formation) not in t.formations:
            raise ForceError(
                f"unit {u.id} ({u.kind}) has no formation {u.formation!r}",
                key=f"battle.units.{u.kind}.formations",
                fix=f"Use one of: {', '.join(kind.formations)}.",
            )
