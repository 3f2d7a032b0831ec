"""``load_map``: read any supported map file into a validated :class:`CampaignMap`."""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from campaign.errors import MapError
from campaign.maps.build import build_graph
from campaign.maps.contract import ContractionStats, contract_roads
from campaign.maps.foreign import GRAPH_SUFFIXES, read_graph_map
from campaign.maps.model import SIDES, CampaignMap, MapOptions, Reinforcement, SideSetup
from campaign.maps.naming import MapNaming, overlay_path, read_overlay
from campaign.maps.raw import RawMap
from campaign.maps.road_kinds import load_road_kind_table
from campaign.maps.schema import SizeCheck, read_yaml_map
from campaign.maps.sides import auto_time_limit, resolve_sides
from campaign.paths import DEFAULT_MAP, MAPS_DIR, PROJECT_ROOT

__all__ = ["check_map_size", "load_map", "read_raw_map", "resolve_map_path"]


def resolve_map_path(path: str | Path | None) -> Path:
    """The map file for a path or a shipped map's name (``waterloo-1815``); None → default."""
    if path is None:
        return DEFAULT_MAP
    candidate = Path(path)
    shipped = MAPS_DIR / f"{path}.yaml"
    if not candidate.exists() and candidate.suffix == "" and shipped.exists():
        return shipped
    in_project = PROJECT_ROOT / candidate  # logs name shipped maps relative to the project
    if not candidate.exists() and not candidate.is_absolute() and in_project.exists():
        return in_project
    return candidate


def read_raw_map(path: Path, contract: bool | None = None) -> RawMap:
    """Read a map file of any supported format (YAML, GraphML, node-link JSON).

    ``contract``: None reads a map of any size; False or True refuse, as soon as its
    junctions and roads are counted (before it is validated or built), a map larger than
    a campaign may have without or with ``--contract`` (:func:`check_map_size`).

    Raises
    ------
    MapError
        If the file is missing, unreadable, of an unknown type, invalid or too big.
    """
    if not path.exists():
        shipped = sorted(p.stem for p in MAPS_DIR.glob("*.yaml"))
        raise MapError(
            "map file not found",
            source=str(path),
            fix="Check the path, or give a shipped map's name: "
            f"{', '.join(shipped) or '(none in maps/)'}.",
        )
    if path.is_dir():
        raise MapError(
            "this is a folder, not a map file",
            source=str(path),
            fix="Give a map file in it (.yaml, .graphml or node-link .json), or a shipped "
            "map's name.",
        )
    check: SizeCheck | None = None
    if contract is not None:

        def check(counts: dict[str, int]) -> None:
            check_map_size(counts, str(path), contract)

    if path.suffix.lower() in GRAPH_SUFFIXES:
        return read_graph_map(path, check)
    if path.suffix.lower() in (".yaml", ".yml"):
        return read_yaml_map(path, check, _COUNT_CAP)
    raise MapError(
        f"unknown map file type {path.suffix!r}",
        source=str(path),
        fix="Use a .yaml, .graphml or node-link .json file.",
    )


def _check_playable(graph: nx.Graph, source: str) -> None:
    if graph.number_of_nodes() < 2 or graph.number_of_edges() == 0:
        raise MapError(
            f"the map has {graph.number_of_nodes()} junction(s) and "
            f"{graph.number_of_edges()} usable road(s); a campaign needs at least two "
            "junctions joined by a road",
            source=source,
            fix="Add junctions and roads, or check that its roads are not all impassable.",
        )


def _check_sides(
    graph: nx.Graph, sides: dict[str, SideSetup], options: MapOptions, source: str
) -> None:
    red, blue = sides["red"].base, sides["blue"].base
    if not nx.has_path(graph, red, blue):
        raise MapError(
            f"the bases {red!r} and {blue!r} are in different parts of the map (no road "
            "path joins them)",
            source=source,
            key="sides",
            fix="Choose bases in the same connected part, or add the missing roads.",
        )
    hours = nx.shortest_path_length(graph, red, blue, weight="hours")
    if hours > options.max_march_hours:
        raise MapError(
            f"the bases are {hours:g} march hours apart, more than the "
            f"{options.max_march_hours:g} hours the armies have to meet",
            source=source,
            key="sides",
            fix="Choose nearer bases, or lower the hours per length (--hours-per-length).",
        )
    for side in SIDES:
        setup = sides[side]
        for k, start in enumerate(setup.starts):
            if not nx.has_path(graph, start, setup.base):
                raise MapError(
                    f"start {start!r} has no road path to the base {setup.base!r}",
                    source=source,
                    key=f"sides.{side}.start[{k}]",
                    fix="Start every division where it can reach its base.",
                )


