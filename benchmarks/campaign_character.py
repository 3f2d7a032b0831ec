"""The campaign-character goals of issue 10, measured (RULES.md §8.8; not part of ``make bench``).

Run: ``python -m benchmarks.campaign_character [--runs N]`` (default 300 campaigns for the
default map's balanced-against-balanced figures, N/3 per temper pairing). Seeds are 0..N-1,
so the figures are exactly reproducible. Prints one line per goal with its target.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import tempfile
from collections import Counter
from pathlib import Path

import networkx as nx
import numpy as np
import yaml

__all__ = ["default_map_goals", "foreign_map_goals", "main", "temper_goals"]

TEMPERS = ("aggressive", "cautious", "balanced", "raider")


def _ok(good: bool) -> str:
    return "met" if good else "NOT MET"


def default_map_goals(runs: int) -> list[str]:
    """Default map, balanced against balanced, seeds 0..runs-1: the six character goals."""
    from campaign.config import load_rules
    from campaign.engine import run_campaign
    from campaign.events import BattleFought, RoughRoadTest
    from campaign.maps import load_map

    cmap, loaded = load_map(), load_rules()
    day1 = 0
    battles: list[int] = []
    places: Counter[str] = Counter()
    openings: Counter[tuple[tuple[int, str], ...]] = Counter()
    rough = 0
    wins: Counter[str | None] = Counter()
    for seed in range(runs):
        result = run_campaign(cmap, loaded, seed)
        fought = [e for e in result.events if isinstance(e, BattleFought)]
        battles.append(len(fought))
        places.update(e.place for e in fought)
        openings[tuple((e.t // 1440 + 1, e.place) for e in fought[:3])] += 1
        rough += any(isinstance(e, RoughRoadTest) for e in result.events)
        day1 += result.winner is not None and result.days == 1
        wins[result.winner] += 1
    total = sum(places.values())
    top_place, top_n = places.most_common(1)[0]
    top_opening = openings.most_common(1)[0][1]
    return [
        f"default map, balanced:balanced, {runs} seeds (red {wins['red']}, blue {wins['blue']}, "
        f"draws {wins[None]}):",
        f"  decided on day 1: {day1 / runs:.1%} (goal <= 25%: {_ok(day1 / runs <= 0.25)})",
        f"  median battles: {statistics.median(battles):g}, mean {statistics.mean(battles):.2f} "
        f"(goal >= 5: {_ok(statistics.median(battles) >= 5)})",
        f"  busiest place: {top_place} with {top_n / total:.1%} of {total} battles "
        f"(goal <= 35%: {_ok(top_n / total <= 0.35)})",
        f"  distinct battle places: {len(places)} (goal >= 8: {_ok(len(places) >= 8)})",
        f"  openings (day and place of the first three battles): {len(openings)} distinct; "
        f"the commonest in {top_opening / runs:.1%} of seeds, so {1 - top_opening / runs:.1%} "
        f"differ from it (goal >= 50%: {_ok(1 - top_opening / runs >= 0.5)})",
        f"  rough roads tested in {rough / runs:.1%} of campaigns "
        f"(goal >= 60%: {_ok(rough / runs >= 0.6)})",
    ]


def temper_goals(runs: int) -> list[str]:
    """Every pairing of the four tempers on the default and Waterloo maps."""
    from campaign.config import load_rules
    from campaign.engine import run_campaign
    from campaign.events import BattleFought
    from campaign.maps import load_map

    loaded = load_rules()
    lines = [f"temper pairings, {runs} seeds a cell (day-1 base captures / draws / a battle):"]
    worst = {"base": 0.0, "draws": 0.0, "battle": 1.0}
    for name in ("default", "waterloo-1815"):
        cmap = load_map(None if name == "default" else name)
        cells = []
        for red, blue in itertools.product(TEMPERS, TEMPERS):
            base = draws = battle = 0
            for seed in range(runs):
                result = run_campaign(cmap, loaded, seed, {"red": red, "blue": blue})
                fought = [e for e in result.events if isinstance(e, BattleFought)]
                taken = result.winner is not None and "enemy base" in result.reason
                enemy_base = cmap.sides["blue" if result.winner == "red" else "red"].base
                undefended = taken and not any(e.place == enemy_base for e in fought)
                base += undefended and result.days == 1
                draws += result.winner is None
                battle += bool(fought)
            shares = f"{base / runs:.0%}/{draws / runs:.0%}/{battle / runs:.0%}"
            cells.append(f"{red[:3]}:{blue[:3]} {shares}")
            worst["base"] = max(worst["base"], base / runs)
            worst["draws"] = max(worst["draws"], draws / runs)
            worst["battle"] = min(worst["battle"], battle / runs)
        lines.append(f"  {name}: " + ", ".join(cells))
    lines.append(
        f"  worst cells: day-1 capture of an undefended base {worst['base']:.0%} (goal <= 50%: "
        f"{_ok(worst['base'] <= 0.5)}), draws {worst['draws']:.0%} (goal <= 40%: "
        f"{_ok(worst['draws'] <= 0.4)}), a battle in {worst['battle']:.0%} (goal >= 90%: "
        f"{_ok(worst['battle'] >= 0.9)})"
    )
    return lines


def _random_net(seed: int, folder: Path) -> Path:
    """A small random road net (8-29 junctions, a quarter of its roads rough) in the
    neutral map format: no sides, so they are chosen automatically (RULES.md §8.7)."""
    rng = np.random.default_rng(seed)
    size = int(rng.integers(8, 30))
    pos = rng.random((size, 2))
    g = nx.Graph()
    g.add_nodes_from(range(size))
    for i, j in itertools.combinations(range(size), 2):
        if np.hypot(*(pos[i] - pos[j])) < 0.45:
            g.add_edge(i, j)
    comps = sorted(nx.connected_components(g), key=min)
    for a, b in itertools.pairwise(comps):
        g.add_edge(min(a), min(b))
    doc = {
        "junctions": [{"id": f"j{v}", "pos": [float(x) * 100 for x in pos[v]]} for v in g],
        "roads": [
            [
                f"j{a}",
                f"j{b}",
                {
                    "kind": "rough" if rng.random() < 0.25 else "normal",
                    "hours": float(np.round(rng.uniform(1.5, 6.0), 1)),
                },
            ]
            for a, b in g.edges
        ],
    }
    path = folder / f"net{seed}.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return path


def foreign_map_goals(nets: int) -> list[str]:
    """Maps never seen, sides chosen automatically: random nets and ../shared/maps."""
    from campaign.config import load_rules
    from campaign.engine import run_campaign
    from campaign.errors import MapError
    from campaign.maps import MapOptions, load_map
    from campaign.paths import SHARED_MAPS_DIR

    loaded = load_rules()
    lines = ["maps not seen before, automatic sides, balanced:balanced:"]
    with tempfile.TemporaryDirectory() as tmp:
        random_maps = [_random_net(s, Path(tmp)) for s in range(nets)]
        shared = sorted(SHARED_MAPS_DIR.glob("*.yaml")) + sorted(
            (SHARED_MAPS_DIR / "graphml").glob("*.graphml")
        )
        every: list[int] = []
        for label, files, seeds in (("random nets", random_maps, 3), ("shared maps", shared, 10)):
            counts = []
            for path in files:
                for seed in range(seeds):
                    try:
                        cmap = load_map(path, MapOptions(seed=seed))
                    except MapError:
                        continue  # a map that cannot hold a campaign (refused with a reason)
                    counts.append(run_campaign(cmap, loaded, seed, record_events=False).battles)
            every += counts
            lines.append(
                f"  {label}: {len(counts)} campaigns, a battle in "
                f"{sum(c > 0 for c in counts) / len(counts):.0%}, median battles "
                f"{statistics.median(counts):g}"
            )
    share = sum(c > 0 for c in every) / len(every)
    lines.append(
        f"  together: a battle in {share:.0%} (goal >= 80%: {_ok(share >= 0.8)}), median "
        f"battles {statistics.median(every):g} (goal >= 3: {_ok(statistics.median(every) >= 3)})"
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print every goal's figure."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=300, choices=range(30, 3001), metavar="N")
    args = parser.parse_args(argv)
    for line in (
        default_map_goals(args.runs)
        + temper_goals(args.runs // 3)
        + foreign_map_goals(args.runs // 10)
    ):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
