"""Building forces from a compact flag (``6i1c1a:veteran``) or a small YAML file.

Compact flag grammar: counts followed by a type letter — each unit type's ``letter`` in
``battle.units`` (config/rules.yaml): ``i`` infantry, ``c`` cavalry, ``a`` artillery
(battery), ``l`` light infantry — repeated, then optionally ``:GRADE`` (raw, regular, veteran,
elite) and ``:irregular`` (RULES.md §1.4: irregular units). Example: ``4i2l1c1a:veteran`` is
four veteran infantry units, two light infantry, one cavalry, one battery;
``4i1c:raw:irregular`` four raw irregular infantry units and one raw irregular cavalry.

YAML form (one file, both sides)::

    red:
      name: French            # optional
      units:
        - {type: infantry, count: 4, grade: veteran}
        - {type: cavalry}
        - {type: artillery, hits: 3}
        - {type: light_infantry, count: 2}
    blue:
      units: "4i1c1a"        # the compact flag is accepted too
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from battle.configload import RULES_FILE, describe_error, read_yaml, validate
from battle.errors import ForceError
from battle.rules import BattleRules, UnitTypeRules
from battle.units import GRADES, Force, UnitSpec
from battle.yamlfile import read_yaml_file

__all__ = [
    "UNIT_CEILING",
    "default_unit_types",
    "load_forces_yaml",
    "make_force",
    "parse_force_flag",
]

#: Most units a force may have when the caller gives no rules (``battle.max_units_per_force``
#: is the real cap); checked before any unit is built, so ``99999999999i`` costs nothing.
UNIT_CEILING = 10_000

_GROUP = re.compile(r"(\d+)([a-z])")
UnitTypes = Mapping[str, UnitTypeRules]


@cache
def default_unit_types() -> dict[str, UnitTypeRules]:
    """The unit types of config/rules.yaml without variants (``battle.units``, RULES.md §1).

    Raises
    ------
    ConfigError
        If config/rules.yaml is missing or invalid.
    """
    document = read_yaml(RULES_FILE)
    battle = document.get("battle") if isinstance(document, dict) else None
    return dict(validate(BattleRules, battle, prefix="battle").units)


def _letters(units: UnitTypes) -> str:
    return ", ".join(f"{t.letter} ({name.replace('_', ' ')})" for name, t in units.items())


def parse_force_flag(
    text: str,
    name: str,
    prefix: str,
    units: UnitTypes | None = None,
    max_units: int = UNIT_CEILING,
) -> Force:
    """Parse a compact force flag such as ``6i1c1a``, ``4i1c1a:veteran`` or
    ``4i1c:raw:irregular`` (irregular units, RULES.md §1.4).

    Parameters
    ----------
    text
        The flag; counts are non-negative integers, letters those of the unit types.
    name
        The force's name (e.g. ``Red``).
    prefix
        Prefix of unit ids (``R`` → ``R-I1``, ``R-C1``, ``R-A1``).
    units
        The unit types (``battle.units`` of the rules in force; default: config/rules.yaml).
    max_units
        Most units allowed (``battle.max_units_per_force``; never more than
        :data:`UNIT_CEILING`), checked before building.

    Raises
    ------
    ForceError
        On an unknown unit letter, a negative or missing count, an unknown grade, a force
        with no units or more than ``max_units``.
    """
    types = default_unit_types() if units is None else units
    letter_of = {t.letter: kind for kind, t in types.items()}
    raw = text.strip().lower()
    body, *tags = raw.split(":")
    where = f"--{name.lower()} {text if len(text) <= 40 else text[:37] + '...'!r}"
    irregular = "irregular" in tags
    grades = [tag for tag in tags if tag and tag != "irregular"]
    grade = grades[0] if grades else "regular"
    if len(grades) > 1 or grade not in GRADES or tags.count("irregular") > 1:
        raise ForceError(
            f"more than one training grade: {', '.join(grades)}"
            if len(grades) > 1
            else "'irregular' given twice"
            if grade in GRADES
            else f"unknown training grade {grade!r}",
            key=where,
            fix=f"Use one of: {', '.join(GRADES)}, and 'irregular' for irregular units "
            "(RULES.md §1.4; e.g. 6i1c1a:veteran, 4i1c:raw:irregular).",
        )
    if "-" in body:
        raise ForceError(
            "a unit count cannot be negative",
            key=where,
            fix="Write counts of 0 or more, e.g. 6i1c1a.",
        )
    pos = 0
    counts: dict[str, int] = {}
    for m in _GROUP.finditer(body):
        if m.start() != pos:
            break
        letter = m.group(2)
        if letter not in letter_of:
            raise ForceError(
                f"unknown unit letter {letter!r}",
                key=where,
                fix=f"Use {_letters(types)}, e.g. 4i2l1c1a; a new type needs an entry in "
                "battle.units (config/rules.yaml).",
            )
        kind = letter_of[letter]
        digits = m.group(1).lstrip("0") or "0"
        count = int(digits) if len(digits) <= 12 else 10**12  # past any cap, cheap to hold
        counts[kind] = counts.get(kind, 0) + count
        pos = m.end()
    if pos != len(body) or not body:
        raise ForceError(
            f"cannot read {body[pos:] or body!r} as counts and unit letters",
            key=where,
            fix=f"Write counts followed by {', '.join(t.letter for t in types.values())}, "
            "e.g. 6i1c1a or 4i1c1a:veteran.",
        )
    groups = [(k, counts.get(k, 0), grade, 0) for k in types]
    force = make_force(name, prefix, groups, where, types, max_units)
    if irregular:  # RULES.md §1.4: a flag, whatever the grade (§5.2 +2 on formation changes)
        force = Force(force.name, tuple(replace(u, irregular=True) for u in force.units))
    return force


def make_force(
    name: str,
    prefix: str,
    groups: list[tuple[str, int, str, int]],
    where: str,
    units: UnitTypes | None = None,
    max_units: int = UNIT_CEILING,
) -> Force:
    """A force from ``(type, count, grade, hits)`` groups, with ids ``{prefix}-I1`` etc.

    With 10 or more units of a type the numbers are padded (``R-I01`` … ``R-I12``).

    Raises
    ------
    ForceError
        If the force has no units, more than ``max_units`` (never more than
        :data:`UNIT_CEILING`; checked before building), or a group's type is not in ``units``.
    """
    total = sum(count for _, count, _, _ in groups)
    max_units = min(max_units, UNIT_CEILING)
    if total > max_units:
        shown = str(total) if total < 10**12 else "more than 10^12"
        raise ForceError(
            f"the force has {shown} units, more than the limit of {max_units}",
            key=where,
            fix=f"Give it at most {max_units:,} units, or raise battle.max_units_per_force "
            f"(e.g. --set battle.max_units_per_force=500; at most {UNIT_CEILING:,}).",
        )
    types = default_unit_types() if units is None else units
    specs: list[UnitSpec] = []
    numbers = dict.fromkeys(types, 0)
    # numbers padded to the same width (I01..I12), so that ids sort as a player counts them:
    # ties go to the lowest id (RULES.md §6.9)
    width = {k: len(str(sum(c for kind, c, _, _ in groups if kind == k))) for k in types}
    for kind, count, grade, hits in groups:
        if kind not in types:
            raise ForceError(
                f"unknown unit type {kind!r}",
                key=where,
                fix=f"Use one of: {', '.join(types)}; a new type needs an entry in "
                "battle.units (config/rules.yaml).",
            )
        for _ in range(count):
            numbers[kind] += 1
            uid = f"{prefix}-{types[kind].id_prefix}{numbers[kind]:0{width[kind]}d}"
            specs.append(UnitSpec(uid, kind, grade, hits=hits))  # type: ignore[arg-type]
    if not specs:
        raise ForceError(
            "the force has no units",
            key=where,
            fix="Give it at least one unit, e.g. 4i1c1a.",
        )
    return Force(name, tuple(specs))


class _UnitGroup(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: str
    count: int = Field(1, ge=0)
    grade: Literal["raw", "regular", "veteran", "elite"] = "regular"
    hits: int = Field(0, ge=0, le=9)


class _Side(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = None
    units: list[_UnitGroup] | str


class _ForcesFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    red: _Side
    blue: _Side


def _problems(exc: ValidationError) -> list[str]:
    """Pydantic's errors as ``key.path: what (found ...)``, without the union's branch names.

    ``units`` may be a list or a flag string; an error in one branch is only reported when
    the value was of that branch's kind.
    """
    out = []
    for e in exc.errors():
        loc = [str(p) for p in e["loc"]]
        branch = next((p for p in loc if p == "str" or p.startswith("list[")), None)
        if branch == "str" and not isinstance(e.get("input"), str):
            continue  # the value was a list: the string branch's complaint is noise
        key = ".".join(p for p in loc if p != branch) or "(top level)"
        out.append(f"{key}: {describe_error(e)}")
    return out


def load_forces_yaml(
    path: str | Path, units: UnitTypes | None = None, max_units: int = UNIT_CEILING
) -> tuple[Force, Force]:
    """Read both sides' forces from a YAML file (see the module docstring).

    Raises
    ------
    ForceError
        If the file is missing or not YAML, a key is unknown, a unit type or grade is
        unknown, a count is negative, or a side has no units or more than ``max_units``;
        the message names the file and the key path. ``units``: the unit types (default:
        config/rules.yaml's).
    """
    path = Path(path)
    data: Any = read_yaml_file(path, ForceError)
    try:
        spec = _ForcesFile.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(_problems(exc)) or str(exc)
        raise ForceError(
            problems,
            source=str(path),
            fix="Each side needs 'units': a list of {type, count, grade, hits} or a flag "
            "like 6i1c1a.",
        ) from None
    forces = []
    for key, side, prefix in (("red", spec.red, "R"), ("blue", spec.blue, "B")):
        name = side.name or key.capitalize()
        if isinstance(side.units, str):
            try:
                forces.append(parse_force_flag(side.units, name, prefix, units, max_units))
            except ForceError as exc:
                raise ForceError(
                    exc.what, source=str(path), key=f"{key}.units", fix=exc.fix
                ) from None
        else:
            groups: list[tuple[str, int, str, int]] = [
                (g.type, g.count, g.grade, g.hits) for g in side.units
            ]
            for i, g in enumerate(side.units):
                types = default_unit_types() if units is None else units
                if g.type not in types:
                    raise ForceError(
                        f"unknown unit type {g.type!r}",
                        source=str(path),
                        key=f"{key}.units.{i}.type",
                        fix=f"Use one of: {', '.join(types)}.",
                    )
            where = f"{path}: {key}.units"
            forces.append(make_force(name, prefix, groups, where, units, max_units))
    return forces[0], forces[1]
