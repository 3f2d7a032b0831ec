"""Contraction: merge pass-through junctions into longer roads (``MapOptions.contract``).

A road net such as a hex map's 400 junctions becomes a map of towns: every junction with
exactly two roads that is not protected (an objective, a base, a start, an end of a primary
road) is removed and its two roads joined into one whose march hours are their sum and which
is rough if either part was. This repeats until no such junction is left. If the joined road
would run parallel to an existing road, the one with fewer march hours is kept (normal over
rough on a tie), so march-hour distances between the remaining junctions never change.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

__all__ = ["contract_junctions"]


def _joined(first: dict, second: dict) -> dict:
    kinds = sorted({*first["source_kind"].split("+"), *second["source_kind"].split("+")})
    rough = "rough" in (first["kind"], second["kind"])
    return {
        "kind": "rough" if rough else "normal",
        "hours": first["hours"] + second["hours"],
        "primary_of": None,
        "source_kind": "+".join(kinds),
    }


def _rank(road: dict) -> tuple[float, bool]:
    return (road["hours"], road["kind"] != "normal")


def contract_junctions(graph: nx.Graph, protected: Iterable[str]) -> tuple[nx.Graph, int]:
    """A copy of ``graph`` with its unprotected pass-through junctions merged away.

    Parameters
    ----------
    graph : networkx.Graph
        Campaign graph (road attrs ``kind``, ``hours`` in hours, ``primary_of``,
        ``source_kind``).
    protected : iterable of str
        Junction ids never removed (objectives, bases, starts, primary-road ends).

    Returns
    -------
    (networkx.Graph, int)
        The contracted copy and the number of junctions removed.

    Notes
    -----
    Junctions are visited in sorted id order, so the result is deterministic. Shortest
    march-hour distances between kept junctions are unchanged.

    Examples
    --------
    >>> g = nx.Graph()
    >>> for a, b in [("a", "b"), ("b", "c")]:
    ...     g.add_edge(a, b, kind="normal", hours=2.0, primary_of=None, source_kind="road")
    >>> small, removed = contract_junctions(g, {"a", "c"})
    >>> removed, small.edges["a", "c"]["hours"]
    (1, 4.0)
    """
    result = graph.copy()
    keep = set(protected)
    removed = 0
    changed = True
    while changed:
        changed = False
        for node in sorted(result.nodes):
            if node in keep or result.degree(node) != 2:
                continue
            a, b = sorted(result.neighbors(node))
            road = _joined(result.edges[a, node], result.edges[node, b])
            if result.has_edge(a, b):
                old = result.edges[a, b]
                if _rank(old) <= _rank(road):
                    road = dict(old)
                road["primary_of"] = old["primary_of"]
            result.remove_node(node)
            result.add_edge(a, b, **road)
            removed += 1
            changed = True
    return result, removed
