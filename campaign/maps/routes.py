"""Shortest march routes and fall-back paths over the campaign graph (RULES.md §8.5)."""

from __future__ import annotations

import math
from heapq import heappop, heappush

import networkx as nx

__all__ = ["RoadNet", "Routes", "fall_back_search", "retreat_path", "weighted_diameter"]


class RoadNet:
    """A map's roads by junction number, for the searches compiled here (issue 31): what
    networkx's searches walk, as native lists.

    Parameters
    ----------
    graph : networkx.Graph
        The map, each road's march hours under ``weight`` (1 when a road has none). It must
        not change while the net is in use.
    weight : str
        The road attribute to read.

    Attributes
    ----------
    names : list of str
        The junctions in the graph's order; a junction's number is its place here.
    number : dict
        Junction -> its number.
    next, hours : list of lists
        By junction number: its neighbours' numbers and the hours of the roads to them, in
        the graph's adjacency order (the order networkx relaxes them in).
    """

    def __init__(self, graph: nx.Graph, weight: str = "hours") -> None:
        self.names: list[str] = list(graph)
        self.number: dict[str, int] = {j: i for i, j in enumerate(self.names)}
        self.next: list[list[int]] = []
        self.hours: list[list[float]] = []
        for j in self.names:
            roads = graph.adj[j]
            self.next.append([self.number[k] for k in roads])
            self.hours.append([float(road.get(weight, 1)) for road in roads.values()])


class Routes:
    """Shortest march routes of a map, computed per starting junction when first asked.

    Parameters
    ----------
    graph : networkx.Graph
        Campaign graph with road attribute ``hours`` (march hours, > 0). It must not change
        while the routes are in use (the campaign never changes its map).

    Notes
    -----
    The first question from a junction runs ``networkx.single_source_dijkstra`` from it
    (``weight="hours"``) and keeps every route from there, so the answers are exactly those
    of ``networkx.all_pairs_dijkstra``. A campaign
    asks from some dozens of junctions, not all of them: on the 408-junction shared Waterloo
    road net, building all pairs up front took 0.7 s, more than the campaign itself. Build
    it once per map (:attr:`campaign.maps.CampaignMap.routes` caches it) and share it.
    Picklable.

    Examples
    --------
    >>> g = nx.Graph()
    >>> g.add_edge("a", "b", hours=2.0); g.add_edge("b", "c", hours=3.0)
    >>> routes = Routes(g)
    >>> routes.hours("a", "c"), routes.path("a", "c"), routes.next_step("a", "c")
    (5.0, ['a', 'b', 'c'], 'b')
    """

    def __init__(self, graph: nx.Graph) -> None:
        self._graph = graph
        self._junctions = frozenset(graph.nodes)
        self._hours: dict[str, dict[str, float]] = {}
        self._paths: dict[str, dict[str, list[str]]] = {}
        #: the roads by number, for the searches of :meth:`retreat` (made when first asked)
        self._net: RoadNet | None = None
        #: fall-back paths already searched (see :meth:`retreat`)
        self._retreats: dict[
            tuple[str, str, frozenset[str], frozenset[tuple[str, str]]], tuple[str, ...] | None
        ] = {}

    def __reduce__(self) -> tuple[type[Routes], tuple[nx.Graph]]:
        """Pickled as its graph (routes are searched again when asked): compiled with mypyc
        (campaign.native), the class has no default pickling."""
        return (Routes, (self._graph,))

    @property
    def sources_searched(self) -> int:
        """How many junctions routes have been computed from so far."""
        return len(self._hours)

    def _from(self, source: str) -> dict[str, float]:
        if source not in self._hours:
            self._hours[source], self._paths[source] = nx.single_source_dijkstra(
                self._graph, source, weight="hours"
            )
        return self._hours[source]

    def _check(self, *junctions: str) -> None:
        for junction in junctions:
            if junction not in self._junctions:
                raise nx.NodeNotFound(f"junction {junction!r} is not on the map")

    def hours(self, a: str, b: str) -> float:
        """March hours of the shortest route from ``a`` to ``b`` (``inf`` if unreachable).

        Raises
        ------
        networkx.NodeNotFound
            If either junction is not on the map.
        """
        self._check(a, b)
        return self._from(a).get(b, math.inf)

    def path(self, a: str, b: str) -> list[str]:
        """Junctions of the shortest route, ``a`` and ``b`` included (``[]`` if unreachable).

        Raises
        ------
        networkx.NodeNotFound
            If either junction is not on the map.
        """
        self._check(a, b)
        self._from(a)
        return list(self._paths[a].get(b, []))

    def next_step(self, a: str, b: str) -> str | None:
        """The next junction from ``a`` towards ``b`` (None if ``a == b`` or unreachable).

        Raises
        ------
        networkx.NodeNotFound
            If either junction is not on the map.
        """
        path = self.path(a, b)
        return path[1] if len(path) > 1 else None

    def retreat(
        self,
        start: str,
        base: str,
        blocked_nodes: set[str],
        blocked_edges: tuple[tuple[str, str], ...],
    ) -> list[str] | None:
        """:func:`retreat_path` on this map, each question searched once and remembered
        (the answer depends only on the map and the question; a campaign asks the same
        few again and again). A new list each time; at most 50,000 answers are kept.
        Searched by :func:`fall_back_search`, the same answer as retreat_path's, faster.
        """
        edges = frozenset((a, b) if a <= b else (b, a) for a, b in blocked_edges)
        key = (start, base, frozenset(blocked_nodes - {start}), edges)
        if key in self._retreats:
            found = self._retreats[key]
        else:
            net = self._net
            if net is None:
                net = self._net = RoadNet(self._graph)
            found = fall_back_search(net, start, base, blocked_nodes, blocked_edges)
            if len(self._retreats) >= 50_000:
                self._retreats.clear()
            self._retreats[key] = found
        return list(found) if found is not None else None


