"""The abstract quick battle (RULES.md §3–§7) on the compiled kernel: :func:`fight`, the
battle of :mod:`battle.reference.engine` (which says how it goes), fought alike.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from battle.arrivals import Arrival, due_arrivals
from battle.kernel.run import KernelRules, fight_tables, kernel_rules
from battle.result import BattleResult
from battle.rules import BattleRules
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
    rewind: bool = True,
) -> BattleResult:
    """Fight one abstract battle between two forces (RULES.md §6) on the compiled kernel.
    Parameters, result and errors as :func:`battle.engine.fight` (which picks the engine),
    but ``rewind``: True (the default) leaves ``rng`` just after the blocks of 64 uniforms
    the battle used (a generator that cannot step back has its state read before and
    restored after); False, for a caller that discards or restarts ``rng`` afterwards, leaves
    it wherever the drawing stopped, and the battle is the same.
    """
    hit = _RULES.get((id(rules), *doctrines))
    if hit is None or hit[0] is not rules:
        hit = _rules(rules, doctrines)
    tables, kr = hit[1], hit[2]
    due = due_arrivals(arrivals, (force_a, force_b), tables.max_units_per_force) if arrivals else ()
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


#: by rules object (its id) and pair of doctrines: the rules, their tables and what a
#: battle is given of them (one look-up a battle)
_RULES: dict[tuple[int, str, str], tuple[BattleRules, Tables, KernelRules]] = {}


def _rules(
    rules: BattleRules, doctrines: tuple[str, str]
) -> tuple[BattleRules, Tables, KernelRules]:
    """``rules``, their :class:`~battle.tables.Tables` and :func:`kernel_rules` with
    ``doctrines``, kept for the next battle. Raises ConfigError if a doctrine is not in the
    rules."""
    tables = compile_rules(rules)
    made = (rules, tables, kernel_rules(tables, doctrines))  # refuses a doctrine not in them
    if len(_RULES) > 64:
        _RULES.clear()
    _RULES[(id(rules), *doctrines)] = made
    return made
