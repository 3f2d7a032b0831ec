"""Contraction (``MapOptions.contract``): a road net becomes a campaign map of towns.

Two steps, repeated until neither changes the map; junctions are visited in sorted id order,
so the result is deterministic. Protected junctions (objectives, bases, starts, ends of a
primary road) are never removed.

1. **Dead-end spurs are pruned**: a junction with exactly one road that is not protected is
   removed, and so on along the spur while its new end is a dead end. No route between two
   other junctions can pass through a dead end, so nothing else changes. A junction left
   with no road at all (the last of an unprotected spur or part) stays, so the map keeps
   its connected parts.
2. **Pass-through junctions are merged**: a junction with exactly two roads that is not
   protected is removed and its two roads joined into one whose march hours are their sum
   and which is rough if either part was. If the joined road would run parallel to an
   existing road, the one with fewer march hours is kept (normal over rough on a tie).

Shortest march-hour distances between the remaining junctions, and which of them are joined
by some road path, never change.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import networkx as nx

__all__ = ["ContractionStats", "contract_junctions", "contract_roads"]


@dataclass(frozen=True)
class ContractionStats:
    """What a contraction did.

    Parameters
    ----------
    junctions_before, roads_before : int
        The map's size before.
    spurs : int
        Dead-end junctions pruned (0 when pruning was off).
    merged : int
        Pass-through junctions merged into longer roads.
    junctions_after, roads_after : int
        The map's size after.
    """

    junctions_before: int
    roads_before: int
    spurs: int
    merged: int
    junctions_after: int
    roads_after: int

    @property
    def removed(self) -> int:
        """Junctions removed in all."""
        return self.spurs + self.merged

    def sentence(self) -> str:
        """One sentence for the map's notes and ``campaign map info``."""
        return (
            f"Contracted: pruned {self.spurs} dead-end spur junctions and merged "
            f"{self.merged} pass-through junctions; {self.junctions_before} junctions and "
            f"{self.roads_before} roads became {self.junctions_after} and "
            f"{self.roads_after} (march hours between the kept junctions unchanged)."
        )


def _joined(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    kinds = sorted({*first["source_kind"].split("+"), *second["source_kind"].split("+")})
    rough = "rough" in (first["kind"], second["kind"])
    return {
        "kind": "rough" if rough else "normal",
        "hours": first["hours"] + second["hours"],
        "primary_of": None,
        "source_kind": "+".join(kinds),
    }


def _rank(road: dict[str, Any]) -> tuple[float, bool]:
    return (road["hours"], road["kind"] != "normal")


def _prune_spurs(graph: nx.Graph, keep: set[str]) -> int:
    """Remove unprotected dead ends from ``graph`` in place, spur by spur; the number."""
    pruned = 0
    ends = sorted(n for n in graph if n not in keep and graph.degree(n) == 1)
    while ends:
        touched: set[str] = set()
        for end in ends:
            if graph.degree(end) != 1:  # its partner in a two-junction part went first
                continue
            touched.update(graph.neighbors(end))
            graph.remove_node(end)
            pruned += 1
        ends = sorted(n for n in touched if n in graph and n not in keep and graph.degree(n) == 1)
    return pruned


def _merge_pass_through(graph: nx.Graph, keep: set[str]) -> int:
    """Merge unprotected degree-2 junctions of ``graph`` in place; the number merged."""
    merged = 0
    changed = True
    while changed:
        changed = False
        for node in sorted(graph.nodes):
            if node in keep or graph.degree(node) != 2:
                continue
            a, b = sorted(graph.neighbors(node))
            road = _joined(graph.edges[a, node], graph.edges[node, b])
            if graph.has_edge(a, b):
                old = graph.edges[a, b]
                if _rank(old) <= _rank(road):
                    road = dict(old)
                road["primary_of"] = old["primary_of"]
            graph.remove_node(node)
            graph.add_edge(a, b, **road)
            merged += 1
            changed = True
    return merged


def contract_roads(
    graph: nx.Graph, protected: Iterable[str], *, prune_spurs: bool = True
) -> tuple[nx.Graph, ContractionStats]:
    """A copy of ``graph`` with dead-end spurs pruned and pass-through junctions merged.

    Parameters
    ----------
    graph : networkx.Graph
        Campaign graph (road attrs ``kind``, ``hours`` in hours, ``primary_of``,
        ``source_kind``).
    protected : iterable of str
        Junction ids never removed (objectives, bases, starts, primary-road ends).
    prune_spurs : bool
        Also prune unprotected dead-end spurs (step 1 of the module docstring).

    Returns
    -------
    (networkx.Graph, ContractionStats)
        The contracted copy and what was done.

    Examples
    --------
    >>> g = nx.Graph()
    >>> for a, b in [("a", "b"), ("b", "c"), ("b", "spur"), ("spur", "end")]:
    ...     g.add_edge(a, b, kind="normal", hours=2.0, primary_of=None, source_kind="road")
    >>> small, stats = contract_roads(g, {"a", "c"})
    >>> sorted(small.edges), small.edges["a", "c"]["hours"], stats.spurs, stats.merged
    ([('a', 'c')], 4.0, 2, 1)
    """
    result = graph.copy()
    keep = set(protected)
    spurs = merged = 0
    while True:
        pruned = _prune_spurs(result, keep) if prune_spurs else 0
        joined = _merge_pass_through(result, keep)
        spurs, merged = spurs + pruned, merged + joined
        # Merging can drop a parallel road and leave a new dead end behind.
        if not (prune_spurs and joined):
            break
    stats = ContractionStats(
        graph.number_of_nodes(),
        graph.number_of_edges(),
        spurs,
        merged,
        result.number_of_nodes(),
        result.number_of_edges(),
    )
    return result, stats


def contract_junctions(
    graph: nx.Graph, protected: Iterable[str], *, prune_spurs: bool = True
) -> tuple[nx.Graph, int]:
    """Like :func:`contract_roads`, returning the number of junctions removed.

    Returns
    -------
    (networkx.Graph, int)
        The contracted copy and the number of junctions removed (spurs and merged).

    Examples
    --------
    >>> g = nx.Graph()
    >>> for a, b in [("a", "b"), ("b", "c")]:
    ...     g.add_edge(a, b, kind="normal", hours=2.0, primary_of=None, source_kind="road")
    >>> small, removed = contract_junctions(g, {"a", "c"})
    >>> removed, small.edges["a", "c"]["hours"]
    (1, 4.0)
    """
    result, stats = contract_roads(graph, protected, prune_spurs=prune_spurs)
    return result, stats.removed
