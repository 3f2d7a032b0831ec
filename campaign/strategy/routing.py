"""Route choice by expected march time, the rough-road risk priced in (RULES.md §8.8).

A road costs its march hours; a rough road costs its hours plus the expected wait from
failed tests, ``(1/p - 1) x retry wait`` at pass chance ``p`` (RULES.md §8.2), times the
doctrine's ``rough_risk_weight``. At ``p = 0`` a rough road cannot be taken and is left out.
Routes may avoid junctions (those held by a known stronger enemy).
"""

from __future__ import annotations

import math
import weakref
from heapq import heappop, heappush

import networkx as nx

from campaign.maps.routes import RoadNet, Routes

__all__ = [
    "PricedRoutes",
    "cheapest_avoiding",
    "hours_to",
    "nearer",
    "rough_road_cost",
    "runs_through",
]


def rough_road_cost(
    hours: float, pass_percent: float, retry_minutes: float, weight: float
) -> float:
    """Expected hours to take a rough road: ``hours + weight x (1/p - 1) x retry`` (§8.2, §8.8).

    Parameters are march hours, the pass chance in percent, the retry wait in minutes and
    the weight on the expected wait (1 = priced at its expectation). ``inf`` at ``p = 0``.

    >>> rough_road_cost(3.0, 50, 60, 1.0)
    4.0
    >>> rough_road_cost(3.0, 100, 60, 1.0)
    3.0
    """
    if pass_percent <= 0:
        return math.inf
    p = pass_percent / 100.0
    return hours + weight * (1.0 / p - 1.0) * retry_minutes / 60.0


#: most answers of :meth:`PricedRoutes.path_avoiding` kept per map and pricing (~100 bytes
#: each): a 1,000-junction map asks far fewer distinct questions than this in a batch
MAX_AVOIDING_CACHED = 100_000

_CACHE: weakref.WeakKeyDictionary[nx.Graph, dict[tuple[float, float, float], PricedRoutes]] = (
    weakref.WeakKeyDictionary()
)

#: the graph (held weakly: a graph gone reads None, so it never matches another) and its
#: priced routes last asked for, looked at first
_LAST: list[tuple[weakref.ref[nx.Graph], dict[tuple[float, float, float], PricedRoutes]]] = []


