"""What a battle refuses before it is fought, said once for both engines
(:mod:`battle.reference.engine` and the kernel's :mod:`battle.kernel.pack` and
:mod:`battle.kernel.lineup`): a tactical doctrine not in the rules (RULES.md §6.7), a unit
type or formation not in the rules (§1), a force too large or with no unit able to fight
(§1.2), unit ids that repeat (§6.9 orders ties by id).

Each function raises the user-facing error (:class:`~battle.errors.ConfigError` or
:class:`~battle.errors.ForceError`) that :func:`battle.engine.fight` documents; the engines
decide when to call them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NoReturn

from battle.errors import ForceError, unknown_name
from battle.tables import Tables
from battle.units import Force, UnitSpec

__all__ = ["refuse_doctrines", "refuse_force", "refuse_repeats", "refuse_unit_type"]


def refuse_doctrines(t: Tables, names: Iterable[str]) -> None:
    """Refuse a tactical doctrine name not in the rules ``t`` (RULES.md §6.7).

    Raises
    ------
    ConfigError
        Naming the first unknown name and the doctrines there are (key ``--doctrine``).
    """
    for name in names:
        if name not in t.doctrines:
            raise unknown_name("tactical doctrine", name, sorted(t.doctrines), key="--doctrine")


def refuse_unit_type(t: Tables, spec: UnitSpec) -> None:
    """Refuse a unit whose type, or formation, is not in the rules ``t`` (RULES.md §1).

    Raises
    ------
    ForceError
        Naming the unit and the types (or its type's formations) there are.
    """
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


def refuse_force(t: Tables, force: Force, able: bool) -> None:
    """Refuse a force of more than ``battle.max_units_per_force`` units, or with no unit
    able to fight (``able`` false: none has fewer than ``battle.destroyed_at_hits`` actual
    hits, RULES.md §1.2).

    Raises
    ------
    ForceError
        Naming the force, the limit or the hits a unit must be below.
    """
    limit = t.max_units_per_force
    if len(force.units) > limit:
        raise ForceError(
            f"force {force.name!r} has {len(force.units)} units, more than the "
            f"{limit} a battle allows",
            key="battle.max_units_per_force",
            fix=f"Give it at most {limit} units, or raise "
            "battle.max_units_per_force (e.g. --set battle.max_units_per_force=500).",
        )
    if not able:
        raise ForceError(
            f"force {force.name!r} has no unit able to fight",
            fix=f"Give each side at least one unit with fewer than {t.destroyed_at} hits.",
        )


def refuse_repeats(ids: Sequence[str]) -> NoReturn:
    """Refuse a battle whose unit ids (``ids``: every unit's, arrivals' included) repeat
    (RULES.md §6.9 orders ties by id).

    Raises
    ------
    ForceError
        Always, naming the ids that repeat (sorted).
    """
    dup = sorted({i for i in ids if ids.count(i) > 1})
    raise ForceError(f"unit ids repeat: {', '.join(dup)}", fix="Give every unit its own id.")
