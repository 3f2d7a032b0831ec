"""A small map of each battle for the after-action report (issue 29, item 7).

:func:`battle_map` draws the roads within two junctions of a battle, the battle site, the
divisions that fought it (each side's ids beside the site, in its colour) and where the
losers went: each :class:`~campaign.events.FellBack` of that battle as a dashed arrow along
its path (RULES.md §8.5). Labels are placed by :func:`campaign.report.labels.place_labels`,
so none is printed over another; junction names that do not fit are left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import networkx as nx
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from campaign.events import BattleFought, FellBack
from campaign.maps.model import SIDES, CampaignMap
from campaign.report.days import Diary
from campaign.report.glyphs import drawing, safe_label
from campaign.report.ground import draw_ground
from campaign.report.labels import Box, Label, place_labels
from campaign.report.map_legend import ROAD_GREY
from campaign.report.maps import (
    MPL_RC,
    SIDE_STYLE,
    Frame,
    Positions,
    _measure,
    _positions,
    map_symbol,
)

__all__ = ["battle_map", "falls_of"]

#: the small map's drawn size (inches): three to a row in print
WIDTH_IN, HEIGHT_IN = 2.35, 1.9
#: junctions this many roads from the battle are drawn (and those the beaten fell back to)
REACH = 1


def falls_of(diary: Diary, battle: BattleFought) -> list[FellBack]:
    """The falls back the battle caused (RULES.md §8.5): FellBack events of its beaten
    divisions from its start to its end."""
    beaten = {d for side, ids in battle.divisions.items() if side != battle.winner for d in ids}
    end = battle.t + battle.minutes
    return [
        e
        for e in diary.events
        if isinstance(e, FellBack) and battle.t <= e.t <= end and e.division in beaten
    ]


def _frame(points: list[tuple[float, float]]) -> Frame:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    w, h = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    m = 0.15 * max(w, h)
    x0, x1, y0, y1 = min(xs) - m, max(xs) + m, min(ys) - m, max(ys) + m
    return Frame.fitted(x0, x1, y0, y1, WIDTH_IN, HEIGHT_IN)


def _neighbourhood(cmap: CampaignMap, ends: list[str], falls: list[FellBack]) -> set[str]:
    """The junctions drawn: those within :data:`REACH` roads of the battle's ends, and every
    junction on a path the beaten fell back along (RULES.md §8.5)."""
    near: set[str] = set()
    for j in ends:
        near |= set(nx.single_source_shortest_path_length(cmap.graph, j, cutoff=REACH))
    for f in falls:
        near |= set(f.path)
    return near


def _site(pos: Positions, ends: list[str]) -> tuple[float, float]:
    """The battle site: its junction, or the middle of its road."""
    return (
        sum(pos[j][0] for j in ends) / len(ends),
        sum(pos[j][1] for j in ends) / len(ends),
    )


def _axes(fig: Figure, frame: Frame) -> Axes:
    """The map's axes: the whole figure, the frame's limits, no ticks."""
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(frame.x0, frame.x1)
    ax.set_ylim(frame.y0, frame.y1)
    ax.set_axis_off()
    return ax


def _roads(ax: Axes, cmap: CampaignMap, pos: Positions, near: set[str], frame: Frame) -> list[Any]:
    """Draw the roads between drawn junctions (rough ones dashed); their segments in points."""
    segments = []
    # each road once, its ends in order: networkx gives an edge from whichever end it meets
    # first in ``near`` (a set, in hash order), and the drawing must not depend on it
    ends = {(min(u, v), max(u, v)) for u, v in cmap.graph.edges(near) if u in near and v in near}
    for a, b in sorted(ends):
        (xa, ya), (xb, yb) = pos[a], pos[b]
        rough = cmap.graph.edges[a, b].get("kind") == "rough"
        ax.plot([xa, xb], [ya, yb], color=ROAD_GREY, lw=1.0, ls=(0, (4, 2.5)) if rough else "-")
        segments.append((frame.pt(xa, ya), frame.pt(xb, yb)))
    return segments


@dataclass
class _Labels:
    """The map's labels to place, each with its text, colour and weight (8 pt)."""

    fig: Figure
    items: list[tuple[Label, str, str, str]] = field(default_factory=list)

    def add(
        self,
        key: str,
        p: tuple[float, float],
        text: str,
        color: str,
        weight: str,
        priority: int,
        required: bool,
    ) -> None:
        """A label at ``p`` (points), measured as drawn."""
        text = safe_label(text)  # drawable glyphs only, no mathtext (issue 32)
        w, h = _measure(self.fig, text, 8.0, weight)
        self.items.append((Label(key, p, (w, h), priority, 4.0, required), text, color, weight))


