"""The project's map YAML (and the neutral junctions/roads YAML) validated with pydantic.

A file with a ``sides:`` block is in the project's own format: unknown keys are errors.
A file without one is a neutral map (e.g. ``/work/shared/maps/*.yaml``): junctions and roads
may carry extra facts, which are kept for the objective rule (:mod:`campaign.maps.build`).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

from battle.errors import plain_message
from campaign.errors import MapError
from campaign.maps.naming import MapNaming, SideNamesModel, SideNaming
from campaign.maps.raw import RawJunction, RawMap, RawReinforcement, RawRoad, RawSide
from campaign.maps.strict import StrictModel
from campaign.maps.yaml_io import COUNT_CAP, read_map_yaml

#: A check of a map's size before it is read: ``{"junctions": n, "roads": m}``; it raises.
SizeCheck = Callable[[dict[str, int]], None]

__all__ = ["FORMAT_FIX", "parse_map_document", "read_yaml_map"]

FORMAT_FIX = "See maps/default.yaml for the map format."


def _as_ident(value: Any) -> Any:
    """Ids and names are strings; an unquoted ``12`` or ``true`` is read back as written.

    Any Unicode text is an id (``~``, spaces, ``No``); a bare ``null``, ``~`` or nothing is
    no value at all, and is refused with the advice to quote it.
    """
    if value is None:
        raise ValueError(
            "a bare null, ~ or empty value is no id at all; write it in quotes "
            '(e.g. "null" or "~") to use it as an id'
        )
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        raise ValueError("this reads as a number; write it in quotes to keep it as written")
    if isinstance(value, str) and not value.strip():
        raise ValueError("must not be empty")
    return value


Ident = Annotated[str, BeforeValidator(_as_ident)]


def _not_bool(value: Any) -> Any:
    """A number is a number: ``true``/``false`` are refused where hours or a value go."""
    if isinstance(value, bool):
        raise ValueError("expected a number, not true/false")
    return value


Number = Annotated[float, BeforeValidator(_not_bool)]
Count = Annotated[int, BeforeValidator(_not_bool)]


class _Junction(StrictModel):
    id: Ident
    name: Ident | None = None
    pos: tuple[Number, Number] | None = None
    objective: bool | None = None
    value: Count | None = Field(default=None, ge=0)
    terrain: str | None = None


class _NeutralJunction(_Junction):
    model_config = ConfigDict(extra="allow")


class _RoadAttrs(StrictModel):
    """A road of the project's own format: kind normal, rough or impassable (RULES.md §8.1)."""

    kind: Literal["normal", "rough", "impassable"] = "normal"
    hours: Number | None = Field(default=None, gt=0, allow_inf_nan=False)
    primary: Literal["red", "blue"] | None = None


class _NeutralRoadAttrs(_RoadAttrs):
    """A road of a neutral map: any kind, read through config/road_kinds.yaml."""

    model_config = ConfigDict(extra="allow")
    kind: Ident = "normal"  # type: ignore[assignment]


def _road_from_list(value: Any) -> Any:
    if isinstance(value, list | tuple):
        if len(value) not in (2, 3):
            raise ValueError("a road is [junction, junction] or [junction, junction, {attributes}]")
        return {"a": value[0], "b": value[1], "attrs": value[2] if len(value) == 3 else {}}
    raise ValueError("a road is a list: [junction, junction, {kind: ..., hours: ...}]")


class _Road(StrictModel):
    a: Ident
    b: Ident
    attrs: _RoadAttrs

    @model_validator(mode="before")
    @classmethod
    def _from_list(cls, value: Any) -> Any:
        return _road_from_list(value)


class _NeutralRoad(_Road):
    attrs: _NeutralRoadAttrs


class _Side(SideNamesModel):
    """A side: base, starts, primary road, and its names (:mod:`campaign.maps.naming`)."""

    name: Ident | None = None
    base: Ident
    start: list[Ident] = Field(min_length=1)
    primary_road: tuple[Ident, Ident] | None = None


