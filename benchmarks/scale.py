"""How time grows with size (issue 15): battles, maps and batches. Not part of plain ``make bench``.

Run: ``python -m benchmarks scale`` (2-4 minutes on 2 cores) or ``python -m benchmarks.scale
--quick`` (under a minute: smaller sizes, no 10,000 batch); ``--tables batches`` makes one
table only. Three tables:

- **Battles** of 1 to 100 units a side (2–200 in all), both sides the same mix (three in four
  infantry, the rest cavalry and batteries in equal parts), default rules, events off: the
  time per battle, best of a ~1 s run.
- **Campaigns** on road nets of 10 to 1,000 junctions drawn with networkx
  (:func:`networkx.random_geometric_graph`, about 3.5 roads a junction, a quarter of them rough,
  road hours from the distance), sides chosen automatically (RULES.md §8.7): loading the map
  once, then the time per campaign, events off, and the process's peak memory so far (the
  route caches grow with the map).
- **Batches** of default campaigns on 2 local workers: 1,000 and 10,000 measured (wall time,
  peak memory), 100,000 and 1,000,000 extrapolated from the 10,000 rate (labelled so), and the
  Dask workers a million campaigns in ten minutes would need at that per-worker rate.

Each line is also given as a ratio to the yardstick (:mod:`benchmarks.compare`), so the table
can be rerun after the compiled battle kernel lands and compared.
"""

from __future__ import annotations

import argparse
import itertools
import math
import tempfile
import time
from pathlib import Path

import networkx as nx
import numpy as np
import yaml

__all__ = ["TABLES", "batch_table", "battle_table", "make_road_net", "map_table", "run"]

#: units a side of the battle table (2-200 units in all)
BATTLE_SIZES = (1, 2, 5, 10, 25, 50, 100)
#: junctions of the map table
MAP_SIZES = (10, 30, 100, 300, 1_000)
#: a million campaigns in ten minutes
GOAL_RUNS, GOAL_SECONDS = 1_000_000, 600.0


def _flag(units: int) -> str:
    """A force flag of ``units`` units: 3/4 infantry, the rest cavalry and batteries."""
    cav = art = units // 8
    inf = units - cav - art
    return f"{inf}i" + (f"{cav}c" if cav else "") + (f"{art}a" if art else "")


def battle_table(sizes: tuple[int, ...] = BATTLE_SIZES, seconds: float = 1.0) -> list[str]:
    """Time per battle by force size; returns the table's lines."""
    from battle.engine import fight
    from battle.forces import parse_force_flag
    from benchmarks.compare import ratio
    from campaign.config import load_rules

    rules = load_rules().rules.battle
    lines = [
        "| units a side (in all) | force | µs per battle | bounds | battles/s | per toy battle |"
    ]
    lines.append("| --- | --- | --- | --- | --- | --- |")
    root = np.random.SeedSequence(15)
    for n in sizes:
        red = parse_force_flag(_flag(n), "Red", "R")
        blue = parse_force_flag(_flag(n), "Blue", "B")
        fight(red, blue, rules, np.random.default_rng(0), record_events=False)  # warm up
        count = bounds = 0
        start = time.process_time()
        while time.process_time() - start < seconds or count < 5:
            rng = np.random.default_rng(root.spawn(1)[0])
            bounds += fight(red, blue, rules, rng, record_events=False).bounds
            count += 1
        per = (time.process_time() - start) / count
        lines.append(
            f"| {n} ({2 * n}) | {_flag(n)} | {per * 1e6:,.0f} | {bounds / count:.1f} | "
            f"{1 / per:,.0f} | {ratio(1 / per):.3g} |"
        )
    return lines


def make_road_net(junctions: int, seed: int) -> nx.Graph:
    """A connected random road net of ``junctions`` junctions in the neutral map format's
    terms: ``pos`` (0-100 map units), road ``hours`` (1-8, from the distance) and ``kind``
    (a quarter ``rough``). Components are joined at their nearest junctions.
    """
    radius = math.sqrt(3.5 / (math.pi * junctions))  # about 3.5 roads a junction
    g = nx.random_geometric_graph(junctions, radius, seed=seed)
    pos = {v: np.asarray(g.nodes[v]["pos"]) for v in g}
    comps = sorted((sorted(c) for c in nx.connected_components(g)), key=lambda c: c[0])
    for a, b in itertools.pairwise(comps):  # join each component to the next, nearest pair
        u, v = min(itertools.product(a, b), key=lambda p: float(np.hypot(*(pos[p[0]] - pos[p[1]]))))
        g.add_edge(u, v)
    rng = np.random.default_rng(seed)
    for u, v in sorted(g.edges):
        dist = float(np.hypot(*(pos[u] - pos[v])))
        g.edges[u, v]["hours"] = round(min(8.0, max(1.0, 1.0 + 4.0 * dist / radius)), 1)
        g.edges[u, v]["kind"] = "rough" if rng.random() < 0.25 else "normal"
    return g


def _write_net(g: nx.Graph, path: Path) -> Path:
    doc = {
        "junctions": [
            {"id": f"j{v}", "pos": [round(float(x) * 100, 2) for x in g.nodes[v]["pos"]]}
            for v in sorted(g)
        ],
        "roads": [
            [f"j{a}", f"j{b}", {"kind": d["kind"], "hours": d["hours"]}]
            for a, b, d in sorted(g.edges(data=True))
        ],
    }
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return path


