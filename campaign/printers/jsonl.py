"""The campaign's event stream as JSON lines (one event per line), and back."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

from campaign.errors import SimulatorError
from campaign.events import CampaignEvent, event_from_dict, event_to_dict

__all__ = ["dump_event", "read_jsonl", "write_jsonl"]


def dump_event(event: CampaignEvent) -> str:
    """One event as one JSON line (stable key order, no trailing newline)."""
    return json.dumps(event_to_dict(event), ensure_ascii=False, separators=(",", ":"))


def write_jsonl(events: Iterable[CampaignEvent], out: TextIO) -> None:
    for event in events:
        out.write(dump_event(event) + "\n")


def iter_jsonl(path: str | Path) -> Iterator[CampaignEvent]:
    path = Path(path)
    try:
        handle = path.open(encoding="utf-8")
    except OSError as exc:
        raise SimulatorError(
            f"cannot read the event stream ({exc.strerror})",
            source=str(path),
            fix="Give the JSON-lines file written by 'campaign run --format jsonl'.",
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


def _events(handle: TextIO, path: Path) -> Iterator[CampaignEvent]:
    for number, line in enumerate(handle, start=1):
        if not line.strip():
            continue
        try:
            yield event_from_dict(json.loads(line))
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise SimulatorError(
                f"line {number} is not a campaign event ({exc.__class__.__name__}: {exc})",
                source=str(path),
                fix="Give the JSON-lines file written by 'campaign run --format jsonl'.",
            ) from None


def read_jsonl(path: str | Path) -> list[CampaignEvent]:
    """Read a saved event stream.

    Raises
    ------
    SimulatorError
        If the file cannot be read or a line is not a campaign event (line number given).
    """
    return list(iter_jsonl(path))