class _Reinforcement(StrictModel):
    """RULES.md §8.9: divisions entering at a junction on a day and hour."""

    side: Literal["red", "blue"]
    junction: Ident
    day: int = Field(ge=1, le=365)
    hour: float = Field(ge=0, lt=24)
    divisions: list[str] = Field(min_length=1, max_length=50)
    #: their commanders' surnames, one a division in the same order (the diary's names)
    commanders: list[Ident] | None = None

    @model_validator(mode="after")
    def _one_commander_a_division(self) -> _Reinforcement:
        if self.commanders is not None and len(self.commanders) != len(self.divisions):
            raise ValueError(
                f"commanders: {len(self.commanders)} name(s) for {len(self.divisions)} "
                "division(s); give one commander a division, in the same order"
            )
        return self


class _Sides(StrictModel):
    red: _Side
    blue: _Side


class _MapFile(StrictModel):
    name: Ident | None = None
    source: str | None = None
    license_note: str | None = None
    notes: list[str] = Field(default_factory=list)
    junctions: list[_Junction]
    roads: list[_Road] = Field(default_factory=list)
    sides: _Sides
    time_limit_days: int | None = Field(default=None, ge=1, le=365)
    reinforcements: list[_Reinforcement] = Field(default_factory=list, max_length=100)