def retreat_path(
    graph: nx.Graph,
    start: str,
    base: str,
    blocked_nodes: set[str],
    blocked_edges: tuple[tuple[str, str], ...] = (),
) -> list[str] | None:
    """The shortest fall-back path to the base, avoiding the enemy (RULES.md §8.5).

    Parameters
    ----------
    graph : networkx.Graph
        Campaign graph with road attribute ``hours`` (march hours).
    start : str
        The losing division's junction (allowed even when in ``blocked_nodes``).
    base : str
        Its side's base junction.
    blocked_nodes : set of str
        Enemy-held junctions, not entered.
    blocked_edges : tuple of (str, str)
        Every road the enemy came by (either direction), none of them used.

    Returns
    -------
    list of str or None
        Junctions from ``start`` to ``base`` inclusive with the fewest march hours, or None
        when there is no such path (the division is cut off and surrenders).

    Examples
    --------
    >>> g = nx.Graph()
    >>> for a, b, h in [("x", "m", 1), ("m", "base", 1), ("x", "n", 2), ("n", "base", 2)]:
    ...     g.add_edge(a, b, hours=h)
    >>> retreat_path(g, "x", "base", {"m"})
    ['x', 'n', 'base']
    >>> retreat_path(g, "x", "base", set(), (("n", "x"), ("x", "m"))) is None
    True
    """
    if start not in graph or base not in graph:
        return None
    blocked = set(blocked_nodes) - {start}
    if base in blocked:
        return None
    cut = {(a, b) for a, b in blocked_edges} | {(b, a) for a, b in blocked_edges}

    def hours(a: str, b: str, road: dict[str, float]) -> float | None:
        # None hides a road (networkx): one into or out of an enemy-held junction, or the
        # enemy's road. The search sees exactly the map without them, in the map's order,
        # as a filtered view of it would show it, without the view's layers at every step.
        if a in blocked or b in blocked or (a, b) in cut:
            return None
        return road.get("hours", 1)

    try:
        path: list[str] = nx.bidirectional_dijkstra(graph, start, base, weight=hours)[1]
        return path
    except nx.NetworkXNoPath:
        return None


