"""Junction terrain on the diary's maps (issue 29): the ground the map gives a junction,
drawn as a pale mark behind its symbol and named in the legend.

The terrains drawn are registered in :data:`GROUND` (a new one is one entry); terrain a map
gives but that is not listed (``open``, ``crossroads``, Wilderness War's ``cultivated`` and
``wilderness``) is not drawn, so a map of a hundred spaces of one kind is not covered in
marks. The day maps and the campaign map (:mod:`campaign.report.maps`) and each battle's
small map (:mod:`campaign.report.battle_maps`) draw them. They are not obstacles to the
label placer: a name may cover part of a pale mark (its white box keeps it legible), and the
names stay off the roads as before (tests/report/test_map_roads_and_edges.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from matplotlib.axes import Axes
from matplotlib.lines import Line2D

from campaign.maps.model import CampaignMap

__all__ = ["GROUND", "Ground", "draw_ground", "ground_handles", "ground_of"]


class Ground(NamedTuple):
    """How one terrain is drawn: a matplotlib marker, its size (points), its pale face
    colour and the legend's words."""

    marker: str
    size: float
    color: str
    label: str


#: terrain -> how it is drawn (pale, behind the junction's own symbol).
GROUND: dict[str, Ground] = {
    "town": Ground("s", 12, "#c4c4c4", "town"),
    "village": Ground("s", 9, "#e0e0e0", "village"),
    "fortress": Ground("p", 13, "#b0b0b0", "fortress"),
    "bridge": Ground("D", 11, "#a9cbe8", "bridge"),
    "wood": Ground("o", 13, "#b3dbad", "wood"),
    "hill": Ground("^", 13, "#e3cfa8", "hill or ridge"),
    "ridge": Ground("^", 13, "#e3cfa8", "hill or ridge"),
    "mountain": Ground("^", 13, "#d2b98e", "mountain"),
}


def ground_of(cmap: CampaignMap, junction: str) -> Ground | None:
    """How ``junction``'s terrain is drawn (None: no terrain, or one not drawn)."""
    terrain = cmap.graph.nodes[junction].get("terrain")
    return GROUND.get(str(terrain)) if terrain else None


def draw_ground(
    ax: Axes,
    cmap: CampaignMap,
    junctions: Iterable[str],
    pos: dict[str, tuple[float, float]],
    scale: float = 1.0,
) -> list[Ground]:
    """Draw each of ``junctions``' ground behind it and the roads.

    Parameters
    ----------
    ax, cmap
        The map's axes and the campaign map (its junctions' ``terrain``).
    junctions
        The junctions in the frame.
    pos
        Junction -> map position.
    scale
        Marker sizes times this (a battle's small map draws them smaller).

    Returns
    -------
    list of Ground
        The grounds drawn (for the legend), in the order of :data:`GROUND`.
    """
    drawn: set[Ground] = set()
    for n in junctions:
        g = ground_of(cmap, n)
        if g is None:
            continue
        x, y = pos[n]
        size = g.size * scale
        ax.plot(
            [x],
            [y],
            marker=g.marker,
            ms=size,
            mfc=g.color,
            mec="none",
            ls="none",
            zorder=0.5,  # under the roads
            clip_on=False,  # whole at the edge of a cropped map
        )
        drawn.add(g)
    return [g for g in dict.fromkeys(GROUND.values()) if g in drawn]


def ground_handles(kinds: Iterable[Ground]) -> list[Line2D]:
    """Legend entries of the grounds drawn."""
    return [
        Line2D(
            [],
            [],
            marker=g.marker,
            ms=g.size * 0.8,
            mfc=g.color,
            mec="none",
            ls="none",
            label=g.label,
        )
        for g in kinds
    ]
