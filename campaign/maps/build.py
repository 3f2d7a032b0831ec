"""Turn a :class:`RawMap` into the campaign graph: junction and road attributes.

Objective rule (foreign maps; the project's own format states ``objective``/``value``):

1. a junction with ``objective`` is an objective as stated (value: its ``value``, else 1);
2. else the first positive number among its ``value``, ``vp``, ``victory_value``, ``rating``
   facts makes it an objective of that value;
3. else a true ``town``, ``city``, ``fortress`` or ``capital`` fact makes it one of value 1;
4. a foreign map where no junction qualifies: every junction where 3 or more roads meet is an
   objective of value 1 (stated in the notes).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import networkx as nx
import numpy as np

from campaign.errors import MapError
from campaign.maps.raw import RawJunction, RawMap
from campaign.maps.road_kinds import RoadKindTable

__all__ = ["MIN_MARCH_HOURS", "OBJECTIVE_FLAGS", "OBJECTIVE_NUMBERS", "build_graph"]

#: (house) The shortest march a road can take: one minute, the campaign clock's resolution
#: (RULES.md §8.3 counts time in minutes). A 0.000001-hour road would let divisions march
#: back and forth thousands of times a minute until the event cap stops the campaign.
MIN_MARCH_HOURS = 1 / 60

OBJECTIVE_NUMBERS = ("value", "vp", "victory_value", "rating")
OBJECTIVE_FLAGS = ("town", "city", "fortress", "capital")


def _objective(junction: RawJunction, strict: bool) -> tuple[bool, int]:
    facts = junction.facts
    if "objective" in facts or strict:
        objective = bool(facts.get("objective", (facts.get("value") or 0) > 0))
        return objective, (int(facts.get("value") or 1) if objective else 0)
    for key in OBJECTIVE_NUMBERS:
        value = facts.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
            return True, max(1, round(value))
    if any(facts.get(key) is True for key in OBJECTIVE_FLAGS):
        return True, 1
    return False, 0


def _road_rank(attrs: dict[str, Any]) -> tuple[bool, float]:
    """Sort key of parallel roads: normal before rough, then fewer march hours."""
    return (attrs["kind"] != "normal", attrs["hours"])


def build_graph(raw: RawMap, table: RoadKindTable, seed: int) -> tuple[nx.Graph, list[str]]:
    """The campaign graph of a raw map, with a note for every automatic choice.

    Parameters
    ----------
    raw : RawMap
        The map as read.
    table : RoadKindTable
        Road kinds and length factors (with the map's overrides).
    seed : int
        Seed of ``networkx.spring_layout`` for junctions without a position.

    Returns
    -------
    (networkx.Graph, list of str)
        The graph (attributes as documented in :class:`campaign.maps.CampaignMap`) and notes.

    Raises
    ------
    MapError
        If a road's march hours are not a positive number (key path named).
    """
    graph = nx.Graph()
    _add_junctions(graph, raw)
    counts = _add_roads(graph, raw, table)
    notes = _road_notes(counts, table, raw)
    if not raw.strict and not any(graph.nodes[n]["objective"] for n in graph):
        hubs = sorted(n for n in graph if graph.degree(n) >= 3)
        for n in hubs:
            graph.nodes[n].update(objective=True, value=1)
        notes.append(
            f"The map names no objectives: the {len(hubs)} junctions where 3 or more roads "
            "meet are objectives of value 1."
        )
    _place(graph, seed, notes)
    return graph, notes


def _add_junctions(graph: nx.Graph, raw: RawMap) -> None:
    """Every junction of ``raw`` as a node of ``graph``, with its name, position, objective
    value and terrain."""
    for j in raw.junctions:
        objective, value = _objective(j, raw.strict)
        terrain = j.facts.get("terrain")
        graph.add_node(
            j.id,
            name=j.name,
            pos=j.pos,
            objective=objective,
            value=value,
            terrain=None if terrain is None else str(terrain),
        )


def _add_roads(graph: nx.Graph, raw: RawMap, table: RoadKindTable) -> Counter[str]:
    """Every passable road of ``raw`` as an edge of ``graph`` (parallel roads merged, the
    best kept); returns what was left out or changed: ``merged``, ``loops``, ``short`` and
    ``impassable:KIND`` counts.

    Raises
    ------
    MapError
        If a road's march hours are not a positive number (key path named).
    """
    problems: list[str] = []
    counts: Counter[str] = Counter()
    for road in raw.roads:
        source_kind = str(road.attrs.get("kind", "normal"))
        kind = table.classify(source_kind)
        hours, how = table.march_hours(road.attrs)
        if not (math.isfinite(hours) and hours > 0):
            problems.append(
                f"{road.key}: march hours must be a positive number "
                f"(from {how}: {road.attrs.get(how, hours)!r})"
            )
            continue
        if hours < MIN_MARCH_HOURS:
            counts["short"] += 1
            hours = MIN_MARCH_HOURS
        if kind == "impassable":
            counts[f"impassable:{source_kind}"] += 1
            continue
        if road.a == road.b:
            counts["loops"] += 1
            continue
        attrs: dict[str, Any] = {
            "kind": kind,
            "hours": float(hours),
            "primary_of": road.attrs.get("primary"),
            "source_kind": source_kind,
        }
        if graph.has_edge(road.a, road.b):
            counts["merged"] += 1
            old = graph.edges[road.a, road.b]
            old_attrs: dict[str, Any] = dict(old)
            chosen = min(old_attrs, attrs, key=_road_rank)
            best = dict(chosen)
            best["primary_of"] = old["primary_of"] or attrs["primary_of"]
            graph.add_edge(road.a, road.b, **best)
        else:
            graph.add_edge(road.a, road.b, **attrs)
    if problems:
        raise MapError(
            "; ".join(problems),
            source=raw.source,
            fix="Give each road positive hours, or a positive length (--hours-per-length F).",
        )
    return counts


def _road_notes(counts: Counter[str], table: RoadKindTable, raw: RawMap) -> list[str]:
    """The notes on the roads: what was left out, merged or assumed (:func:`_add_roads`)."""
    notes: list[str] = []
    dropped = {k.split(":", 1)[1]: n for k, n in counts.items() if k.startswith("impassable:")}
    if dropped:
        kinds = ", ".join(f"{k}: {n}" for k, n in sorted(dropped.items()))
        notes.append(f"Left out {sum(dropped.values())} impassable roads ({kinds}).")
    if counts["loops"]:
        notes.append(f"Left out {counts['loops']} roads from a junction to itself.")
    if counts["short"]:
        notes.append(
            f"{counts['short']} roads are shorter than a minute's march: each takes one minute "
            "(the clock's resolution)."
        )
    if counts["merged"]:
        notes.append(
            f"Merged {counts['merged']} parallel road(s) into the road they run beside, keeping "
            "the best (normal over rough, then fewer march hours)."
        )
    if table.unknown:
        names = ", ".join(sorted(table.unknown))
        notes.append(
            f"Warning: road kinds not in config/road_kinds.yaml were treated as normal: {names} "
            "(use --road-kind KIND=rough to change that)."
        )
    lengths = Counter(table.march_hours(r.attrs)[1] for r in raw.roads)
    for how, count in sorted(lengths.items()):
        if how == "default":
            notes.append(f"{count} roads give no hours or length: {table.default_hours:g} h each.")
        elif how != "hours":
            factor = table.length_factor or table.hours_per_length[how]
            notes.append(f"March hours of {count} roads = {how} × {factor:g} h.")
    return notes


#: Junctions from which a map without positions is laid out by road steps, not by springs:
#: networkx's spring layout needs scipy from 500 nodes on (and takes 20 s at 1,500).
LARGE_LAYOUT = 500


def _layered_layout(graph: nx.Graph) -> dict[str, tuple[float, float]]:
    """Every junction placed by ``networkx.bfs_layout`` (layers of road steps), no scipy.

    Each connected part is laid out from its smallest junction id, scaled to a 2 × 2 box,
    and the parts are set in a square grid, largest first. Linear in junctions and roads.
    """
    parts = sorted(nx.connected_components(graph), key=lambda c: (-len(c), min(c)))
    columns = max(1, math.ceil(math.sqrt(len(parts))))
    out: dict[str, tuple[float, float]] = {}
    for k, part in enumerate(parts):
        ox, oy = 2.5 * (k % columns), -2.5 * (k // columns)
        if len(part) == 1:
            out[next(iter(part))] = (ox, oy)
            continue
        sub = graph.subgraph(sorted(part))
        for n, (x, y) in nx.bfs_layout(sub, min(part)).items():
            out[n] = (ox + float(x), oy + float(y))
    return out


def _place(graph: nx.Graph, seed: int, notes: list[str]) -> None:
    """Give junctions without a position one from a seeded spring layout.

    Maps of :data:`LARGE_LAYOUT` junctions or more are laid out by road steps instead
    (:func:`_layered_layout`), with installed libraries only.
    """
    missing = sorted(n for n in graph if graph.nodes[n]["pos"] is None)
    if not missing:
        return
    known = {n: graph.nodes[n]["pos"] for n in sorted(graph) if graph.nodes[n]["pos"] is not None}
    ordered = nx.Graph()
    ordered.add_nodes_from(sorted(graph))
    ordered.add_edges_from(sorted(tuple(sorted(e)) for e in graph.edges))
    if len(ordered) >= LARGE_LAYOUT:
        _place_in_layers(graph, ordered, known, missing)
        notes.append(
            f"{len(missing)} junctions have no position: placed in layers of road steps by "
            "networkx.bfs_layout (a large map)."
        )
        return
    with np.errstate(all="ignore"):  # (a degenerate layout is caught below, not warned of)
        layout = nx.spring_layout(
            ordered, pos=known or None, fixed=sorted(known) or None, seed=seed
        )
    scale = 1.0 if known else 100.0
    how = f"networkx.spring_layout (seed {seed})"
    if not all(math.isfinite(float(v)) for n in missing for v in layout[n]):
        # the spring layout fails (NaN) when the given positions are degenerate, e.g. all at
        # one point (found by issue 32's fuzz: ``map convert`` wrote ``pos: [.nan, .nan]``)
        layout, scale = _on_a_circle(missing, known), 1.0
        how = "a circle around the given junctions (the spring layout failed)"
    for n in missing:
        x, y = layout[n]
        graph.nodes[n]["pos"] = (round(float(x) * scale, 3), round(float(y) * scale, 3))
    notes.append(f"{len(missing)} junctions have no position: placed by {how}.")


def _on_a_circle(
    missing: list[str], known: dict[str, tuple[float, float]]
) -> dict[str, tuple[float, float]]:
    """``missing`` junctions evenly on a circle around the finite ``known`` positions (radius
    their extent, at least 100), in id order: a layout that cannot fail."""
    points = [p for p in known.values() if all(math.isfinite(float(v)) for v in p)]
    cx = sum(p[0] for p in points) / len(points) if points else 0.0
    cy = sum(p[1] for p in points) / len(points) if points else 0.0
    extent = max((max(abs(p[0] - cx), abs(p[1] - cy)) for p in points), default=0.0)
    radius = max(extent, 100.0)
    step = 2 * math.pi / len(missing)
    return {
        n: (cx + radius * math.cos(i * step), cy + radius * math.sin(i * step))
        for i, n in enumerate(missing)
    }


def _place_in_layers(
    graph: nx.Graph,
    ordered: nx.Graph,
    known: dict[str, tuple[float, float]],
    missing: list[str],
) -> None:
    """Place the ``missing`` junctions of a large map by :func:`_layered_layout`, scaled
    into the box of the ``known`` positions (0-100 when there are none)."""
    layout = _layered_layout(ordered)
    xs = [p[0] for p in known.values()] or [0.0, 100.0]
    ys = [p[1] for p in known.values()] or [0.0, 100.0]
    lx = [p[0] for p in layout.values()]
    ly = [p[1] for p in layout.values()]
    sx = (max(xs) - min(xs) or 100.0) / (max(lx) - min(lx) or 1.0)
    sy = (max(ys) - min(ys) or 100.0) / (max(ly) - min(ly) or 1.0)
    for n in missing:
        x, y = layout[n]
        graph.nodes[n]["pos"] = (
            round(min(xs) + (x - min(lx)) * sx, 3),
            round(min(ys) + (y - min(ly)) * sy, 3),
        )
