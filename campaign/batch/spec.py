"""The batch spec: maps × variants × overrides × doctrine pairs × runs (a grid of cells).

A spec is read from YAML (``config/batches/*.yaml``) or built from command-line flags; flags
given beside a spec file replace the spec's field of the same name. :func:`expand_cells` turns
a spec into its cells, each a full description of one rules/map/doctrine combination.

Example spec::

    name: rough-road-sweep
    maps: [default]
    variants: [default]
    set:
      campaign.rough_road_pass: [60, 70, 80]
    doctrines: ["balanced:cautious"]
    runs: 200
    seed: 20240601
"""

from __future__ import annotations

import difflib
import itertools
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from battle.errors import plain_message
from battle.yamlfile import TAG_FIX, YamlTagRefused, read_yaml_file, safe_load_text
from campaign.errors import BatchSpecError, split_pair

__all__ = [
    "FLAG_OF_FIELD",
    "MAX_CELLS",
    "BatchSpec",
    "Cell",
    "count_cells",
    "expand_cells",
    "load_spec",
    "parse_doctrines",
    "parse_set_flag",
    "read_spec_data",
    "spec_from_flags",
]


def parse_doctrines(text: str, *, key: str = "doctrines") -> tuple[str, str]:
    """Split ``"red:blue"`` into its two strategy doctrine names.

    Raises
    ------
    BatchSpecError
        If the text is not two non-empty names joined by one colon.
    """
    red, sep, blue = str(text).partition(":")
    if not sep or not red.strip() or not blue.strip() or ":" in blue:
        raise BatchSpecError(
            f"{text!r} is not a doctrine pair RED:BLUE",
            key=key,
            fix="Write e.g. balanced:cautious (red's doctrine, then blue's).",
        )
    return red.strip(), blue.strip()


def _variant_tuple(entry: str | list[str]) -> tuple[str, ...]:
    names = entry.split("+") if isinstance(entry, str) else list(entry)
    return tuple(n.strip() for n in names if n.strip() and n.strip() not in ("default", "none"))


