"""A small map of each battle for the after-action report (issue 29, item 7).

:func:`battle_map` draws the roads within two junctions of a battle, the battle site, the
divisions that fought it (each side's ids beside the site, in its colour) and where the
losers went: each :class:`~campaign.events.FellBack` of that battle as a dashed arrow along
its path (RULES.md §8.5). Labels are placed by :func:`campaign.report.labels.place_labels`,
so none is printed over another; junction names that do not fit are left out.
"""

from __future__ import annotations

import networkx as nx
from matplotlib.figure import Figure

from campaign.events import BattleFought, FellBack
from campaign.maps.model import SIDES, CampaignMap
from campaign.report.days import Diary
from campaign.report.glyphs import drawing, safe_label
from campaign.report.ground import draw_ground
from campaign.report.labels import Box, Label, place_labels
from campaign.report.maps import MPL_RC, ROAD_GREY, SIDE_STYLE, Frame, _measure

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
    want = WIDTH_IN / HEIGHT_IN
    if (x1 - x0) / (y1 - y0) < want:
        extra = (want * (y1 - y0) - (x1 - x0)) / 2
        x0, x1 = x0 - extra, x1 + extra
    else:
        extra = ((x1 - x0) / want - (y1 - y0)) / 2
        y0, y1 = y0 - extra, y1 + extra
    return Frame(x0, x1, y0, y1, WIDTH_IN, HEIGHT_IN)


def battle_map(cmap: CampaignMap, diary: Diary, battle: BattleFought) -> Figure:
    """The battle's neighbourhood (see the module text), 2.35 x 1.9 in, labels at 8 pt."""
    pos = {n: (float(d["pos"][0]), float(d["pos"][1])) for n, d in cmap.graph.nodes(data=True)}
    ends = list(battle.road or (battle.place,))
    falls = falls_of(diary, battle)
    near: set[str] = set()
    for j in ends:
        near |= set(nx.single_source_shortest_path_length(cmap.graph, j, cutoff=REACH))
    for f in falls:
        near |= set(f.path)
    site = (
        sum(pos[j][0] for j in ends) / len(ends),
        sum(pos[j][1] for j in ends) / len(ends),
    )
    frame = _frame([pos[n] for n in near] + [site])
    with drawing(MPL_RC):
        fig = Figure(figsize=(WIDTH_IN, HEIGHT_IN))
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(frame.x0, frame.x1)
        ax.set_ylim(frame.y0, frame.y1)
        ax.set_axis_off()
        segments = []
        for a, b in sorted(e for e in cmap.graph.edges(near) if e[0] in near and e[1] in near):
            (xa, ya), (xb, yb) = pos[a], pos[b]
            rough = cmap.graph.edges[a, b].get("kind") == "rough"
            ax.plot([xa, xb], [ya, yb], color=ROAD_GREY, lw=1.0, ls=(0, (4, 2.5)) if rough else "-")
            segments.append((frame.pt(xa, ya), frame.pt(xb, yb)))
        shown = [n for n in sorted(near) if frame.inside(*pos[n])]
        draw_ground(ax, cmap, shown, pos, 0.75)  # terrain, behind (labels may cover it)
        obstacles: list[Box] = []
        labels: list[tuple[Label, str, str, str]] = []

        def add(
            key: str,
            p: tuple[float, float],
            text: str,
            color: str,
            weight: str,
            priority: int,
            required: bool,
        ) -> None:
            text = safe_label(text)  # drawable glyphs only, no mathtext (issue 32)
            w, h = _measure(fig, text, 8.0, weight)
            labels.append((Label(key, p, (w, h), priority, 4.0, required), text, color, weight))

        for n in sorted(near):
            x, y = pos[n]
            if not frame.inside(x, y):
                continue
            ax.plot([x], [y], marker="o", ms=3, mfc="white", mec="0.2", mew=0.7, ls="none")
            px, py = frame.pt(x, y)
            obstacles.append((px - 2.5, py - 2.5, px + 2.5, py + 2.5))
            wanted = n in ends or any(f.path and f.path[-1] == n for f in falls)
            add(
                f"2{n}",
                (px, py),
                str(cmap.graph.nodes[n].get("name", n)),
                "0.2",
                "bold" if wanted else "normal",
                2 if wanted else 4,
                wanted,
            )
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
        ax.plot(
            [site[0]],
            [site[1]],
            marker="X",
            ms=10,
            mfc="#ffd24d",
            mec="black",
            mew=0.8,
            ls="none",
            zorder=6,
        )
        sx, sy = frame.pt(*site)
        obstacles.append((sx - 5.5, sy - 5.5, sx + 5.5, sy + 5.5))
        for side in SIDES:
            ids = battle.divisions.get(side, ())
            if ids:
                glyph = SIDE_STYLE[side]["glyph"]
                add(
                    f"0{side}",
                    (sx, sy),
                    f"{glyph} {' '.join(ids)}",
                    SIDE_STYLE[side]["color"],
                    "bold",
                    0,
                    True,
                )
        box: Box = (0.0, 0.0, WIDTH_IN * 72, HEIGHT_IN * 72)
        by_key = {lab.key: (text, color, weight) for lab, text, color, weight in labels}
        for pl in place_labels([lab for lab, *_ in labels], obstacles, box, segments):
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
    return fig
