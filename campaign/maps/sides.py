"""The two sides of a campaign: bases, starts and primary roads (RULES.md §8.1, §8.7).

Sides come from the map file, from :class:`MapOptions` (which win), or automatically
(RULES.md §8.7: the armies one to three days' march apart, a time limit that leaves room):

- **Bases**: in the largest connected component (ties: the one with the smallest junction
  id), a pair of junctions — objectives when at least two qualify — whose march-hour
  distance is one to three days of daylight march (``MapOptions.daylight_hours`` each day),
  and at most ``max_march_hours / 3``. A double sweep (two single-source searches) finds
  the component's span; when even that is under a day, the window becomes 60-100% of it.
  Candidate first bases are drawn with ``numpy.random.default_rng(seed)`` and searched one
  at a time (at most :data:`AUTO_TRIES` searches, so a 1,000-junction map is quick); the
  partner is drawn among those in the window. With none found, the double sweep's pair.
  One base given: its partner is drawn the same way.
- **Home countries**: when a map's names (its names overlay, :mod:`campaign.maps.naming`)
  give both sides ``home`` junctions, the bases are drawn among those pairs instead
  (:func:`_home_bases`), so that a side's base lies in its own country.
- **Starts**: the base and its two nearest junctions (march hours, then id) among those
  nearer to it than to the enemy base.
- **Time limit**: the rules' limit, or twice the days' march between the bases plus three
  days when that is longer (*house*).
"""

from __future__ import annotations

import difflib
import math

import networkx as nx
import numpy as np

from campaign.errors import MapError
from campaign.maps.model import SIDES, MapOptions, SideSetup
from campaign.maps.raw import RawMap

__all__ = [
    "AUTO_DAYS",
    "AUTO_TRIES",
    "START_COUNT",
    "auto_time_limit",
    "double_sweep",
    "resolve_sides",
]

#: the fix when no junction pair is near enough to be chosen as the bases
_NEARER = (
    "Give the bases (--red-base, --blue-base), or shorten the roads: lower their hours in "
    "the map, or --hours-per-length for a map drawn without hours."
)

#: The automatic bases' distance in days of daylight march (RULES.md §8.7).
AUTO_DAYS = (1.0, 3.0)
#: Fraction of the span used as the window when the whole component is under a day's march.
SMALL_WINDOW = (0.6, 1.0)
#: At most this many first bases are searched from (one single-source search each).
AUTO_TRIES = 24
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
                    fix=_closest_ids(graph, ident, source),
                )


def _closest_ids(graph: nx.Graph, typed: str, source: str) -> str:
    """The fix for an unknown junction id: the ids closest to ``typed`` (by id or by name,
    difflib), else the map's first ids; and where all of them are listed."""
    ids = sorted(map(str, graph))
    by_name = {str(name).casefold(): str(j) for j, name in graph.nodes(data="name") if name}
    close = difflib.get_close_matches(typed, ids, n=3, cutoff=0.6)
    named = difflib.get_close_matches(typed.casefold(), list(by_name), n=3, cutoff=0.6)
    close += [by_name[n] for n in named if by_name[n] not in close]
    where = f"`campaign map info {source}` lists all {len(ids)} junction ids"
    if close:
        shown = ", ".join(repr(j) for j in close[:3])
        return f"Did you mean {shown}? Give a junction id of the map ({where})."
    first = ", ".join(ids[:8]) + (", …" if len(ids) > 8 else "")
    return f"Give a junction id of the map: {first} ({where})."


def _largest_component(graph: nx.Graph) -> set[str]:
    return min(nx.connected_components(graph), key=lambda c: (-len(c), min(c)))


