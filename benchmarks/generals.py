"""Issue 31's table: what a wargamer reading the campaign log finds odd, counted by the
independent campaign referee (tests/referee/campaign_referee.py) — the figures the generals
with intent must bring down (not part of ``make bench``).

Run: ``python -m benchmarks.generals [--seeds N] [--shared-seeds M] [--shared DIR]``: default
map seeds 0..N-1 and Waterloo seeds 0..N-1 (default 100), each of the five shared maps seeds
0..M-1 (default 20), balanced against balanced (the CLI's default). Prints one row per
figure, one column per set and the total, with the issue's limit. The figures are exactly
reproducible. To measure another commit's engine, run this file with that tree first on
``PYTHONPATH`` (the referee is read from beside this file)::

    git worktree add /tmp/generals-base 6a29ca4
    PYTHONPATH=/tmp/generals-base python benchmarks/generals.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["main", "measure"]

HERE = Path(__file__).resolve().parents[1]
SHARED = Path("/work/shared/maps")
SHARED_MAPS = (
    "crusader_rex",
    "julius_caesar",
    "nevsky",
    "waterloo_campaign_1815",
    "wilderness_war",
)

#: (label, how it is worked out from the counts, the issue's limit)
ROWS = (
    ("enemy base entered, then left the same day by choice", "base_left", "0"),
    ("... then lost the same day in a battle (fall back, §8.5)", "base_lost", "-"),
    ("orders naming a destroyed or surrendered division", "destroyed_named", "0"),
    ("two different orders to one division in one minute", "two_orders", "0"),
    ("A→B→A the same day without a logged trigger", "aba_untriggered", "0"),
    ("A→B→A the same day with a trigger, per campaign", "aba_trigger/campaign", "≤ 0.5"),
    ("'to the guns' arriving after the battle, % of such orders", "guns_late%", "≤ 20%"),
    ("the same order repeated the same day, per campaign", "repeated/campaign", "≤ 0.5"),
    ("same-day rematches, % of battles", "rematch%", "≤ 10%"),
    ("a division in mid fall back named the attacker", "attacker_falling_back", "-"),
    ("fall backs caught on the way, % of fall backs", "caught%", "-"),
    ("battles", "battles", "-"),
    ("campaigns", "campaigns", "-"),
)


def measure(map_name: str, seeds: range) -> dict[str, int]:
    """Glitch counts summed over ``seeds`` of ``map_name`` (balanced against balanced)."""
    sys.path.insert(0, str(HERE / "tests" / "referee"))
    from campaign_referee import CampaignReferee, merge
    from campaign_streams import load, streams

    referee = CampaignReferee(load(map_name)[2])
    reports = [
        referee.audit(events)
        for _, _, events in streams(map_name, seeds, pairings=(("balanced", "balanced"),))
    ]
    counts = merge(reports)
    counts["campaigns"] = len(reports)
    return counts


def _figure(c: dict[str, int], how: str) -> str:
    n = max(c["campaigns"], 1)
    if how == "aba_untriggered":
        return str(c["aba"] - c["aba_trigger"])
    if how.endswith("/campaign"):
        return f"{c[how.split('/', maxsplit=1)[0]] / n:.2f}"
    if how.endswith("%"):
        key = how[:-1]
        base = {"guns_late": "guns", "rematch": "battles", "caught": "fall_backs"}[key]
        return f"{100 * c[key] / c[base]:.0f}% ({c[key]}/{c[base]})" if c[base] else "-"
    return str(c[how])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.generals", description=__doc__)
    parser.add_argument("--seeds", type=int, default=100, help="default and Waterloo seeds")
    parser.add_argument("--shared-seeds", type=int, default=20, help="seeds per shared map")
    parser.add_argument("--shared", type=Path, default=SHARED, help="the shared maps' folder")
    args = parser.parse_args(argv)
    if not 1 <= args.seeds <= 10_000 or not 0 <= args.shared_seeds <= 10_000:
        parser.error("--seeds is 1 to 10000, --shared-seeds 0 to 10000")
    sets = {
        f"default 0-{args.seeds - 1}": [("default", range(args.seeds))],
        f"Waterloo 0-{args.seeds - 1}": [("waterloo-1815", range(args.seeds))],
    }
    shared = [args.shared / f"{m}.yaml" for m in SHARED_MAPS]
    if args.shared_seeds and all(p.exists() for p in shared):
        sets[f"5 shared maps x 0-{args.shared_seeds - 1}"] = [
            (str(p), range(args.shared_seeds)) for p in shared
        ]
    elif args.shared_seeds:
        print(f"(the shared maps are not in {args.shared}: left out)")
    columns: dict[str, dict[str, int]] = {}
    for label, runs in sets.items():
        total: dict[str, int] = {}
        for map_name, seeds in runs:
            for k, v in measure(map_name, seeds).items():
                total[k] = total.get(k, 0) + v
        columns[label] = total
    everything: dict[str, int] = {}
    for c in columns.values():
        for k, v in c.items():
            everything[k] = everything.get(k, 0) + v
    columns["all"] = everything
    heads = ["figure", *columns, "limit"]
    print("| " + " | ".join(heads) + " |")
    print("|" + "---|" * len(heads))
    for label, how, limit in ROWS:
        cells = [_figure(c, how) for c in columns.values()]
        print("| " + " | ".join([label, *cells, limit]) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
