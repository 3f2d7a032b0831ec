"""Batch speed and memory: default campaigns with 1 and 2 local workers (issue 5).

Each batch runs in a fresh child process (the coordinator), which reports its own peak RSS
(``RUSAGE_SELF``) and the largest RSS of its worker processes (sampled every 0.1 s with
psutil: a child's ``ru_maxrss`` also counts the parent's pages it had at fork), and the
workers' CPU seconds: when they fall well short of wall time × workers, other processes were
competing for the cores and the speed-up figure understates the batch runner.

Targets: speed-up ≥ 1.7× with 2 workers over 1 (on 2 cores), and at least 90% of the
machine's own ceiling for two CPU-bound Python processes, measured beside it; coordinator
< 400 MB and each worker < 300 MB whatever the batch size; 10,000 default campaigns in < 2
minutes on 2 cores; battles fought inside campaigns ≥ :data:`BATTLES_TARGET` per second on 2
workers (issue 15: five times the 1,310/s of main fc34652).

Run alone with ``python -m benchmarks.batch_speed`` (``--quick`` skips the 10,000 batch).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["run"]

#: Campaigns of the speed-up comparison and of the throughput target.
SPEEDUP_RUNS = 2_000
BIG_RUNS = 10_000
#: battles fought inside campaigns per second on 2 workers: 5 × 1,310 (fc34652), issue 15
BATTLES_TARGET = 6_500.0

_CHILD = """
import json, os, resource, sys, threading, time
import duckdb, psutil
from campaign.batch.plan import plan_batch
from campaign.batch.runner import run_batch
from campaign.batch.spec import BatchSpec

runs, workers, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
peak, stop = {}, threading.Event()

def sample():  # ru_maxrss of a child counts the parent's pages copied at fork: sample instead
    me = psutil.Process()
    while not stop.wait(0.1):
        for child in me.children(recursive=True):
            try:
                peak[child.pid] = max(peak.get(child.pid, 0), child.memory_info().rss)
            except psutil.Error:
                pass

threading.Thread(target=sample, daemon=True).start()
plan = plan_batch(BatchSpec(name="bench", runs=runs, seed=2024), "benchmark")
load = os.getloadavg()[0]
me0 = resource.getrusage(resource.RUSAGE_SELF)
t = time.perf_counter()
outcome = run_batch(plan, out, workers=workers, progress=False)
seconds = time.perf_counter() - t
stop.set()
cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
me = resource.getrusage(resource.RUSAGE_SELF)
with duckdb.connect(out, read_only=True) as con:
    battles = con.execute("SELECT sum(battles) FROM runs").fetchone()[0]
print(json.dumps({
    "runs": outcome.done_now, "seconds": seconds, "load": load, "battles": battles,
    "worker_cpu_s": cpu.ru_utime + cpu.ru_stime,
    "coordinator_cpu_s": me.ru_utime + me.ru_stime - me0.ru_utime - me0.ru_stime,
    "coordinator_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6,
    "worker_mb": max(peak.values(), default=0) / 1e6,
}))
"""


def _batch(runs: int, workers: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench.duckdb"
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(runs), str(workers), str(out)],
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def _ceiling(n: int = 10_000_000) -> float:
    """Speed-up of 2 processes over 1 on pure arithmetic: what the machine itself allows."""
    import multiprocessing

    start = time.perf_counter()
    _burn(n)
    alone = time.perf_counter() - start
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(_burn, [1, 1])  # start-up outside the timing
        start = time.perf_counter()
        pool.map(_burn, [n, n])
        both = time.perf_counter() - start
    return 2 * alone / both


def _battles_line(res: dict[str, float], label: str) -> str:
    from benchmarks.compare import versus

    rate = res["battles"] / res["seconds"]
    verdict = "ok" if rate >= BATTLES_TARGET else "BELOW TARGET"
    return (
        f"batch battles: {rate:,.0f} battles fought inside campaigns per second on 2 workers "
        f"({label}; {res['battles'] / res['runs']:.1f} battles a campaign) "
        f"(target >= {BATTLES_TARGET:,.0f}, 5x fc34652) [{verdict}]; "
        + versus(rate / 2, "battles per worker")
    )


def run(quick: bool = False) -> list[str]:
    """Run the batch benchmark and return its report lines.

    Parameters
    ----------
    quick : bool
        Skip the 10,000-campaign batch and project its time from the 2-worker rate.

    Returns
    -------
    list of str
        One line per measurement, each with its target.
    """
    one = _batch(SPEEDUP_RUNS, 1)
    two = _batch(SPEEDUP_RUNS, 2)
    lines = []
    for n, res in ((1, one), (2, two)):
        rate = res["runs"] / res["seconds"]
        busy = res["worker_cpu_s"] / (res["seconds"] * n)
        lines.append(
            f"batch, {n} worker(s): {res['runs']:,} default campaigns in {res['seconds']:.1f} s "
            f"= {rate:,.1f} campaigns/s (workers busy {busy:.0%} of wall time; "
            f"load average {res['load']:.1f} at start)"
        )
    speedup = one["seconds"] / two["seconds"]
    ceiling = _ceiling()
    lines.append(
        f"batch speed-up 2 vs 1 workers: {speedup:.3f}× (target ≥ 1.7×) {_verdict(speedup >= 1.7)}"
        f"; this machine's own ceiling for 2 CPU-bound Python processes: {ceiling:.2f}×, "
        f"so {speedup / ceiling:.0%} of it (target ≥ 90%) {_verdict(speedup >= 0.9 * ceiling)}"
    )
    runs = [one, two]
    if quick:
        projected = BIG_RUNS * two["seconds"] / two["runs"]
        lines.append(
            f"batch 10,000 campaigns, 2 workers: {projected:.0f} s projected from the 2,000 "
            f"batch (target < 120 s) {_verdict(projected < 120)}"
        )
        lines.append(_battles_line(two, f"{two['runs']:,} campaigns"))
    else:
        big = _batch(BIG_RUNS, 2)
        runs.append(big)
        lines.append(
            f"batch 10,000 campaigns, 2 workers: {big['seconds']:.1f} s "
            f"= {big['runs'] / big['seconds']:,.1f} campaigns/s (target < 120 s) "
            f"{_verdict(big['seconds'] < 120)}"
        )
        lines.append(_battles_line(big, f"{big['runs']:,} campaigns"))
    coord = max(r["coordinator_mb"] for r in runs)
    worker = max(r["worker_mb"] for r in runs)
    lines.append(
        f"batch peak RSS, coordinator: {coord:.0f} MB (target < 400 MB) {_verdict(coord < 400)}"
    )
    lines.append(
        f"batch peak RSS, largest worker: {worker:.0f} MB (target < 300 MB) "
        f"{_verdict(worker < 300)}"
    )
    return lines


if __name__ == "__main__":
    for line in run(quick="--quick" in sys.argv[1:]):
        print(line)