def double_sweep(graph: nx.Graph, nodes: list[str]) -> tuple[str, str, float]:
    """Two far-apart junctions and their distance in march hours: a lower bound of the
    weighted diameter and at least half of it, by two single-source searches (from
    ``nodes[0]``, then from the farthest junction found; ties by id). Always ends.

    >>> g = nx.path_graph(["a", "b", "c"])
    >>> nx.set_edge_attributes(g, 1.5, "hours")
    >>> double_sweep(g, ["b"])
    ('a', 'c', 3.0)
    """
    first = nodes[0]
    out = nx.single_source_dijkstra_path_length(graph, first, weight="hours")
    a = max(sorted(out), key=lambda n: out[n])
    back = nx.single_source_dijkstra_path_length(graph, a, weight="hours")
    b = max(sorted(back), key=lambda n: back[n])
    return a, b, float(back[b])


#: A pair of bases found: the two junctions, their distance in march hours and how it was found.
_Pair = tuple[str, str, float, str]


def _base_component(
    graph: nx.Graph, fixed: str | None, source: str
) -> tuple[set[str], nx.Graph, list[str]]:
    """The component the bases are chosen in: ``fixed``'s, else the largest; its graph (the
    map's own when it is the whole map) and its junctions sorted by id.

    Raises
    ------
    MapError
        If the component has fewer than two junctions.
    """
    component = nx.node_connected_component(graph, fixed) if fixed else _largest_component(graph)
    sub = graph if len(component) == len(graph) else graph.subgraph(component).copy()
    nodes = sorted(component)
    if len(nodes) < 2:
        raise MapError(
            "the map has no two connected junctions for the bases",
            source=source,
            key="sides",
            fix="Give the bases (--red-base, --blue-base) on a map with roads between them.",
        )
    return component, sub, nodes


def _base_window(options: MapOptions, span: float) -> tuple[float, float]:
    """The bases' distance window in march hours (RULES.md §8.7): one to three days of
    daylight march, at most ``max_march_hours / 3``; 60-100% of the ``span`` when the whole
    component is under a day's march."""
    day = options.daylight_hours
    low, high = AUTO_DAYS[0] * day, min(AUTO_DAYS[1] * day, options.max_march_hours / 3)
    if span < low:
        low, high = (f * span for f in SMALL_WINDOW)
    return low, high


def _first_bases(pool: list[str], fixed: str | None, rng: np.random.Generator) -> list[str]:
    """The first bases to search from: ``fixed``, else at most :data:`AUTO_TRIES` of the
    ``pool`` in a drawn order."""
    if fixed:
        return [fixed]
    return [pool[int(i)] for i in rng.permutation(len(pool))[:AUTO_TRIES]]


def _in_window(
    candidates: list[str], u: str, dist: dict[str, float], low: float, high: float
) -> list[str]:
    """The ``candidates`` other than ``u`` whose march hours from it lie in ``[low, high]``."""
    return [v for v in candidates if v != u and low <= dist.get(v, -1.0) <= high]


def _draw_partner(
    sub: nx.Graph,
    firsts: list[str],
    pools: tuple[list[str], list[str]],
    window: tuple[float, float],
    rng: np.random.Generator,
    seed: int,
) -> _Pair | None:
    """The first of ``firsts`` with a partner in the window, and that partner drawn among
    the pool's junctions in it (all ``nodes`` when no pool junction is); None when none has.

    ``pools`` is (pool, nodes): the objectives or all junctions, then all junctions."""
    pool, nodes = pools
    low, high = window
    for u in firsts:
        dist = nx.single_source_dijkstra_path_length(sub, u, weight="hours")
        partners = _in_window(pool, u, dist, low, high)
        if not partners and pool is not nodes:
            partners = _in_window(nodes, u, dist, low, high)
        if partners:
            v = partners[int(rng.integers(len(partners)))]
            return (u, v, dist[v], f"drawn (seed {seed}) among {len(partners)} partners")
    return None


