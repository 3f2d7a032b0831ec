"""Maps drawn as graph files: GraphML (``networkx.read_graphml``) and node-link JSON.

Directed graphs become undirected and multigraphs keep all their parallel roads as separate
:class:`RawRoad` records; :func:`campaign.maps.build.build_graph` keeps the best of each pair.
"""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx

from battle.yamlfile import MAX_YAML_BYTES, READ_FIX, check_file_size, file_error
from campaign.errors import MapError
from campaign.maps.raw import RawJunction, RawMap, RawRoad

__all__ = ["GRAPH_SUFFIXES", "read_graph_map"]

GRAPH_SUFFIXES = (".graphml", ".json")


_NODE_LINK_FIX = (
    'Give a JSON object {"nodes": [{"id": ...}, ...], "links": [{"source": ..., '
    '"target": ...}, ...]} (networkx.node_link_data), or write the map in the project\'s '
    "YAML format."
)


def _node_link_shape(data: Any, source: str) -> None:
    """Refuse node-link JSON of the wrong shape before networkx reads it."""
    problem = None
    if not isinstance(data, dict):
        problem = f"the top level is a {type(data).__name__}, not an object"
    elif not isinstance(data.get("nodes"), list):
        problem = "'nodes' must be a list of objects with an 'id'"
    else:
        edges: Any = data.get("edges", data.get("links", []))
        if not isinstance(edges, list):
            problem = "'links' (or 'edges') must be a list of objects"
            edges = []
        groups: tuple[tuple[str, list[Any]], ...] = (("nodes", data["nodes"]), ("links", edges))
        for key, items in groups:
            for k, item in enumerate(items):
                need = ("id",) if key == "nodes" else ("source", "target")
                if not isinstance(item, dict) or any(n not in item for n in need):
                    problem = f"{key}[{k}] must be an object with {' and '.join(need)}"
                    break
                ids = [item[n] for n in need]
                if any(isinstance(i, list | dict) for i in ids):
                    problem = (
                        f"{key}[{k}]: an id must be a string or a number, not a list or object"
                    )
                    break
            if problem:
                break
    if problem:
        raise MapError(f"not a node-link JSON graph: {problem}", source=source, fix=_NODE_LINK_FIX)


#: Where a junction or road is in a graph file: ``{id: "nodes[3] (id)"}`` and
#: ``{(a, b): "edges[3] (a–b)"}`` (node-link JSON: indices of the file's lists).
Places = tuple[dict[str, str], dict[tuple[str, str], str]]


def _node_link_places(data: dict[str, Any], edges: str) -> Places:
    """Each node's and link's index in a node-link document, for messages."""
    nodes: dict[str, str] = {}
    for i, node in enumerate(data.get("nodes") or []):
        if isinstance(node, dict) and "id" in node:
            nodes.setdefault(str(node["id"]), f"nodes[{i}] ({node['id']})")
    links: dict[tuple[str, str], str] = {}
    for i, link in enumerate(data.get(edges) or []):
        if isinstance(link, dict) and "source" in link and "target" in link:
            a, b = str(link["source"]), str(link["target"])
            links.setdefault((a, b), f"{edges}[{i}] ({a}–{b})")
            links.setdefault((b, a), links[(a, b)])
    return nodes, links


def _read_graph(path: Path) -> tuple[nx.Graph, Places]:
    if not path.exists():
        raise MapError("map file not found", source=str(path), fix="Check the path.")
    check_file_size(path, MapError, MAX_YAML_BYTES, "map file")
    kind = "GraphML" if path.suffix.lower() == ".graphml" else "node-link JSON"
    try:
        if path.suffix.lower() == ".graphml":
            return nx.read_graphml(path), ({}, {})
        data = json.loads(path.read_text(encoding="utf-8"))
        _node_link_shape(data, str(path))
        edges = "edges" if isinstance(data, dict) and "edges" in data else "links"
        return nx.node_link_graph(data, edges=edges), _node_link_places(data, edges)
    except UnicodeDecodeError:
        raise MapError(
            f"not a {kind} text file (it is not UTF-8)",
            source=str(path),
            fix="Save the file as UTF-8 text.",
        ) from None
    except RecursionError:
        raise MapError(
            f"the {kind} file is nested too deeply to read", source=str(path), fix=_NODE_LINK_FIX
        ) from None
    except OSError as exc:
        raise file_error(MapError, "read the map file", path, exc, READ_FIX) from None
    except (
        ET.ParseError,
        json.JSONDecodeError,
        nx.NetworkXError,
        KeyError,
        TypeError,
        ValueError,
        AttributeError,
        IndexError,
    ) as exc:
        raise MapError(
            f"not a readable {kind} graph ({type(exc).__name__}: {exc})",
            source=str(path),
            fix="Check the file, or write the map in the project's YAML format.",
        ) from None


