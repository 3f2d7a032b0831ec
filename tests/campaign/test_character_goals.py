"""Issue 10's campaign-character goals as statistical tests (RULES.md §8.8).

Fixed seeds, so each figure is exact and repeatable; the tolerances below say how far a
smaller sample than the README's (300 seeds; ``python -m benchmarks.campaign_character``)
may stray from the goal before the test fails.
"""

from __future__ import annotations

import itertools
import statistics
from collections import Counter

import pytest

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import BattleFought, RoughRoadTest
from campaign.maps import load_map

TEMPERS = ("aggressive", "cautious", "balanced", "raider")


N_DEFAULT = 120


@pytest.fixture(scope="module")
def default_battles() -> list[int]:
    """Battles fought in each of the default map's balanced campaigns, seeds 0..119."""
    cmap, loaded = load_map(), load_rules()
    return [
        sum(isinstance(e, BattleFought) for e in run_campaign(cmap, loaded, seed).events)
        for seed in range(N_DEFAULT)
    ]


@pytest.mark.slow
def test_default_map_median_campaign_has_five_battles(default_battles: list[int]) -> None:
    """Goal: median battles >= 5 (measured on seeds 0-299: 5, mean 5.6, 39% of campaigns at
    4 or fewer; on these 120 seeds 52 of 120 at 4 or fewer). Tolerance: 4.5, as the median
    of 120 seeds can fall between two counts; and the mean at least 5 (5.5 measured)."""
    assert statistics.median(default_battles) >= 4.5, statistics.median(default_battles)
    assert statistics.mean(default_battles) >= 5.0, statistics.mean(default_battles)


@pytest.mark.slow
def test_default_map_balanced_campaigns_have_character() -> None:
    """120 seeds. Goals: <= 25% decided on day 1 (2% measured on 300 seeds: a failure means
    a real regression); no place > 35% of battles; >= 8 places; the commonest opening in
    <= 50% of seeds; rough roads tested in >= 60% (the median of 5 battles: the test
    above)."""
    cmap, loaded = load_map(), load_rules()
    n = N_DEFAULT
    day1 = rough = 0
    battles: list[int] = []
    places: Counter[str] = Counter()
    openings: Counter[tuple[tuple[int, str], ...]] = Counter()
    for seed in range(n):
        result = run_campaign(cmap, loaded, seed)
        fought = [e for e in result.events if isinstance(e, BattleFought)]
        battles.append(len(fought))
        places.update(e.place for e in fought)
        openings[tuple((e.t // 1440, e.place) for e in fought[:3])] += 1
        rough += any(isinstance(e, RoughRoadTest) for e in result.events)
        day1 += result.winner is not None and result.days == 1
    assert day1 / n <= 0.25, day1
    assert places.most_common(1)[0][1] / sum(places.values()) <= 0.35, places.most_common(3)
    assert len(places) >= 8
    assert openings.most_common(1)[0][1] / n <= 0.5
    assert rough / n >= 0.6


@pytest.mark.slow
@pytest.mark.parametrize("map_name", ["default", "waterloo-1815"])
def test_every_temper_pairing_fights_and_decides(map_name: str) -> None:
    """20 seeds a cell, 16 cells. Goals: a battle in >= 90% (tolerance: >= 80% a cell, 90%
    pooled); <= 40% draws (tolerance: <= 50% a cell); a day-1 capture of an undefended base
    decides <= 50% (tolerance: <= 60% a cell)."""
    cmap = load_map(None if map_name == "default" else map_name)
    loaded = load_rules()
    n = 20
    pooled = 0
    for red, blue in itertools.product(TEMPERS, TEMPERS):
        base = draws = battle = 0
        for seed in range(n):
            result = run_campaign(cmap, loaded, seed, {"red": red, "blue": blue})
            fought = [e for e in result.events if isinstance(e, BattleFought)]
            if result.winner is not None and "enemy base" in result.reason:
                enemy_base = cmap.sides["blue" if result.winner == "red" else "red"].base
                undefended = not any(e.place == enemy_base for e in fought)
                base += undefended and result.days == 1
            draws += result.winner is None
            battle += bool(fought)
        cell = (red, blue, base, draws, battle)
        assert battle / n >= 0.8, cell
        assert draws / n <= 0.5, cell
        assert base / n <= 0.6, cell
        pooled += battle
    assert pooled / (16 * n) >= 0.9