class BatchSpec(BaseModel):
    """A batch of campaigns as data (validated; unknown keys are errors).

    Parameters
    ----------
    name : str
        A label stored with the results.
    maps : list of str
        Map files or shipped map names (``default``, ``waterloo-1815``).
    variants : list of str or list of list of str
        Rule variants, one grid level each; ``default`` means none, ``a+b`` combines two.
    set : dict of str to value or list
        Dotted-key rule overrides; a list is swept (one grid level per value).
    doctrines : list of str
        Strategy doctrine pairs ``RED:BLUE``, one grid level each.
    runs : int
        Campaigns per cell (≥ 1); run *i* of every cell uses the same seed.
    seed : int or None
        Root seed entropy; None → reuse the entropy of the same batch in the output file,
        else fresh entropy (recorded either way).
    workers, backend, scheduler, chunk_size, output
        How to run it and where the results go (flags override them).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "batch"
    maps: list[str] = Field(default_factory=lambda: ["default"], min_length=1)
    variants: list[str | list[str]] = Field(default_factory=lambda: ["default"], min_length=1)  # type: ignore[arg-type]
    set: dict[str, Any] = Field(default_factory=dict)
    doctrines: list[str] = Field(default_factory=lambda: ["balanced:cautious"], min_length=1)
    runs: int = Field(default=100, ge=1, le=10_000_000)
    seed: int | None = Field(default=None, ge=0)
    workers: int | None = Field(default=None, ge=0, le=1024)
    backend: Literal["local", "dask"] = "local"
    scheduler: str | None = None
    chunk_size: int | None = Field(default=None, ge=1, le=100_000)
    output: str | None = None
    #: explicit design points (``campaign sensitivity``): each a mapping of dotted keys to
    #: values, one cell per point instead of the grid of ``set``'s lists
    points: list[dict[str, Any]] = Field(default_factory=list, max_length=100_000)

    @field_validator("scheduler")
    @classmethod
    def _address(cls, value: str | None) -> str | None:
        if value is not None and not _SCHEDULER.fullmatch(value.strip()):
            raise ValueError(
                f"{value!r} is not a Dask scheduler address; write it as a URL like "
                "tcp://HOST:8786 (schemes: tcp, tls, ws, wss, ucx, inproc)"
            )
        return value.strip() if value is not None else None

    @field_validator("maps", "variants", "doctrines")
    @classmethod
    def _once_each(cls, value: list[Any]) -> list[Any]:
        _refuse_repeats(["+".join(v) if isinstance(v, list) else v for v in value])
        return value

    @field_validator("doctrines")
    @classmethod
    def _pairs(cls, value: list[str]) -> list[str]:
        bad = []
        for k, text in enumerate(value):
            try:
                parse_doctrines(text, key=f"doctrines[{k}]")
            except BatchSpecError as exc:  # a ValueError, so every problem is reported
                bad.append(f"[{k}] {exc.what}")
        if bad:
            raise ValueError("; ".join(bad) + " (write e.g. balanced:cautious)")
        return value

    @field_validator("set")
    @classmethod
    def _levels(cls, value: dict[str, Any]) -> dict[str, Any]:
        for key, levels in value.items():
            if not key or key.startswith(".") or key.endswith(".") or " " in key:
                raise ValueError(
                    f"{key!r} is not a dotted config key like campaign.rough_road_pass"
                )
            if isinstance(levels, list) and not levels:
                raise ValueError(f"{key}: an empty list sweeps nothing; give at least one value")
            if isinstance(levels, list):
                _refuse_repeats([json.dumps(level) for level in levels], f"{key}: ")
        return value


#: why a level may be given only once in a factor
_TWICE = (
    "is given twice; each value makes one cell of the grid, so a repeat would run the same "
    "cell twice and report it as two"
)


def _repeated(levels: list[str]) -> str | None:
    """The first level given twice in one factor (``--variant pursuit --variant pursuit``,
    ``maps: [default, default]``, ``set: {k: [60, 60]}``), or None when each is given once."""
    return next((v for k, v in enumerate(levels) if v in levels[:k]), None)


def _refuse_repeats(levels: list[str], prefix: str = "") -> None:
    """Refuse a level given twice in one factor of a spec (see :func:`_repeated`).

    Raises
    ------
    ValueError
        Naming the repeated level (pydantic reports it with the field's key path).
    """
    twice = _repeated(levels)
    if twice is not None:
        raise ValueError(f"{prefix}{twice} {_TWICE}: give each value once")


@dataclass(frozen=True)
class Cell:
    """One combination of the grid.

    ``factors`` maps each factor name (``map``, ``variant``, ``doctrines`` and every swept
    ``set`` key) to this cell's level as text; two cells differing in exactly one factor are
    compared pairwise by the summary.
    """

    index: int
    map: str
    variants: tuple[str, ...]
    overrides: tuple[tuple[str, Any], ...]
    doctrines: tuple[str, str]
    factors: tuple[tuple[str, str], ...]

    @property
    def label(self) -> str:
        """A short label naming only the factors that vary in the batch."""
        return ", ".join(f"{k}={v}" for k, v in self.factors) or "all"

    @property
    def overrides_json(self) -> str:
        """The overrides as canonical JSON (sorted keys)."""
        return json.dumps(dict(self.overrides), sort_keys=True)


_SCHEDULER = re.compile(r"(tcp|tls|ws|wss|ucx|inproc)://[^\s/:]+(:[0-9]{1,5})?/?")

#: Most cells one batch grid may have (each is validated, and summarised pairwise).
MAX_CELLS = 10_000


def count_cells(spec: BatchSpec, source: str = "batch spec") -> int:
    """The number of cells of ``spec``'s grid, without building it.

    Raises
    ------
    BatchSpecError
        If it is more than :data:`MAX_CELLS` (the message gives each factor's levels).
    """
    swept = {f"set {k}": len(v) if isinstance(v, list) else 1 for k, v in sorted(spec.set.items())}
    sizes = {
        "maps": len(spec.maps),
        "variants": len(spec.variants),
        **({"points": len(spec.points)} if spec.points else swept),
        "doctrines": len(spec.doctrines),
    }
    total = math.prod(sizes.values())
    if total > MAX_CELLS:
        factors = " × ".join(f"{n:,} {k}" for k, n in sizes.items() if n > 1)
        raise BatchSpecError(
            f"the grid has {total:,} cells ({factors}), more than the limit of {MAX_CELLS:,}",
            source=source,
            fix="Sweep fewer levels per factor, or split the study into several batches.",
        )
    return total


def expand_cells(spec: BatchSpec) -> list[Cell]:
    """The grid of cells: maps × variants × swept overrides × doctrine pairs, in that order.

    Returns
    -------
    list of Cell
        Numbered from 0; labels name only the factors with more than one level. With
        ``spec.points`` the points replace the swept overrides: each cell's factors are its
        ``point`` number and its ``values``, two factors that differ between any two points,
        so the summary does not pair design points.

    Raises
    ------
    BatchSpecError
        If the grid has more than :data:`MAX_CELLS` cells (before any cell is built).
    """
    count_cells(spec)
    if spec.points:
        return _point_cells(spec)
    keys = sorted(spec.set)
    levels = [v if isinstance(v, list) else [v] for v in (spec.set[k] for k in keys)]
    variants = [_variant_tuple(v) for v in spec.variants]
    pairs = [parse_doctrines(d) for d in spec.doctrines]
    varying = {
        "map": len(spec.maps) > 1,
        "variant": len(variants) > 1,
        "doctrines": len(pairs) > 1,
        **{k: len(lv) > 1 for k, lv in zip(keys, levels, strict=True)},
    }
    cells = []
    grid = itertools.product(spec.maps, variants, itertools.product(*levels), pairs)
    for index, (map_name, variant, values, pair) in enumerate(grid):
        overrides = tuple(zip(keys, values, strict=True))
        factors = [("map", map_name), ("variant", "+".join(variant) or "default")]
        factors += [(k, json.dumps(v)) for k, v in overrides]
        factors += [("doctrines", f"{pair[0]}:{pair[1]}")]
        cells.append(
            Cell(
                index=index,
                map=map_name,
                variants=variant,
                overrides=overrides,
                doctrines=pair,
                factors=tuple((k, v) for k, v in factors if varying[k]),
            )
        )
    return cells


def _point_cells(spec: BatchSpec) -> list[Cell]:
    """Cells of an explicit design: maps × variants × points × doctrine pairs."""
    variants = [_variant_tuple(v) for v in spec.variants]
    pairs = [parse_doctrines(d) for d in spec.doctrines]
    width = len(str(len(spec.points) - 1))
    cells = []
    grid = itertools.product(spec.maps, variants, enumerate(spec.points), pairs)
    for index, (map_name, variant, (k, point), pair) in enumerate(grid):
        merged = {**spec.set, **point}
        factors = []
        if len(spec.maps) > 1:
            factors.append(("map", map_name))
        if len(variants) > 1:
            factors.append(("variant", "+".join(variant) or "default"))
        factors += [("point", f"{k:0{width}d}"), ("values", json.dumps(point, sort_keys=True))]
        if len(pairs) > 1:
            factors.append(("doctrines", f"{pair[0]}:{pair[1]}"))
        cells.append(
            Cell(
                index=index,
                map=map_name,
                variants=variant,
                overrides=tuple(sorted(merged.items())),
                doctrines=pair,
                factors=tuple(factors),
            )
        )
    return cells


#: The command-line flag of each spec field (``campaign batch --runs`` sets ``runs``).
FLAG_OF_FIELD = {
    "maps": "--map",
    "variants": "--variant",
    "set": "--set",
    "doctrines": "--doctrines",
    "runs": "--runs",
    "seed": "--seed",
    "workers": "--workers",
    "backend": "--backend",
    "scheduler": "--scheduler",
    "chunk_size": "--chunk-size",
    "output": "--output",
}


_FIELDS = tuple(BatchSpec.model_fields)


def _problem(err: Mapping[str, Any], path: str) -> str:
    """One validation problem at key path ``path``, in plain words with the value found."""
    if err["type"] == "extra_forbidden":
        close = difflib.get_close_matches(path.rpartition(".")[2], _FIELDS, n=1)
        return f"{path}: unknown key ({f'did you mean {close[0]!r}?' if close else 'a typo?'})"
    # our own validators' messages already name the value
    return f"{path}: {plain_message(err, found=err['type'] != 'value_error')}"


def _spec_error(
    exc: ValidationError,
    source: str,
    flags: Mapping[str, str] | None = None,
    command: str = "campaign batch run",
) -> BatchSpecError:
    """Every problem of a spec in one message (``; ``-separated), each with its key path and
    the value found; a problem in a field set by a flag names the flag, not the file."""
    from_file: list[str] = []
    from_flags: list[str] = []
    for err in exc.errors():
        loc = [str(p) for p in err["loc"]]
        flag = (flags or {}).get(loc[0]) if loc else None
        if flag is not None:  # the bad value came from a flag: name the flag, not the file
            from_flags.append(_problem(err, " ".join([flag, ".".join(loc[1:])]).strip()))
        else:
            from_file.append(_problem(err, ".".join(loc) or "(the spec)"))
    if from_file:
        return BatchSpecError(
            "; ".join(from_file + from_flags),
            source=source,
            fix="See config/batches/*.yaml for the documented keys: name, maps, variants, set, "
            "doctrines, runs, seed, workers, backend, scheduler, chunk_size, output.",
        )
    flag_names = sorted({line.split(":")[0].split(" ")[0] for line in from_flags})
    return BatchSpecError(
        "; ".join(from_flags),
        fix=f"Give {' and '.join(flag_names)} a valid value; see `{command} --help`.",
    )


def load_spec(path: str | Path) -> BatchSpec:
    """Read and validate a batch spec YAML file (``yaml.safe_load``).

    Raises
    ------
    BatchSpecError
        If the file is missing, not YAML, not a mapping, or has an unknown or invalid key.
    """
    return validate_spec(read_spec_data(path), str(Path(path)))


def read_spec_data(path: str | Path) -> dict[str, Any]:
    """A batch spec file's mapping, read but not yet validated (see :func:`spec_from_flags`,
    which validates it once with the flags, so that every problem is reported together).

    Raises
    ------
    BatchSpecError
        If the file is missing, not YAML or not a mapping.
    """
    path = Path(path)
    data = read_yaml_file(path, BatchSpecError, not_found="batch spec not found")
    if not isinstance(data, dict):
        raise BatchSpecError(
            "a batch spec must be a mapping of keys (maps, variants, set, doctrines, runs …)",
            source=str(path),
        )
    data.setdefault("name", path.stem)
    return data


def validate_spec(
    data: dict[str, Any],
    source: str,
    flags: Mapping[str, str] | None = None,
    command: str = "campaign batch run",
) -> BatchSpec:
    """Validate a spec mapping.

    ``flags`` maps the fields set by command-line flags to the flag (:data:`FLAG_OF_FIELD`);
    an error in one of them names the flag instead of ``source``, and its fix points to
    ``command``'s help, which lists the flags.

    Raises
    ------
    BatchSpecError
        On an unknown key or a value of the wrong kind or range (e.g. ``runs: 0``).
    """
    try:
        return BatchSpec.model_validate(data)
    except ValidationError as exc:
        raise _spec_error(exc, source, flags, command) from None
    except BatchSpecError as exc:  # a doctrine pair that is not RED:BLUE
        exc.source = (flags or {}).get("doctrines", source)
        raise


def parse_set_flag(text: str) -> tuple[str, Any]:
    """Parse ``--set KEY=VALUE`` where VALUE is YAML (``[60, 70, 80]`` sweeps three levels).

    Raises
    ------
    BatchSpecError
        If there is no ``=``, the key is empty, or the value is not valid YAML.
    """
    key, value = split_pair(
        text,
        BatchSpecError,
        "--set",
        "KEY=VALUE",
        "Write e.g. --set campaign.rough_road_pass=[60,70,80].",
    )
    try:
        parsed = safe_load_text(value)
    except YamlTagRefused as exc:
        raise BatchSpecError(f"the value of {key!r}: {exc}", key="--set", fix=TAG_FIX) from None
    except yaml.YAMLError:
        raise BatchSpecError(
            f"the value of {text!r} is not valid YAML",
            key="--set",
            fix="Write a number, a word, or a list like [60, 70, 80].",
        ) from None
    return key, parsed


def spec_from_flags(
    base: BatchSpec | dict[str, Any] | None, flags: dict[str, Any], source: str
) -> BatchSpec:
    """A spec with the given flags (not None) replacing the base spec's fields.

    ``base`` is a spec, or a spec file's mapping not yet validated (:func:`read_spec_data`):
    the file's problems and the flags' are then reported in one message.

    ``flags["set"]`` (a list of ``KEY=VALUE`` texts) is merged key by key.

    Raises
    ------
    BatchSpecError
        If a flag is malformed or the merged spec is invalid.
    """
    data = base.model_dump() if isinstance(base, BatchSpec) else dict(base or {})
    given: dict[str, str] = {}
    for name, value in flags.items():
        if value is None or value == []:
            continue
        if name != "set":
            given[name] = FLAG_OF_FIELD.get(name, f"--{name.replace('_', '-')}")
        if name == "set":
            pairs = [parse_set_flag(t) for t in value]
            first: dict[str, Any] = {}
            for key, levels in pairs:  # which value was meant? (a sweep is one key=[a, b])
                if first.setdefault(key, levels) != levels:
                    raise BatchSpecError(
                        f"{key} is given twice, with two values",
                        key="--set",
                        fix=f"Give --set {key}=VALUE once; to sweep it, give its values as "
                        f"one list, e.g. --set '{key}=[40,70]'.",
                    )
            for key, levels in pairs:
                if isinstance(levels, list):
                    _refuse_flag_repeats([json.dumps(v) for v in levels], "--set", f"{key}: ")
            if isinstance(data.get("set", {}), dict):  # else the spec's set: is reported
                data["set"] = {**data.get("set", {}), **dict(pairs)}
        else:
            if name in ("maps", "variants", "doctrines"):
                _refuse_flag_repeats(value, given[name])
            data[name] = value
    return validate_spec(data, source, given)


def _refuse_flag_repeats(levels: list[str], flag: str, prefix: str = "") -> None:
    """Refuse a flag's level given twice (see :func:`_repeated`).

    Raises
    ------
    BatchSpecError
        Naming the flag, the repeated level and the fix.
    """
    twice = _repeated(levels)
    if twice is not None:
        raise BatchSpecError(
            f"{prefix}{twice} {_TWICE}", key=flag, fix=f"Give each {flag} value once."
        )
