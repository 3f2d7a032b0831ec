"""Batch speed and memory: default campaigns with 1 and 2 local workers (issues 5, 15).

Each batch runs in a fresh child process (the coordinator), which reports its own peak RSS
(``RUSAGE_SELF``) and CPU seconds, the largest RSS of its worker processes (sampled every
0.25 s with psutil, the process list read every 2 s, so the sampling costs the coordinator
little CPU: a child's ``ru_maxrss`` also counts the parent's pages it had at fork),
the workers' CPU seconds, and the batch's own timings (:class:`campaign.batch.runner.
BatchTimings`: CPU inside ``run_campaign`` and around it, when the first and last chunks came
back). When the workers' CPU falls well short of wall time × workers, other processes were
competing for the cores and the wall-clock figures understate the batch runner; the CPU
figures (the breakdown line) do not move with the load.

Targets: speed-up ≥ 1.7× with 2 workers over 1 (on 2 cores), and at least 90% of the
machine's own ceiling for two CPU-bound Python processes, measured beside it; coordinator
< 400 MB and each worker < 300 MB whatever the batch size; 10,000 default campaigns in < 2
minutes on 2 cores; battles fought inside campaigns on 2 workers at least five times
today's (issue 15), against both baselines: the issue's own (10,000 campaigns in about 33 s
at 3.6 battles each, ~1,090 battles/s → :data:`ISSUE_TARGET`) and the measurement of main
``fc34652`` (1,310 battles/s → :data:`MEASURED_TARGET`). The batch efficiency is the batch
rate over ``workers ×`` the single-core rate of the same campaigns run bare in one process
(:func:`bare_rate`); the ceiling allows about ``ceiling / 2`` of it.

The 2-vs-1-worker speed-up is measured on 2,000 campaigns and on issue 15's own batch of
10,000 (the same seeds on 1 worker, about 22 s): the target is judged on the 10,000, where the
fixed start-up and tail (about 0.5 to 1 s) weigh five times less.

Run alone with ``python -m benchmarks.batch_speed`` (``--quick`` skips the 10,000 batches and
judges the speed-up on the 2,000).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["ISSUE_TARGET", "ISSUE_YARDSTICK", "MEASURED_TARGET", "bare_pair", "bare_rate", "run"]

#: Campaigns of the speed-up comparison and of the throughput target.
SPEEDUP_RUNS = 2_000
BIG_RUNS = 10_000
#: The batch's seed entropy (run i's seed is ``run_seed(SEED, i)``).
SEED = 2024
#: issue 15: "today: 10,000 default campaigns in about 33 s at 3.6 battles each"
ISSUE_BASELINE = 10_000 * 3.6 / 33
#: battles fought inside campaigns per second on 2 workers, main fc34652 (issue 15 bench)
MEASURED_BASELINE = 1_310.0
#: five times each baseline: ~5,450 and 6,550 battles/s
ISSUE_TARGET = 5 * ISSUE_BASELINE
MEASURED_TARGET = 5 * MEASURED_BASELINE
#: toy battles per second of the plain-Python yardstick on the machine where the issue
#: measured "today" (issue 15: "about 11,000 toy battles/s on this machine")
ISSUE_YARDSTICK = 11_000.0

_CHILD = """
import json, os, resource, sys, threading, time
import psutil
from campaign.batch.server import start_server

runs, workers, out, seed = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
peak, stop = {}, threading.Event()

def sample():  # ru_maxrss of a child counts the parent's pages copied at fork: sample instead
    me, children, ticks = psutil.Process(), [], 0
    while not stop.wait(0.25):  # cheap: the process list is read again only every 2 s
        if ticks % 8 == 0:
            children = me.children(recursive=True)
        ticks += 1
        for child in children:
            try:
                peak[child.pid] = max(peak.get(child.pid, 0), child.memory_info().rss)
            except psutil.Error:
                pass

