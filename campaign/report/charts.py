"""Closing charts of the diary: each side's strength over time, and a timeline of battles.

Both are built from a :class:`~campaign.report.days.Diary`, so a side's view charts only what
that side knew (its own strength exactly, the enemy's as the sum of the strengths it learned
by fighting). Sides differ by line style and marker as well as colour.
"""

from __future__ import annotations

import matplotlib as mpl
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MultipleLocator

from campaign.maps.model import SIDES
from campaign.report.days import Diary
from campaign.report.maps import MPL_RC, SIDE_STYLE, Styles

__all__ = ["battle_timeline", "strength_chart"]


def _days_axis(ax: Axes, diary: Diary, last_t: float) -> None:
    ax.set_xlabel("campaign day")
    ax.xaxis.set_major_locator(MultipleLocator(1.0))
    ax.set_xlim(1.0, max(2.0, 1.0 + (last_t + 60) / 1440.0))
    ax.grid(True, color="0.85", lw=0.6)


#: drawing only: the shortest battle bar, so that a battle of a bound or two stays visible
SHORTEST_BAR_MINUTES = 15


def _x(t: float) -> float:
    """Campaign minutes → fractional day number (1.0 = dawn of day 1, the clock's 0)."""
    return 1.0 + t / 1440.0


def strength_chart(diary: Diary, styles: Styles | None = None) -> Figure:
    """Boxes of each side over time as the view knows them (step lines).

    For a side's view the enemy line counts only enemy divisions whose strength it learned.
    ``styles`` gives each side's colour (:func:`campaign.report.maps.side_styles`; default
    red and blue).
    """
    styles = styles or SIDE_STYLE
    with mpl.rc_context(MPL_RC):
        fig = Figure(figsize=(7.2, 3.0))
        ax = fig.add_axes((0.09, 0.17, 0.88, 0.75))
        last = diary.series[-1][0] if diary.series else 0
        for side in SIDES:
            pts = [(t, v) for t, s in diary.series if (v := s[side]) is not None]
            if not pts:
                continue
            style = styles[side]
            known = "" if diary.view in ("umpire", side) else " (known divisions only)"
            ax.step(
                [_x(t) for t, _ in pts],
                [float(v) for _, v in pts if v is not None],
                where="post",
                color=style["color"],
                ls=style["ls"],
                marker=style["marker"],
                ms=5,
                mec="black",
                mew=0.6,
                lw=1.6,
                label=f"{diary.side_name(side)}{known}",
            )
        ax.set_ylabel("strength (boxes)")
        ax.set_ylim(bottom=0)
        _days_axis(ax, diary, last)
        if ax.get_lines():
            ax.legend(loc="lower left", fontsize=8, frameon=False)
    return fig


def battle_timeline(diary: Diary, styles: Styles | None = None) -> Figure:
    """One bar per battle the view knows of: when, how long, where, and who won.

    The bar's hatching marks the winner (``//`` for red, ``..`` for blue, none for a draw),
    its colour the winner's (``styles``, :func:`campaign.report.maps.side_styles`).
    """
    styles = styles or SIDE_STYLE
    battles = diary.battles
    with mpl.rc_context(MPL_RC):
        height = 1.2 + 0.32 * max(len(battles), 1)
        # laid out by matplotlib's constrained layout: the place names (up to "#12 the road
        # Bois-Sainte-Anne - Roncourt") get the room they need at the left, never cut off
        fig = Figure(figsize=(7.2, height), layout="constrained")
        ax = fig.add_subplot()
        hatch = {"red": "//", "blue": "..", None: ""}
        face = {"red": styles["red"]["color"], "blue": styles["blue"]["color"], None: "0.7"}
        labels = []
        for i, b in enumerate(battles):
            ax.barh(
                i,
                max(b.minutes, SHORTEST_BAR_MINUTES) / 1440.0,
                left=_x(b.t),
                height=0.6,
                color=face[b.winner],
                hatch=hatch[b.winner],
                edgecolor="black",
                lw=0.6,
                alpha=0.85,
            )
            won = diary.side_name(b.winner) if b.winner else "draw"
            ax.annotate(
                won,
                (_x(b.t + max(b.minutes, SHORTEST_BAR_MINUTES)), i),
                xytext=(4, 0),
                textcoords="offset points",
                va="center",
                fontsize=8,
            )
            labels.append(f"#{i + 1} {b.place_name}")
        ax.set_yticks(range(len(battles)), labels, fontsize=8)
        ax.invert_yaxis()
        last = max([b.t + b.minutes for b in battles], default=0)
        if diary.end is not None:
            last = max(last, diary.end.t)
        _days_axis(ax, diary, last)
        if not battles:
            ax.text(0.5, 0.5, "no battles", transform=ax.transAxes, ha="center")
    return fig
