"""What resuming a save costs beyond the replay itself (issue 28: under 50 ms for a default
campaign).

``python -m benchmarks.save_resume [--seeds N]`` saves default campaigns at Day 2 12:00 and
times, best of five each, (a) the bare replay — a campaign built from the same inputs and run
to the same minute — and (b) the whole resume up to the point where the campaign runs on:
reading and parsing the save file, loading and fingerprinting the map and rules, the replay,
and the state check. It prints the median of (b) - (a) over the seeds.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from campaign.config import load_rules
from campaign.engine import Campaign
from campaign.maps import MapOptions, load_map
from campaign.save.format import SaveInputs, dumps, read_save
from campaign.save.replay import build, map_input, replay, rules_input, run_to, save_of
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
    extra = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.seeds):
            inputs = SaveInputs(
                seed,
                map_input(cmap, MapOptions()),
                rules_input(rules),
                {"red": "balanced", "blue": "balanced"},
            )
            camp = build(inputs, cmap, rules)
            run_to(camp, Stop(minute=MINUTE))
            path = Path(folder) / f"s{seed}.json"
            path.write_text(dumps(save_of(camp, inputs, Stop(minute=MINUTE), "x")))

            def bare(seed: int = seed) -> None:
                c = Campaign(cmap, rules, seed)
                c.start()
                c.run_until(MINUTE)

            def whole(path: Path = path) -> None:
                replay(read_save(path), str(path))

            a, b = _best(bare), _best(whole)
            extra.append(b - a)
            print(
                f"seed {seed}: replay {a * 1000:6.1f} ms, resume {b * 1000:6.1f} ms, "
                f"beyond the replay {(b - a) * 1000:5.1f} ms"
            )
    print(
        f"median cost beyond the replay: {statistics.median(extra) * 1000:.1f} ms (target < 50 ms)"
    )


if __name__ == "__main__":
    main()