threading.Thread(target=sample, daemon=True).start()
me_plan = resource.getrusage(resource.RUSAGE_SELF)
planning = time.perf_counter()
start_server()  # as `campaign batch` does: the workers' fork server warms up meanwhile
import duckdb
from campaign.batch.plan import plan_batch
from campaign.batch.runner import run_batch
from campaign.batch.spec import BatchSpec
plan = plan_batch(BatchSpec(name="bench", runs=runs, seed=seed), "benchmark")
load = os.getloadavg()[0]
me0 = resource.getrusage(resource.RUSAGE_SELF)
t = time.perf_counter()
planning = t - planning
outcome = run_batch(plan, out, workers=workers, progress=False)
seconds = time.perf_counter() - t
stop.set()
cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
worker_cpu = cpu.ru_utime + cpu.ru_stime  # workers this process started and reaped
# children not reaped yet (the fork server, the workers it forked), and what they reaped
for child in psutil.Process().children(recursive=True):
    try:
        t = child.cpu_times()
    except psutil.Error:
        continue
    worker_cpu += t.user + t.system + t.children_user + t.children_system
me = resource.getrusage(resource.RUSAGE_SELF)
with duckdb.connect(out, read_only=True) as con:
    battles = con.execute("SELECT sum(battles) FROM runs").fetchone()[0]
