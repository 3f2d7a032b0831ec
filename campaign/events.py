"""Typed campaign events (RULES.md §8): what happened, when, and who saw it.

Times are minutes of campaign time since 06:00 of day 1 (``t``). Each event names the sides
that know of it in ``seen_by`` ("red", "blue"): a march is known to its own side and to the
enemy only where sighted (RULES.md §8.6). Printers format these; the engine never prints.
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from battle.events import Factor

__all__ = [
    "BattleFought",
    "CampaignEnded",
    "CampaignEvent",
    "CampaignStarted",
    "DayEnded",
    "DivisionRaised",
    "FellBack",
    "Halted",
    "MarchArrived",
    "MarchBegun",
    "MeetingOnRoad",
    "Ordered",
    "Reinforced",
    "RoughRoadTest",
    "Sighted",
    "StrengthLearned",
    "Surrendered",
    "WithdrawalCheck",
    "event_from_dict",
    "event_to_dict",
    "event_types",
]

BOTH = ("red", "blue")


@dataclass(frozen=True, slots=True)
class CampaignEvent:
    t: int
    seen_by: tuple[str, ...] = field(default=BOTH, kw_only=True)


@dataclass(frozen=True, slots=True)
class CampaignStarted(CampaignEvent):
    """The scenario: map, rules, doctrines, seed and versions (the log header)."""

    map_name: str
    map_source: str
    rules: str
    rules_hash: str
    doctrines: dict[str, str]
    side_names: dict[str, str]
    bases: dict[str, str]
    seed: int
    versions: dict[str, str]
    notes: tuple[str, ...] = ()
    day_start: int = 360  # daylight from (minutes after midnight), RULES.md §8.3
    day_end: int = 1200


@dataclass(frozen=True, slots=True)
class DivisionRaised(CampaignEvent):
    """A division raised by the d100 table (RULES.md §2.1) at its starting junction."""

    side: str
    division: str
    roll: int
    units: tuple[tuple[str, str], ...]  # (unit id, type)
    junction: str


@dataclass(frozen=True, slots=True)
class Reinforced(CampaignEvent):
    """Reinforcements enter (RULES.md §8.9): their names and division ids, at a junction."""

    side: str
    junction: str
    names: tuple[str, ...]
    divisions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoughRoadTest(CampaignEvent):
    """The percentage test before a rough road (RULES.md §8.2)."""

    side: str
    division: str
    origin: str
    destination: str
    roll: int
    target: float
    passed: bool


@dataclass(frozen=True, slots=True)
class MarchBegun(CampaignEvent):
    side: str
    division: str
    origin: str
    destination: str
    kind: str
    hours: float


@dataclass(frozen=True, slots=True)
class MarchArrived(CampaignEvent):
    side: str
    division: str
    junction: str


@dataclass(frozen=True, slots=True)
class Halted(CampaignEvent):
    """A division holds where it is (no road worth taking, or waiting to concentrate)."""

    side: str
    division: str
    junction: str
    reason: str


@dataclass(frozen=True, slots=True)
class Ordered(CampaignEvent):
    """A strategy decision and its reason (RULES.md §8.8), seen by the division's side.

    ``code`` is one of :data:`campaign.strategy.CODES`; ``goal`` the junction made for and
    ``step`` the next junction (both None when the division holds), ``road_kind`` the kind
    of the road to ``step`` ('' when holding); ``enemy_at``/``enemies`` the enemy that
    explains it, ``friends`` the divisions joined or awaited, ``aim`` the final aim of a
    plan or flank march (or the goal given up by a hold).
    """

    side: str
    division: str
    junction: str
    code: str
    goal: str | None
    step: str | None
    road_kind: str = ""
    enemy_at: str | None = None
    enemies: tuple[str, ...] = ()
    friends: tuple[str, ...] = ()
    aim: str | None = None


@dataclass(frozen=True, slots=True)
class Sighted(CampaignEvent):
    """``side`` saw an enemy division at a junction (RULES.md §8.6)."""

    side: str
    enemy: str
    junction: str


@dataclass(frozen=True, slots=True)
class StrengthLearned(CampaignEvent):
    """``side`` learned an enemy division's strength by fighting it (RULES.md §2.4, §8.6)."""

    side: str
    enemy: str
    units: int
    boxes: int


