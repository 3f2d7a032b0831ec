"""What resuming a save costs beyond the replay itself (issue 28: under 50 ms for a default
campaign).

``python -m benchmarks.save_resume [--seeds N]`` saves default campaigns at Day 2 12:00 and
times, best of five each, (a) the replay itself: the campaign built from the same inputs —
its map and rules read, as any run reads them — and run to the same minute; and (b) the
whole resume up to the point where the campaign runs on: reading and parsing the save file,
loading the map and rules and checking their fingerprints (SHA-256 of the map file, the
rules' hash), the replay and the state check. It prints the median of (b) - (a) over the
seeds, and (b) less the replay alone with the map and rules already in memory; then what a
resume adds, part by part, best of twenty: reading and parsing the save, the map file's
SHA-256, taking the state and comparing it with the saved one.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import tempfile
import time
from pathlib import Path

from campaign.config import load_rules
from campaign.engine import Campaign
from campaign.maps import MapOptions, load_map
from campaign.maps.loader import resolve_map_path
from campaign.save.format import SaveInputs, dumps, read_save
from campaign.save.replay import (
    build,
    load_inputs,
    map_input,
    replay,
    rules_input,
    run_to,
    save_of,
)
from campaign.save.when import Stop

MINUTE = 1800.0  # Day 2 12:00


def _best(fn, repeat: int = 5) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - began)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    args = parser.parse_args()
    cmap, rules = load_map(None, MapOptions()), load_rules()
    extra: list[float] = []
    beyond_alone: list[float] = []
    doctrines = {"red": "balanced", "blue": "balanced"}
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.seeds):
            inputs = SaveInputs(seed, map_input(cmap, MapOptions()), rules_input(rules), doctrines)
            camp = build(inputs, cmap, rules)
            run_to(camp, Stop(minute=MINUTE))
            path = Path(folder) / f"s{seed}.json"
            path.write_text(dumps(save_of(camp, inputs, Stop(minute=MINUTE), "x")))

            def bare(seed: int = seed) -> None:
                c = Campaign(load_map(None, MapOptions()), load_rules(), seed)
                c.start()
                c.run_until(MINUTE)

            def alone(seed: int = seed) -> None:
                c = Campaign(cmap, rules, seed)
                c.start()
                c.run_until(MINUTE)

            def whole(path: Path = path) -> None:
                saved = read_save(path)
                replay(saved, str(path), loaded_inputs=load_inputs(saved.inputs))

            a, b, c = _best(bare), _best(whole), _best(alone)
            extra.append(b - a)
            beyond_alone.append(b - c)
            print(
                f"seed {seed}: replay {a * 1000:6.1f} ms ({c * 1000:.1f} ms with map and rules "
                f"in memory), resume {b * 1000:6.1f} ms, beyond the replay "
                f"{(b - a) * 1000:5.1f} ms"
            )
        saved = read_save(path)
        source = resolve_map_path(saved.inputs.map.source)
        parts = {
            "read and parse the save": _best(lambda: read_save(path), 20),
            "map file SHA-256": _best(lambda: hashlib.sha256(source.read_bytes()).digest(), 20),
            "state taken and compared": _best(lambda: camp.state() == saved.state, 20),
        }
    print(
        "what a resume adds (last seed): "
        + ", ".join(f"{k} {v * 1000:.2f} ms" for k, v in parts.items())
        + f"; {sum(parts.values()) * 1000:.1f} ms in all"
    )
    print(
        f"median cost beyond the replay: {statistics.median(extra) * 1000:.1f} ms (target "
        f"< 50 ms); beyond the replay with map and rules in memory: "
        f"{statistics.median(beyond_alone) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
