"""The campaign map: junctions joined by roads, two sides with bases (RULES.md §8.1).

Public API::

    load_map(path=None, options=None) -> CampaignMap
    MapOptions, CampaignMap, SideSetup
    Routes(graph)                    # .hours(a, b), .path(a, b), .next_step(a, b)
    retreat_path(graph, start, base, blocked_nodes, blocked_edges) -> list[str] | None
    contract_roads(graph, protected) -> (graph, ContractionStats)   # prune spurs, merge
    contract_junctions(graph, protected) -> (graph, removed)
    map_document(cmap) -> dict; write_map(cmap, path)   # the project's YAML format
"""

from __future__ import annotations

from campaign.maps.contract import ContractionStats, contract_junctions, contract_roads
from campaign.maps.loader import load_map, resolve_map_path
from campaign.maps.model import SIDES, CampaignMap, MapOptions, Reinforcement, SideSetup
from campaign.maps.routes import Routes, retreat_path
from campaign.maps.writer import map_document, write_map

__all__ = [
    "SIDES",
    "CampaignMap",
    "ContractionStats",
    "MapOptions",
    "Reinforcement",
    "Routes",
    "SideSetup",
    "contract_junctions",
    "contract_roads",
    "load_map",
    "map_document",
    "resolve_map_path",
    "retreat_path",
    "write_map",
]
