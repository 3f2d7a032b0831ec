"""Day maps of the diary, drawn with matplotlib (Agg) from the junction positions.

Roads are solid (normal) or dashed (rough), primary roads thicker; objectives are stars with
their value; bases are squares; each division is a marker with its id and strength (``?`` for
an enemy whose strength the view does not know, hollow if it was last seen on an earlier
day); the day's marches are arrows; battle sites are crosses numbered like the diary's
battles. Shapes and line styles, not only colours, tell the sides apart, so the maps read in
black and white. :func:`figure_svg` and :func:`figure_png` write byte-identical output for
the same input.
"""

from __future__ import annotations

import io
from collections import defaultdict
from pathlib import Path
from typing import Any

import matplotlib as mpl
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.transforms import offset_copy
from matplotlib.typing import RcKeyType

from campaign.maps.model import CampaignMap
from campaign.report.days import Day, Diary, Mark

#: junction id -> (x, y) on the map
Positions = dict[str, tuple[float, float]]

__all__ = ["MPL_RC", "SIDE_STYLE", "day_map", "figure_png", "figure_svg"]

#: Colour, marker and march line style of each side (markers differ for black and white).
SIDE_STYLE: dict[str, dict[str, str]] = {
    "red": {"color": "#b22222", "marker": "s", "ls": "-"},
    "blue": {"color": "#1f4e9c", "marker": "^", "ls": "--"},
}

MPL_RC: dict[RcKeyType, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 8,
    "svg.fonttype": "none",
    "path.simplify": False,
}


