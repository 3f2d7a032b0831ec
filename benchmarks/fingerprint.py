"""A fingerprint of many campaigns, to show that a speed change changes no campaign (issue 15).

``python -m benchmarks fingerprint`` runs 520 campaigns — seeds 0-99 on the default map and
0-29 on the Waterloo map, each under four doctrine pairs — once with every event recorded
and once with events off, and prints one line per map and pair: a hash of the whole event
stream (as JSON rows, the package versions of the header left out) and a hash of the
result with events off. Run it on two checkouts and compare the lines: a change that is
meant to be pure speed must leave every line as it was. Not part of ``make bench`` (it
measures nothing; about a minute).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json

__all__ = ["PAIRS", "fingerprint", "run"]

#: doctrine pairs (red, blue); None is the default (balanced against balanced)
PAIRS: tuple[dict[str, str] | None, ...] = (
    None,
    {"red": "aggressive", "blue": "cautious"},
    {"red": "raider", "blue": "balanced"},
    {"red": "cautious", "blue": "raider"},
)


def fingerprint(
    map_name: str | None, doctrines: dict[str, str] | None, seeds: int
) -> tuple[str, str]:
    """``(events hash, result hash)`` of seeds ``0..seeds-1`` on one map and doctrine pair
    (16 hex digits each)."""
    from campaign.config import load_rules
    from campaign.engine import run_campaign
    from campaign.events import event_to_dict
    from campaign.maps import load_map

    rules = load_rules()
    cmap = load_map(map_name)
    events, results = hashlib.sha256(), hashlib.sha256()
    for seed in range(seeds):
        for event in run_campaign(cmap, rules, seed, doctrines).events:
            row = event_to_dict(event)
            row.pop("versions", None)  # the code's own hash changes with every edit
            events.update(json.dumps(row, sort_keys=True, default=str).encode())
        lean = run_campaign(cmap, rules, seed, doctrines, record_events=False)
        summary = dataclasses.asdict(lean)
        results.update(json.dumps(summary, sort_keys=True, default=str).encode())
    return events.hexdigest()[:16], results.hexdigest()[:16]


def run() -> list[str]:
    """One line per map and doctrine pair: ``fingerprint: MAP RED-BLUE SEEDS events results``."""
    lines = []
    for map_name, seeds in ((None, 100), ("waterloo-1815", 30)):
        for pair in PAIRS:
            names = f"{pair['red']}-{pair['blue']}" if pair else "balanced-balanced"
            on, off = fingerprint(map_name, pair, seeds)
            lines.append(f"fingerprint: {map_name or 'default'} {names} {seeds} {on} {off}")
    return lines
