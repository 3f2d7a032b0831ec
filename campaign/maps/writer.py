"""Write a :class:`CampaignMap` in the project's own YAML format (``campaign map convert``)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import networkx as nx

from campaign.maps.model import SIDES, CampaignMap
from campaign.maps.yaml_io import dump_map_yaml

__all__ = ["map_document", "write_map"]


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else float(value)


def _road(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def _roads_in_order(graph: nx.Graph) -> list[tuple[str, str]]:
    """Every road once, in an order that gives every junction its roads in the graph's own
    order when read back (the order of its adjacency list).

    That order breaks ties between equally long routes (a fall back's, a march's), so a map
    converted and read back plays the same campaigns as the original. The roads are the
    nodes of a precedence graph (each junction's roads one after another); the original
    file's order is one of its topological orders, so one exists; the lexicographically
    smallest is taken, so the file is the same on every run.
    """
    after = nx.DiGraph()
    after.add_nodes_from(_road(a, b) for a, b in graph.edges)
    for node in graph.nodes:
        after.add_edges_from(itertools.pairwise(_road(node, other) for other in graph.adj[node]))
    return list(nx.lexicographical_topological_sort(after))


def map_document(cmap: CampaignMap) -> dict[str, Any]:
    """The map as a project-format document (reads back to the same graph and sides).

    Road ``source_kind`` is not kept: a written road's kind is its campaign kind
    (normal/rough), so the file reads back the same whatever table or overrides made it.
    """
    graph = cmap.graph
    junctions = []
    for node in graph.nodes:  # the graph's own order: see _roads_in_order
        attrs = graph.nodes[node]
        entry: dict[str, Any] = {"id": node, "name": attrs["name"]}
        entry["pos"] = [_number(v) for v in attrs["pos"]]
        if attrs["objective"]:
            entry.update(objective=True, value=attrs["value"])
        if attrs.get("terrain") is not None:
            entry["terrain"] = attrs["terrain"]
        junctions.append(entry)
    roads = []
    for a, b in _roads_in_order(graph):
        attrs = graph.edges[a, b]
        roads.append([a, b, {"kind": attrs["kind"], "hours": _number(attrs["hours"])}])
    sides = {}
    for side in SIDES:
        setup = cmap.sides[side]
        entry = {"name": setup.name, "base": setup.base, "start": list(setup.starts)}
        if setup.primary_road is not None:
            entry["primary_road"] = list(setup.primary_road)
        sides[side] = entry
    notes = [f"Converted from {cmap.source}.", *cmap.notes]
    document: dict[str, Any] = {
        "name": cmap.name,
        "notes": notes,
        "junctions": junctions,
        "roads": roads,
        "sides": sides,
    }
    limit = cmap.time_limit_days or cmap.min_time_limit_days
    if limit is not None:  # an automatic set-up's time limit is kept as the map's own
        document["time_limit_days"] = limit
    if cmap.reinforcements:  # RULES.md §8.9
        document["reinforcements"] = [
            {
                "side": r.side,
                "junction": r.junction,
                "day": r.day,
                "hour": _number(r.hour),
                "divisions": list(r.divisions),
            }
            for r in cmap.reinforcements
        ]
    return document


def write_map(cmap: CampaignMap, path: str | Path) -> Path:
    """Write ``cmap`` as project-format YAML to ``path`` and return the path.

    Raises
    ------
    SimulatorError
        If the place cannot be written (exit code 2).
    EnvironmentFailure
        If the disk is full (exit code 1); nothing is written.
    """
    from campaign.outfile import write_text_whole

    out = Path(path)
    write_text_whole(out, dump_map_yaml(map_document(cmap)), "--out")  # whole or not at all
    return out
