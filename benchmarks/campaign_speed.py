"""Campaigns per second on one core: the default map, default rules, events off.

Target (issue 3): at least 100 campaigns/s/core.
"""

from __future__ import annotations

import time

__all__ = ["run"]

TARGET = 100.0


def run(campaigns: int = 500) -> list[str]:
    """Run ``campaigns`` default campaigns in this process; return the report lines."""
    from campaign.config import load_rules
    from campaign.engine import run_campaign
    from campaign.maps import load_map

    cmap = load_map()
    loaded = load_rules()
    cmap.routes  # noqa: B018 - built once per map, as a batch worker does
    run_campaign(cmap, loaded, 0, record_events=False)  # warm up
    start = time.perf_counter()
    battles = 0
    for seed in range(1, campaigns + 1):
        battles += run_campaign(cmap, loaded, seed, record_events=False).battles
    elapsed = time.perf_counter() - start
    rate = campaigns / elapsed
    verdict = "ok" if rate >= TARGET else "BELOW TARGET"
    return [
        f"campaign speed: {rate:,.0f} campaigns/s on one core (target >= {TARGET:,.0f}) "
        f"[{verdict}]; {campaigns} campaigns, {battles / campaigns:.1f} battles each, "
        f"{elapsed * 1000 / campaigns:.1f} ms per campaign",
        f"campaign speed: {elapsed * 1000 / max(battles, 1):.2f} ms per battle fought in a "
        "campaign (ms per campaign / battles per campaign; issue 10 goal: no worse than ~2 ms)",
    ]


if __name__ == "__main__":
    print("\n".join(run()))
