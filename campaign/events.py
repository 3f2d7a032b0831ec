"""Typed campaign events (RULES.md §8): what happened, when, and who saw it.

Times are minutes of campaign time since 06:00 of day 1 (``t``). Each event names the sides
that know of it in ``seen_by`` ("red", "blue"): a march is known to its own side and to the
enemy only where sighted (RULES.md §8.6). Printers format these; the engine never prints.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import Any, NamedTuple

from battle.events import Check, Factor

#: where a division is: a junction id, or the two junctions of the road it is on (ids are free
#: text, so a road is never written as one joined string); ``""`` when it is nowhere
Place = str | tuple[str, str]

#: the two sides, in the order of every per-side table (one place for it)
SIDES: tuple[str, str] = ("red", "blue")

__all__ = [
    "SIDES",
    "BattleFought",
    "CampaignEnded",
    "CampaignEvent",
    "CampaignStarted",
    "Check",
    "DayEnded",
    "DivisionAtEnd",
    "DivisionDestroyed",
    "DivisionRaised",
    "FallBackCaught",
    "FellBack",
    "Forked",
    "Halted",
    "LateArrival",
    "MarchArrived",
    "MarchBegun",
    "MarchResumed",
    "MeetingOnRoad",
    "Ordered",
    "Place",
    "RaisedUnit",
    "Reinforced",
    "ReturnBegun",
    "RoughRoadTest",
    "Sighted",
    "StrengthLearned",
    "Surrendered",
    "UnitFate",
    "WithdrawalCheck",
    "event_from_dict",
    "event_to_dict",
    "event_types",
]

BOTH = ("red", "blue")


class RaisedUnit(NamedTuple):
    """One unit of a division raised by the d100 table (RULES.md §2.1): its id and type."""

    id: str
    kind: str


class UnitFate(NamedTuple):
    """One unit at the end of a campaign battle (a :class:`battle.result.UnitOutcome` with
    the side named ``"red"``/``"blue"``): ``state`` is steady, shaken, disordered, routed,
    off-table or destroyed; ``hits_taken`` are this battle's hits, ``total_hits`` include
    those carried in (RULES.md §6.8)."""

    id: str
    side: str
    kind: str
    state: str
    hits_before: int
    hits_taken: int
    total_hits: int


class LateArrival(NamedTuple):
    """A division that joined a battle already begun (RULES.md §8.4): the bound it joined
    at and its unit ids."""

    division: str
    bound: int
    units: tuple[str, ...]


class DivisionAtEnd(NamedTuple):
    """One division when the campaign ends (RULES.md §8.7): its side, place (a junction id,
    or the road's two junction ids), units left, boxes left and state. In a side's view an enemy
    division shows where it was last seen (``""`` if never) and its last learned strength
    (``units``/``boxes`` None if it was never fought)."""

    division: str
    side: str
    place: Place
    units: int | None
    boxes: int | None
    state: str


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
    units: tuple[RaisedUnit, ...]
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
    plan or flank march (or the goal given up by a hold). ``trigger`` names the re-plan
    trigger for which the division gave up the order it kept (:mod:`campaign.strategy.
    triggers`: battle, nightfall, void, sighting, timeout, no_way; "" when it kept to its
    plan) and ``cause`` its detail (a junction or division ids joined by commas).
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
    trigger: str = ""
    cause: str = ""


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
    ``units`` holds each unit's :class:`UnitFate`; ``withdrawal_checks`` every withdrawal
    check made (RULES.md §7.2–§7.4), the battle's own :class:`battle.withdrawal.Check`
    record with the side named. ``log`` holds the bound-by-bound lines when verbose battles
    were asked for. ``joined`` lists the divisions that arrived during the battle
    (:class:`LateArrival`, RULES.md §8.4); they are also in ``divisions`` and ``units``.
    ``battle_seed`` is ``(stream,)``: the battle's random stream under the campaign seed's key
    (:mod:`campaign.streams`, RULES.md §0.6), so the battle can be fought again alone with
    ``Streams(seed).generator(stream)``; files written before issue 15's streams hold a
    ``SeedSequence`` spawn key there instead.

    ``on_table`` marks a battle fought on the table, its result entered by hand (issue 28,
    :mod:`campaign.table_battle`): its ``reason`` is ``"table"`` (``"nightfall"`` for a draw
    that lasted every bound of daylight left), each unit's ``state`` its status at the end
    (``in``, ``routed``, ``withdrawn``, ``destroyed``), and no movement card or withdrawal
    check was recorded (``cards_lost``/``cards_left`` are 0, ``withdrawal_checks`` empty).
    Written to a file only when true (:func:`event_to_dict`), so logs of campaigns without
    one are as they were.

    ``defender_grade_steps`` is the training grades each of the defender's units (the side
    that is not ``attacker``, late arrivals apart) fought better by, from the ground under
    the optional house rule ``terrain`` (:mod:`campaign.terrain`), so that the battle can be
    fought again as it was; written only when not 0.
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
    units: tuple[UnitFate, ...]
    withdrawal_checks: tuple[Check[str], ...]
    battle_seed: tuple[int, ...]
    roll_off: tuple[int, int] | None = None
    log: tuple[str, ...] = ()
    road: tuple[str, str] | None = None
    joined: tuple[LateArrival, ...] = ()
    on_table: bool = field(default=False, metadata={"omit_default": True})
    defender_grade_steps: int = field(default=0, metadata={"omit_default": True})


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
class FallBackCaught(CampaignEvent):
    """A division falling back (RULES.md §8.5) is caught at ``junction`` on its way to
    ``toward``: a battle begins or goes on there (§8.4) and its fall back ends. ``by`` names
    the enemy divisions of that battle (sorted by id)."""

    side: str
    division: str
    junction: str
    toward: str
    by: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ReturnBegun(CampaignEvent):
    """A division goes back after a drawn battle (RULES.md §8.4, §8.5): the attacker of a
    draw at a junction to the junction it came from (a march, with its rough-road test,
    follows: §8.2), or either side of a draw on a road to the junction it had left, walking
    back along the road. ``origin`` is where it stands (a junction, or the road's two
    junctions); ``battle`` the place key of the drawn battle (``BattleFought.place``)."""

    side: str
    division: str
    origin: Place
    destination: str
    battle: str


@dataclass(frozen=True, slots=True)
class MarchResumed(CampaignEvent):
    """The winner of a battle on a road marches on to ``destination`` (RULES.md §8.4) from
    where the battle stopped it on ``road`` (the road's two junctions, as it marched)."""

    side: str
    division: str
    road: tuple[str, str]
    destination: str


@dataclass(frozen=True, slots=True)
class DivisionDestroyed(CampaignEvent):
    """A division's last unit destroyed in battle (RULES.md §1.2, §7.6): its end, at the
    battle's end, where it fought (a junction, or a road's two junctions) and by whom (the
    enemy divisions of that battle, sorted by id)."""

    side: str
    division: str
    place: Place
    by: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Surrendered(CampaignEvent):
    """A cut-off division surrenders (RULES.md §8.5) at ``junction``, to ``by``: the enemy
    divisions that beat it there (sorted by id; empty in files written before they were
    named)."""

    side: str
    division: str
    junction: str
    by: tuple[str, ...] = ()


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
    objectives: dict[str, int | None]  # None in a side's view for the enemy (§8.6)
    positions: dict[str, Place]


@dataclass(frozen=True, slots=True)
class Forked(CampaignEvent):
    """From the start of this minute on, the campaign plays under other rules, doctrines or
    dice (``campaign fork``, issue 28): ``rules`` and ``rules_hash`` as the header gives its
    own, ``doctrines`` each side's, ``reseeded`` whether new dice go on. The engine does not
    emit it (a fork is applied to a campaign from outside its clock): the log of a save
    places it where the fork was made (:func:`campaign.save.fork.with_forks`)."""

    rules: str
    rules_hash: str
    doctrines: dict[str, str]
    reseeded: bool


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
    divisions: tuple[DivisionAtEnd, ...]


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
    """A JSON-ready dict, type name first. A field added later with ``omit_default`` in its
    metadata is left out while it holds its default (files stay as they were without it)."""
    cls = type(event)
    data: dict[str, Any] = {"type": cls.__name__}
    data.update(asdict(event))
    omit = _OMIT.get(cls)
    if omit is None:
        omit = _OMIT[cls] = tuple(
            (f.name, f.default) for f in fields(cls) if f.metadata.get("omit_default")
        )
    for name, default in omit:
        if data[name] == default:
            del data[name]
    return data


#: per event class, its fields left out of a file while they hold their default (weak: a
#: class defined and dropped, as a test does, is not kept alive by this cache)
_OMIT: weakref.WeakKeyDictionary[type[CampaignEvent], tuple[tuple[str, Any], ...]] = (
    weakref.WeakKeyDictionary()
)


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
        kwargs["factors"] = _factors(kwargs["factors"])
    for name, row in _ROWS.get(cls, {}).items():  # named rows, as the engine made them
        if isinstance(kwargs.get(name), tuple):
            kwargs[name] = tuple(row(r, data) for r in kwargs[name])
    return cls(**kwargs)


def _factors(rows: Any) -> tuple[Factor, ...]:
    return tuple(Factor(**f) if isinstance(f, dict) else Factor(*f) for f in rows)


def _battle_check(row: Any, _data: dict[str, Any]) -> Any:
    """A battle's withdrawal check from its JSON row. Files written before the whole check
    was kept hold (side, total, rolls, withdraws) only: the rest was not recorded, and reads
    as casualty percent 0.0, no factors, ``die`` 0 and ``success_total`` 0 (a ``die`` of 0
    marks such a row; no check rolls a d0)."""
    if not isinstance(row, tuple):
        return row  # not a row: the type check of the reader reports it
    if len(row) == 4:
        side, total, rolls, withdraws = row
        return Check(side, 0.0, (), total, rolls, withdraws, 0, 0)
    if len(row) == len(Check._fields) and isinstance(row[2], tuple):
        return Check(row[0], row[1], _factors(row[2]), *row[3:])
    return row


def _named(make: Any) -> Callable[[Any, dict[str, Any]], Any]:
    """Rebuild one named row from its JSON list; a row of the wrong length is left as it is
    (the type check of the reader then reports the field)."""

    def row(value: Any, _data: dict[str, Any]) -> Any:
        if isinstance(value, tuple) and len(value) == len(make._fields):
            return make(*value)
        return value

    return row


#: per event class, the fields whose rows are named tuples, and how to rebuild a row
_ROWS: dict[type[CampaignEvent], dict[str, Callable[[Any, dict[str, Any]], Any]]] = {
    DivisionRaised: {"units": _named(RaisedUnit)},
    BattleFought: {
        "units": _named(UnitFate),
        "withdrawal_checks": _battle_check,
        "joined": _named(LateArrival),
    },
    CampaignEnded: {"divisions": _named(DivisionAtEnd)},
}


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value