def map_table(sizes: tuple[int, ...] = MAP_SIZES, seconds: float = 6.0) -> list[str]:
    """Time per campaign by map size; returns the table's lines."""
    from benchmarks.compare import ratio
    from campaign.config import load_rules
    from campaign.engine import run_campaign
    from campaign.maps import MapOptions, load_map

    loaded = load_rules()
    lines = [
        "| junctions | roads | map load (s) | ms per campaign | days | battles | marches | "
        "µs per march | campaigns/s | per toy battle | peak MB |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            g = make_road_net(n, seed=n)
            path = _write_net(g, Path(tmp) / f"net{n}.yaml")
            start = time.process_time()
            cmap = load_map(path, MapOptions(seed=1))
            cmap.routes  # noqa: B018 - built once per map, as a batch worker does
            run_campaign(cmap, loaded, 0, record_events=False)  # warm: tables, caches
            load_s = time.process_time() - start
            count = days = battles = marches = 0
            start = time.process_time()
            while (time.process_time() - start < seconds or count < 3) and count < 500:
                res = run_campaign(cmap, loaded, count + 1, record_events=False)
                count += 1
                days += res.days
                battles += res.battles
                marches += res.marches
            per = (time.process_time() - start) / count
            lines.append(
                f"| {n:,} | {g.number_of_edges():,} | {load_s:.2f} | {per * 1000:,.1f} | "
                f"{days / count:.1f} | {battles / count:.1f} | {marches / count:.0f} | "
                f"{per * count * 1e6 / max(marches, 1):,.0f} | {1 / per:,.0f} | "
                f"{ratio(1 / per):.3g} | {_peak_mb():.0f} |"
            )
    return lines


def _peak_mb() -> float:
    """Peak RSS of this process so far (MB): what a batch worker on that map would need."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def batch_table(sizes: tuple[int, ...] = (1_000, 10_000)) -> list[str]:
    """Batches on 2 local workers: measured sizes, then 10^5 and 10^6 extrapolated."""
    from benchmarks.batch_speed import _batch

    lines = [
        "| campaigns | wall time | campaigns/s | battles/s | coordinator MB | worker MB | "
        "workers busy | load at start | |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    measured = []
    for n in sizes:
        res = _batch(n, 2)
        measured.append(res)
        lines.append(
            f"| {n:,} | {res['seconds']:,.1f} s | {res['runs'] / res['seconds']:,.0f} | "
            f"{res['battles'] / res['seconds']:,.0f} | {res['coordinator_mb']:.0f} | "
            f"{res['worker_mb']:.0f} | {res['worker_cpu_s'] / (2 * res['seconds']):.0%} | "
            f"{res['load']:.1f} | measured |"
        )
    last = measured[-1]
    rate = last["runs"] / last["seconds"]
    for n in (100_000, 1_000_000):
        if n <= max(sizes):
            continue
        lines.append(
            f"| {n:,} | {n / rate:,.0f} s | {rate:,.0f} | "
            f"{last['battles'] / last['seconds']:,.0f} | flat | flat | | | "
            f"extrapolated from {max(sizes):,} |"
        )
    per_worker = rate / 2
    need = math.ceil(GOAL_RUNS / GOAL_SECONDS / per_worker)
    cpu_per_run = last["worker_cpu_s"] / last["runs"]  # not inflated by other load
    need_cpu = math.ceil(GOAL_RUNS / GOAL_SECONDS * cpu_per_run)
    first = measured[0]
    if len(measured) > 1:  # the coordinator's cost per run, start-up left out
        per_run = (last["coordinator_cpu_s"] - first["coordinator_cpu_s"]) / (
            last["runs"] - first["runs"]
        )
    else:
        per_run = last["coordinator_cpu_s"] / last["runs"]
    coordinator = 1 / max(per_run, 1e-9)
    lines.append("")
    lines.append(
        f"A million campaigns in ten minutes is {GOAL_RUNS / GOAL_SECONDS:,.0f} campaigns/s. "
        f"The workers spent {cpu_per_run * 1e3:.2f} CPU ms a campaign (start-up included; "
        f"other load on the machine does not inflate CPU time), so it takes {need_cpu} fully "
        f"busy Dask workers (one core each, like these); at the wall-clock rate above, "
        f"{per_worker:,.0f} campaigns/s per worker, it takes {need}. The coordinator spends "
        f"{per_run * 1e3:.2f} CPU ms a run, so it could take about {coordinator:,.0f} runs/s "
        "(extrapolated)."
    )
    return lines


TABLES = ("battles", "maps", "batches")


def run(quick: bool = False, tables: tuple[str, ...] = TABLES) -> list[str]:
    """The chosen tables (smaller ones with ``quick``); returns the report lines."""
    from benchmarks.compare import yardstick_rate

    lines = [f"scale: yardstick {yardstick_rate():,.0f} toy battles/s now"]
    if "battles" in tables:
        lines += ["", "Battles (one core, events off, process time):", ""]
        lines += battle_table(BATTLE_SIZES[:4] if quick else BATTLE_SIZES, 0.3 if quick else 1.0)
    if "maps" in tables:
        lines += ["", "Campaigns by map size (one core, events off, process time):", ""]
        lines += map_table(MAP_SIZES[:3] if quick else MAP_SIZES, 1.0 if quick else 6.0)
    if "batches" in tables:
        lines += ["", "Batches of default campaigns (2 local workers, wall time):", ""]
        lines += batch_table((1_000,) if quick else (1_000, 10_000))
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sizes, under a minute")
    parser.add_argument(
        "--tables",
        default=",".join(TABLES),
        help=f"comma-separated tables to make, of {', '.join(TABLES)} (default: all)",
    )
    args = parser.parse_args(argv)
    chosen = tuple(t.strip() for t in args.tables.split(",") if t.strip())
    unknown = sorted(set(chosen) - set(TABLES))
    if unknown or not chosen:
        parser.error(f"--tables: unknown table(s) {', '.join(unknown)}; choose from {TABLES}")
    for line in run(quick=args.quick, tables=chosen):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
