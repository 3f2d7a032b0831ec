"""Per-map lookup tables, built once per map graph per process and shared by every campaign.

A batch worker runs thousands of campaigns on one map; building the sighting neighbourhoods
(RULES.md §8.6) and reading road attributes through networkx views once per campaign, or
once per march, cost more than the campaign's own decisions. :func:`map_tables` builds them
the first time a graph is seen and keeps them while the graph lives (a weak reference: a map
dropped by its caller frees its tables). The campaign never changes its map (DESIGN.md), so
the tables never go stale; they are read-only for every user.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

import networkx as nx

__all__ = ["MapTables", "map_tables"]


@dataclass
class MapTables:
    """Lookups of one map graph.

    ``roads[(a, b)]`` is ``(hours, kind)`` of the road between junctions ``a`` and ``b``
    (both directions; march hours, ``"normal"`` or ``"rough"``), and ``roads_from[a][b]``
    the same tuple (a look-up by two strings, cheaper than by a tuple of them, for
    every decision); ``objectives`` maps each
    objective junction to its value (RULES.md §7.2), in junction order. The graph is held
    weakly (the tables are kept *for* the graph and must not keep it alive).
    """

    graph_ref: weakref.ref[nx.Graph]
    roads: dict[tuple[str, str], tuple[float, str]]
    roads_from: dict[str, dict[str, tuple[float, str]]]
    objectives: dict[str, int]
    _sight: dict[int, dict[str, frozenset[str]]] = field(default_factory=dict)

    def neighbourhood(self, junctions: int) -> dict[str, frozenset[str]]:
        """Junction -> the junctions within ``junctions`` roads of it, itself included
        (what a division there sees, ``campaign.fog_sight_junctions``, RULES.md §8.6)."""
        found = self._sight.get(junctions)
        if found is None:
            graph = self.graph_ref()
            assert graph is not None  # the tables are dropped with their graph
            found = self._sight[junctions] = {
                j: frozenset(nx.single_source_shortest_path_length(graph, j, junctions))
                for j in graph.nodes
            }
        return found


_TABLES: weakref.WeakKeyDictionary[nx.Graph, MapTables] = weakref.WeakKeyDictionary()
#: the tables last handed out, looked at first: a batch asks for one map's thousands of
#: times (a weak-key look-up makes a weak reference each time). Holds the tables, whose
#: graph reference is weak: a graph gone reads None there, so it never matches another.
_LAST: list[MapTables] = []


def map_tables(graph: nx.Graph) -> MapTables:
    """The lookup tables of ``graph`` (built on the first call for that graph object).

    Parameters
    ----------
    graph : networkx.Graph
        A campaign map graph: every road has ``hours`` (> 0) and ``kind``; objective
        junctions have ``objective`` true and a ``value``. It must not change afterwards.
    """
    if _LAST:
        last = _LAST[0]
        if last.graph_ref() is graph:
            return last
    tables = _TABLES.get(graph)
    if tables is None:
        roads: dict[tuple[str, str], tuple[float, str]] = {}
        roads_from: dict[str, dict[str, tuple[float, str]]] = {j: {} for j in graph.nodes}
        for a, b, data in graph.edges(data=True):
            road = (data["hours"], data["kind"])
            roads[a, b] = road
            roads[b, a] = road
            roads_from[a][b] = road
            roads_from[b][a] = road
        objectives = {
            j: int(d.get("value", 0))
            for j, d in sorted(graph.nodes(data=True))
            if d.get("objective")
        }
        tables = _TABLES[graph] = MapTables(weakref.ref(graph), roads, roads_from, objectives)
    _LAST[:] = [tables]
    return tables
