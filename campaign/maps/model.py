"""The campaign map's data classes: options for loading, the sides, the loaded map."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import networkx as nx

from campaign.events import SIDES
from campaign.maps.naming import MapNaming

if TYPE_CHECKING:
    from campaign.maps.contract import ContractionStats
    from campaign.maps.routes import Routes

__all__ = ["SIDES", "CampaignMap", "MapOptions", "Reinforcement", "SideSetup"]

#: The internal side names, in the order used everywhere (the map gives display names).


@dataclass
class MapOptions:
    """How to read a map: overrides for foreign maps, sides, contraction.

    Parameters
    ----------
    road_kinds : dict of str to str
        Road kind → ``normal`` | ``rough`` | ``impassable``, over ``config/road_kinds.yaml``.
    hours_per_length : float or None
        March hours per unit of the road's length attribute (``hexes``, ``length``,
        ``weight``), replacing the documented factor of ``config/road_kinds.yaml``.
    contract : bool
        Prune dead-end spurs and merge pass-through junctions (degree 1 and 2, not
        objectives, bases, starts or ends of a primary road) into longer roads, keeping
        every march-hour distance between the kept junctions
        (:func:`campaign.maps.contract_roads`).
    red_base, blue_base : str or None
        Base junction ids, over the map's own (needed, or chosen automatically, when the map
        has no sides).
    red_start, blue_start : list of str or None
        Starting junction ids, over the map's own.
    seed : int
        Seed of the automatic choices (bases, layout of a map without positions).
    max_march_hours : float
        The bases must be at most this many march hours apart (hours); automatic bases are
        at most a third of it apart.
    daylight_hours : float
        Marching hours in a day (RULES.md §8.3; the default is that of config/rules.yaml,
        06:00-20:00, and ``campaign run`` passes the rules' own): automatic bases are one
        to three such days apart (§8.7).
    """

    road_kinds: dict[str, str] = field(default_factory=dict)
    hours_per_length: float | None = None
    contract: bool = False
    red_base: str | None = None
    blue_base: str | None = None
    red_start: list[str] | None = None
    blue_start: list[str] | None = None
    seed: int = 0
    max_march_hours: float = 98.0
    daylight_hours: float = 14.0


@dataclass(frozen=True)
class SideSetup:
    """One side of the campaign (RULES.md §8.1).

    Parameters
    ----------
    name : str
        Display name, e.g. ``"French"``.
    base : str
        The side's base junction id.
    starts : tuple of str
        Starting junction ids (at least one); division ``i`` starts at
        ``starts[i % len(starts)]``.
    primary_road : tuple of (str, str) or None
        The side's primary road (its line of supply), as the two junction ids.
    """

    name: str
    base: str
    starts: tuple[str, ...]
    primary_road: tuple[str, str] | None = None

    def agrees(self, singular: str, plural: str) -> str:
        """The form of a verb that agrees with the side's name (:func:`reads_plural`).

        >>> SideSetup("Allies", "b", ("b",)).agrees("holds", "hold")
        'hold'
        """
        return plural if reads_plural(self.name) else singular


def reads_plural(name: str) -> bool:
    """Whether a side's name reads as a plural (``Allies``, ``Prussians``): it ends in s.
    ``Red`` and ``French`` read as singular (the log's grammar, one rule for the engine's
    end sentences and the printers).

    >>> reads_plural("Allies"), reads_plural("Red")
    (True, False)
    """
    return name.endswith("s")


@dataclass(frozen=True)
class Reinforcement:
    """Divisions entering the campaign later (RULES.md §8.9, house).

    Parameters
    ----------
    side : str
        ``"red"`` or ``"blue"``.
    junction : str
        Where they enter.
    divisions : tuple of str
        Display names, one division each, raised by the d100 table (RULES.md §2.1).
    key : str
        Key path in the map file, for messages (``reinforcements[0]``).
    day, hour : int, float
        When they enter: day from 1, clock hour 0-24 (the campaign turns it into minutes).
    """

    side: str
    junction: str
    day: int
    hour: float
    divisions: tuple[str, ...]
    key: str


@dataclass
class CampaignMap:
    """A loaded, validated campaign map.

    Parameters
    ----------
    name : str
        The map's name.
    source : str
        The file it was read from.
    graph : networkx.Graph
        Junctions (attrs ``name``, ``pos``, ``objective``, ``value``, ``terrain``) and roads
        (attrs ``kind`` normal|rough, ``hours`` > 0, ``primary_of`` red|blue|None,
        ``source_kind``).
    sides : dict of str to SideSetup
        Keys exactly ``"red"`` and ``"blue"``.
    notes : list of str
        One sentence for each automatic choice made while loading.
    sides_origin : str
        ``"file"``, ``"options"`` or ``"automatic"``: where the bases came from.
    contraction : ContractionStats or None
        What ``MapOptions.contract`` did (None when the map was not contracted).
    reinforcements : tuple of Reinforcement
        Divisions that enter later (RULES.md §8.9).
    time_limit_days : int or None
        The map's own time limit (RULES.md §8.7), over the rules'.
    min_time_limit_days : int or None
        With automatic sides: the time limit the distance between the bases needs; the
        campaign runs at least this long (RULES.md §8.7, house).
    naming : MapNaming
        The sides' names, adjectives, colours, commanders and division names, from the map
        file or its overlay ``maps/names/<stem>.yaml`` (:mod:`campaign.maps.naming`).
    """

    name: str
    source: str
    graph: nx.Graph
    sides: dict[str, SideSetup]
    notes: list[str] = field(default_factory=list)
    sides_origin: str = "file"
    contraction: ContractionStats | None = None
    reinforcements: tuple[Reinforcement, ...] = ()
    time_limit_days: int | None = None
    min_time_limit_days: int | None = None
    naming: MapNaming = field(default_factory=MapNaming)

    def time_limit(self, rules_days: int) -> int:
        """The campaign's time limit in days (RULES.md §8.7): the map's own, else the
        rules' (at least what automatic sides need)."""
        if self.time_limit_days is not None:
            return self.time_limit_days
        return max(rules_days, self.min_time_limit_days or 0)

    @cached_property
    def routes(self) -> Routes:
        """All shortest march routes of the map, computed once (:class:`Routes`)."""
        from campaign.maps.routes import Routes

        return Routes(self.graph)