def _position(attrs: dict[str, Any]) -> tuple[float, float] | None:
    """``pos`` (a pair or "x,y" text), else numeric ``x`` and ``y`` attributes."""
    raw = attrs.get("pos")
    if isinstance(raw, str):
        raw = raw.replace("(", "").replace(")", "").replace(",", " ").split()
    pair = raw if isinstance(raw, list | tuple) else (attrs.get("x"), attrs.get("y"))
    try:
        x, y = (float(v) for v in pair)
    except (TypeError, ValueError):
        return None
    return (x, y) if math.isfinite(x) and math.isfinite(y) else None


def _source_kind(attrs: dict[str, Any]) -> str:
    """The road's kind in the file's terms: ``kind``/``type``/``highway``, tunnels, ferries."""
    for key in ("kind", "type", "highway"):
        if attrs.get(key) not in (None, ""):
            return str(attrs[key])
    if _positive(attrs.get("tunnel")):
        return "tunnel"
    if _positive(attrs.get("locomotives")):
        return "ferry"
    return "normal"


def _positive(value: Any) -> bool:
    try:
        return float(value) > 0
    except (TypeError, ValueError):
        return str(value).strip().lower() in ("true", "yes")


def _visible_id(node: Any, place: str, path: Path) -> str:
    """A node's id as text, refused when blank (only white space or line breaks, which the
    project's own format refuses too: written out, ``map convert``'s file would not read back).
    """
    ident = str(node)
    if not ident.strip():
        raise MapError(
            f"{place}: a junction id must not be empty (found {ident!r})",
            source=str(path),
            fix="Give every node an id with at least one visible character.",
        )
    return ident


def read_graph_map(
    path: Path, check_size: Callable[[dict[str, int]], None] | None = None
) -> RawMap:
    """Read a GraphML or node-link JSON map.

    Junction names come from a ``name`` or ``label`` attribute (else the id); positions from
    ``pos`` or ``x``/``y``; every other attribute is kept as a fact. A road's kind is its
    ``kind``, ``type`` or ``highway`` attribute, else ``tunnel`` (``tunnel`` > 0) or ``ferry``
    (``locomotives`` > 0), else ``normal``.

    ``check_size`` gets the number of junctions and roads as soon as the file is parsed,
    and may raise to refuse a map too big to play.

    Raises
    ------
    MapError
        If the file is missing or not a readable graph.
    """
    graph, (node_places, road_places) = _read_graph(path)
    if check_size is not None:
        check_size({"junctions": graph.number_of_nodes(), "roads": graph.number_of_edges()})
    notes = []
    if graph.is_directed():
        notes.append("The graph file is directed; every road is read as two-way.")
    junctions = []
    for node in sorted(graph.nodes, key=str):
        attrs = dict(graph.nodes[node])
        place = node_places.get(str(node), f"node {node}")
        ident = _visible_id(node, place, path)
        name = attrs.pop("name", None) or attrs.pop("label", None) or ident
        pos = _position(attrs)
        name = str(name) if str(name).strip() else ident  # a blank name reads as the id
        junctions.append(RawJunction(ident, name, pos, attrs, place))
    roads = []
    edges = graph.edges(data=True)
    for a, b, attrs in sorted(edges, key=lambda e: (str(e[0]), str(e[1]))):
        data = dict(attrs)
        data["kind"] = _source_kind(data)
        place = road_places.get((str(a), str(b)), f"edge {a}–{b}")
        roads.append(RawRoad(str(a), str(b), data, place))
    name = str(graph.graph.get("name") or path.stem)
    return RawMap(name, str(path), junctions, roads, None, False, notes)