tm = outcome.timings
print(json.dumps({
    "runs": outcome.done_now, "seconds": seconds, "load": load, "battles": battles,
    "worker_cpu_s": worker_cpu,
    "coordinator_cpu_s": me.ru_utime + me.ru_stime - me0.ru_utime - me0.ru_stime,
    "planning_s": planning,
    "planning_cpu_s": me0.ru_utime + me0.ru_stime - me_plan.ru_utime - me_plan.ru_stime,
    "coordinator_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6,
    "worker_mb": max(peak.values(), default=0) / 1e6,
    "first_result": tm.first_result, "first_chunk": tm.first_chunk,
    "last_result": tm.last_result, "chunk_cpu_s": tm.cpu_seconds,
    "campaign_cpu_s": tm.campaign_seconds,
}))
"""


def _batch(runs: int, workers: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench.duckdb"
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(runs), str(workers), str(out), str(SEED)],
            capture_output=True,
            text=True,
            check=True,
        )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


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


@cache
def _bare_inputs(campaigns: int) -> tuple[Any, Any, list[int], dict[str, str]]:
    """The default map (its routes built), the default rules, the batch's first
    ``campaigns`` seeds and the default batch's doctrines (a batch spec's first
    ``doctrines`` entry, ``balanced:cautious``: the campaigns the batch itself runs), loaded
    once per process, after one warm-up campaign."""
    from campaign.batch.spec import BatchSpec, parse_doctrines
    from campaign.batch.worker import run_seed
    from campaign.config import load_rules
    from campaign.engine import run_campaign
    from campaign.maps import load_map

    red, blue = parse_doctrines(BatchSpec(name="bench", runs=1).doctrines[0])
    doctrines = {"red": red, "blue": blue}
    cmap, loaded = load_map(), load_rules()
    cmap.routes  # noqa: B018 - built once per map, as a batch worker does
    seeds = [run_seed(SEED, i) for i in range(campaigns)]
    run_campaign(cmap, loaded, seeds[0], doctrines, record_events=False)  # warm up
    return cmap, loaded, seeds, doctrines


def _bare_pass(campaigns: int) -> tuple[float, int]:
    """Run the first ``campaigns`` seeds once, bare; returns (process seconds, battles)."""
    from campaign.engine import run_campaign

    cmap, loaded, seeds, doctrines = _bare_inputs(campaigns)
    start = time.process_time()
    battles = sum(
        run_campaign(cmap, loaded, s, doctrines, record_events=False).battles for s in seeds
    )
    return time.process_time() - start, battles


def bare_rate(campaigns: int = 2_000, repeats: int = 2) -> dict[str, float]:
    """Campaigns per second on one core, bare: the batch's first ``campaigns`` runs (same
    seeds, default map, rules and doctrines, events off) called straight in this process, best of
    ``repeats`` by process time. Returns ``rate`` (campaigns/s), ``ms`` (per campaign) and
    ``battles`` (per campaign)."""
    best, battles = float("inf"), 0
    for _ in range(repeats):
        seconds, battles = _bare_pass(campaigns)
        best = min(best, seconds)
    return {"rate": campaigns / best, "ms": best * 1000 / campaigns, "battles": battles / campaigns}


_pair: dict[str, Any] = {}


def _pair_init(campaigns: int, barrier: Any) -> None:
    _pair["barrier"] = barrier
    _bare_inputs(campaigns)


def _pair_pass(campaigns: int) -> float:
    _pair["barrier"].wait(120)  # both processes start together (one task each)
    return _bare_pass(campaigns)[0]


def bare_pair(campaigns: int = 2_000, repeats: int = 1) -> dict[str, float]:
    """The bare loop of :func:`bare_rate` in two processes at once, no batch plumbing:
    CPU milliseconds a campaign when two campaign processes share the machine (its caches
    and memory), best of ``repeats`` in each process, averaged over the two. Returns ``ms``.
    """
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(2)
    best = [float("inf"), float("inf")]
    with ctx.Pool(2, initializer=_pair_init, initargs=(campaigns, barrier)) as pool:
        for _ in range(repeats):
            for i, seconds in enumerate(pool.map(_pair_pass, [campaigns, campaigns], 1)):
                best[i] = min(best[i], seconds)
    return {"ms": sum(best) * 1000 / (2 * campaigns)}


def _breakdown(res: dict[str, float], workers: int) -> str:
    """Where a batch's time went, per campaign and per 1,000 campaigns (CPU figures do not
    move with other load; wall figures do)."""
    runs = res["runs"]
    inside = res["campaign_cpu_s"] / runs * 1000
    around = (res["chunk_cpu_s"] - res["campaign_cpu_s"]) / runs * 1e6
    start_up = (res["worker_cpu_s"] - res["chunk_cpu_s"]) / workers
    slots = res["seconds"] * workers
    idle = slots - res["worker_cpu_s"]
    share = res["campaign_cpu_s"] / (res["worker_cpu_s"] + res["coordinator_cpu_s"])
    return (
        f"batch breakdown ({runs:,} campaigns, {workers} workers): workers {inside:.2f} ms CPU "
        f"a campaign in run_campaign + {around:.0f} us around it (seed, row, column buffers), "
        f"{start_up:.2f} s CPU each to start (imports, warm-up, the first cell's map and "
        "rules); coordinator "
        f"{res['coordinator_cpu_s'] * 1000 / runs * 1000:,.0f} ms CPU per 1,000 campaigns; "
        f"{res['first_result'] - res['first_chunk']:.2f} s wall before the first chunk began, "
        f"{res['seconds'] - res['last_result']:.2f} s after the last came back; workers idle "
        f"{idle:.1f} s of {slots:.1f} worker-seconds ({idle / slots:.0%}); "
        f"{share:.1%} of all the batch's CPU was inside run_campaign"
    )


def _battles_line(res: dict[str, float], label: str) -> str:
    from benchmarks.compare import versus

    rate = res["battles"] / res["seconds"]
    verdicts = [
        f">= {target:,.0f} (5x {base:,.0f}/s: {what}) [{'ok' if rate >= target else 'BELOW'}]"
        for target, base, what in (
            (ISSUE_TARGET, ISSUE_BASELINE, "the issue's 10,000 campaigns in ~33 s at 3.6 battles"),
            (MEASURED_TARGET, MEASURED_BASELINE, "measured at fc34652"),
        )
    ]
    return (
        f"batch battles: {rate:,.0f} battles fought inside campaigns per second on 2 workers "
        f"({label}; {res['battles'] / res['runs']:.1f} battles a campaign); targets "
        + ", ".join(verdicts)
        + "; "
        + versus(rate / 2, "battles per worker")
    )


def _normalised_line(res: dict[str, float]) -> str:
    """The issue's target scaled by this machine's speed on the plain-Python yardstick
    (measured in this run) over the issue's machine's (:data:`ISSUE_YARDSTICK`): what the
    raw target asks of a machine this fast or this slow. The raw targets stay the goal."""
    from benchmarks.compare import yardstick_rate

    rate = res["battles"] / res["seconds"]
    here = yardstick_rate()
    target = ISSUE_TARGET * here / ISSUE_YARDSTICK
    verdict = "ok" if rate >= target else "BELOW"
    return (
        f"batch battles, normalised by the yardstick: {rate:,.0f} battles/s on 2 workers against "
        f"{target:,.0f} = the issue's target {ISSUE_TARGET:,.0f} x ({here:,.0f} toy battles/s "
        f"here now / {ISSUE_YARDSTICK:,.0f} on the issue's machine) [{verdict}]; the raw targets "
        "above are unchanged"
    )


#: issue 15, worker start-up: wall seconds before the first chunk begins, at most
START_UP_TARGET = 0.4


def _start_up_line(batches: list[tuple[int, dict[str, float]]]) -> str:
    """Wall seconds from the start of each batch (``run_batch``) to its first chunk beginning
    in a worker (workers starting, the results file opened), the workers' start-up CPU each
    (the fork server's included), and the planning before it (the batch modules imported,
    ``plan_batch``), while the fork server already warms up, as in ``campaign batch``."""
    parts = []
    for workers, res in batches:
        wall = res["first_result"] - res["first_chunk"]
        cpu = (res["worker_cpu_s"] - res["chunk_cpu_s"]) / workers
        verdict = _verdict(wall <= START_UP_TARGET)
        parts.append(
            f"{res['runs']:,} campaigns on {workers}: {wall:.2f} s {verdict} ({cpu:.2f} s CPU a "
            f"worker; planning before it {res['planning_s']:.2f} s wall, "
            f"{res['planning_cpu_s']:.2f} s CPU)"
        )
    return (
        f"batch start-up, wall before the first chunk began (target ≤ {START_UP_TARGET} s): "
        + "; ".join(parts)
    )


def _speedup_line(
    one: dict[str, float], two: dict[str, float], ceiling: float, judged: bool
) -> str:
    """The 2-vs-1-worker speed-up of one batch size, beside the machine's ceiling; ``judged``:
    the figure issue 15's target is judged on (its own batch of 10,000 default campaigns,
    or the 2,000-campaign one when ``--quick`` skips the 10,000)."""
    speedup = one["seconds"] / two["seconds"]
    runs = f"{two['runs']:,}"
    which = (
        "the figure the target is judged on: issue 15's batch"
        if judged
        else f"not the judged figure: the fixed start-up and tail weigh more on {runs} campaigns;"
        f" the {BIG_RUNS:,}-campaign line below is issue 15's batch"
    )
    return (
        f"batch speed-up 2 vs 1 workers, {runs} campaigns ({which}): {speedup:.3f}× "
        f"(target ≥ 1.7×) {_verdict(speedup >= 1.7)}; this machine's own ceiling for 2 "
        f"CPU-bound Python processes: {ceiling:.2f}×, so {speedup / ceiling:.0%} of it "
        f"(target ≥ 90%) {_verdict(speedup >= 0.9 * ceiling)}"
    )


def _efficiency_line(
    res: dict[str, float], workers: int, bare: dict[str, float], ceiling: float
) -> str:
    rate = res["runs"] / res["seconds"]
    efficiency = rate / (workers * bare["rate"])
    allowed = ceiling / 2 if workers == 2 else 1.0
    return (
        f"batch efficiency ({res['runs']:,} campaigns, {workers} workers): {rate:,.1f} campaigns/s "
        f"= {efficiency:.1%} of {workers} x the single-core bare rate ({bare['rate']:,.1f}/s, "
        f"{bare['ms']:.2f} ms a campaign, the same seeds run in one process); the machine's "
        f"ceiling allows {allowed:.1%}, so {efficiency / allowed:.1%} of it"
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
    # the same seeds as the 2,000-campaign batches: the first few hundred seeds alone are
    # cheaper than the batch's average (1.98 against 2.13-2.27 ms a campaign, 18:50
    # 2026-12-01), which made the batch look less efficient than it is
    bare = bare_rate(SPEEDUP_RUNS)
    pair = bare_pair(SPEEDUP_RUNS)
    one = _batch(SPEEDUP_RUNS, 1)
    two = _batch(SPEEDUP_RUNS, 2)
    big = None if quick else _batch(BIG_RUNS, 2)
    big_one = None if quick else _batch(BIG_RUNS, 1)  # the same 10,000 seeds on 1 worker
    ceiling = _ceiling()
    lines = [
        f"batch bare rate: {bare['rate']:,.1f} campaigns/s on one core ({bare['ms']:.2f} ms a "
        f"campaign, {bare['battles']:.1f} battles; the batch's first {SPEEDUP_RUNS:,} seeds "
        "called in one process, best of 2, process time): the rate a batch worker would reach "
        "with nothing around run_campaign"
    ]
    bigs = ((1, big_one), (2, big)) if big and big_one else ()
    for n, res in ((1, one), (2, two), *bigs):
        rate = res["runs"] / res["seconds"]
        busy = res["worker_cpu_s"] / (res["seconds"] * n)
        lines.append(
            f"batch, {n} worker(s): {res['runs']:,} default campaigns in {res['seconds']:.1f} s "
            f"= {rate:,.1f} campaigns/s, {res['battles'] / res['seconds']:,.0f} battles/s "
            f"(workers busy {busy:.0%} of wall time; load average {res['load']:.1f} at start)"
        )
    lines.append(_speedup_line(one, two, ceiling, judged=big is None))
    if big and big_one:
        lines.append(_speedup_line(big_one, big, ceiling, judged=True))
    main = big or two
    lines.append(_breakdown(main, 2))
    lines.append(_start_up_line([(1, one), (2, two), *bigs]))
    inside = main["campaign_cpu_s"] / main["runs"] * 1000
    lines.append(
        f"batch bare pair: the same {SPEEDUP_RUNS:,} seeds run bare in 2 processes at once (no "
        f"batch plumbing; once each): {pair['ms']:.2f} ms CPU a campaign in each, against "
        f"{bare['ms']:.2f} ms alone ({pair['ms'] / bare['ms'] - 1:+.0%}): what two campaign "
        f"processes cost each other on this machine (shared caches and memory), so two of them "
        f"reach at most {2 * bare['ms'] / pair['ms']:.2f}x one; the batch's workers spent "
        f"{inside:.2f} ms a campaign in run_campaign"
    )
    lines.append(_efficiency_line(one, 1, bare, ceiling))
    if big_one:
        lines.append(_efficiency_line(big_one, 1, bare, ceiling))
    lines.append(_efficiency_line(main, 2, bare, ceiling))
    if big is None:
        projected = BIG_RUNS * two["seconds"] / two["runs"]
        lines.append(
            f"batch 10,000 campaigns, 2 workers: {projected:.0f} s projected from the 2,000 "
            f"batch (target < 120 s) {_verdict(projected < 120)}"
        )
    else:
        lines.append(
            f"batch 10,000 campaigns, 2 workers: {big['seconds']:.1f} s "
            f"= {big['runs'] / big['seconds']:,.1f} campaigns/s (target < 120 s) "
            f"{_verdict(big['seconds'] < 120)}"
        )
    lines.append(_battles_line(main, f"{main['runs']:,} campaigns"))
    lines.append(_normalised_line(main))
    runs = [one, two, *([big] if big else []), *([big_one] if big_one else [])]
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