@dataclass(frozen=True, slots=True)
class MeetingOnRoad(CampaignEvent):
    """Two opposing divisions would pass each other on a road (RULES.md §8.4)."""

    road: tuple[str, str]
    divisions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BattleFought(CampaignEvent):
    """One battle: where, who, and what came of it (a summary of a BattleResult).

    ``place`` is a junction id, or ``"a~b"`` for a meeting on the road between a and b (a
    display key: read ``road``, the two junction ids, rather than splitting it).
    ``units`` rows are (unit id, side, type, state, hits before, hits taken, total hits).
    ``log`` holds the bound-by-bound lines when verbose battles were asked for.
    ``joined`` lists the divisions that arrived during the battle as (division, the bound it
    joined at, its unit ids) (RULES.md §8.4); they are also in ``divisions`` and ``units``.
    """

    place: str
    place_name: str
    divisions: dict[str, tuple[str, ...]]
    attacker: str
    winner: str | None
    reason: str
    bounds: int
    minutes: int
    cards_lost: dict[str, int]
    cards_left: dict[str, int]
    hits: dict[str, int]
    casualty_percent: dict[str, float]
    units: tuple[tuple[str, str, str, str, int, int, int], ...]
    withdrawal_checks: tuple[tuple[str, int, tuple[int, ...], bool], ...]
    battle_seed: tuple[int, ...]
    roll_off: tuple[int, int] | None = None
    log: tuple[str, ...] = ()
    road: tuple[str, str] | None = None
    joined: tuple[tuple[str, int, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class FellBack(CampaignEvent):
    """The loser falls back along ``path`` (RULES.md §8.5); ``onto_base`` counts for §7.6.

    After a battle on a road (``from_road``) the first junction of ``path`` is the one the
    division had left, reached by walking back along the road.
    """

    side: str
    division: str
    path: tuple[str, ...]
    onto_base: bool
    from_road: bool = False


@dataclass(frozen=True, slots=True)
class Surrendered(CampaignEvent):
    """A cut-off division surrenders (RULES.md §8.5)."""

    side: str
    division: str
    junction: str


@dataclass(frozen=True, slots=True)
class WithdrawalCheck(CampaignEvent):
    """The evening withdrawal check of an army (RULES.md §7.6)."""

    side: str
    casualty_percent: float | None  # None in the enemy's view: it never learns it (§8.6)
    factors: tuple[Factor, ...]
    total: int
    rolls: tuple[int, ...]
    withdraws: bool
    die: int  # the dice rolled are d{die} (RULES.md §0.4)
    success_total: int  # it withdraws on this sum or more (§0.4)


@dataclass(frozen=True, slots=True)
class DayEnded(CampaignEvent):
    """Nightfall: the day's tally (strength per side in boxes, objectives held)."""

    day: int
    strength: dict[str, int | None]  # None in a side's view for an enemy it never fought
    objectives: dict[str, int]
    positions: dict[str, str]


@dataclass(frozen=True, slots=True)
class CampaignEnded(CampaignEvent):
    """The end (RULES.md §8.7): winner side or None, why, and the tallies."""

    winner: str | None
    reason: str
    days: int
    battles: int
    losses: dict[str, int]
    divisions_left: dict[str, int | None]  # None in a side's view for the enemy
    objective_value: dict[str, int]
    #: id, side, place, units, boxes, state; in a side's view an enemy division shows where
    #: it was last seen ("" if never) and its last learned strength (None if never fought)
    divisions: tuple[tuple[str, str, str, int | None, int | None, str], ...]


_TYPES: dict[str, type[CampaignEvent]] = {}


def event_types() -> list[type[CampaignEvent]]:
    """Every concrete event class (subclasses of subclasses too), sorted by name.

    Printers and the side view keep a handler table keyed by these classes; a test checks
    that each table covers every one, so a new event type fails until it is handled.
    """
    found: dict[str, type[CampaignEvent]] = {}
    todo = list(CampaignEvent.__subclasses__())
    while todo:
        cls = todo.pop(0)
        todo.extend(cls.__subclasses__())
        # ``slots=True`` dataclasses replace their class: skip the replaced one (its module
        # exports another class of that name); a class defined inside a function counts
        exported = getattr(sys.modules.get(cls.__module__), cls.__name__, cls)
        if exported is cls:
            found[cls.__name__] = cls
    return [found[name] for name in sorted(found)]


def event_to_dict(event: CampaignEvent) -> dict[str, Any]:
    """A JSON-ready dict, type name first."""
    data: dict[str, Any] = {"type": type(event).__name__}
    data.update(asdict(event))
    return data


def event_from_dict(data: dict[str, Any]) -> CampaignEvent:
    """Rebuild an event from :func:`event_to_dict` output (e.g. a JSON line).

    Raises
    ------
    KeyError
        If the type name is unknown.
    """
    if data.get("type") not in _TYPES:  # first use, or a type defined since
        _TYPES.clear()
        for cls in event_types():
            _TYPES[cls.__name__] = cls
    cls = _TYPES[data["type"]]
    kwargs = {}
    for f in fields(cls):
        if f.name in data:
            kwargs[f.name] = _tuples(data[f.name])
    if cls is WithdrawalCheck and "factors" in kwargs:  # named rows (RULES.md §7.2)
        kwargs["factors"] = tuple(
            Factor(**f) if isinstance(f, dict) else Factor(*f) for f in kwargs["factors"]
        )
    return cls(**kwargs)


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value
