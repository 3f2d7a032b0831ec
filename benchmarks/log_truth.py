"""Issue 31's rows on a log that tells the truth (item 3), measured on the event streams and
the umpire's text log: falls back caught while the log still has them falling back to X,
beaten divisions named the attacker, returns after a draw never logged, destroyed divisions
whose end is never logged, and "beaten" said of a division whose last battle was not lost.

Run: ``python -m benchmarks.log_truth [--seeds N]``: default map seeds 0..N-1 and Waterloo
seeds 0..N-1 (default 20), balanced against balanced. The checks are the independent campaign
referee's (tests/referee/log_truths.py, read from beside this file); to measure another
commit's engine and printers, put that tree first on ``PYTHONPATH`` and run this file::

    git archive 8f738a5 | tar -x -C /tmp/base
    PYTHONPATH=/tmp/base python benchmarks/log_truth.py
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

__all__ = ["main", "measure"]

HERE = Path(__file__).resolve().parents[1]

#: (label, what is counted, out of what)
ROWS = (
    ("fall back caught, the log still says it falls back to X", "caught_untold", "caught"),
    ("a beaten division in mid fall back named the attacker", "attacker_falling_back", ""),
    ("a return after a draw never logged", "return_untold", "returns"),
    ("a road battle's winner marching on never logged", "march_on_untold", "marches_on"),
    ("a destroyed division's end never logged", "end_untold", "destroyed"),
    ("'beaten' said of a division whose last battle was not lost", "beaten_untrue", "beaten"),
)


def _beaten_said(events: list, narrator_cls) -> tuple[int, int]:
    """(sentences calling a division beaten, of which untrue) in the umpire's log."""
    from campaign.events import BattleFought, Ordered

    narrator = narrator_cls()
    lost: dict[str, bool] = {}
    said = untrue = 0
    for e in events:
        entry = narrator.one(e, 1)
        if isinstance(e, BattleFought):
            for side, ids in e.divisions.items():
                for d in ids:
                    lost[d] = e.winner is not None and e.winner != side
        if not isinstance(e, Ordered) or entry is None or "beaten" not in entry.text:
            continue
        said += 1
        if e.code == "regroup":
            untrue += not lost.get(e.division, False)
        elif e.code == "pursue":
            untrue += any(
                f"the beaten {narrator.div(d)}" in entry.text and not lost.get(d, False)
                for d in e.enemies
            )
    return said, untrue


def measure(map_name: str, seeds: range) -> dict[str, int]:
    """The counts summed over ``seeds`` of ``map_name`` (balanced against balanced)."""
    sys.path.insert(0, str(HERE / "tests" / "referee"))
    from campaign_referee import CampaignReferee
    from campaign_streams import load

    from campaign.config import load_rules
    from campaign.engine import run_campaign
    from campaign.events import event_to_dict
    from campaign.maps import load_map
    from campaign.printers.narrative import Narrator

    referee = CampaignReferee(load(map_name)[2])
    cmap, rules = load_map(map_name), load_rules()
    c: dict[str, int] = dict.fromkeys([k for row in ROWS for k in row[1:] if k], 0)
    for seed in seeds:
        result = run_campaign(cmap, rules, seed, {"red": "balanced", "blue": "balanced"})
        dicts = [json.loads(json.dumps(event_to_dict(e))) for e in result.events]
        report = referee.audit(dicts)
        logs = [d for d in report.departures if "§log" in d]
        c["caught"] += report.count("caught")
        c["caught_untold"] += sum("still has it falling back" in d for d in logs)
        c["attacker_falling_back"] += report.count("attacker_falling_back")
        told_returns = sum(d["type"] == "ReturnBegun" for d in dicts)
        untold = sum("never told" in d and "after a draw" in d for d in logs)
        untold += sum("drawn road battle, never told" in d for d in logs)
        c["returns"] += told_returns + untold
        c["return_untold"] += untold
        on = sum("from its road battle, never told" in d for d in logs)
        c["marches_on"] += sum(d["type"] == "MarchResumed" for d in dicts) + on
        c["march_on_untold"] += on
        ends = sum("its end is never logged" in d for d in logs)
        c["destroyed"] += sum(d["type"] == "DivisionDestroyed" for d in dicts) + ends
        c["end_untold"] += ends
        said, untrue = _beaten_said(result.events, Narrator)
        c["beaten"] += said
        c["beaten_untrue"] += untrue
    return c


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.log_truth", description=__doc__)
    parser.add_argument("--seeds", type=int, default=20, help="default and Waterloo seeds")
    args = parser.parse_args(argv)
    if not 1 <= args.seeds <= 10_000:
        parser.error("--seeds is 1 to 10000")
    columns = {
        f"default 0-{args.seeds - 1}": measure("default", range(args.seeds)),
        f"Waterloo 0-{args.seeds - 1}": measure("waterloo-1815", range(args.seeds)),
    }
    print("| figure | " + " | ".join(columns) + " |")
    print("|---|" + "---|" * len(columns))
    for label, key, base in ROWS:
        cells = [f"{c[key]} of {c[base]}" if base else str(c[key]) for c in columns.values()]
        print(f"| {label} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
