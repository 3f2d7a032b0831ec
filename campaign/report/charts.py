"""Closing charts of the diary: each side's strength and objective value over time, a
timeline of battles, and a timeline (Gantt chart) of each division's marches and battles.

Both are built from a :class:`~campaign.report.days.Diary`, so a side's view charts only what
that side knew (its own strength exactly, the enemy's as the sum of the strengths it learned
by fighting). Sides differ by line style and marker as well as colour.
"""

from __future__ import annotations

from typing import Literal

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MultipleLocator

from campaign.events import BattleFought, DayEnded, MarchBegun, Surrendered
from campaign.maps.model import SIDES
from campaign.printers.phrases import division_order
from campaign.report.days import Diary
from campaign.report.glyphs import drawing, safe_label
from campaign.report.map_legend import Styles
from campaign.report.maps import MPL_RC, SIDE_STYLE

__all__ = ["battle_timeline", "division_timeline", "objective_chart", "strength_chart"]


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


def _value_axes(
    ax: Axes,
    diary: Diary,
    last_t: float,
    label: str,
    legend_at: Literal["lower left", "upper left"],
) -> None:
    """The axes of a value over the days: ``label`` up the side from 0, the days along, the
    sides' legend at ``legend_at`` (when a side has a line)."""
    ax.set_ylabel(label)
    ax.set_ylim(bottom=0)
    _days_axis(ax, diary, last_t)
    if ax.get_lines():
        ax.legend(loc=legend_at, fontsize=8, frameon=False)


def _side_steps(
    ax: Axes, xs: list[float], ys: list[float], style: dict[str, str], label: str
) -> None:
    """One side's line of a chart over time: steps after each value, in the side's colour,
    line style and marker (``style``, an entry of :data:`campaign.report.maps.SIDE_STYLE`)."""
    ax.step(
        xs,
        ys,
        where="post",
        color=style["color"],
        ls=style["ls"],
        marker=style["marker"],
        ms=5,
        mec="black",
        mew=0.6,
        lw=1.6,
        label=label,
    )


def strength_chart(diary: Diary, styles: Styles | None = None) -> Figure:
    """Boxes of each side over time as the view knows them (step lines).

    For a side's view the enemy line counts only enemy divisions whose strength it learned.
    ``styles`` gives each side's colour (:func:`campaign.report.maps.side_styles`; default
    red and blue).
    """
    styles = styles or SIDE_STYLE
    with drawing(MPL_RC):
        fig = Figure(figsize=(7.2, 3.0))
        ax = fig.add_axes((0.09, 0.17, 0.88, 0.75))
        last = diary.series[-1][0] if diary.series else 0
        for side in SIDES:
            pts = [(t, v) for t, s in diary.series if (v := s[side]) is not None]
            if not pts:
                continue
            style = styles[side]
            known = "" if diary.view in ("umpire", side) else " (known divisions only)"
            _side_steps(
                ax,
                [_x(t) for t, _ in pts],
                [float(v) for _, v in pts if v is not None],
                style,
                safe_label(f"{diary.side_name(side)}{known}"),
            )
        _value_axes(ax, diary, last, "strength (boxes)", "lower left")
    return fig


def battle_timeline(diary: Diary, styles: Styles | None = None) -> Figure:
    """One bar per battle the view knows of: when, how long, where, and who won.

    The bar's hatching marks the winner (``//`` for red, ``..`` for blue, none for a draw),
    its colour the winner's (``styles``, :func:`campaign.report.maps.side_styles`).
    """
    styles = styles or SIDE_STYLE
    battles = diary.battles
    with drawing(MPL_RC):
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
                safe_label(won),
                (_x(b.t + max(b.minutes, SHORTEST_BAR_MINUTES)), i),
                xytext=(4, 0),
                textcoords="offset points",
                va="center",
                fontsize=8,
            )
            labels.append(safe_label(f"#{i + 1} {b.place_name}"))
        ax.set_yticks(range(len(battles)), labels, fontsize=8)
        ax.invert_yaxis()
        last = max([b.t + b.minutes for b in battles], default=0)
        if diary.end is not None:
            last = max(last, diary.end.t)
        _days_axis(ax, diary, last)
        if not battles:
            ax.text(0.5, 0.5, "no battles", transform=ax.transAxes, ha="center")
    return fig


def objective_chart(diary: Diary) -> Figure:
    """Objective value each side held at each nightfall (RULES.md §8.7), and at the end, as
    the view's nightfall tallies give it (step lines)."""
    points: dict[str, list[tuple[float, float]]] = {s: [] for s in SIDES}
    for e in diary.events:
        if isinstance(e, DayEnded):
            for s in SIDES:
                value = e.objectives.get(s)
                if value is not None:  # None: the enemy's, which a side's view does not know
                    points[s].append((_x(e.t), float(value)))
    if diary.end is not None:
        for s in SIDES:
            if s in diary.end.objective_value:
                points[s].append((_x(diary.end.t), float(diary.end.objective_value[s])))
    with drawing(MPL_RC):
        fig = Figure(figsize=(7.2, 2.4))
        ax = fig.add_axes((0.09, 0.2, 0.88, 0.72))
        last = 0.0
        for side in SIDES:
            pts = sorted(points[side])
            if not pts:
                continue
            style = SIDE_STYLE[side]
            _side_steps(ax, [x for x, _ in pts], [v for _, v in pts], style, diary.side_name(side))
            last = max(last, (pts[-1][0] - 1.0) * 1440.0)
        _value_axes(ax, diary, last, "objective value", "upper left")
    return fig


def division_timeline(diary: Diary) -> Figure:
    """One row per division the view knows of (Red's first, by number): a bar for each march
    it saw begin (its length the march's hours), a cross for each battle it fought, a square
    where it surrendered. A side sees the enemy's marches only where its scouts saw them
    begin."""
    marches: dict[str, list[tuple[float, float]]] = {}
    fights: dict[str, list[float]] = {}
    ends: dict[str, float] = {}
    sides: dict[str, str] = {}
    for e in diary.events:
        if isinstance(e, MarchBegun):
            marches.setdefault(e.division, []).append((_x(e.t), e.hours / 24.0))
            sides[e.division] = e.side
        elif isinstance(e, BattleFought):
            for side, ids in e.divisions.items():
                for d in ids:
                    fights.setdefault(d, []).append(_x(e.t))
                    sides[d] = side
        elif isinstance(e, Surrendered):
            ends[e.division] = _x(e.t)
            sides[e.division] = e.side
    rows = sorted(sides, key=lambda d: division_order(sides[d], d))
    with drawing(MPL_RC):
        fig = Figure(figsize=(7.2, 1.0 + 0.28 * max(len(rows), 1)), layout="constrained")
        ax = fig.add_subplot()
        for i, d in enumerate(rows):
            color = SIDE_STYLE[sides[d]]["color"]
            ax.broken_barh(marches.get(d, []), (i - 0.3, 0.6), facecolors=color, alpha=0.55)
            xs = fights.get(d, [])
            ax.plot(xs, [i] * len(xs), "x", color="black", ms=6, mew=1.4)
            if d in ends:
                ax.plot([ends[d]], [i], "s", color="black", ms=5)
        ax.set_yticks(range(len(rows)), rows, fontsize=8)
        ax.invert_yaxis()
        last = diary.end.t if diary.end is not None else max([e.t for e in diary.events], default=0)
        _days_axis(ax, diary, last)
        if not rows:
            ax.text(0.5, 0.5, "no division seen", transform=ax.transAxes, ha="center")
    return fig