def _farthest_within(sub: nx.Graph, nodes: list[str], fixed: str, cap: float, source: str) -> _Pair:
    """The given base and the farthest junction within ``cap`` march hours of it.

    Raises
    ------
    MapError
        If no junction is that near.
    """
    dist = nx.single_source_dijkstra_path_length(sub, fixed, weight="hours")
    within = [v for v in nodes if v != fixed and dist[v] <= cap]
    if not within:
        raise MapError(
            f"no junction is within {cap:g} march hours of {fixed!r}",
            source=source,
            key="sides",
            fix=_NEARER,
        )
    v = max(within, key=lambda n: (dist[n], n))
    return (fixed, v, dist[v], "the farthest junction within the limit")


def _sweep_pair(far: tuple[str, str, float], cap: float, source: str) -> _Pair:
    """The double sweep's two far-apart junctions, when within ``cap`` march hours.

    Raises
    ------
    MapError
        If they are farther apart than ``cap``.
    """
    far_a, far_b, span = far
    if span > cap:
        raise MapError(
            f"no junction pair found within {cap:g} march hours of each other",
            source=source,
            key="sides",
            fix=_NEARER,
        )
    return (far_a, far_b, span, "the two farthest junctions found")


def _auto_bases(
    graph: nx.Graph, options: MapOptions, fixed: str | None, notes: list[str], source: str
) -> tuple[str, str]:
    """Two bases, ``fixed`` among them when given (then returned first); RULES.md §8.7.

    Drawn as the module's docstring says: first bases searched in a drawn order, a partner
    drawn in the window; else the farthest junction within the limit of the given base, or
    the double sweep's pair. Without a given base, the two are then swapped on a coin's toss.
    """
    component, sub, nodes = _base_component(graph, fixed, source)
    far = double_sweep(sub, [fixed] if fixed else nodes)
    span = far[2]
    cap = options.max_march_hours / 3
    window = _base_window(options, span)
    objectives = [n for n in nodes if graph.nodes[n]["objective"]]
    pool = objectives if len(objectives) >= 2 else nodes
    rng = np.random.default_rng(options.seed)
    firsts = _first_bases(pool, fixed, rng)
    chosen = _draw_partner(sub, firsts, (pool, nodes), window, rng, options.seed)
    if chosen is None:
        if fixed is not None:
            chosen = _farthest_within(sub, nodes, fixed, cap, source)
        else:
            chosen = _sweep_pair(far, cap, source)
    u, v, hours, how = chosen
    if fixed is None and rng.integers(2):
        u, v = v, u
    notes.append(
        f"Bases chosen automatically: {u!r} and {v!r}, {hours:g} march hours apart "
        f"({hours / options.daylight_hours:.1f} days of march; component of "
        f"{len(component)} junctions, span {span:g} h; {how})."
    )
    return u, v


def _outside(hours: float, low: float, high: float) -> float:
    """How far ``hours`` lies outside ``[low, high]`` (0 inside)."""
    return max(low - hours, hours - high, 0.0)


