"""Cheaper strategy decisions (issue 15) answer exactly what the plain definitions answer."""

from __future__ import annotations

import math

import networkx as nx
import pytest

from campaign.maps import load_map
from campaign.strategy.routing import PricedRoutes


@pytest.mark.parametrize("map_name", [None, "waterloo-1815"])
@pytest.mark.parametrize(("weight", "slack"), [(1.0, 3.0), (0.5, 6.0), (1.5, 0.0)])
def test_opening_waypoints_equal_the_plain_definition(map_name, weight, slack):
    """RULES.md §8.8 (house): a waypoint lies 30-70% of the way to the enemy base by expected
    hours, on a route at most ``slack`` hours longer than the best, and is neither base nor
    the start; the cached table gives exactly that set, sorted, for every start."""
    graph = load_map(map_name).graph
    priced = PricedRoutes.of(graph, 70, 60, weight)
    hours = dict(nx.all_pairs_dijkstra_path_length(priced.graph, weight="hours"))
    bases = sorted(graph.nodes)[:1] + sorted(graph.nodes)[-1:]
    found_any = False
    for own_base, enemy_base in (bases, bases[::-1]):
        for at in sorted(graph.nodes):
            best = hours[at].get(enemy_base, math.inf)
            expected = (
                sorted(
                    j
                    for j in graph.nodes
                    if j not in (at, own_base, enemy_base)
                    and 0.3 * best <= hours[at][j] <= 0.7 * best
                    and hours[at][j] + hours[j][enemy_base] <= best + slack
                )
                if 0 < best < math.inf
                else []
            )
            got = priced.waypoints(at, own_base, enemy_base, 0.3, 0.7, slack)
            assert list(got) == expected
            assert priced.waypoints(at, own_base, enemy_base, 0.3, 0.7, slack) is got
            found_any |= bool(got)
    assert found_any  # the question is not empty on these maps


def test_costs_from_is_the_row_of_cost(default_map):
    priced = PricedRoutes.of(default_map.graph, 70, 60, 1.0)
    for a in sorted(default_map.graph.nodes):
        row = priced.costs_from(a)
        for b in sorted(default_map.graph.nodes):
            assert row.get(b, math.inf) == priced.cost(a, b)
    with pytest.raises(nx.NodeNotFound):
        priced.costs_from("nowhere")