def _junctions(
    ax: Axes,
    cmap: CampaignMap,
    pos: Positions,
    frame: Frame,
    near: set[str],
    wanted: set[str],
    labels: _Labels,
) -> list[Box]:
    """Draw the drawn junctions inside the frame and label them by name (the ``wanted`` ones,
    the battle's and the beaten's destinations, in bold and required); their symbols' boxes."""
    obstacles: list[Box] = []
    for n in sorted(near):
        x, y = pos[n]
        if not frame.inside(x, y):
            continue
        ax.plot([x], [y], marker="o", ms=3, mfc="white", mec="0.2", mew=0.7, ls="none")
        px, py = frame.pt(x, y)
        obstacles.append((px - 2.5, py - 2.5, px + 2.5, py + 2.5))
        want = n in wanted
        name = str(cmap.graph.nodes[n].get("name", n))
        labels.add(
            f"2{n}", (px, py), name, "0.2", "bold" if want else "normal", 2 if want else 4, want
        )
    return obstacles


def _fall_back_arrows(
    ax: Axes, falls: list[FellBack], pos: Positions, site: tuple[float, float]
) -> None:
    """Each fall back (RULES.md §8.5) as a dashed arrow in its side's colour along its path,
    from the battle site when it began on the battle's road."""
    for f in falls:
        path = [pos[j] for j in f.path]
        start = site if f.from_road else pos[f.path[0]] if f.path else site
        pts = [start, *path] if f.from_road or not path else path
        if len(pts) < 2:
            continue
        color = SIDE_STYLE[f.side]["color"]
        ax.plot(
            [p[0] for p in pts],
            [p[1] for p in pts],
            color=color,
            lw=1.6,
            ls=(0, (3, 1.5)),
            zorder=4,
        )
        ax.annotate(
            "",
            xy=pts[-1],
            xytext=pts[-2],
            zorder=5,
            arrowprops={"arrowstyle": "-|>", "color": color, "lw": 1.4},
        )


def _site_mark(ax: Axes, site: tuple[float, float], frame: Frame) -> Box:
    """Draw the battle site's cross; its box in points."""
    map_symbol(ax, site, "X", 10, ("#ffd24d", "black", 0.8), 6, whole=False)
    sx, sy = frame.pt(*site)
    return (sx - 5.5, sy - 5.5, sx + 5.5, sy + 5.5)


def _division_labels(labels: _Labels, battle: BattleFought, at: tuple[float, float]) -> None:
    """Each side's divisions in the battle, ``glyph id id`` in its colour, by the site."""
    for side in SIDES:
        ids = battle.divisions.get(side, ())
        if ids:
            glyph = SIDE_STYLE[side]["glyph"]
            text = f"{glyph} {' '.join(ids)}"
            labels.add(f"0{side}", at, text, SIDE_STYLE[side]["color"], "bold", 0, True)


def _print_labels(
    ax: Axes, frame: Frame, labels: _Labels, obstacles: list[Box], segments: list[Any]
) -> None:
    """Place the labels (:func:`~campaign.report.labels.place_labels`) and print them, with a
    dotted leader line where one moved away from its point."""
    box: Box = (0.0, 0.0, WIDTH_IN * 72, HEIGHT_IN * 72)
    by_key = {lab.key: (text, color, weight) for lab, text, color, weight in labels.items}
    for pl in place_labels([lab for lab, *_ in labels.items], obstacles, box, segments):
        text, color, weight = by_key[pl.label.key]
        x0, y0, _x1, _y1 = pl.box
        ax.annotate(
            text,
            xy=frame.data(*pl.label.anchor),
            xytext=frame.data(x0 + 0.5, y0),
            textcoords="data",
            ha="left",
            va="bottom",
            fontsize=8.0,
            fontweight=weight,
            color=color,
            zorder=9,
            annotation_clip=False,
            bbox={"boxstyle": "square,pad=0.08", "fc": "white", "ec": "none", "alpha": 0.85},
            arrowprops=None
            if not pl.leader
            else {"arrowstyle": "-", "color": "0.55", "lw": 0.6, "linestyle": (0, (1, 1.6))},
        )


def battle_map(cmap: CampaignMap, diary: Diary, battle: BattleFought) -> Figure:
    """The battle's neighbourhood (see the module text), 2.35 x 1.9 in, labels at 8 pt."""
    pos = _positions(cmap)
    ends = list(battle.road or (battle.place,))
    falls = falls_of(diary, battle)
    near = _neighbourhood(cmap, ends, falls)
    site = _site(pos, ends)
    frame = _frame([pos[n] for n in near] + [site])
    wanted = set(ends) | {f.path[-1] for f in falls if f.path}
    with drawing(MPL_RC):
        fig = Figure(figsize=(WIDTH_IN, HEIGHT_IN))
        ax = _axes(fig, frame)
        segments = _roads(ax, cmap, pos, near, frame)
        shown = [n for n in sorted(near) if frame.inside(*pos[n])]
        draw_ground(ax, cmap, shown, pos, 0.75)  # terrain, behind (labels may cover it)
        labels = _Labels(fig)
        obstacles = _junctions(ax, cmap, pos, frame, near, wanted, labels)
        _fall_back_arrows(ax, falls, pos, site)
        obstacles.append(_site_mark(ax, site, frame))
        _division_labels(labels, battle, frame.pt(*site))
        _print_labels(ax, frame, labels, obstacles, segments)
    return fig
