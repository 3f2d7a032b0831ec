"""Campaign speed of this code against another checkout, in CPU time, side by side.

``python -m benchmarks.paired OTHER [--rounds 12] [--per 50] [--start 1000]`` runs the same
default campaigns (events off) with the code of ``OTHER`` (a directory holding another
checkout of this repository, its campaign modules compiled with ``make native`` or
``python -m campaign.native build`` run inside it) and with this code, alternately, ``rounds``
times: round ``r`` runs seeds ``start + r * per`` to ``start + (r + 1) * per - 1`` in a fresh
process of each code, after one warm-up campaign (seed 0), and times them in that process's
CPU time. It prints the two totals and this code's speed as a ratio of the other's (above 1:
this code is faster). Both must run compiled: a stale or missing build is refused, as the
comparison would then be of plain Python.

CPU time moves less than wall time with other load on a shared machine; alternating in
rounds puts both codes in the same hours. Fresh processes of 50 campaigns favour neither
code's caches; ``python -m benchmarks.versus`` compares whole batches (warm workers).
Used for issue 31's speed goal (``benchmarks/README.md``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from benchmarks.bounds import out_of_bounds

__all__ = ["main"]

_ROOT = Path(__file__).resolve().parents[1]

#: one round in a fresh process: seeds argv[1]..argv[2]-1, CPU seconds and the build's status
_CHILD = r"""
import gc, json, sys, time
import campaign.native
from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.maps import load_map
first, last = int(sys.argv[1]), int(sys.argv[2])
cmap, loaded = load_map(), load_rules()
cmap.routes
run_campaign(cmap, loaded, 0, record_events=False)
gc.freeze()
start = time.process_time()
for seed in range(first, last):
    run_campaign(cmap, loaded, seed, record_events=False)
print(json.dumps({"cpu": time.process_time() - start, "native": campaign.native.status()}))
"""


def _round(tree: Path, first: int, last: int) -> float:
    """CPU seconds of seeds ``first``..``last - 1`` with the code of ``tree``.

    Raises RuntimeError if that code does not run compiled, or the process fails."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(first), str(last)],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{tree}: {done.stderr.strip().splitlines()[-1:]}")
    found = json.loads(done.stdout.strip().splitlines()[-1])
    if found["native"] != "compiled":
        raise RuntimeError(f"{tree}: campaign modules not compiled ({found['native']})")
    return float(found["cpu"])


def main(argv: list[str] | None = None) -> int:
    """Run the comparison; returns the exit code (2 for bad arguments or a checkout that
    does not run compiled)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.paired", description=__doc__)
    parser.add_argument("other", type=Path, help="another checkout, compiled (a directory)")
    parser.add_argument("--rounds", type=int, default=12, help="alternations (1-100)")
    parser.add_argument("--per", type=int, default=50, help="campaigns a round (1-10000)")
    parser.add_argument("--start", type=int, default=1000, help="first seed (0-2**31)")
    args = parser.parse_args(argv)
    refused = out_of_bounds(
        (
            ("--rounds", args.rounds, 1, 100),
            ("--per", args.per, 1, 10_000),
            ("--start", args.start, 0, 2**31),
        )
    )
    if refused is not None:
        print(refused, file=sys.stderr)
        return 2
    other = args.other.resolve()
    if not (other / "campaign" / "engine.py").is_file():
        print(f"error: {other} holds no checkout of this project (campaign/engine.py)",
              file=sys.stderr)  # fmt: skip
        return 2
    totals = {_ROOT: 0.0, other: 0.0}
    try:
        for r in range(args.rounds):
            first = args.start + r * args.per
            order = (_ROOT, other) if r % 2 == 0 else (other, _ROOT)
            for tree in order:
                totals[tree] += _round(tree, first, first + args.per)
    except RuntimeError as error:
        print(f"error: {error}; build it with `make native` in that checkout", file=sys.stderr)
        return 2
    mine, theirs = totals[_ROOT], totals[other]
    campaigns = args.rounds * args.per
    print(
        f"{campaigns:,} campaigns each (seeds {args.start}-{args.start + campaigns - 1}): "
        f"this code {mine:.3f} s CPU, {other} {theirs:.3f} s; "
        f"this code's speed {theirs / mine:.3f}x the other's"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
