"""A fingerprint of many campaigns, to show that a change alters no campaign (issues 15, 26).

Each line is one map and doctrine pair: a hash of the whole event stream of seeds
``0..N-1`` (as JSON rows, the package versions of the header left out) and a hash of the
results with events off. Two profiles:

- ``full`` (680 campaigns): seeds 0-99 on the default map, 0-29 on Waterloo, 0-19 on two
  shared maps (``nevsky``, ``wilderness_war``, read in place from ``../shared/maps``), each
  under the four doctrine pairs of :data:`PAIRS`;
- ``ci``: the same maps and pairs with fewer seeds, checked by
  ``tests/campaign/test_fingerprint.py`` on every CI run, compiled and plain.

The expected lines of both are stored in ``tests/golden/fingerprint.txt`` with the commit
they were taken from and the reason of their last change. A change that alters a campaign
must update them deliberately, in the same commit, and say why::

    python -m benchmarks.fingerprint                    # print the full profile
    python -m benchmarks.fingerprint --check            # compare both profiles with the store
    python -m benchmarks.fingerprint --write "REASON"   # store both profiles anew

``python -m benchmarks fingerprint`` prints the full profile too. Shared maps that are
absent are left out of the lines (and said so); the stored lines of a map that was not run
are not compared.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

__all__ = [
    "PAIRS",
    "PROFILES",
    "STORE",
    "check",
    "fingerprint",
    "profile_lines",
    "read_store",
    "run",
    "write_store",
]

#: doctrine pairs (red, blue); None is the default (balanced against balanced)
PAIRS: tuple[dict[str, str] | None, ...] = (
    None,
    {"red": "aggressive", "blue": "cautious"},
    {"red": "raider", "blue": "balanced"},
    {"red": "cautious", "blue": "raider"},
)

#: the shared maps of the fingerprint (publishers' maps, read in place, never copied)
SHARED = ("nevsky.yaml", "wilderness_war.yaml")

#: profile -> ((map, seeds), ...); a map is None (default), a shipped map's name, or a
#: shared map's file name
PROFILES: dict[str, tuple[tuple[str | None, int], ...]] = {
    "full": ((None, 100), ("waterloo-1815", 30), (SHARED[0], 20), (SHARED[1], 20)),
    "ci": ((None, 16), ("waterloo-1815", 8), (SHARED[0], 4), (SHARED[1], 4)),
}

#: the stored expected lines of every profile
STORE = Path(__file__).resolve().parents[1] / "tests" / "golden" / "fingerprint.txt"


def _map_path(map_name: str | None) -> str | Path | None:
    if map_name in SHARED:
        from campaign.paths import SHARED_MAPS_DIR

        return SHARED_MAPS_DIR / map_name
    return map_name


def _label(map_name: str | None) -> str:
    return Path(map_name).stem if map_name else "default"


def fingerprint(
    map_name: str | None, doctrines: dict[str, str] | None, seeds: int
) -> tuple[str, str]:
    """``(events hash, result hash)`` of seeds ``0..seeds-1`` on one map and doctrine pair
    (16 hex digits each). ``map_name`` is None (default map), a shipped map's name or a shared
    map's file name (:data:`SHARED`)."""
    from campaign.config import load_rules
    from campaign.engine import run_campaign
    from campaign.events import event_to_dict
    from campaign.maps import load_map

    rules = load_rules()
    cmap = load_map(_map_path(map_name))
    events, results = hashlib.sha256(), hashlib.sha256()
    for seed in range(seeds):
        for event in run_campaign(cmap, rules, seed, doctrines).events:
            row = event_to_dict(event)
            row.pop("versions", None)  # the code's own hash changes with every edit
            row.pop("map_source", None)  # where the map file lies (a shared map's full path)
            events.update(json.dumps(row, sort_keys=True, default=str).encode())
        lean = run_campaign(cmap, rules, seed, doctrines, record_events=False)
        summary = dataclasses.asdict(lean)
        results.update(json.dumps(summary, sort_keys=True, default=str).encode())
    return events.hexdigest()[:16], results.hexdigest()[:16]


def _available(map_name: str | None) -> bool:
    path = _map_path(map_name)
    return not isinstance(path, Path) or path.is_file()


def profile_lines(profile: str = "full") -> list[str]:
    """One line per map and doctrine pair of ``profile``:
    ``PROFILE MAP RED-BLUE SEEDS events results`` (absent shared maps left out)."""
    lines = []
    for map_name, seeds in PROFILES[profile]:
        if not _available(map_name):
            continue
        for pair in PAIRS:
            names = f"{pair['red']}-{pair['blue']}" if pair else "balanced-balanced"
            on, off = fingerprint(map_name, pair, seeds)
            lines.append(f"{profile} {_label(map_name)} {names} {seeds} {on} {off}")
    return lines


def run() -> list[str]:
    """The full profile, one ``fingerprint: ...`` line per map and doctrine pair (for
    ``python -m benchmarks fingerprint``)."""
    missing = [m for m, _ in PROFILES["full"] if not _available(m)]
    notes = [f"fingerprint: shared map {m} absent, left out" for m in missing]
    return notes + [f"fingerprint: {line}" for line in profile_lines("full")]


def read_store(path: Path = STORE) -> dict[str, str]:
    """The stored lines keyed by ``PROFILE MAP PAIR SEEDS`` (value: ``events results``)."""
    stored = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            *key, on, off = line.split()
            stored[" ".join(key)] = f"{on} {off}"
    return stored


def check(lines: Iterable[str], path: Path = STORE) -> list[str]:
    """The departures of ``lines`` from the store: one message per line that differs or is
    missing from the store (an empty list when all agree)."""
    stored = read_store(path)
    problems = []
    for line in lines:
        *key, on, off = line.split()
        name = " ".join(key)
        if name not in stored:
            problems.append(f"{name}: not in {path.name}")
        elif stored[name] != f"{on} {off}":
            problems.append(f"{name}: stored {stored[name]}, now {on} {off}")
    return problems


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=STORE.parent,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip()


def write_store(lines: Sequence[str], reason: str, path: Path = STORE) -> None:
    """Store ``lines`` with the parent commit and the reason of the change."""
    header = [
        "# Expected campaign fingerprints (benchmarks/fingerprint.py, checked by",
        "# tests/campaign/test_fingerprint.py): PROFILE MAP RED-BLUE SEEDS events results.",
        "# Update them deliberately, in the commit that changes campaigns, with the reason:",
        '#   python -m benchmarks.fingerprint --write "REASON"',
        f"# taken on top of {_commit()}: {reason}",
    ]
    path.write_text("\n".join([*header, *lines]) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.fingerprint [--profile P] [--check | --write REASON]``."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fingerprint", description=__doc__)
    parser.add_argument("--profile", choices=sorted(PROFILES), action="append")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="compare with the stored lines")
    group.add_argument("--write", metavar="REASON", help="store the lines, with the reason")
    args = parser.parse_args(argv)
    profiles = args.profile or (["ci", "full"] if (args.check or args.write) else ["full"])
    lines = [line for p in profiles for line in profile_lines(p)]
    if args.write:
        if not args.write.strip():
            parser.error("--write needs a reason")
        write_store(lines, args.write.strip())
        print(f"stored {len(lines)} lines in {STORE}")
        return 0
    if args.check:
        problems = check(lines)
        for problem in problems:
            print(f"fingerprint differs: {problem}")
        print(f"{len(lines) - len(problems)} of {len(lines)} lines as stored")
        return 1 if problems else 0
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
