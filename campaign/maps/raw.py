"""The map as read from a file, before it becomes a graph (one shape for every format)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from campaign.maps.naming import MapNaming

__all__ = ["RawJunction", "RawMap", "RawReinforcement", "RawRoad", "RawSide"]


@dataclass
class RawJunction:
    """A junction as written: id, display name, position (or None) and every other fact."""

    id: str
    name: str
    pos: tuple[float, float] | None
    facts: dict[str, Any]
    key: str


@dataclass
class RawRoad:
    """A road as written: its two junction ids and its attributes (kind, hours, length...)."""

    a: str
    b: str
    attrs: dict[str, Any]
    key: str


@dataclass
class RawSide:
    """A side as written in the map file (project format only)."""

    name: str | None
    base: str
    starts: list[str]
    primary_road: tuple[str, str] | None


@dataclass
class RawReinforcement:
    """Divisions that enter the campaign later (RULES.md §8.9), as written (project format).

    ``day`` counts from 1, ``hour`` is the clock hour (0-24) they enter at ``junction``;
    ``divisions`` are their display names, each raised by the d100 table (RULES.md §2.1).
    """

    side: str
    junction: str
    day: int
    hour: float
    divisions: list[str]
    key: str


@dataclass
class RawMap:
    """Everything a map file says, in file order.

    ``strict`` marks the project's own format (a ``sides:`` block), where unknown keys and
    parallel roads are errors; foreign maps keep extra facts and merge parallel roads.
    """

    name: str
    source: str
    junctions: list[RawJunction]
    roads: list[RawRoad]
    sides: dict[str, RawSide] | None = None
    strict: bool = False
    notes: list[str] = field(default_factory=list)
    reinforcements: list[RawReinforcement] = field(default_factory=list)
    time_limit_days: int | None = None
    #: the names the file gives its sides (:mod:`campaign.maps.naming`; empty if none)
    naming: MapNaming = field(default_factory=MapNaming)