def fall_back_search(
    net: RoadNet,
    start: str,
    base: str,
    blocked_nodes: set[str],
    blocked_edges: tuple[tuple[str, str], ...] = (),
) -> tuple[str, ...] | None:
    """:func:`retreat_path` on the map ``net`` (the same answers), as a tuple.

    It is ``networkx.bidirectional_dijkstra`` step for step, so its answer is the same,
    ties included: the two heaps of (hours, push count, junction) with one count, the
    directions taken in turn from the start's, neighbours relaxed in the graph's order, the
    best meeting junction kept as it is found, and the search stopped when a junction is
    settled from both ends (tests/campaign/test_routing_search.py compares the two).
    Compiled (campaign.native), it takes a fraction of networkx's generic search with a
    Python weight function (issue 31).
    """
    number = net.number
    first = number.get(start, -1)
    last = number.get(base, -1)
    if first < 0 or last < 0 or (base in blocked_nodes and base != start):
        return None
    if first == last:
        return (start,)
    n = len(net.names)
    shut = [False] * n  # blocked: never entered
    for junction in blocked_nodes:
        k = number.get(junction, -1)
        if k >= 0:
            shut[k] = True
    shut[first] = False
    cut: set[int] = set()  # (a, b) roads, either way, as a * n + b
    for a, b in blocked_edges:
        i, k = number.get(a, -1), number.get(b, -1)
        if i >= 0 and k >= 0:
            cut.add(i * n + k)
            cut.add(k * n + i)
    inf = math.inf
    # per direction (0 from the start, 1 from the base): settled, best hours seen, the
    # junction each was reached from (-1: none), and the heap
    settled = ([False] * n, [False] * n)
    seen = ([inf] * n, [inf] * n)
    came_from = ([-1] * n, [-1] * n)
    seen[0][first] = 0.0
    seen[1][last] = 0.0
    fringes: tuple[list[tuple[float, int, int]], list[tuple[float, int, int]]] = (
        [(0.0, 0, first)],
        [(0.0, 1, last)],
    )
    pushed = 2
    best = inf
    meet = -1
    side = 1
    while fringes[0] and fringes[1]:
        side = 1 - side
        here_settled, here_seen, here_from = settled[side], seen[side], came_from[side]
        hours, _, j = heappop(fringes[side])
        if here_settled[j]:
            continue
        here_settled[j] = True
        if settled[1 - side][j]:
            return _joined(net.names, came_from, meet)
        there_seen = seen[1 - side]
        nexts, roads = net.next[j], net.hours[j]
        for i in range(len(nexts)):
            k = nexts[i]
            if shut[k] or here_settled[k] or j * n + k in cut:
                continue
            far = hours + roads[i]
            if far < here_seen[k]:
                here_seen[k] = far
                heappush(fringes[side], (far, pushed, k))
                pushed += 1
                here_from[k] = j
                other = there_seen[k]
                if other < inf and far + other < best:
                    best = far + other
                    meet = k
    return None


def _joined(names: list[str], came_from: tuple[list[int], list[int]], meet: int) -> tuple[str, ...]:
    """The route through junction ``meet``: back to the start by the forward search's
    predecessors, on to the base by the backward search's."""
    route: list[str] = []
    j = meet
    while j >= 0:
        route.append(names[j])
        j = came_from[0][j]
    route.reverse()
    j = came_from[1][meet]
    while j >= 0:
        route.append(names[j])
        j = came_from[1][j]
    return tuple(route)


def weighted_diameter(graph: nx.Graph, weight: str = "hours") -> float:
    """The largest shortest-path distance between two junctions of a connected graph.

    Eccentricity bounds (Takes & Kosters 2011): one Dijkstra search per step from the
    junction with the widest open bounds; every search settles at least that junction, and
    junctions whose upper bound cannot beat the best eccentricity found are dropped. So it
    ends after at most ``len(graph)`` searches, usually a handful, whatever the weights
    (``networkx.diameter(usebounds=True, weight=...)`` can loop forever on decimal weights).

    Parameters
    ----------
    graph : networkx.Graph
        Connected, with a positive ``weight`` attribute on every road (march hours).
    weight : str
        The road attribute to sum.

    Returns
    -------
    float
        The diameter in ``weight`` units (hours); 0.0 for fewer than two junctions.

    Raises
    ------
    networkx.NetworkXError
        If the graph is not connected (the diameter would be infinite).

    Examples
    --------
    >>> g = nx.path_graph(4)
    >>> nx.set_edge_attributes(g, 1.5, "hours")
    >>> weighted_diameter(g)
    4.5
    """
    if len(graph) < 2:
        return 0.0
    order = {n: k for k, n in enumerate(sorted(graph, key=str))}
    lower = dict.fromkeys(order, 0.0)
    upper = dict.fromkeys(order, math.inf)
    open_ = set(order)
    best = 0.0
    high_turn = True
    while open_:
        if high_turn:  # alternate the junction with the largest upper / smallest lower bound
            v = min(open_, key=lambda n: (-upper[n], order[n]))
        else:
            v = min(open_, key=lambda n: (lower[n], order[n]))
        high_turn = not high_turn
        dist = nx.single_source_dijkstra_path_length(graph, v, weight=weight)
        if len(dist) < len(graph):
            raise nx.NetworkXError("the graph is not connected: its diameter is infinite")
        ecc = max(dist.values())
        best = max(best, ecc)
        open_.discard(v)
        for w in list(open_):
            d = dist[w]
            lower[w] = max(lower[w], d, ecc - d)
            upper[w] = min(upper[w], ecc + d)
            if upper[w] <= best:
                open_.discard(w)
    return float(best)