class PricedRoutes:
    """Cheapest routes by expected march hours on one map for one pricing.

    Build with :meth:`of` (cached per map graph and pricing, so batch runs share it).
    ``cost``, ``path`` and ``path_avoiding`` answer in expected hours / junction lists.
    """

    def __init__(self, graph: nx.Graph, pass_percent: float, retry: float, weight: float):
        priced = nx.Graph()
        priced.add_nodes_from(sorted(graph.nodes))
        for a, b, data in sorted(graph.edges(data=True), key=lambda e: (min(e[:2]), max(e[:2]))):
            hours = float(data["hours"])
            if data.get("kind") == "rough":
                hours = rough_road_cost(hours, pass_percent, retry, weight)
            if math.isfinite(hours):
                priced.add_edge(a, b, hours=hours)
        self.graph = priced
        self.routes = Routes(priced)
        #: the priced roads by number, for :func:`cheapest_avoiding` (read-only)
        self.net = RoadNet(priced)
        self._cost: dict[str, dict[str, float]] = {}
        #: a -> b -> cheapest route, as asked by :meth:`route` (read-only tuples)
        self._routes: dict[str, dict[str, tuple[str, ...]]] = {}
        self._routes_cached = 0
        #: (a, b, blocked junctions) -> (route, hours) of the searches of path_avoiding
        self._avoiding: dict[tuple[str, str, frozenset[str]], tuple[tuple[str, ...], float]] = {}
        #: (from, junctions, own base) -> those junctions nearest first (nearest_first)
        self._nearest_first: dict[tuple[str, tuple[str, ...], str], tuple[str, ...]] = {}
        #: (from, own base, enemy base, window, slack) -> opening waypoints (§8.8)
        self._waypoints: dict[tuple[str, str, str, float, float, float], tuple[str, ...]] = {}

    @classmethod
    def of(cls, graph: nx.Graph, pass_percent: float, retry: float, weight: float) -> PricedRoutes:
        """The priced routes of ``graph`` (built once per graph and pricing)."""
        per_graph: dict[tuple[float, float, float], PricedRoutes] | None = None
        if _LAST:  # (a batch asks for one map's thousands of times: no weak reference made)
            last_graph, last_per_graph = _LAST[0]
            if last_graph() is graph:
                per_graph = last_per_graph
        if per_graph is None:
            per_graph = _CACHE.setdefault(graph, {})
            _LAST[:] = [(weakref.ref(graph), per_graph)]
        key = (float(pass_percent), float(retry), float(weight))
        if key not in per_graph:
            per_graph[key] = cls(graph, pass_percent, retry, weight)
        return per_graph[key]

    def cost(self, a: str, b: str) -> float:
        """Expected hours from ``a`` to ``b`` (``inf`` if unreachable).

        Raises
        ------
        networkx.NodeNotFound
            If ``a`` is not on the map (an unknown ``b`` is unreachable: ``inf``).
        """
        found = self._cost.get(a)
        if found is None:
            found = self.costs_from(a)
        return found.get(b, math.inf)

    def costs_from(self, a: str) -> dict[str, float]:
        """Expected hours from ``a`` to every junction it can reach (read-only; a junction
        missing is unreachable). Same errors as :meth:`cost`."""
        found = self._cost.get(a)
        if found is None:
            found = self._cost[a] = dict(
                nx.single_source_dijkstra_path_length(self.graph, a, weight="hours")
            )
        return found

    def waypoints(
        self, at: str, own_base: str, enemy_base: str, low: float, high: float, slack: float
    ) -> tuple[str, ...]:
        """Junctions an opening plan from ``at`` may make for (RULES.md §8.8, house): not
        ``at`` nor either base, ``low``..``high`` (fractions) of the expected hours from
        ``at`` to ``enemy_base``, on a route at most ``slack`` hours longer than the best.
        Sorted by id; ``()`` when the enemy base is unreachable or is ``at``. Computed once
        per question per map and pricing (the map never changes)."""
        key = (at, own_base, enemy_base, float(low), float(high), float(slack))
        found = self._waypoints.get(key)
        if found is None:
            from_at = self.costs_from(at)
            best = from_at.get(enemy_base, math.inf)
            if not math.isfinite(best) or best <= 0:
                found = ()
            else:
                found = tuple(
                    sorted(
                        j
                        for j in self.graph.nodes
                        if j not in (at, own_base, enemy_base)
                        and low * best <= self.cost(at, j) <= high * best
                        and self.cost(at, j) + self.cost(j, enemy_base) <= best + slack
                    )
                )
            self._waypoints[key] = found
        return found

    def nearest_first(self, at: str, junctions: tuple[str, ...], base: str) -> tuple[str, ...]:
        """``junctions`` reachable from ``at``, neither ``at`` nor ``base``, ordered by
        expected hours from ``at``, then hours to ``base`` (the tie key of RULES.md §8.8),
        then id: the order a doctrine tries objectives in. Kept once asked (bounded)."""
        key = (at, junctions, base)
        found = self._nearest_first.get(key)
        if found is None:
            from_at = self.costs_from(at)
            inf = math.inf
            keyed: list[tuple[float, float, str]] = []
            for j in junctions:
                if j not in (base, at):
                    hours = from_at.get(j, inf)
                    if hours < inf:
                        keyed.append((hours, self.cost(j, base), j))
            keyed.sort()
            found = tuple([j for _, _, j in keyed])
            if len(self._nearest_first) >= MAX_AVOIDING_CACHED:  # bounded: start afresh
                self._nearest_first.clear()
            self._nearest_first[key] = found
        return found

    def path(self, a: str, b: str) -> list[str]:
        """Cheapest route, ``a`` and ``b`` included (``[]`` if unreachable)."""
        return self.routes.path(a, b)

    def route(self, a: str, b: str) -> tuple[str, ...]:
        """:meth:`path` as a read-only tuple, kept once asked (``()`` if unreachable): a
        strategy decision asks for a few routes, mostly the same ones again."""
        from_a = self._routes.get(a)
        found = from_a.get(b) if from_a is not None else None
        if found is None:
            found = tuple(self.routes.path(a, b))  # raises NodeNotFound for unknown a, b
            if self._routes_cached >= MAX_AVOIDING_CACHED:  # bounded: start afresh
                self._routes.clear()
                self._routes_cached = 0
                from_a = None
            if from_a is None:
                from_a = self._routes[a] = {}
            from_a[b] = found
            self._routes_cached += 1
        return found

    def route_avoiding(self, a: str, b: str, avoid: set[str]) -> tuple[str, ...]:
        """Cheapest route not entering ``avoid`` (``a`` and ``b`` are always allowed), as a
        read-only tuple; ``()`` if there is none. The route of :meth:`path_avoiding`."""
        plain = self.route(a, b)
        if not avoid or not runs_through(plain, avoid):
            # (a cheapest route never passes its ends again: only its middle can be blocked;
            # with no route at all there is none around either)
            return plain
        return self._search_avoiding(a, b, avoid - {a, b})[0]

    def route_hours_avoiding(
        self, a: str, b: str, avoid: set[str]
    ) -> tuple[tuple[str, ...], float]:
        """:meth:`route_avoiding` and its expected hours: ``((), inf)`` if there is none."""
        plain = self.route(a, b)
        if not avoid or not runs_through(plain, avoid):
            return plain, self.cost(a, b)
        return self._search_avoiding(a, b, avoid - {a, b})

    def path_avoiding(self, a: str, b: str, avoid: set[str]) -> tuple[list[str], float]:
        """Cheapest route not entering ``avoid`` (``a`` and ``b`` are always allowed).

        Returns the junctions and expected hours, ``([], inf)`` if there is none.
        """
        route, hours = self.route_hours_avoiding(a, b, avoid)
        return list(route), hours

    def _search_avoiding(self, a: str, b: str, blocked: set[str]) -> tuple[tuple[str, ...], float]:
        """The cheapest route from ``a`` to ``b`` around ``blocked`` and its hours."""
        key = (a, b, frozenset(blocked))
        found = self._avoiding.get(key)
        if found is None:  # searched once per question per process (a batch asks again)
            found = cheapest_avoiding(self.net, a, b, blocked)
            if len(self._avoiding) >= MAX_AVOIDING_CACHED:  # bounded: start afresh
                self._avoiding.clear()
            self._avoiding[key] = found
        return found