class _NeutralMapFile(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: Ident | None = None
    notes: list[str] = Field(default_factory=list)
    junctions: list[_NeutralJunction]
    roads: list[_NeutralRoad] = Field(default_factory=list)


def _key_path(loc: tuple[Any, ...]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part in ("a", "b") and text.startswith("roads["):
            text += f" end {part!s}"
        elif part != "attrs":
            text += f".{part}" if text else str(part)
    return text or "(top level)"


#: unknown junction keys that say what a map means in other words: the project's key
_JUNCTION_KEY_HINTS = {
    "x": "a position is pos: [x, y]",
    "y": "a position is pos: [x, y]",
    "position": "a position is pos: [x, y]",
    "coords": "a position is pos: [x, y]",
    "label": "a junction's display name is name:",
}


def _pydantic_problems(exc: ValidationError) -> list[str]:
    lines: list[str] = []
    unknown: dict[str, list[str]] = {}  # path -> its unknown keys, one line a path
    for err in exc.errors():
        loc = tuple(err["loc"])
        if err["type"] == "extra_forbidden":
            path = _key_path(loc[:-1])
            if path not in unknown:
                unknown[path] = []
                lines.append(path)  # filled in below, in the order met
            unknown[path].append(str(loc[-1]))
        elif err["type"] == "missing":
            lines.append(f"{_key_path(loc)}: missing (it is required)")
        else:
            item = "junction" if loc and loc[-1] in ("start", "primary_road") else "item"
            lines.append(f"{_key_path(loc)}: {plain_message(err, item=item, found=True)}")
    for k, line in enumerate(lines):
        keys = unknown.pop(line, None)
        if keys is not None:
            table = _JUNCTION_KEY_HINTS if line.startswith("junctions[") else {}
            hints = sorted({table[key] for key in keys if key in table})
            if any(key not in table for key in keys):
                hints.append("a typo?")
            names = ", ".join(map(repr, keys))
            plural = "s" if len(keys) > 1 else ""
            lines[k] = f"{line}: unknown key{plural} {names} ({'; '.join(hints)})"
    return lines


def _check_references(doc: _MapFile | _NeutralMapFile) -> list[str]:
    """Every reference problem of a map document: duplicate junctions, roads, sides and
    reinforcements naming unknown junctions (each with its key path)."""
    first, problems = _junction_problems(doc)
    strict = isinstance(doc, _MapFile)
    problems += _road_problems(doc, first, strict)
    if isinstance(doc, _MapFile):
        problems += _side_problems(doc, first)
        problems += _reinforcement_problems(doc, first)
    return problems


def _junction_problems(doc: _MapFile | _NeutralMapFile) -> tuple[dict[str, int], list[str]]:
    """Each junction id's first index, and the junctions' problems."""
    problems: list[str] = []
    first: dict[str, int] = {}
    for i, j in enumerate(doc.junctions):
        if j.id in first:
            problems.append(
                f"junctions[{i}].id: duplicate junction id {j.id!r} "
                f"(first at junctions[{first[j.id]}])"
            )
        else:
            first[j.id] = i
        if j.objective is False and j.value:
            problems.append(f"junctions[{i}].value: a value is given but objective is false")
    return first, problems


def _road_problems(
    doc: _MapFile | _NeutralMapFile, first: dict[str, int], strict: bool
) -> list[str]:
    """Roads to unknown junctions or to themselves, and (``strict``) second roads."""
    problems: list[str] = []
    seen: dict[frozenset[str], int] = {}
    for i, road in enumerate(doc.roads):
        for end in (road.a, road.b):
            if end not in first:
                problems.append(f"roads[{i}]: unknown junction {end!r}")
        if road.a == road.b:
            problems.append(f"roads[{i}]: a road from {road.a!r} to itself (self-loop)")
        pair = frozenset((road.a, road.b))
        if strict and pair in seen:
            problems.append(
                f"roads[{i}]: a second road between {road.a!r} and {road.b!r} "
                f"(first at roads[{seen[pair]}])"
            )
        seen.setdefault(pair, i)
    return problems


def _side_problems(doc: _MapFile, first: dict[str, int]) -> list[str]:
    """Bases, starts and primary roads naming unknown junctions."""
    problems: list[str] = []
    for side in ("red", "blue"):
        setup: _Side = getattr(doc.sides, side)
        named = [("base", setup.base)]
        named += [(f"start[{k}]", s) for k, s in enumerate(setup.start)]
        named += [(f"primary_road[{k}]", s) for k, s in enumerate(setup.primary_road or ())]
        problems += [
            f"sides.{side}.{key}: unknown junction {ident!r}"
            for key, ident in named
            if ident not in first
        ]
    return problems


def _reinforcement_problems(doc: _MapFile, first: dict[str, int]) -> list[str]:
    """Reinforcements at unknown junctions or after the time limit (RULES.md §8.9)."""
    problems: list[str] = []
    for i, r in enumerate(doc.reinforcements):
        if r.junction not in first:
            problems.append(f"reinforcements[{i}].junction: unknown junction {r.junction!r}")
        limit = doc.time_limit_days
        if limit is not None and r.day > limit:
            problems.append(
                f"reinforcements[{i}].day: day {r.day} is after the map's time limit ({limit} days)"
            )
    return problems


def parse_map_document(data: Any, source: str) -> RawMap:
    """Validate a parsed map document and return it as a :class:`RawMap`.

    Parameters
    ----------
    data : Any
        The parsed YAML document.
    source : str
        The file name, for messages.

    Raises
    ------
    MapError
        Naming every problem with its key path (``roads[3]: unknown junction 'foo'``):
        wrong types, unknown keys (project format), duplicate ids, self-loops, roads or
        sides naming unknown junctions, sides without base or start, unknown side names.
    """
    if not isinstance(data, dict):
        found = "an empty file" if data is None else f"a {type(data).__name__}"
        raise MapError(
            f"a map file must be a mapping with 'junctions' and 'roads', not {found}",
            source=source,
            fix=FORMAT_FIX,
        )
    strict = "sides" in data
    if not strict:
        _check_neutral_top(data, source)
    model: type[_MapFile] | type[_NeutralMapFile] = _MapFile if strict else _NeutralMapFile
    try:
        doc = model.model_validate(data)
    except ValidationError as exc:
        raise MapError("; ".join(_pydantic_problems(exc)), source=source, fix=FORMAT_FIX) from None
    problems = _check_references(doc)
    if problems:
        raise MapError("; ".join(problems), source=source, fix=FORMAT_FIX)
    return _to_raw(doc, source, strict)


#: top-level keys of the project's format that a map without ``sides`` cannot use
_PROJECT_ONLY = ("sides", "time_limit_days", "reinforcements")


def _check_neutral_top(data: dict[Any, Any], source: str) -> None:
    """A map without ``sides`` is read as a neutral map (its extra keys kept as facts), so a
    misspelt ``sides`` would silently drop the sides and every key check with them: a
    top-level key close to ``sides`` (or to another key of the project's format), or a key
    only the project's format has, is an error instead.

    Raises
    ------
    MapError
        Naming the key and what it most likely meant.
    """
    for key in data:
        if not isinstance(key, str) or key in _NeutralMapFile.model_fields:
            continue
        if key in _PROJECT_ONLY:
            raise MapError(
                f"'{key}' needs a 'sides' block (the project's map format), and there is none",
                source=source,
                key=key,
                fix="Add 'sides:' with red and blue (name, base, start), or remove the key.",
            )
        close = difflib.get_close_matches(key, _PROJECT_ONLY, n=1, cutoff=0.75)
        if close:
            raise MapError(
                f"unknown key '{key}' (did you mean '{close[0]}'?)",
                source=source,
                key=key,
                fix=f"Spell it '{close[0]}'. " + FORMAT_FIX,
            )


def _to_raw(doc: _MapFile | _NeutralMapFile, source: str, strict: bool) -> RawMap:
    junctions = []
    for i, j in enumerate(doc.junctions):
        facts = dict(j.model_extra or {})
        facts.update(
            {k: v for k, v in (("objective", j.objective), ("value", j.value)) if v is not None}
        )
        if j.terrain is not None:
            facts["terrain"] = j.terrain
        junctions.append(RawJunction(j.id, j.name or j.id, j.pos, facts, f"junctions[{i}]"))
    roads = []
    for i, r in enumerate(doc.roads):
        attrs = r.attrs.model_dump(exclude_none=True) | dict(r.attrs.model_extra or {})
        roads.append(RawRoad(r.a, r.b, attrs, f"roads[{i}]"))
    sides = None
    if isinstance(doc, _MapFile):
        sides = {
            side: RawSide(s.name, s.base, list(s.start), s.primary_road)
            for side, s in (("red", doc.sides.red), ("blue", doc.sides.blue))
        }
    name = doc.name or Path(source).stem
    raw = RawMap(name, source, junctions, roads, sides, strict, [])
    if isinstance(doc, _MapFile):
        reinforcements: dict[tuple[str, str], str] = {
            (str(r.side), division): commander
            for r in doc.reinforcements
            for division, commander in zip(r.divisions, r.commanders or (), strict=False)
        }
        raw.naming = MapNaming(
            {
                "red": SideNaming.from_model(doc.sides.red),
                "blue": SideNaming.from_model(doc.sides.blue),
            },
            reinforcements,
            source,
        )
        raw.time_limit_days = doc.time_limit_days
        raw.reinforcements = [
            RawReinforcement(
                r.side, r.junction, r.day, r.hour, list(r.divisions), f"reinforcements[{i}]"
            )
            for i, r in enumerate(doc.reinforcements)
        ]
    return raw


def read_yaml_map(path: Path, check_size: SizeCheck | None = None, cap: int = COUNT_CAP) -> RawMap:
    """Read and validate a YAML map file (project or neutral format).

    ``check_size`` gets the number of junctions and roads before the document is read
    (:func:`campaign.maps.yaml_io.read_map_yaml`) and may raise to refuse it.

    Raises
    ------
    MapError
        If the file is missing, not YAML, or invalid (see :func:`parse_map_document`).
    """
    return parse_map_document(read_map_yaml(path, check_size, cap), str(path))
