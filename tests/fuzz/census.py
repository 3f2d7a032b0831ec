"""Count fuzz outcomes recorded with ``FUZZ_CENSUS=FILE`` (see tests/fuzz/harness.py).

Usage::

    rm -f /tmp/census.jsonl
    FUZZ_CENSUS=/tmp/census.jsonl FUZZ_PROFILE=large .venv/bin/pytest tests/fuzz -p no:xdist -q
    .venv/bin/python tests/fuzz/census.py /tmp/census.jsonl
"""

from __future__ import annotations

import json
import sys
from collections import Counter


def main(path: str) -> None:
    """Print cases by kind and verdict, then the first line of each distinct crash."""
    with open(path, encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    table = Counter((r["kind"], r["verdict"]) for r in rows)
    for kind in sorted({k for k, _ in table}):
        counts = {v: table[(kind, v)] for v in ("ok", "refused", "crash", "hang")}
        total = sum(counts.values())
        cpu = max((r.get("cpu", 0.0) for r in rows if r["kind"] == kind), default=0.0)
        print(
            f"{kind:7s} {total:5d} cases: "
            + ", ".join(f"{v} {n}" for v, n in counts.items())
            + f"; slowest {cpu:.1f} s CPU"
        )
    print(f"all     {len(rows):5d} cases")
    seen: Counter[str] = Counter()
    for r in rows:
        if r["verdict"] in ("crash", "hang"):
            first = (r["raised"] or r["err"] or "hang").strip().splitlines()
            seen[f"{r['verdict']}: {first[0][:150] if first else '?'}"] += 1
    for line, n in seen.most_common():
        print(f"{n:4d}  {line}")


if __name__ == "__main__":
    main(sys.argv[1])
