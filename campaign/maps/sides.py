"""The two sides of a campaign: bases, starts and primary roads (RULES.md §8.1).

Sides come from the map file, from :class:`MapOptions` (which win), or automatically:

- **Bases**: in the largest connected component (ties: the one with the smallest junction
  id), all junction pairs — pairs of objectives when at least two objectives qualify — whose
  march-hour distance lies between 40% and 80% of the component's diameter and is at most
  ``max_march_hours / 3``; the candidates are sorted and one is drawn with
  ``numpy.random.default_rng(seed)``. With no pair in that window, the farthest pair within
  ``max_march_hours / 3`` is taken. One base given: its partner is drawn the same way.
- **Starts**: the base and its two nearest junctions (march hours, then id) among those
  nearer to it than to the enemy base.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from campaign.errors import MapError
from campaign.maps.model import SIDES, MapOptions, SideSetup
from campaign.maps.raw import RawMap
from campaign.maps.routes import weighted_diameter

__all__ = ["AUTO_WINDOW", "START_COUNT", "resolve_sides"]

#: The automatic bases' distance as a fraction of the component's diameter (hours/hours).
AUTO_WINDOW = (0.4, 0.8)
#: Starting junctions given to a side that has none.
START_COUNT = 3


def _check_ids(graph: nx.Graph, options: MapOptions, source: str) -> None:
    for side in SIDES:
        flags = [(f"--{side}-base", getattr(options, f"{side}_base"))]
        flags += [(f"--{side}-start", s) for s in getattr(options, f"{side}_start") or []]
        for flag, ident in flags:
            if ident is not None and ident not in graph:
                raise MapError(
                    f"unknown junction {ident!r}",
                    source=source,
                    key=flag,
                    fix="Name a junction id of the map (`campaign map info MAP` lists them).",
                )


class _Distances(dict[str, dict[str, float]]):
    """March hours from each junction, searched (single-source Dijkstra) when first needed.

    ``dist[u][v]`` equals ``dict(nx.all_pairs_dijkstra_path_length(graph, weight="hours"))
    [u][v]`` exactly, without searching from junctions that are never asked about.
    """

    def __init__(self, graph: nx.Graph) -> None:
        super().__init__()
        self._graph = graph

    def __missing__(self, source: str) -> dict[str, float]:
        found: dict[str, float] = nx.single_source_dijkstra_path_length(
            self._graph, source, weight="hours"
        )
        self[source] = found
        return found


def _largest_component(graph: nx.Graph) -> set[str]:
    return min(nx.connected_components(graph), key=lambda c: (-len(c), min(c)))


def _auto_bases(
    graph: nx.Graph, options: MapOptions, fixed: str | None, notes: list[str], source: str
) -> tuple[str, str]:
    """Two bases, ``fixed`` among them when given (then returned first)."""
    component = nx.node_connected_component(graph, fixed) if fixed else _largest_component(graph)
    sub = graph if len(component) == len(graph) else graph.subgraph(component).copy()
    dist = _Distances(sub)
    # Exact weighted diameter by eccentricity bounds: a few searches instead of all pairs,
    # and always ending (networkx's usebounds loop can hang on decimal hours).
    diameter = weighted_diameter(sub, weight="hours")
    cap = options.max_march_hours / 3
    low, high = (f * diameter for f in AUTO_WINDOW)
    objectives = sorted(n for n in component if graph.nodes[n]["objective"])
    pools = [objectives, sorted(component)] if len(objectives) >= 2 else [sorted(component)]
    rng = np.random.default_rng(options.seed)
    for pool in pools:
        pairs = [
            (u, v)
            for i, u in enumerate(pool)
            for v in pool[i + 1 :]
            if (fixed is None or fixed in (u, v)) and v in dist[u]
        ]
        window = [(u, v) for u, v in pairs if low <= dist[u][v] <= high and dist[u][v] <= cap]
        if window:
            u, v = window[int(rng.integers(len(window)))]
            how = f"drawn (seed {options.seed}) among {len(window)} pairs"
            break
    else:
        pairs = [(u, v) for u in sorted(component) for v in sorted(component) if u < v]
        pairs = [(u, v) for u, v in pairs if fixed in (None, u, v) and dist[u][v] <= cap]
        if not pairs:
            raise MapError(
                f"no junction pair is within {cap:g} march hours of each other",
                source=source,
                key="sides",
                fix="Give the bases (--red-base, --blue-base) or a larger --max-march-hours.",
            )
        u, v = max(sorted(pairs), key=lambda p: dist[p[0]][p[1]])
        how = "the farthest pair within the limit (no pair in the 40-80% window)"
    if (fixed is not None and v == fixed) or (fixed is None and rng.integers(2)):
        u, v = v, u
    notes.append(
        f"Bases chosen automatically: {u!r} and {v!r}, {dist[u][v]:g} march hours apart "
        f"(component of {len(component)} junctions, diameter {diameter:g} h; {how})."
    )
    return u, v


def _auto_starts(graph: nx.Graph, base: str, enemy_base: str) -> tuple[str, ...]:
    own = nx.single_source_dijkstra_path_length(graph, base, weight="hours")
    enemy = nx.single_source_dijkstra_path_length(graph, enemy_base, weight="hours")
    near = sorted((d, n) for n, d in own.items() if d < enemy.get(n, float("inf")))
    return tuple(n for _, n in near[:START_COUNT])


def _primary_roads(graph: nx.Graph, raw: RawMap, source: str) -> dict[str, tuple[str, str] | None]:
    """Each side's primary road, from ``sides.X.primary_road`` or a road's ``primary``."""
    found: dict[str, tuple[str, str] | None] = {}
    for side in SIDES:
        marked = sorted(
            tuple(sorted((a, b))) for a, b, p in graph.edges(data="primary_of") if p == side
        )
        given = raw.sides[side].primary_road if raw.sides else None
        if len(marked) > 1:
            raise MapError(
                f"{len(marked)} roads are marked primary: {side} ({marked})",
                source=source,
                key="roads",
                fix="Mark one road per side as primary (RULES.md §8.1).",
            )
        if given is not None:
            key = f"sides.{side}.primary_road"
            if not graph.has_edge(*given):
                raise MapError(
                    f"no road between {given[0]!r} and {given[1]!r}",
                    source=source,
                    key=key,
                    fix="Name the two ends of an existing road.",
                )
            if marked and set(marked[0]) != set(given):
                raise MapError(
                    f"the primary road {given} differs from the road marked primary: {side} "
                    f"{marked[0]}",
                    source=source,
                    key=key,
                    fix="Give the primary road once.",
                )
            owner = graph.edges[given]["primary_of"]
            if owner not in (None, side):
                raise MapError(
                    f"road {given} is already the primary road of {owner}",
                    source=source,
                    key=key,
                    fix="Each side needs its own primary road.",
                )
            graph.edges[given]["primary_of"] = side
            found[side] = (given[0], given[1])
        else:
            found[side] = (marked[0][0], marked[0][1]) if marked else None
    return found


def resolve_sides(
    graph: nx.Graph, raw: RawMap, options: MapOptions
) -> tuple[dict[str, SideSetup], str, list[str]]:
    """Both sides' setups, where they came from, and notes on the automatic choices.

    Parameters
    ----------
    graph : networkx.Graph
        The campaign graph (road ``primary_of`` attributes are set here).
    raw : RawMap
        The map as read (its ``sides`` may be None).
    options : MapOptions
        Base/start overrides, seed, ``max_march_hours`` (hours).

    Returns
    -------
    (dict, str, list of str)
        ``{"red": SideSetup, "blue": SideSetup}``, ``"file"``/``"options"``/``"automatic"``
        and notes.

    Raises
    ------
    MapError
        If an option names an unknown junction, a primary road is not a road, or no base
        pair can be found.
    """
    notes: list[str] = []
    _check_ids(graph, options, raw.source)
    file_sides = raw.sides or {}
    bases = {
        s: getattr(options, f"{s}_base") or (file_sides[s].base if s in file_sides else None)
        for s in SIDES
    }
    origin = "file" if raw.sides else "options"
    if bases["red"] is None or bases["blue"] is None:
        origin = "automatic"
        if bases["red"] is None and bases["blue"] is None:
            bases["red"], bases["blue"] = _auto_bases(graph, options, None, notes, raw.source)
        else:
            fixed, missing = ("red", "blue") if bases["red"] else ("blue", "red")
            _, bases[missing] = _auto_bases(graph, options, bases[fixed], notes, raw.source)
    elif raw.sides and any(getattr(options, f"{s}_base") for s in SIDES):
        origin = "options"
    if bases["red"] == bases["blue"]:
        raise MapError(
            f"both sides have the base {bases['red']!r}",
            source=raw.source,
            key="sides",
            fix="Give the sides different bases.",
        )
    primary = _primary_roads(graph, raw, raw.source)
    sides = {}
    for s in SIDES:
        base, enemy = bases[s], bases["blue" if s == "red" else "red"]
        assert base is not None and enemy is not None  # both were checked above
        starts = getattr(options, f"{s}_start")
        in_file = file_sides.get(s)
        if not starts and in_file is not None and in_file.base == base:
            starts = in_file.starts
        if not starts:
            starts = list(_auto_starts(graph, base, enemy))
            notes.append(
                f"{s.capitalize()} starts at {', '.join(starts)}: its base and the nearest "
                "junctions on its side of the map."
            )
        name = in_file.name if in_file and in_file.name else s.capitalize()
        sides[s] = SideSetup(name, base, tuple(starts), primary[s])
    return sides, origin, notes
