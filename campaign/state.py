"""A campaign's state as plain data, and its file format (issue 26, item 1).

:class:`CampaignState` is what a campaign is at one minute: the inputs it was started from,
the clock's time, every division (units and their hits, where it is or which road it is on
and how far along, its orders), who controls each junction and what each army has lost (the
ledger, RULES.md §7.2), each side's knowledge of the enemy (§8.6) and its strategist's memory
of its own divisions (§8.8), and the battles being fought (§8.4). It holds no SimPy object,
no generator and no open file: frozen dataclasses of strings, numbers, tuples and dicts.
Copy it with :func:`copy.deepcopy` (or :func:`dataclasses.replace`), compare it with ``==``.

The file format is JSON (:func:`dumps`, :func:`loads`, :func:`write`, :func:`read`): one
object ``{"format": "campaign-state", "version": 1, ...}`` whose keys are the dataclasses'
fields, tuples written as lists, and read back into exactly the state written (floats are
written by :func:`repr`, which round-trips every float). A file of another format or of a
version this code does not read is refused with :class:`StateFormatError`, naming the key
and the fix.

Version 1 (this module's :data:`STATE_VERSION`) fields, top level:

``inputs``
    map name, map source, rules label and hash, seed, doctrines per side, the results of
    battles fought on the table: what rebuilds the campaign (:class:`Inputs`).
``time``
    the clock, in campaign minutes from 00:00 of day 1 (a float: marches end between whole
    minutes).
``events``
    how many events the campaign has emitted (the event cap counts them, RULES.md §8.7).
``over``, ``winner``, ``reason``
    whether it has ended, and how.
``divisions``
    one :class:`DivisionState` a division, in the order raised.
``control``
    junction -> the side controlling it (``null`` while contested), RULES.md §7.2.
``sides``
    ``red`` and ``blue``, each a :class:`SideState`: its losses (:class:`SideRecord` counts),
    knowledge and memory.
``battles``
    the battles being fought, one :class:`BattleState` each.
``counts``
    the campaign's character counts (rough-road tests and failures, marches, flank marches).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, TypeVar

from battle.errors import ConfigError
from campaign.table_result import TableResult, table_result_from_dict

__all__ = [
    "STATE_FORMAT",
    "STATE_VERSION",
    "BattleState",
    "CampaignState",
    "DivisionState",
    "Inputs",
    "MemoryState",
    "OrderState",
    "SideState",
    "StateFormatError",
    "UnitState",
    "dumps",
    "from_dict",
    "loads",
    "read",
    "to_dict",
    "write",
]

_T = TypeVar("_T")

#: the ``format`` key of a state file
STATE_FORMAT = "campaign-state"
#: the version of the format this code writes and reads
STATE_VERSION = 1


class StateFormatError(ConfigError):
    """A state file that is not one this code reads: names the key path and the fix."""


@dataclass(frozen=True)
class Inputs:
    """What a campaign was started from: enough to build it again (with the same code).

    ``rules_hash`` is :attr:`campaign.config.LoadedRules.hash` (the rules with their variants
    applied); ``doctrines`` maps ``red``/``blue`` to a strategy doctrine's name (RULES.md §8.8);
    ``table_results`` are the results of battles fought on the table (issue 28), by battle
    number, in number order (a file written before them reads as none).
    """

    map: str
    map_source: str
    rules: str
    rules_hash: str
    seed: int
    doctrines: dict[str, str]
    table_results: tuple[TableResult, ...] = ()


@dataclass(frozen=True)
class UnitState:
    """One unit of a division: its id, type and grade, and the actual hits it carries (0 to
    ``battle.destroyed_at_hits`` - 1, RULES.md §1.2)."""

    id: str
    kind: str
    grade: str
    irregular: bool
    light: bool
    hits: int
    formation: str | None


@dataclass(frozen=True)
class DivisionState:
    """One division (RULES.md §2.1, §8).

    ``location`` is its junction (None while on a road); ``road`` is ``(origin, destination,
    departed, arrives)`` in campaign minutes while it marches (its progress is the share of
    that span gone by at the state's ``time``); ``on_road`` is ``(a, b)`` while it is held on
    the road from a to b after a battle there, ``road_walked`` then the minutes walked from a
    and left to b. ``orders`` are what it will do before its doctrine decides again, each
    ``(kind, argument)``: ``("march", junction)`` (a fall back, §8.5), ``("return",
    junction)`` (after a draw; ``"return_retry"`` after a failed rough-road test),
    ``("wait_until", minute)``, ``("arrive", (junction, minutes))`` (a road battle's loser),
    ``("march_on", (junction, minutes, origin))`` (its winner), ``("return_road", (junction,
    minutes, other end, battle place))`` (after a draw on the road).
    ``busy_until`` is the minute a battle or fall back holds it until; ``in_battle`` while
    one of a battle's divisions.
    """

    id: str
    side: str
    units: tuple[UnitState, ...]
    location: str | None
    came_from: str | None
    road: tuple[str, str, float, float] | None
    on_road: tuple[str, str] | None
    road_walked: tuple[float, float]
    orders: tuple[tuple[str, Any], ...]
    busy_until: float
    arrived_at: float
    alive: bool
    surrendered: bool
    in_battle: bool
    halted_reason: str
    held_for: tuple[str, str | None, str | None, tuple[str, ...]] | None


@dataclass(frozen=True)
class OrderState:
    """A strategist's decision (:class:`campaign.strategy.knowledge.Order`) as data."""

    code: str
    goal: str | None
    step: str | None
    enemy_at: str | None
    enemies: tuple[str, ...]
    friends: tuple[str, ...]
    aim: str | None


@dataclass(frozen=True)
class MemoryState:
    """What a side's strategist remembers of one of its divisions between decisions
    (:class:`campaign.strategy.knowledge.Memory`, RULES.md §8.8)."""

    plan: str | None
    planned: bool
    order: tuple[str, str | None] | None
    came: tuple[str, str] | None
    came_order: tuple[str, str | None] | None
    pursue: tuple[str, ...]
    pursue_until: float
    regroup: bool
    follow: tuple[float, str, OrderState] | None


@dataclass(frozen=True)
class SideState:
    """One side: its losses so far (``record``: the :class:`campaign.ledger.SideRecord`
    counts by name), its knowledge of the enemy — ``last_seen`` (enemy division -> junction
    where last seen, §8.6), ``known_boxes`` (enemy division -> boxes learned in battle),
    ``fled`` (enemy division -> where it was seen falling back to, §8.5) — its strategist's
    ``memory`` of its own divisions, and the day its base fell (None while it stands)."""

    record: dict[str, float]
    last_seen: dict[str, str]
    known_boxes: dict[str, int]
    fled: dict[str, str]
    memory: dict[str, MemoryState]
    base_fell_day: int | None


@dataclass(frozen=True)
class BattleState:
    """A battle being fought (RULES.md §8.4): its number, place (a junction, or the road
    ``(a, b)``), the minute it began, the attacking side, the divisions that began it and the
    late arrivals with the bound each joins."""

    number: int
    junction: str | None
    road: tuple[str, str] | None
    start: float
    attacker: str
    divisions: tuple[str, ...]
    joins: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class CampaignState:
    """A campaign at one minute (see the module docstring for every field)."""

    inputs: Inputs
    time: float
    events: int
    over: bool
    winner: str | None
    reason: str
    divisions: tuple[DivisionState, ...]
    control: dict[str, str | None]
    sides: dict[str, SideState]
    battles: tuple[BattleState, ...]
    counts: dict[str, int]

    def division(self, division_id: str) -> DivisionState:
        """The division ``division_id``; KeyError if there is none."""
        for d in self.divisions:
            if d.id == division_id:
                return d
        raise KeyError(division_id)


# ---------------------------------------------------------------------------- file format
def to_dict(state: CampaignState) -> dict[str, Any]:
    """``state`` as JSON-ready data: ``format`` and ``version`` first, tuples as lists."""
    body = _plain(asdict(state))
    return {"format": STATE_FORMAT, "version": STATE_VERSION, **body}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"a campaign state holds no {value!r}")
    return value


def dumps(state: CampaignState) -> str:
    """``state`` as a JSON document (keys in field order, two-space indented)."""
    return json.dumps(to_dict(state), indent=2, allow_nan=False) + "\n"


def write(state: CampaignState, path: str | Path) -> None:
    """Write ``state`` to ``path`` as JSON (:func:`dumps`)."""
    Path(path).write_text(dumps(state), encoding="utf-8")


def loads(text: str, source: str = "<state>") -> CampaignState:
    """The state of a JSON document written by :func:`dumps`.

    Raises
    ------
    StateFormatError
        If ``text`` is not JSON, is not a campaign state, or is of another version, or a
        field is missing or of the wrong shape (the message names the key path).
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateFormatError(
            f"not JSON ({exc.msg}, line {exc.lineno})",
            source=source,
            fix="Give a file written by the campaign's state format (campaign.state.write).",
        ) from None
    return from_dict(data, source)


def read(path: str | Path) -> CampaignState:
    """The state written to ``path`` by :func:`write`; :class:`StateFormatError` as
    :func:`loads` (an unreadable file raises OSError)."""
    return loads(Path(path).read_text(encoding="utf-8"), str(path))


def from_dict(data: Any, source: str = "<state>") -> CampaignState:
    """The state of :func:`to_dict`'s data; :class:`StateFormatError` as :func:`loads`."""
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        raise StateFormatError(
            "not a campaign state",
            source=source,
            key="format",
            fix=f'A state file begins {{"format": "{STATE_FORMAT}", "version": {STATE_VERSION}}}.',
        )
    if data.get("version") != STATE_VERSION:
        raise StateFormatError(
            f"a campaign state of version {data.get('version')!r}; this code reads version "
            f"{STATE_VERSION}",
            source=source,
            key="version",
            fix="Resume it with the version of the program that wrote it.",
        )
    try:
        return _campaign(data)
    except _Bad as exc:
        raise StateFormatError(
            exc.what,
            source=source,
            key=exc.key,
            fix="Give the file as campaign.state.write wrote it (do not edit its fields).",
        ) from None


class _Bad(Exception):
    def __init__(self, key: str, what: str) -> None:
        super().__init__(key, what)
        self.key, self.what = key, what


def _get(data: Any, key: str, path: str) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise _Bad(f"{path}.{key}" if path else key, "a field is missing")
    return data[key]


def _record(cls: type[_T], data: Any, path: str, convert: dict[str, Any] | None = None) -> _T:
    """``cls(**data)`` field by field, each converted by ``convert[name]`` if given."""
    convert = convert or {}
    values = {}
    for f in fields(cls):  # type: ignore[arg-type]
        raw = _get(data, f.name, path)
        fn = convert.get(f.name)
        values[f.name] = fn(raw, f"{path}.{f.name}" if path else f.name) if fn else raw
    return cls(**values)


def _tuple(raw: Any, path: str) -> tuple[Any, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise _Bad(path, "a list was expected")
    return tuple(raw)


def _tuple_of_tuples(raw: Any, path: str) -> tuple[Any, ...]:
    if not isinstance(raw, list):
        raise _Bad(path, "a list was expected")
    return tuple(_tuple(item, f"{path}[{i}]") for i, item in enumerate(raw))


def _order_arg(kind: str, arg: Any) -> Any:
    return tuple(arg) if isinstance(arg, list) else arg


def _orders(raw: Any, path: str) -> tuple[tuple[str, Any], ...]:
    if not isinstance(raw, list):
        raise _Bad(path, "a list was expected")
    out = []
    for i, item in enumerate(raw):
        if not isinstance(item, list) or len(item) != 2:
            raise _Bad(f"{path}[{i}]", "an order is [kind, argument]")
        out.append((item[0], _order_arg(item[0], item[1])))
    return tuple(out)


def _held_for(raw: Any, path: str) -> Any:
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != 4:
        raise _Bad(path, "[code, goal, enemy at, friends] was expected")
    return (raw[0], raw[1], raw[2], tuple(raw[3]))


def _unit(raw: Any, path: str) -> UnitState:
    return _record(UnitState, raw, path)


def _division(raw: Any, path: str) -> DivisionState:
    return _record(
        DivisionState,
        raw,
        path,
        {
            "units": lambda r, p: tuple(_unit(u, f"{p}[{i}]") for i, u in enumerate(r)),
            "road": _tuple,
            "on_road": _tuple,
            "road_walked": _tuple,
            "orders": _orders,
            "held_for": _held_for,
        },
    )


def _order(raw: Any, path: str) -> OrderState:
    return _record(OrderState, raw, path, {"enemies": _tuple, "friends": _tuple})


def _follow(raw: Any, path: str) -> Any:
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != 3:
        raise _Bad(path, "[minute, junction, order] was expected")
    return (raw[0], raw[1], _order(raw[2], f"{path}[2]"))


def _memory(raw: Any, path: str) -> MemoryState:
    return _record(
        MemoryState,
        raw,
        path,
        {
            "order": _tuple,
            "came": _tuple,
            "came_order": _tuple,
            "pursue": _tuple,
            "follow": _follow,
        },
    )


def _side(raw: Any, path: str) -> SideState:
    def memory(r: Any, p: str) -> dict[str, MemoryState]:
        if not isinstance(r, dict):
            raise _Bad(p, "a mapping was expected")
        return {k: _memory(v, f"{p}.{k}") for k, v in r.items()}

    return _record(SideState, raw, path, {"memory": memory})


def _battle(raw: Any, path: str) -> BattleState:
    return _record(
        BattleState,
        raw,
        path,
        {"road": _tuple, "divisions": _tuple, "joins": _tuple_of_tuples},
    )


def _table_results(raw: Any, path: str) -> tuple[TableResult, ...]:
    if not isinstance(raw, list):
        raise _Bad(path, "a list was expected")
    out = []
    for i, item in enumerate(raw):
        try:
            out.append(table_result_from_dict(item))
        except (KeyError, TypeError, ValueError):
            raise _Bad(f"{path}[{i}]", "a battle's table result was expected") from None
    return tuple(out)


def _inputs(raw: Any, path: str) -> Inputs:
    if isinstance(raw, dict) and "table_results" not in raw:  # written before issue 28
        raw = {**raw, "table_results": []}
    return _record(Inputs, raw, path, {"table_results": _table_results})


def _campaign(data: dict[str, Any]) -> CampaignState:
    def sides(r: Any, p: str) -> dict[str, SideState]:
        if not isinstance(r, dict):
            raise _Bad(p, "a mapping was expected")
        return {k: _side(v, f"{p}.{k}") for k, v in r.items()}

    return _record(
        CampaignState,
        data,
        "",
        {
            "inputs": _inputs,
            "divisions": lambda r, p: tuple(_division(d, f"{p}[{i}]") for i, d in enumerate(r)),
            "sides": sides,
            "battles": lambda r, p: tuple(_battle(b, f"{p}[{i}]") for i, b in enumerate(r)),
        },
    )