def _protected(graph: nx.Graph, sides: dict[str, SideSetup], raw: RawMap) -> set[str]:
    keep = {n for n, objective in graph.nodes(data="objective") if objective}
    keep |= {r.junction for r in raw.reinforcements}
    for setup in sides.values():
        keep |= {setup.base, *setup.starts, *(setup.primary_road or ())}
    return keep


#: Most junctions a campaign map may have once loaded (after ``--contract``): one campaign
#: and its diary (``run --report``, default rules) within a minute and 1 GB, with a margin for
#: a loaded machine. Measured (issue 32, compiled, load 3-10 on 2 cores): 1,600 junctions
#: 20 s CPU and 340 MB for a 3-day campaign and its diary; 2,000 junctions 61-81 s CPU and
#: 500-670 MB on grid and dense nets (7-9 days); the diary's maps grow with junctions x days.
MAX_JUNCTIONS = 1_000
#: Most junctions a map file may hold when ``--contract`` is to merge its chains first.
MAX_JUNCTIONS_TO_CONTRACT = 50_000
#: Most roads, without and with ``--contract`` *(house)*: a road net drawn on paper (planar)
#: has fewer than three roads a junction, so this refuses only what no map drawing needs
#: (3,000 for a campaign: a dense 2,000-junction net of 6,500 roads took 81 s with its diary).
MAX_ROADS = 3 * MAX_JUNCTIONS
MAX_ROADS_TO_CONTRACT = 3 * MAX_JUNCTIONS_TO_CONTRACT
#: Items of a YAML map's lists counted before it is read (past it, it is refused anyway).
_COUNT_CAP = MAX_ROADS_TO_CONTRACT

_FEWER = "Draw the map with fewer junctions, or cut it to the theatre that matters."


def _check_size(n: int, source: str, limit: int, what: str, fix: str) -> None:
    """Refuse a map of more than ``limit`` junctions (``what``: the junctions counted)."""
    if n > limit:
        raise MapError(
            f"{n:,} junctions{what}, more than the {limit:,} a campaign map may have",
            source=source,
            key="junctions",
            fix=fix,
        )


def _counted(n: int, noun: str) -> str:
    return f"more than {_COUNT_CAP:,} {noun}" if n > _COUNT_CAP else f"{n:,} {noun}"


def check_map_size(counts: dict[str, int], source: str, contract: bool) -> None:
    """Refuse a map with more junctions or roads than a campaign may have.

    ``counts`` are ``{"junctions": n, "roads": m}`` as counted in the file (missing keys
    count 0). Without ``contract`` the bounds are :data:`MAX_JUNCTIONS` and
    :data:`MAX_ROADS`, and the fix suggests ``--contract`` only for a map that ``--contract``
    accepts; with it, :data:`MAX_JUNCTIONS_TO_CONTRACT` and :data:`MAX_ROADS_TO_CONTRACT`.

    Raises
    ------
    MapError
        Naming ``source``, the key (``junctions`` or ``roads``), the count and the bound.
    """
    n, m = counts.get("junctions", 0), counts.get("roads", 0)
    contractible = n <= MAX_JUNCTIONS_TO_CONTRACT and m <= MAX_ROADS_TO_CONTRACT
    for key, count, plain, merged in (
        ("junctions", n, MAX_JUNCTIONS, MAX_JUNCTIONS_TO_CONTRACT),
        ("roads", m, MAX_ROADS, MAX_ROADS_TO_CONTRACT),
    ):
        limit = merged if contract else plain
        if count <= limit:
            continue
        if contract:
            what = f"more than the {limit:,} a map may have for --contract to merge"
            fix = _FEWER
        else:
            what = f"more than the {limit:,} a campaign map may have"
            fix = (
                f"Merge the chains of plain junctions with --contract (it reads maps of up to "
                f"{MAX_JUNCTIONS_TO_CONTRACT:,} junctions and {MAX_ROADS_TO_CONTRACT:,} "
                f"roads; every command that reads a map has it), or draw the map with fewer "
                "junctions."
                if contractible
                else f"{_FEWER} (--contract reads at most {MAX_JUNCTIONS_TO_CONTRACT:,} "
                f"junctions and {MAX_ROADS_TO_CONTRACT:,} roads, so it cannot help here.)"
            )
        raise MapError(f"{_counted(count, key)}, {what}", source=source, key=key, fix=fix)