def figure_svg(fig: Figure, salt: str) -> str:
    """The figure as an inline ``<svg>`` element (no XML prologue or DOCTYPE).

    ``salt`` makes the SVG's internal ids unique within a page and stable between runs.
    """
    buf = io.StringIO()
    with mpl.rc_context({**MPL_RC, "svg.hashsalt": salt, "svg.id": salt}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    return text[text.index("<svg") :].strip()


def figure_png(fig: Figure, path: Path, dpi: int = 120) -> Path:
    """Write the figure as a PNG file (no timestamp or software metadata) and return the path."""
    with mpl.rc_context(MPL_RC):
        fig.savefig(path, format="png", dpi=dpi, metadata={"Software": None})
    return path


def _positions(cmap: CampaignMap) -> dict[str, tuple[float, float]]:
    return {n: (float(d["pos"][0]), float(d["pos"][1])) for n, d in cmap.graph.nodes(data=True)}


def _where(mark: Mark, pos: dict[str, tuple[float, float]]) -> tuple[float, float]:
    if mark.junction is not None:
        return pos[mark.junction]
    a, b = mark.road  # type: ignore[misc]
    (xa, ya), (xb, yb) = pos[a], pos[b]
    f = mark.fraction
    return xa + (xb - xa) * f, ya + (yb - ya) * f


def _size(pos: dict[str, tuple[float, float]]) -> tuple[float, float]:
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    w, h = max(xs) - min(xs) or 1.0, max(ys) - min(ys) or 1.0
    width = 7.5
    return width, min(max(width * h / w, 3.5), 9.0) + 0.6


def _roads(ax: Axes, cmap: CampaignMap, pos: Positions) -> None:
    for a, b, data in sorted(cmap.graph.edges(data=True), key=lambda e: (e[0], e[1])):
        (xa, ya), (xb, yb) = pos[a], pos[b]
        rough = data.get("kind") == "rough"
        ax.plot(
            [xa, xb],
            [ya, yb],
            color="0.35",
            zorder=1,
            lw=2.8 if data.get("primary_of") else 1.3,
            ls=(0, (4, 3)) if rough else "-",
        )


def _junctions(ax: Axes, cmap: CampaignMap, pos: Positions, diary: Diary) -> None:
    bases = diary.header.bases if diary.header else {}
    for side, base in sorted(bases.items()):
        x, y = pos[base]
        ax.plot(
            [x],
            [y],
            marker="s",
            ms=17,
            mfc="none",
            mec=SIDE_STYLE[side]["color"],
            mew=1.5,
            ls="none",
            zorder=2,
        )
    for n in sorted(cmap.graph.nodes):
        data = cmap.graph.nodes[n]
        x, y = pos[n]
        label = data.get("name", n)
        if data.get("objective"):
            ax.plot(
                [x],
                [y],
                marker="*",
                ms=13,
                mfc="#f2c200",
                mec="black",
                mew=0.7,
                ls="none",
                zorder=3,
            )
            label = f"{label} ({data.get('value', 0)})"
        else:
            ax.plot(
                [x], [y], marker="o", ms=5, mfc="white", mec="0.2", mew=0.9, ls="none", zorder=3
            )
        ax.annotate(
            label,
            (x, y),
            xytext=(0, -10),
            textcoords="offset points",
            ha="center",
            va="top",
            fontsize=6.5,
            color="0.15",
            zorder=4,
        )


def _marches(ax: Axes, day: Day, pos: Positions) -> None:
    drawn = set()
    for m in day.marches:
        key = (m.division, m.origin, m.destination)
        if key in drawn:
            continue
        drawn.add(key)
        style = SIDE_STYLE[m.side]
        ax.annotate(
            "",
            xy=pos[m.destination],
            xytext=pos[m.origin],
            zorder=5,
            arrowprops={
                "arrowstyle": "-|>",
                "color": style["color"],
                "lw": 1.2,
                "ls": style["ls"],
                "alpha": 0.75,
                "shrinkA": 7,
                "shrinkB": 7,
                "mutation_scale": 11,
                "connectionstyle": "arc3,rad=0.15",
            },
        )


def _battles(ax: Axes, day: Day, pos: Positions, numbers: dict[int, int]) -> None:
    sites: dict[str, list[int]] = defaultdict(list)
    for b in day.battles:
        sites[b.place].append(numbers[id(b)])
    for place, nums in sites.items():
        if "~" in place:
            a, c = place.split("~")
            x, y = (pos[a][0] + pos[c][0]) / 2, (pos[a][1] + pos[c][1]) / 2
        else:
            x, y = pos[place]
        ax.plot(
            [x],
            [y],
            marker="X",
            ms=15,
            mfc="#ffd24d",
            mec="black",
            mew=1.0,
            ls="none",
            zorder=6,
            alpha=0.9,
        )
        ax.annotate(
            ", ".join(f"#{n}" for n in nums),
            (x, y),
            xytext=(-9, 7),
            textcoords="offset points",
            ha="right",
            fontsize=7.5,
            fontweight="bold",
            zorder=9,
        )


def _divisions(ax: Axes, fig: Figure, day: Day, pos: Positions) -> None:
    stacks: dict[tuple[float, float], int] = defaultdict(int)
    for mark in day.marks:
        x, y = _where(mark, pos)
        slot = stacks[(round(x, 3), round(y, 3))]
        stacks[(round(x, 3), round(y, 3))] += 1
        dy = 9 + 10 * slot
        tr = offset_copy(ax.transData, fig=fig, x=9, y=dy - 4, units="points")
        style = SIDE_STYLE[mark.side]
        ax.plot(
            [x],
            [y],
            marker=style["marker"],
            ms=8,
            transform=tr,
            ls="none",
            zorder=7,
            mfc="white" if mark.stale else style["color"],
            mec="black",
            mew=0.8,
        )
        strength = "?" if mark.boxes is None else str(mark.boxes)
        label = f"{mark.division} {strength}"
        if mark.seen:
            label += f" (seen {mark.seen.lower()})"
        ax.annotate(
            label,
            (x, y),
            xytext=(15, dy - 4),
            textcoords="offset points",
            va="center",
            fontsize=7,
            color=style["color"],
            zorder=8,
            fontweight="normal" if mark.stale else "bold",
        )


def _legend(fig: Figure, diary: Diary) -> None:
    handles = [
        Line2D([], [], color="0.35", lw=1.3, label="road"),
        Line2D([], [], color="0.35", lw=1.3, ls=(0, (4, 3)), label="rough road"),
        Line2D(
            [],
            [],
            marker="*",
            ms=10,
            mfc="#f2c200",
            mec="black",
            ls="none",
            label="objective (value)",
        ),
        Line2D([], [], marker="X", ms=10, mfc="#ffd24d", mec="black", ls="none", label="battle"),
    ]
    for side, style in SIDE_STYLE.items():
        handles.append(
            Line2D(
                [],
                [],
                marker=style["marker"],
                color=style["color"],
                mec="black",
                ls=style["ls"],
                lw=1.2,
                label=f"{diary.side_name(side)} division (boxes), march",
            )
        )
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=6.5, frameon=False)


def day_map(cmap: CampaignMap, diary: Diary, day: Day) -> Figure:
    """The map of one campaign day as a view knows it (at nightfall, or at the end).

    Parameters
    ----------
    cmap : CampaignMap
        The campaign's map (junction ``pos``, road ``kind``).
    diary : Diary
        The view's diary (side names, bases, battle numbers).
    day : Day
        The day to draw.

    Returns
    -------
    matplotlib.figure.Figure
        A figure not attached to pyplot (safe to build in worker threads).
    """
    pos = _positions(cmap)
    with mpl.rc_context(MPL_RC):
        fig = Figure(figsize=_size(pos))
        ax = fig.add_axes((0.02, 0.1, 0.96, 0.88))
        ax.set_aspect("equal", adjustable="datalim")
        ax.set_axis_off()
        numbers = {id(b): i for i, b in enumerate(diary.battles, start=1)}
        _roads(ax, cmap, pos)
        _junctions(ax, cmap, pos, diary)
        _marches(ax, day, pos)
        _battles(ax, day, pos, numbers)
        _divisions(ax, fig, day, pos)
        ax.margins(0.08)
        _legend(fig, diary)
    return fig
