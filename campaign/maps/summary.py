"""Facts about a loaded map for ``campaign map info`` (counts only; printing is the CLI's)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import networkx as nx

from campaign.maps.model import CampaignMap

__all__ = ["MapSummary", "summarize_map"]


@dataclass(frozen=True)
class MapSummary:
    """Counts describing a campaign map.

    Parameters
    ----------
    junctions, roads : int
        Numbers of junctions and roads.
    road_kinds : dict of (str, str) to int
        (source kind, campaign kind) → number of roads.
    component_sizes : list of int
        Sizes of the connected parts of the map, largest first.
    degree_range : tuple of (int, int)
        Fewest and most roads at a junction.
    dead_ends : list of str
        Junctions with one road, sorted.
    objectives : list of (str, int)
        Objective junction ids and values, sorted by id.
    total_hours : float
        Sum of all roads' march hours (hours).
    """

    junctions: int
    roads: int
    road_kinds: dict[tuple[str, str], int]
    component_sizes: list[int]
    degree_range: tuple[int, int]
    dead_ends: list[str]
    objectives: list[tuple[str, int]]
    total_hours: float


def summarize_map(cmap: CampaignMap) -> MapSummary:
    """Count the junctions, roads by kind, parts, degrees, dead ends and objectives."""
    graph = cmap.graph
    kinds = Counter((s, k) for _, _, s, k in _road_kinds(graph))
    degrees = [d for _, d in graph.degree()]
    return MapSummary(
        junctions=graph.number_of_nodes(),
        roads=graph.number_of_edges(),
        road_kinds=dict(sorted(kinds.items())),
        component_sizes=sorted((len(c) for c in nx.connected_components(graph)), reverse=True),
        degree_range=(min(degrees, default=0), max(degrees, default=0)),
        dead_ends=sorted(n for n, d in graph.degree() if d == 1),
        objectives=sorted(
            (n, v) for n, v in graph.nodes(data="value") if graph.nodes[n]["objective"]
        ),
        total_hours=sum(h for _, _, h in graph.edges(data="hours")),
    )


def _road_kinds(graph: nx.Graph) -> list[tuple[str, str, str, str]]:
    return [(a, b, d["source_kind"], d["kind"]) for a, b, d in graph.edges(data=True)]
