"""The legend of the diary's maps (:mod:`campaign.report.maps`): what each road, symbol
and colour means, each side named as the diary names it."""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from campaign.report.days import Diary
from campaign.report.glyphs import safe_label
from campaign.report.ground import Ground, ground_handles

__all__ = ["ROAD_GREY", "Styles", "legend"]

#: side -> its colour, marker and glyphs (:data:`campaign.report.maps.SIDE_STYLE`)
Styles = dict[str, dict[str, str]]
#: the colour of roads (never a side's)
ROAD_GREY = "0.45"


def _symbol(marker: str, size: float, face: str, edge: str, label: str) -> Line2D:
    """A legend entry of one marker (no line): ``size`` in points, face and edge colours."""
    return Line2D([], [], marker=marker, ms=size, mfc=face, mec=edge, ls="none", label=label)


def legend(fig: Figure, diary: Diary, height: float, styles: Styles, grounds: list[Ground]) -> None:
    """The map's legend under it, four entries a row: roads, junction, objective, battle,
    each side's base, march and division, and the ground drawn (``height``: the figure's, in
    inches)."""
    handles = [
        Line2D([], [], color=ROAD_GREY, lw=1.2, label="road"),
        Line2D([], [], color=ROAD_GREY, lw=1.2, ls=(0, (4, 2.5)), label="rough road"),
        Line2D([], [], color="0.3", lw=3.2, label="primary road"),
        _symbol("o", 4, "white", "0.2", "junction"),
        _symbol("*", 11, "#f2c200", "black", "objective (value)"),
        _symbol("X", 10, "#ffd24d", "black", "battle (number)"),
    ]
    for side, style in styles.items():
        name = diary.side_name(side)
        handles.append(
            Line2D(
                [],
                [],
                marker="s",
                ms=11,
                mfc="none",
                mec=style["color"],
                mew=1.8,
                ls="none",
                label=safe_label(f"{name} base"),
            )
        )
        handles.append(
            Line2D(
                [],
                [],
                color=style["color"],
                lw=1.6,
                marker=">",
                ms=5,
                markevery=[1],
                label=safe_label(f"{name} march"),
            )
        )
        handles.append(
            _symbol(
                style["marker"], 7, style["color"], "black", safe_label(f"{name} division (boxes)")
            )
        )
    handles += ground_handles(grounds)
    fig.legend(
        handles=handles,
        loc="lower center",
        bbox_to_anchor=(0.5, 0.02 / height),
        ncol=4,
        fontsize=8,
        frameon=False,
        handlelength=2.4,
        columnspacing=1.2,
        labelspacing=0.35,
    )