def _home_bases(
    graph: nx.Graph, raw: RawMap, options: MapOptions, notes: list[str]
) -> tuple[str, str] | None:
    """Both bases from the sides' ``home`` junctions (a names overlay's, so that a side's
    base lies in its own country), or None when a side has none or no pair is connected.

    Among the pairs (a Red home, a Blue home) one to three days' march apart (RULES.md §8.7,
    as :func:`_auto_bases`) one is drawn with ``numpy.random.default_rng(seed)``; with none
    in that window, the pair nearest to it (ties by ids).

    Raises
    ------
    MapError
        If a home names a junction the map does not have (naming the overlay and the key).
    """
    homes = {s: sorted(set(raw.naming.side(s).home)) for s in SIDES}
    if not all(homes.values()):
        return None
    where = raw.naming.origin or raw.source
    for s in SIDES:
        unknown = [j for j in homes[s] if j not in graph]
        if unknown:
            raise MapError(
                f"unknown junction {unknown[0]!r} among {s}'s home junctions",
                source=where,
                key=f"sides.{s}.home",
                fix=_closest_ids(graph, unknown[0], raw.source),
            )
    day = options.daylight_hours
    low, high = AUTO_DAYS[0] * day, min(AUTO_DAYS[1] * day, options.max_march_hours / 3)
    pairs = []
    for u in homes["red"]:
        dist = nx.single_source_dijkstra_path_length(graph, u, weight="hours")
        pairs += [(float(dist[v]), u, v) for v in homes["blue"] if v != u and v in dist]
    if not pairs:
        return None
    inside = [p for p in pairs if low <= p[0] <= high]
    if inside:
        hours, u, v = inside[int(np.random.default_rng(options.seed).integers(len(inside)))]
        how = f"drawn (seed {options.seed}) among {len(inside)} pairs one to three days apart"
    else:
        hours, u, v = min(pairs, key=lambda p: (_outside(p[0], low, high), p[1], p[2]))
        how = "none is one to three days apart: the nearest to it"
    notes.append(
        f"Bases chosen automatically among the sides' home junctions ({where}): {u!r} and "
        f"{v!r}, {hours:g} march hours apart ({hours / day:.1f} days of march; {how})."
    )
    return u, v


def auto_time_limit(hours_apart: float, daylight_hours: float) -> int:
    """Days an automatic set-up's campaign needs (RULES.md §8.7, house): twice the days'
    march between the bases, plus three. The campaign runs at least this long.

    >>> auto_time_limit(20, 14), auto_time_limit(40, 14)
    (7, 9)
    """
    return 2 * math.ceil(hours_apart / daylight_hours) + 3


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


def _bases(
    graph: nx.Graph, raw: RawMap, options: MapOptions, notes: list[str]
) -> tuple[dict[str, str | None], str]:
    """Both bases and where they came from (``file``, ``options`` or ``automatic``)."""
    file_sides = raw.sides or {}
    bases = {
        s: getattr(options, f"{s}_base") or (file_sides[s].base if s in file_sides else None)
        for s in SIDES
    }
    origin = "file" if raw.sides else "options"
    if bases["red"] is None or bases["blue"] is None:
        origin = "automatic"
        if bases["red"] is None and bases["blue"] is None:  # in their homes, if named
            pair = _home_bases(graph, raw, options, notes)
            auto = pair or _auto_bases(graph, options, None, notes, raw.source)
            bases["red"], bases["blue"] = auto
        else:
            fixed, missing = ("red", "blue") if bases["red"] else ("blue", "red")
            _, bases[missing] = _auto_bases(graph, options, bases[fixed], notes, raw.source)
    elif raw.sides and any(getattr(options, f"{s}_base") for s in SIDES):
        origin = "options"
    return bases, origin


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
    bases, origin = _bases(graph, raw, options, notes)
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
        own, enemy = bases[s], bases["blue" if s == "red" else "red"]
        assert own is not None and enemy is not None  # chosen above when not given
        starts = getattr(options, f"{s}_start")
        in_file = file_sides.get(s)
        # the file's name, else its names overlay's (campaign.maps.naming), else the colour
        name = (in_file.name if in_file else None) or raw.naming.side(s).name or s.capitalize()
        if not starts and in_file is not None and in_file.base == bases[s]:
            starts = in_file.starts
        if not starts:
            starts = list(_auto_starts(graph, own, enemy))
            notes.append(
                f"{name} starts at {', '.join(starts)}: its base and the nearest "
                "junctions on its side of the map."
            )
        if enemy in starts:
            flag = f"--{s}-start" if getattr(options, f"{s}_start") else f"sides.{s}.starts"
            raise MapError(
                f"{s.capitalize()} would start at {enemy!r}, the enemy's base",
                source=raw.source,
                key=flag,
                fix=f"Start {s.capitalize()} on its own side of the map (its base is {own!r}).",
            )
        sides[s] = SideSetup(name, own, tuple(starts), primary[s])
    return sides, origin, notes
