"""The campaign's event stream as JSON lines (one event per line), and back."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any, TextIO, get_type_hints

from pydantic import TypeAdapter, ValidationError

from battle.errors import plain_message
from battle.yamlfile import check_file_size, file_error
from campaign.errors import SimulatorError
from campaign.events import CampaignEvent, event_from_dict, event_to_dict
from campaign.printers.event_ranges import check_event_ranges

__all__ = ["dump_event", "read_jsonl", "write_jsonl"]


def dump_event(event: CampaignEvent) -> str:
    """One event as one JSON line (stable key order, no trailing newline)."""
    return json.dumps(event_to_dict(event), ensure_ascii=False, separators=(",", ":"))


def write_jsonl(events: Iterable[CampaignEvent], out: TextIO) -> None:
    for event in events:
        out.write(dump_event(event) + "\n")


#: Largest event stream read (bytes): a week-long campaign at the event cap is ~60 MiB.
MAX_STREAM_BYTES = 256 * 2**20
_STREAM_FIX = "Give the JSON-lines file written by 'campaign run --format jsonl'."


_ADAPTERS: dict[str, dict[str, TypeAdapter[Any]]] = {}


def _field_adapters(cls: type[CampaignEvent]) -> dict[str, TypeAdapter[Any]]:
    """A pydantic adapter per field of an event class (built once per class)."""
    if cls.__name__ not in _ADAPTERS:
        hints = get_type_hints(cls)
        _ADAPTERS[cls.__name__] = {f.name: TypeAdapter(hints[f.name]) for f in fields(cls)}
    return _ADAPTERS[cls.__name__]


def _checked_event(data: Any) -> CampaignEvent:
    """An event rebuilt from one parsed line, every field of the type its class declares.

    Raises
    ------
    ValueError
        If the line is not an object with a known ``type``, or a field has the wrong type
        (``"t": "noon"``; a boolean is not a number); the message names the field.
    """
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, found {type(data).__name__}")
    event = event_from_dict(data)  # KeyError: an unknown type; TypeError: a missing field
    for name, adapter in _field_adapters(type(event)).items():
        try:
            adapter.validate_python(getattr(event, name), strict=True)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join([name, *(str(p) for p in err["loc"])])
            raise ValueError(
                f"field {where!r} of {type(event).__name__}: {plain_message(err)} "
                f"(found {err.get('input')!r:.60})"
            ) from None
    return event


def iter_jsonl(path: str | Path) -> Iterator[CampaignEvent]:
    """Read a saved event stream one event at a time (see :func:`read_jsonl`)."""
    path = Path(path)
    check_file_size(path, SimulatorError, MAX_STREAM_BYTES, "event stream")
    try:
        handle = path.open(encoding="utf-8")
    except OSError as exc:
        raise file_error(
            SimulatorError,
            "read the event stream",
            path,
            exc,
            "Give the JSON-lines file written by 'campaign run --format jsonl'.",
        ) from None
    with handle:
        try:
            yield from _events(handle, path)
        except UnicodeDecodeError:
            raise SimulatorError(
                "not a JSON-lines event stream (the file is not UTF-8 text)",
                source=str(path),
                fix="Give the JSON-lines file written by 'campaign run --format jsonl'.",
            ) from None


#: Latest event time a stream may hold (minutes since 06:00 on day 1): a year and a day,
#: past the longest campaign (``campaign.time_limit_days`` at most 365).
MAX_EVENT_MINUTES = 366 * 1440
#: Largest size of any number in an event (a 64-bit seed is the largest a run writes).
_MAX_NUMBER = 2**64


def _numbers_in_range(data: Any, where: str = "") -> None:
    """Refuse a number no run writes: NaN, infinity, or past 2**64 in size (any field)."""
    stack: list[tuple[Any, str]] = [(data, where)]
    while stack:
        value, at = stack.pop()
        if isinstance(value, dict):
            stack.extend((v, f"{at}.{k}" if at else str(k)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{at}[{i}]") for i, v in enumerate(value))
        elif isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"field {at!r}: expected a finite number (found {value})")
        elif (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and abs(value) > _MAX_NUMBER
        ):
            raise ValueError(f"field {at!r}: a number out of range (found {value:.3g})")


def _events(handle: TextIO, path: Path) -> Iterator[CampaignEvent]:
    previous = 0
    for number, line in enumerate(handle, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            _numbers_in_range(data)
            event = _checked_event(data)
            check_event_ranges(event)
            if not 0 <= event.t <= MAX_EVENT_MINUTES:
                raise ValueError(
                    f"field 't': expected 0..{MAX_EVENT_MINUTES} minutes (found {event.t})"
                )
            if event.t < previous:
                raise ValueError(
                    f"field 't' goes back in time ({event.t} after {previous}): the events "
                    "are out of order"
                )
            previous = event.t
            yield event
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, RecursionError) as exc:
            what = f"unknown event type {exc}" if isinstance(exc, KeyError) else str(exc)
            raise SimulatorError(
                f"line {number} is not a campaign event ({what:.300})",
                source=str(path),
                fix="Give the JSON-lines file written by 'campaign run --format jsonl'.",
            ) from None


def read_jsonl(path: str | Path) -> list[CampaignEvent]:
    """Read a saved event stream.

    Raises
    ------
    SimulatorError
        If the file cannot be read, is larger than :data:`MAX_STREAM_BYTES`, or a line is
        not a campaign event or has a field of the wrong type (line number and field given).
    """
    return list(iter_jsonl(path))
