"""``make bench``'s campaign line splits a campaign's time at the battle engine's fight.

The battle desk looks the engine's fight up once (``battle.engine.engine_fight``); the
benchmark must time what the desk calls, or it prints "cannot split battle time" (it did,
until this test).
"""

from __future__ import annotations

from benchmarks.campaign_speed import measure


def test_the_benchmark_times_every_battle_the_desk_fights() -> None:
    m = measure(6, repeats=1)
    assert m["battles"] > 0
    # a battle joined by a late arrival is fought again: at least one call a battle
    assert m["battle_calls"] >= m["battles"]
    assert 0 < m["battle_seconds"] < m["seconds"]
