"""What every campaign of one map and one rules object shares (issue 15): worked out once per
(map, rules) pair in a process and handed to each :class:`campaign.engine.Campaign` of the pair
(a batch runs thousands of campaigns of one pair). Compiled with the campaign loop
(:data:`campaign.native.MODULES`)."""

from __future__ import annotations

import networkx as nx

from campaign.army import raise_table
from campaign.clock import Clock
from campaign.config import CampaignRules, LoadedRules, Rules
from campaign.events import SIDES
from campaign.lookups import map_tables
from campaign.maps import CampaignMap
from campaign.reinforcements import check_reinforcements
from campaign.workload import check_campaign_work, check_hold_work

__all__ = ["SETTINGS", "SETTINGS_MAX", "Setting", "setting_of"]


class Setting:
    """What every campaign of one map and one rules object shares, worked out once per pair
    in a process (:func:`setting_of`; issue 15: a batch runs thousands of campaigns of one
    pair): the time limit with the reinforcements checked against it (RULES.md §8.7, §8.9),
    the clock, the map's lookup tables, each side's bases and primary road, and the config
    numbers read for every event. Read-only: every campaign of the pair holds the same."""

    key: tuple[object, ...]
    graph: nx.Graph
    rules: Rules
    cr: CampaignRules
    time_limit_days: int
    clock: Clock
    unknown_boxes: int
    lost_as: dict[str, str]
    destroyed_at: int
    max_events: int
    hold_minutes: int
    roads: dict[tuple[str, str], tuple[float, str]]
    roads_from: dict[str, dict[str, tuple[float, str]]]
    neighbourhood: dict[str, frozenset[str]]
    objectives: dict[str, int]
    bases: dict[str, tuple[str, str]]
    primary_roads: dict[str, tuple[str, str] | None]

    def __init__(self, cmap: CampaignMap, loaded: LoadedRules, key: tuple[object, ...]) -> None:
        self.key = key
        rules = self.rules = loaded.rules
        cr = self.cr = rules.campaign
        self.graph = cmap.graph
        self.time_limit_days = cmap.time_limit(cr.time_limit_days)
        check_reinforcements(cmap, cr, self.time_limit_days)  # MapError: nothing kept
        check_campaign_work(cmap.graph.number_of_nodes(), self.time_limit_days, cmap.source)
        divisions = 2 * cr.divisions_per_side + sum(len(r.divisions) for r in cmap.reinforcements)
        daylight = cr.day_end_minutes - cr.day_start_minutes
        check_hold_work(divisions, self.time_limit_days, daylight, cr.hold_minutes, cmap.source)
        self.clock = Clock(cr.day_start_minutes, cr.day_end_minutes)
        table = raise_table(rules)
        self.unknown_boxes = table.unknown_boxes
        self.lost_as = table.lost_as
        self.destroyed_at = table.destroyed_at
        self.max_events = cr.max_events
        self.hold_minutes = cr.hold_minutes
        tables = map_tables(cmap.graph)  # built once per map and process, then shared
        self.roads = tables.roads
        self.roads_from = tables.roads_from
        self.neighbourhood = tables.neighbourhood(cr.fog_sight_junctions)
        self.objectives = dict(tables.objectives)
        sides = cmap.sides
        self.bases = {
            s: (sides[s].base, sides["blue" if s == "red" else "red"].base) for s in SIDES
        }
        self.primary_roads = {s: sides[s].primary_road for s in SIDES}


#: the settings of the (map, rules) pairs seen last, by the ids of their parts (each entry
#: holds its parts, so no id is reused while it lives; at most SETTINGS_MAX are kept)
SETTINGS: dict[tuple[int, ...], Setting] = {}
SETTINGS_MAX = 16


def setting_of(cmap: CampaignMap, loaded: LoadedRules) -> Setting:
    """The :class:`Setting` of ``cmap`` under ``loaded``: made the first time the pair is
    seen, shared after. Keyed by what it is made of — the rules object and the map's graph,
    sides, reinforcements and time limits (a map is a plain dataclass: a field replaced
    gives a new setting) — each compared by identity, the time limits by value.

    Raises
    ------
    MapError
        If a reinforcement enters outside the time limit (:func:`check_reinforcements`).
    """
    sides = cmap.sides
    red, blue = sides.get("red"), sides.get("blue")
    key: tuple[object, ...] = (
        loaded,
        cmap.graph,
        red,
        blue,
        cmap.reinforcements,
        cmap.time_limit_days,
        cmap.min_time_limit_days,
    )
    ids = (id(loaded), id(cmap.graph), id(red), id(blue), id(cmap.reinforcements))
    found = SETTINGS.get(ids)
    if found is not None and _same_key(found.key, key):
        return found
    setting = Setting(cmap, loaded, key)
    if len(SETTINGS) >= SETTINGS_MAX:
        SETTINGS.clear()
    SETTINGS[ids] = setting
    return setting


def _same_key(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    """The same parts (the first five by identity) and the same time limits."""
    for i in range(5):
        if a[i] is not b[i]:
            return False
    return a[5] == b[5] and a[6] == b[6]
