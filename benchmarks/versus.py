"""Batch throughput of this code against an earlier commit, side by side on this machine.

``python -m benchmarks.versus REF [--runs 10000] [--workers 2] [--rounds 3]`` checks ``REF``
(a commit of this repository, e.g. ``fc34652``, the code issue 15 started from) out into a
temporary git worktree, compiles its campaign modules where it has them (``campaign.native``),
and then runs the same batch — ``runs`` default campaigns (seed entropy 2024) on ``workers``
local workers, each batch in a fresh process that times ``run_batch`` alone — alternately
with ``REF``'s code and with this one, ``rounds`` times. A first batch of 100 campaigns in each tree
is not counted (numba compiles a new worktree's kernel then). It prints each batch and, per
round, the ratio of battles fought inside campaigns per second (issue 15's batch figure) and
of campaigns per second (which differ when the campaigns do: a change to the generals may
change how many battles a campaign has).

Wall-clock throughput on a shared machine moves by 10% or more from hour to hour with the
host's load (the yardstick too), so a goal stated as "N times today's" is judged here on pairs
run minutes apart, not on figures of different days. Needs git and this repository's history;
the worktree is removed at the end. Not part of ``make bench`` (about 3 minutes against
``fc34652``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.bounds import out_of_bounds

__all__ = ["main"]

_ROOT = Path(__file__).resolve().parents[1]

#: the batch, run in a fresh process with the code under test first on sys.path; works with
#: this code and with versions before the batch's fork server existed
_CHILD = """
import json, os, sys, tempfile, time
from pathlib import Path

def main():
    runs, workers = int(sys.argv[1]), int(sys.argv[2])
    try:
        from campaign.batch.server import start_server
    except ImportError:  # versions before the fork server
        start_server = None
    if start_server is not None:
        start_server()
    import duckdb
    from campaign.batch.plan import plan_batch
    from campaign.batch.runner import run_batch
    from campaign.batch.spec import BatchSpec
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "b.duckdb")
        plan = plan_batch(BatchSpec(name="bench", runs=runs, seed=2024), "benchmark")
        load = os.getloadavg()[0]
        start = time.perf_counter()
        run_batch(plan, out, workers=workers, progress=False)
        seconds = time.perf_counter() - start
        with duckdb.connect(out, read_only=True) as con:
            battles, done = con.execute("SELECT sum(battles), count(*) FROM runs").fetchone()
    print(json.dumps({"seconds": seconds, "battles": battles, "runs": done, "load": load}))

if __name__ == "__main__":
    main()
"""


def _batch(tree: Path, runs: int, workers: int) -> dict[str, float]:
    """One batch with the code of ``tree``; its figures."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "versus_child.py"
        script.write_text(_CHILD)
        env = {**os.environ, "PYTHONPATH": str(tree)}
        done = subprocess.run(
            [sys.executable, str(script), str(runs), str(workers)],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _line(label: str, res: dict[str, float]) -> str:
    rate = res["battles"] / res["seconds"]
    return (
        f"{label}: {res['runs']:,} campaigns in {res['seconds']:.2f} s, "
        f"{res['battles'] / res['runs']:.2f} battles a campaign, {rate:,.0f} battles/s "
        f"(load average {res['load']:.1f} at start)"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the comparison; returns the exit code (2 for bad arguments or an unknown commit)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.versus", description=__doc__)
    parser.add_argument("ref", help="the earlier commit, e.g. fc34652")
    parser.add_argument("--runs", type=int, default=10_000, help="campaigns a batch (100-100000)")
    parser.add_argument("--workers", type=int, default=2, help="local workers (1-64)")
    parser.add_argument("--rounds", type=int, default=3, help="alternations (1-20)")
    args = parser.parse_args(argv)
    refused = out_of_bounds(
        (
            ("--runs", args.runs, 100, 100_000),
            ("--workers", args.workers, 1, 64),
            ("--rounds", args.rounds, 1, 20),
        )
    )
    if refused is not None:
        print(refused, file=sys.stderr)
        return 2
    known = subprocess.run(
        ["git", "-C", str(_ROOT), "rev-parse", "--verify", "--quiet", f"{args.ref}^{{commit}}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if known.returncode != 0:
        print(f"error: {args.ref!r} is not a commit of {_ROOT}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "ref"
        git = ["git", "-C", str(_ROOT)]
        subprocess.run([*git, "worktree", "add", "--detach", "-q", str(tree), args.ref], check=True)
        try:
            if (tree / "campaign" / "native").is_dir():
                print(f"compiling {args.ref}'s campaign modules ...", flush=True)
                subprocess.run(
                    [sys.executable, "-m", "campaign.native", "build"],
                    cwd=tree,
                    env={**os.environ, "PYTHONPATH": str(tree)},
                    check=True,
                    capture_output=True,
                )
            # a first small batch in each tree, not counted: numba compiles a new worktree's
            # battle kernel into its cache then (a quarter of a minute, which the first
            # round would otherwise count against the earlier code)
            _batch(tree, 100, args.workers)
            _batch(_ROOT, 100, args.workers)
            for round_ in range(1, args.rounds + 1):
                old = _batch(tree, args.runs, args.workers)
                new = _batch(_ROOT, args.runs, args.workers)
                print(_line(f"round {round_}, {args.ref}", old), flush=True)
                print(_line(f"round {round_}, this code", new), flush=True)
                ratio = (new["battles"] / new["seconds"]) / (old["battles"] / old["seconds"])
                campaigns = (new["runs"] / new["seconds"]) / (old["runs"] / old["seconds"])
                print(
                    f"round {round_}: this code {ratio:.2f}x {args.ref}'s battles/s, "
                    f"{campaigns:.2f}x its campaigns/s",
                    flush=True,
                )
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", str(tree)], check=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