def _naming(raw: RawMap, file: Path) -> MapNaming:
    """The map's names: the file's own, each side filled in from the overlay
    ``maps/names/<stem>.yaml`` where there is one (:mod:`campaign.maps.naming`).

    Raises
    ------
    MapError
        If the overlay is malformed (its key path and the fix).
    """
    overlay = overlay_path(file)
    if not overlay.is_file():
        return raw.naming
    extra = read_overlay(overlay)
    sides = {s: raw.naming.side(s).over(extra.side(s)) for s in ("red", "blue")}
    origin = ", ".join(o for o in (raw.naming.origin, extra.origin) if o)
    return MapNaming(sides, dict(raw.naming.reinforcements), origin)


def load_map(path: str | Path | None = None, options: MapOptions | None = None) -> CampaignMap:
    """Load, validate and prepare a campaign map (RULES.md §8.1).

    Parameters
    ----------
    path : str or Path or None
        A map file (``.yaml`` project or neutral format, ``.graphml``, node-link ``.json``)
        or a shipped map's name; None → ``campaign.paths.DEFAULT_MAP``.
    options : MapOptions or None
        Road-kind overrides, hours per length, contraction, sides, seed, march-hour limit.

    Returns
    -------
    CampaignMap
        The graph, the two sides and a note for each automatic choice.

    Raises
    ------
    MapError
        If the file is missing or invalid, or the map cannot hold a campaign (fewer than two
        junctions, more than :data:`MAX_JUNCTIONS` once loaded, no road, equal bases, bases
        in different parts of the map, bases more than ``options.max_march_hours`` apart).
        The message names the file and key path.

    Examples
    --------
    >>> cmap = load_map()
    >>> sorted(cmap.sides)
    ['blue', 'red']
    """
    options = options or MapOptions()
    file = resolve_map_path(path)
    raw = read_raw_map(file, options.contract)  # a map too big is refused before reading
    # counted again as read (YAML aliases can hide junctions from the count before reading)
    check_map_size(
        {"junctions": len(raw.junctions), "roads": len(raw.roads)}, raw.source, options.contract
    )
    table = load_road_kind_table().with_overrides(options.road_kinds, options.hours_per_length)
    graph, notes = build_graph(raw, table, options.seed)
    unused = sorted(k for k in options.road_kinds if k.lower() not in table.seen)
    if unused:  # a typo in --road-kind must not pass silently
        kinds = ", ".join(sorted(table.seen)) or "none"
        raise MapError(
            f"{', '.join(unused)}: no road of this map has that kind (its road kinds: {kinds})",
            source=raw.source,
            key="--road-kind",
            fix="Name one of the map's road kinds, e.g. --road-kind KIND=rough.",
        )
    notes = raw.notes + notes
    _check_playable(graph, raw.source)
    raw.naming = _naming(raw, file)  # names a side the file leaves unnamed (its overlay)
    sides, origin, side_notes = resolve_sides(graph, raw, options)
    notes += side_notes
    _check_sides(graph, sides, options, raw.source)
    contraction: ContractionStats | None = None
    if options.contract:
        graph, contraction = contract_roads(graph, _protected(graph, sides, raw))
        notes.append(contraction.sentence())
        n = graph.number_of_nodes()
        _check_size(n, raw.source, MAX_JUNCTIONS, " after --contract", _FEWER)
    reachable = nx.node_connected_component(graph, sides["red"].base)
    cut_off = sorted(set(graph) - reachable)
    if cut_off:
        shown = ", ".join(cut_off[:8]) + (", ..." if len(cut_off) > 8 else "")
        notes.append(
            f"{len(cut_off)} junctions have no road to either base and never matter: {shown}."
        )
    cmap = CampaignMap(raw.name, raw.source, graph, sides, notes, origin, contraction)
    cmap.time_limit_days = raw.time_limit_days
    cmap.naming = raw.naming
    cmap.reinforcements = tuple(
        Reinforcement(r.side, r.junction, r.day, r.hour, tuple(r.divisions), r.key)
        for r in raw.reinforcements
    )
    if origin == "automatic":
        apart = cmap.routes.hours(sides["red"].base, sides["blue"].base)
        cmap.min_time_limit_days = auto_time_limit(apart, options.daylight_hours)
        notes.append(
            f"Time limit: at least {cmap.min_time_limit_days} days for bases "
            f"{apart:g} march hours apart (RULES.md §8.7)."
        )
    return cmap
