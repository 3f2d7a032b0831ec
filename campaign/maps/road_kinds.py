"""Road kinds and march hours of foreign roads (``config/road_kinds.yaml``, RULES.md §8.1)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from battle.errors import plain_message
from campaign.errors import MapError
from campaign.maps.strict import StrictModel
from campaign.maps.yaml_io import read_map_yaml
from campaign.paths import CONFIG_DIR

__all__ = ["ROAD_KINDS_FILE", "RoadKindTable", "load_road_kind_table"]

ROAD_KINDS_FILE = CONFIG_DIR / "road_kinds.yaml"

Mapped = Literal["normal", "rough", "impassable"]


class _TableFile(StrictModel):
    default_hours: float = Field(gt=0)
    kinds: dict[str, Mapped]
    hours_per_length: dict[str, float]


@dataclass(frozen=True)
class RoadKindTable:
    """The road-kind table with a map's overrides applied.

    Parameters
    ----------
    kinds : dict of str to str
        Lower-case kind → ``normal`` | ``rough`` | ``impassable``.
    default_hours : float
        March hours of a road with neither hours nor a length (hours).
    hours_per_length : dict of str to float
        Length attribute → march hours per unit, in order of preference.
    length_factor : float or None
        Replaces every factor of ``hours_per_length`` when given.
    """

    kinds: dict[str, str]
    default_hours: float
    hours_per_length: dict[str, float]
    length_factor: float | None = None
    unknown: set[str] = field(default_factory=set, compare=False)
    seen: set[str] = field(default_factory=set, compare=False)

    def with_overrides(
        self, road_kinds: Mapping[str, str], hours_per_length: float | None
    ) -> RoadKindTable:
        """A copy with ``MapOptions.road_kinds`` and ``hours_per_length`` applied.

        Raises
        ------
        MapError
            If an override maps to something other than normal, rough or impassable, or the
            factor is not a positive number.
        """
        kinds = dict(self.kinds)
        for kind, mapped in sorted(road_kinds.items()):
            if mapped not in ("normal", "rough", "impassable"):
                raise MapError(
                    f"road kind {kind!r} mapped to {mapped!r}",
                    key="--road-kind",
                    fix="Write KIND=normal, KIND=rough or KIND=impassable.",
                )
            kinds[kind.lower()] = mapped
        if hours_per_length is not None and not (
            math.isfinite(hours_per_length) and hours_per_length > 0
        ):
            raise MapError(
                f"hours per length must be a positive number, not {hours_per_length!r}",
                key="--hours-per-length",
                fix="Give the march hours per unit of length, e.g. 0.5.",
            )
        return RoadKindTable(kinds, self.default_hours, self.hours_per_length, hours_per_length)

    def classify(self, source_kind: str) -> str:
        """``normal``, ``rough`` or ``impassable`` for a source kind (unknown → normal).

        Unknown kinds are remembered in :attr:`unknown` so the loader can name them, and every
        kind met in :attr:`seen` (lower case) so that an override of a kind the map never uses
        can be refused.
        """
        self.seen.add(source_kind.lower())
        mapped = self.kinds.get(source_kind.lower())
        if mapped is None:
            self.unknown.add(source_kind)
            return "normal"
        return mapped

    def march_hours(self, attrs: Mapping[str, Any]) -> tuple[float, str]:
        """March hours of a road from its attributes, and how they were found.

        Returns
        -------
        (float, str)
            The hours, and ``"hours"``, the length attribute's name, or ``"default"``.
            A non-number is returned as NaN for the caller to report.
        """
        if attrs.get("hours") is not None:
            return _number(attrs["hours"]), "hours"
        for name, factor in self.hours_per_length.items():
            if attrs.get(name) is not None:
                used = self.length_factor if self.length_factor is not None else factor
                return _number(attrs[name]) * used, name
        return self.default_hours, "default"


def _number(value: Any) -> float:
    if isinstance(value, bool):
        return math.nan
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


@cache
def _read_table(path: Path) -> RoadKindTable:
    data = read_map_yaml(path)
    try:
        table = _TableFile.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {plain_message(e)}" for e in exc.errors()
        )
        raise MapError(problems, source=str(path), fix="Fix the road-kind table.") from None
    return RoadKindTable(
        {k.lower(): v for k, v in table.kinds.items()},
        table.default_hours,
        dict(table.hours_per_length),
    )


def load_road_kind_table(path: Path = ROAD_KINDS_FILE) -> RoadKindTable:
    """The documented road-kind table (read once per path).

    Raises
    ------
    MapError
        If the table file is missing or invalid.
    """
    base = _read_table(Path(path))
    return RoadKindTable(base.kinds, base.default_hours, base.hours_per_length)
