"""The abstract quick battle (RULES.md §3–§7) on the compiled kernel: :func:`fight`.

A battle is a sequence of turns of two bounds each (§6.2). Each bound runs the phases of
RULES.md §6.3 for the active side; the battle ends at once when a side is down to its last
card, has no unit left, or withdraws — checked after every phase (§6.8) — or as a draw after
``max_turns`` turns (from the start, or from the first withdrawal check under
``fifteen-after-check``; ``max_turns_cap`` bounds every battle) or at nightfall
(``max_bounds``).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

import numpy as np

from battle.arrivals import Arrival, check_arrivals
from battle.kernel.run import fight_tables, kernel_rules
from battle.result import BattleResult
from battle.rules import BattleRules
from battle.tables import compile_rules
from battle.units import ID, Force

__all__ = ["fight"]

_BOUND = attrgetter("bound")


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
    rewind: bool = True,
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
    rewind
        Leave ``rng`` just after the blocks of 64 uniforms the battle used (the default; a
        generator that cannot step back has its state read before and restored after). False
        for a caller that discards or restarts ``rng`` afterwards: it is left wherever the
        drawing stopped, and the battle is the same.

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
    kr = kernel_rules(tables, doctrines)  # refuses a doctrine not in the rules
    due = sorted(arrivals, key=_BOUND) if arrivals else []
    if due:
        taken = set(map(ID, force_a.units))
        taken.update(map(ID, force_b.units))
        check_arrivals(due, taken, tables.max_units_per_force)
    return fight_tables(
        tables,
        kr,
        force_a,
        force_b,
        rng,
        attacker,
        doctrines,
        max_bounds,
        record_events,
        due,
        rewind,
    )