def cheapest_avoiding(
    net: RoadNet, a: str, b: str, blocked: set[str]
) -> tuple[tuple[str, ...], float]:
    """The cheapest route from ``a`` to ``b`` on the map ``net`` not entering ``blocked``
    (``a`` itself may be), and its hours: ``((), inf)`` if there is none (RULES.md §8.8).

    It is ``networkx.single_source_dijkstra(graph, a, b, weight=...)`` with the roads into
    ``blocked`` hidden, step for step, so its answer is the same route, ties included: the
    same heap of (hours, push count, junction), neighbours relaxed in the graph's order, a
    junction's predecessor the one that last lowered its hours, the search stopped when
    ``b`` is settled (tests/campaign/test_routing_search.py compares the two). Compiled
    (campaign.native), on junction numbers, it takes a fraction of networkx's generic search
    with a Python weight function (issue 31).

    Raises
    ------
    networkx.NodeNotFound
        If ``a`` is not on the map.
    """
    number = net.number
    start = number.get(a, -1)
    if start < 0:
        raise nx.NodeNotFound(f"Node {a} not found in graph")
    if a == b:
        return (a,), 0.0
    end = number.get(b, -1)
    if end < 0:
        return (), math.inf
    n = len(net.names)
    shut = [False] * n  # settled, or blocked: never entered
    for junction in blocked:
        k = number.get(junction, -1)
        if k >= 0:
            shut[k] = True
    shut[start] = False
    seen = [math.inf] * n
    seen[start] = 0.0
    came_from = [-1] * n
    fringe: list[tuple[float, int, int]] = [(0.0, 0, start)]
    pushed = 1
    while fringe:
        hours, _, j = heappop(fringe)
        if shut[j]:
            continue
        shut[j] = True
        if j == end:
            route = [b]
            j = came_from[end]
            while j >= 0:
                route.append(net.names[j])
                j = came_from[j]
            route.reverse()
            return tuple(route), hours
        nexts, roads = net.next[j], net.hours[j]
        for i in range(len(nexts)):
            k = nexts[i]
            if shut[k]:
                continue
            far = hours + roads[i]
            if far < seen[k]:
                seen[k] = far
                heappush(fringe, (far, pushed, k))
                pushed += 1
                came_from[k] = j
    return (), math.inf


def runs_through(route: tuple[str, ...], junctions: set[str]) -> bool:
    """Whether ``route`` passes through one of ``junctions`` between its ends."""
    # (no slice made: asked of every route taken; compiled, any() of a generator is a loop)
    return any(route[i] in junctions for i in range(1, len(route) - 1))


def nearer(hours: float, tie: float, j: str, best_hours: float, best_tie: float, best: str) -> bool:
    """``(hours, tie, j) < (best_hours, best_tie, best)``: the key of RULES.md §8.8's nearest
    junction (hours, then the tie key, then id), spelled out so that the compiled module
    builds no tuples to compare (the hours are never NaN)."""
    if hours != best_hours:
        return hours < best_hours
    if tie != best_tie:
        return tie < best_tie
    return j < best


def hours_to(priced: PricedRoutes, to_base: dict[str, float], junction: str, base: str) -> float:
    """Expected hours from ``junction`` to ``base`` by ``priced`` (``to_base`` is that base's
    table, filled as asked): the tie key of equally near junctions, ``(hours, tie key, id)``,
    nearer the own base first, then by id. (house) Nearness to the own base comes before the
    id so that a mirror-image map breaks ties the same way for both sides (RULES.md §8.8)."""
    hours = to_base.get(junction)
    if hours is None:
        hours = to_base[junction] = priced.cost(junction, base)
    return hours
