"""Maps of the diary, drawn with matplotlib (Agg) from the junction positions.

Roads are grey: solid (normal), dashed (rough), thick (a side's primary road). Marches are
drawn in the side's colour along the road they used, solid for both sides and set a little
to one side of the road (Red left of its direction, Blue right), with an arrowhead where
they went; side colours are never used for roads and no march is dashed, so a march is never
mistaken for a road kind. Objectives are gold stars with their value; bases are squares in
the side's colour; battle sites are crosses numbered like the diary's battles; each side's
divisions stand by their junction as a block of ``■ R1 45`` (id and boxes; ``?`` when the
view does not know the strength, hollow ``□`` when last seen on an earlier day). Sides differ
by glyph as well as colour, so the maps read in black and white.

Labels are placed by :mod:`campaign.report.labels` (no label over another label or a
symbol), at 8 pt or more on paper: the figure is as wide as the printed column (7.2 in), and
the diary prints it at that width. On a large map (more than :data:`LARGE_MAP` junctions) the
map shows the area of operations (every junction a division stood at, marched through or
fought at, and the bases, plus a margin) and labels only what matters there (objectives,
bases, battle sites, places divisions stood); minor junctions stay unlabelled.
:func:`figure_svg` and :func:`figure_png` write byte-identical output for the same input.
"""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from campaign.events import BattleFought, DivisionRaised, MarchArrived, MarchBegun, Sighted
from campaign.maps.model import CampaignMap
from campaign.report.days import Day, Diary, March, Mark
from campaign.report.glyphs import FONT_FAMILIES, drawing, safe_label, shown_name
from campaign.report.ground import draw_ground, ground_of
from campaign.report.labels import Box, Label, place_labels
from campaign.report.map_legend import ROAD_GREY, Styles, legend

#: junction id -> (x, y) on the map
Positions = dict[str, tuple[float, float]]

__all__ = [
    "LARGE_MAP",
    "MPL_RC",
    "SIDE_STYLE",
    "campaign_map",
    "day_map",
    "figure_png",
    "figure_svg",
    "map_symbol",
    "side_styles",
]

#: Colour, marker and glyphs of each side (glyphs differ for black and white).
SIDE_STYLE: dict[str, dict[str, str]] = {
    "red": {"color": "#b22222", "marker": "s", "ls": "-", "glyph": "■", "stale": "□"},
    "blue": {"color": "#1f4e9c", "marker": "^", "ls": "-", "glyph": "▲", "stale": "△"},
}


def side_styles(cmap: CampaignMap | None) -> Styles:
    """:data:`SIDE_STYLE` with each side's colour as its map gives it (``colour`` in the
    map's sides or its names overlay, :mod:`campaign.maps.naming`), else red and blue."""
    styles = {side: dict(style) for side, style in SIDE_STYLE.items()}
    if cmap is not None:
        for side, style in styles.items():
            colour = cmap.naming.side(side).colour
            if colour:
                style["color"] = colour
    return styles


MPL_RC: dict[Any, Any] = {
    "font.family": FONT_FAMILIES,  # DejaVu Sans, then wide-coverage fonts when installed
    "font.size": 8,
    "svg.fonttype": "none",
    "path.simplify": False,
}

#: Maps with more junctions than this show the area of operations and label only what
#: matters (house).
LARGE_MAP = 40
#: Printed sizes (points): every label is at least 8 pt on paper.
TOWN_PT = 8.0
KEY_TOWN_PT = 8.5
DIVISION_PT = 8.0
WIDTH_IN = 7.2
_LEFT, _RIGHT, _TOP, _LEGEND = 0.1, 0.1, 0.1, 0.9


def figure_svg(fig: Figure, salt: str) -> str:
    """The figure as an inline ``<svg>`` element (no XML prologue or DOCTYPE).

    ``salt`` makes the SVG's internal ids unique within a page and stable between runs.
    """
    buf = io.StringIO()
    with drawing({**MPL_RC, "svg.hashsalt": salt, "svg.id": salt}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    return text[text.index("<svg") :].strip()


def figure_png(fig: Figure, path: Path, dpi: int = 150) -> Path:
    """Write the figure as a PNG file (no timestamp or software metadata) and return the path."""
    with drawing(MPL_RC):
        fig.savefig(path, format="png", dpi=dpi, metadata={"Software": None})
    return path


# ---------------------------------------------------------------------- the frame
@dataclass(frozen=True)
class Frame:
    """Data limits and figure geometry of a map; converts data to points on the page."""

    x0: float
    x1: float
    y0: float
    y1: float
    width: float  # axes, inches
    height: float

    def pt(self, x: float, y: float) -> tuple[float, float]:
        """Data → points from the axes' lower-left corner."""
        return (
            (x - self.x0) / (self.x1 - self.x0) * self.width * 72,
            (y - self.y0) / (self.y1 - self.y0) * self.height * 72,
        )

    def data(self, px: float, py: float) -> tuple[float, float]:
        """Points from the axes' lower-left corner → data."""
        return (
            self.x0 + px / (self.width * 72) * (self.x1 - self.x0),
            self.y0 + py / (self.height * 72) * (self.y1 - self.y0),
        )

    def inside(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    @classmethod
    def fitted(
        cls, x0: float, x1: float, y0: float, y1: float, width: float, height: float
    ) -> Frame:
        """The frame of axes ``width`` × ``height`` inches showing the data box
        ``x0..x1`` × ``y0..y1`` unstretched: the box is widened, or heightened, evenly on both
        sides to the axes' aspect."""
        want = width / height  # data width / height of the axes box
        if (x1 - x0) / (y1 - y0) < want:
            extra = (want * (y1 - y0) - (x1 - x0)) / 2
            x0, x1 = x0 - extra, x1 + extra
        else:
            extra = ((x1 - x0) / want - (y1 - y0)) / 2
            y0, y1 = y0 - extra, y1 + extra
        return cls(x0, x1, y0, y1, width, height)


def _positions(cmap: CampaignMap) -> dict[str, tuple[float, float]]:
    return {n: (float(d["pos"][0]), float(d["pos"][1])) for n, d in cmap.graph.nodes(data=True)}


def _places(diary: Diary) -> set[str]:
    """Junctions where a division of the view stood, passed, fought or was seen."""
    out: set[str] = set()
    for e in diary.events:
        if isinstance(e, DivisionRaised | MarchArrived | Sighted):
            out.add(e.junction)
        elif isinstance(e, MarchBegun):
            out.update((e.origin, e.destination))
        elif isinstance(e, BattleFought):
            out.update(e.road or (e.place,))  # ids are free text: never split
    for day in diary.days:
        for m in day.marks:
            if m.junction:
                out.add(m.junction)
            elif m.road:
                out.update(m.road)
    return out


def _frame(cmap: CampaignMap, diary: Diary, pos: dict[str, tuple[float, float]]) -> Frame:
    large = cmap.graph.number_of_nodes() > LARGE_MAP
    if large:
        keep = _places(diary) | set(diary.header.bases.values() if diary.header else ())
        keep &= set(pos)
    else:
        keep = set(pos)
    keep = keep or set(pos)
    xs = [pos[n][0] for n in keep]
    ys = [pos[n][1] for n in keep]
    w, h = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    span = max(w, h)
    margin = 0.12 * span if large else 0.07 * span
    x0, x1 = min(xs) - margin, max(xs) + margin
    y0, y1 = min(ys) - margin, max(ys) + margin
    aw = WIDTH_IN - _LEFT - _RIGHT
    ah = min(max(aw * (y1 - y0) / (x1 - x0), 3.0), 6.0)
    return Frame.fitted(x0, x1, y0, y1, aw, ah)


# ---------------------------------------------------------------------- drawing
def _roads(ax: Axes, cmap: CampaignMap, pos: Positions, frame: Frame) -> list[Any]:
    segments = []
    for a, b, data in sorted(cmap.graph.edges(data=True), key=lambda e: (e[0], e[1])):
        (xa, ya), (xb, yb) = pos[a], pos[b]
        rough = data.get("kind") == "rough"
        primary = bool(data.get("primary_of"))
        ax.plot(
            [xa, xb],
            [ya, yb],
            color="0.3" if primary else ROAD_GREY,
            zorder=1,
            lw=3.2 if primary else 1.2,
            ls=(0, (4, 2.5)) if rough else "-",
            solid_capstyle="butt",
        )
        if frame.inside(xa, ya) or frame.inside(xb, yb):
            segments.append((frame.pt(xa, ya), frame.pt(xb, yb)))
    return segments


def _square(p: tuple[float, float], r: float) -> Box:
    return (p[0] - r, p[1] - r, p[0] + r, p[1] + r)


def _marches(
    ax: Axes, marches: Iterable[March], pos: Positions, frame: Frame, styles: Styles
) -> None:
    drawn: set[tuple[str, str, str]] = set()
    for m in marches:
        key = (m.side, m.origin, m.destination)
        if key in drawn or m.origin not in pos or m.destination not in pos:
            continue
        drawn.add(key)
        (ax_, ay), (bx, by) = frame.pt(*pos[m.origin]), frame.pt(*pos[m.destination])
        length = ((bx - ax_) ** 2 + (by - ay) ** 2) ** 0.5
        if length < 14:
            continue
        ux, uy = (bx - ax_) / length, (by - ay) / length
        side = 2.6 if m.side == "red" else -2.6  # red left of its way, blue right
        nx, ny = -uy * side, ux * side
        start = frame.data(ax_ + ux * 7 + nx, ay + uy * 7 + ny)
        end = frame.data(bx - ux * 8 + nx, by - uy * 8 + ny)
        style = styles[m.side]
        ax.annotate(
            "",
            xy=end,
            xytext=start,
            zorder=5,
            arrowprops={
                "arrowstyle": "-|>",
                "color": style["color"],
                "lw": 1.6,
                "shrinkA": 0,
                "shrinkB": 0,
                "mutation_scale": 10,
            },
        )


@dataclass
class _Text:
    label: Label
    text: str
    size: float
    color: str
    weight: str


def _measure(fig: Figure, text: str, size: float, weight: str) -> tuple[float, float]:
    """Width and height of a text in points, as matplotlib draws it (plus a margin for
    browsers that set the same font a little wider)."""
    renderer = FigureCanvasAgg(fig).get_renderer()  # type: ignore[no-untyped-call]
    t = fig.text(0, 0, text, fontsize=size, fontweight=weight, linespacing=1.15)
    bb = t.get_window_extent(renderer)
    t.remove()
    scale = 72.0 / fig.dpi
    return bb.width * scale * 1.06 + 1.0, bb.height * scale + 0.5


#: a label's (pt, colour, weight, priority, gap, required)
_Look = tuple[float, str, str, int, float, bool]


@dataclass
class _Texts:
    """The map's labels to place, measured as drawn on ``fig``."""

    fig: Figure
    items: list[_Text] = field(default_factory=list)

    def add(self, key: str, anchor: tuple[float, float], text: str, look: _Look) -> None:
        """A label at ``anchor`` (points); ``look`` = (pt, colour, weight, priority, gap,
        required), as :class:`~campaign.report.labels.Label` takes them."""
        pt, color, weight, priority, gap, required = look
        text = safe_label(text)  # every map label: drawable glyphs only, no mathtext
        w, h = _measure(self.fig, text, pt, weight)
        label = Label(key, anchor, (w, h), priority, gap, required)
        self.items.append(_Text(label, text, pt, color, weight))


def _figure(frame: Frame, entries: int) -> tuple[Figure, Axes, float]:
    """The figure, its map axes and its height (inches): the frame over a legend of
    ``entries``, four a row (a row over three makes room for itself)."""
    legend = _LEGEND + 0.19 * max(0, -(-entries // 4) - 3)
    height = frame.height + _TOP + legend
    fig = Figure(figsize=(WIDTH_IN, height))
    ax = fig.add_axes(
        (_LEFT / WIDTH_IN, legend / height, frame.width / WIDTH_IN, frame.height / height)
    )
    ax.set_xlim(frame.x0, frame.x1)
    ax.set_ylim(frame.y0, frame.y1)
    ax.set_axis_off()
    return fig, ax, height


def _battle_sites(
    diary: Diary, battles: Sequence[BattleFought]
) -> dict[tuple[str, ...], list[int]]:
    """The battles' places (a junction, or a road's two ends) and the diary's numbers of the
    battles fought there."""
    numbers = {id(b): i for i, b in enumerate(diary.battles, start=1)}
    battle_at: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for b in battles:
        battle_at[tuple(b.road or (b.place,))].append(numbers.get(id(b), 0))
    return battle_at


def map_symbol(
    ax: Axes,
    xy: tuple[float, float],
    marker: str,
    size: float,
    colours: tuple[str, str, float],
    zorder: int = 3,
    whole: bool = True,
) -> None:
    """One symbol of a map at data ``xy``: ``size`` in points, ``colours`` its face, edge and
    edge width; ``whole``: not clipped at the edge of a cropped map."""
    ax.plot(
        [xy[0]],
        [xy[1]],
        marker=marker,
        ms=size,
        clip_on=not whole,
        mfc=colours[0],
        mec=colours[1],
        mew=colours[2],
        ls="none",
        zorder=zorder,
    )


def _town_look(base: bool, notable: bool, large: bool) -> tuple[str, _Look] | None:
    """A plain junction's label key prefix and look: a base's bold; where a battle was fought
    or a division stood, required; any other only on a small map, dropped when it finds no
    room; None: not labelled."""
    if base:
        return "1", (KEY_TOWN_PT, "0.1", "bold", 1, 7.5, True)
    if notable:
        return "3", (TOWN_PT, "0.15", "normal", 3, 4.0, True)
    if not large:
        return "5", (TOWN_PT, "0.3", "normal", 5, 3.5, False)
    return None


@dataclass(frozen=True)
class _Junctions:
    """What the junction symbols and labels depend on."""

    base_of: dict[str, str]  # junction -> the side whose base it is
    notable: set[str]  # junctions where a battle was fought or a division stood
    large: bool
    styles: Styles


def _junctions(
    ax: Axes, cmap: CampaignMap, pos: Positions, frame: Frame, how: _Junctions, texts: _Texts
) -> list[Box]:
    """Draw each junction inside the frame (base square, objective star with its value, or
    a dot) and label it; the symbols' boxes (points)."""
    obstacles: list[Box] = []
    for n in sorted(cmap.graph.nodes):
        x, y = pos[n]
        if not frame.inside(x, y):
            continue
        data = cmap.graph.nodes[n]
        p = frame.pt(x, y)
        name = shown_name(str(data.get("name", n)), str(n))
        base = n in how.base_of
        if base:
            map_symbol(ax, (x, y), "s", 14, ("none", how.styles[how.base_of[n]]["color"], 1.8), 2)
            obstacles.append(_square(p, 7.5))
        if data.get("objective"):
            map_symbol(ax, (x, y), "*", 12, ("#f2c200", "black", 0.7))
            obstacles.append(_square(p, 6.0))
            look = (KEY_TOWN_PT, "0.1", "bold", 1 if base else 2, 7.5, True)
            texts.add(f"1{n}", p, f"{name} ({data.get('value', 0)})", look)
        else:
            map_symbol(ax, (x, y), "o", 4 if not how.large else 3, ("white", "0.2", 0.8))
            obstacles.append(_square(p, 2.5))
            town = _town_look(base, n in how.notable, how.large)
            if town is not None:
                texts.add(f"{town[0]}{n}", p, name, town[1])
    return obstacles


def _battle_marks(
    ax: Axes,
    battle_at: dict[tuple[str, ...], list[int]],
    pos: Positions,
    frame: Frame,
    texts: _Texts,
) -> list[Box]:
    """A cross at each battle site (a junction, or the middle of a road) with the battles'
    numbers; the crosses' boxes (points)."""
    obstacles: list[Box] = []
    for place, nums in sorted(battle_at.items()):
        ends = [pos[j] for j in place]
        x = sum(e[0] for e in ends) / len(ends)
        y = sum(e[1] for e in ends) / len(ends)
        map_symbol(ax, (x, y), "X", 11, ("#ffd24d", "black", 0.9), 6)
        p = frame.pt(x, y)
        obstacles.append(_square(p, 6.0))
        numbers = ", ".join(f"#{k}" for k in sorted(nums))
        texts.add(f"0{place}", p, numbers, (8.5, "black", "bold", 0, 7.0, True))
    return obstacles


def _mark_spot(m: Mark, pos: Positions) -> tuple[str, tuple[float, float]]:
    """Where a division stands: its junction, or its place along the road (a key for the
    spot, and its map point)."""
    if m.junction is not None:
        return m.junction, pos[m.junction]
    ra, rb = m.road  # type: ignore[misc]
    f = m.fraction
    xy = (
        pos[ra][0] + (pos[rb][0] - pos[ra][0]) * f,
        pos[ra][1] + (pos[rb][1] - pos[ra][1]) * f,
    )
    return f"{ra}~{rb}~{f:.2f}", xy


def _road_mark(ax: Axes, xy: tuple[float, float], style: dict[str, str]) -> None:
    """A division on a road: the side's marker there."""
    ax.plot(
        [xy[0]],
        [xy[1]],
        marker=style["marker"],
        ms=6,
        mfc=style["color"],
        mec="black",
        mew=0.6,
        ls="none",
        zorder=7,
    )


def _block_text(rows: list[Mark], style: dict[str, str]) -> str:
    """A side's divisions at one spot, a line each by id: ``■ R1 45`` (``?`` when the view
    does not know the strength, hollow when last seen on an earlier day, and when)."""
    lines = []
    for m in sorted(rows, key=lambda r: r.division):
        glyph = style["stale"] if m.stale else style["glyph"]
        strength = "?" if m.boxes is None else str(m.boxes)
        seen = f" (seen {m.seen.split(' ')[-1]})" if m.seen else ""
        lines.append(f"{glyph} {m.division} {strength}{seen}")
    return "\n".join(lines)


def _division_blocks(
    ax: Axes, marks: Sequence[Mark], pos: Positions, frame: Frame, styles: Styles, texts: _Texts
) -> list[Box]:
    """Each side's divisions as a block of lines by their spot (a marker too when on a road);
    the road markers' boxes (points)."""
    obstacles: list[Box] = []
    blocks: dict[tuple[str, str], list[Mark]] = defaultdict(list)
    where: dict[tuple[str, str], tuple[float, float]] = {}
    for m in marks:
        spot, xy = _mark_spot(m, pos)
        if m.junction is None:
            _road_mark(ax, xy, styles[m.side])
            obstacles.append(_square(frame.pt(*xy), 3.5))
        blocks[(spot, m.side)].append(m)
        where[(spot, m.side)] = xy
    for (spot, side), rows in sorted(blocks.items()):
        style = styles[side]
        look = (DIVISION_PT, style["color"], "bold", 0, 6.0, True)
        texts.add(f"0{side}{spot}", frame.pt(*where[(spot, side)]), _block_text(rows, style), look)
    return obstacles


def _print_texts(
    ax: Axes, frame: Frame, texts: _Texts, obstacles: list[Box], segments: list[Any]
) -> None:
    """Place the labels (:func:`~campaign.report.labels.place_labels`) and print them, with a
    dotted leader line where one moved away from its point."""
    frame_box: Box = (0.0, 0.0, frame.width * 72, frame.height * 72)
    placed = place_labels([t.label for t in texts.items], obstacles, frame_box, segments)
    by_key = {t.label.key: t for t in texts.items}
    for pl in placed:
        t = by_key[pl.label.key]
        x0, y0, _x1, _y1 = pl.box
        anchor = frame.data(*pl.label.anchor)
        ax.annotate(
            t.text,
            xy=anchor,
            xytext=frame.data(x0 + 0.5, y0),
            textcoords="data",
            ha="left",
            va="bottom",
            fontsize=t.size,
            fontweight=t.weight,
            color=t.color,
            linespacing=1.15,
            zorder=9,
            annotation_clip=False,
            bbox={"boxstyle": "square,pad=0.08", "fc": "white", "ec": "none", "alpha": 0.85},
            arrowprops=None
            if not pl.leader
            # dotted and lighter than any road, so a leader never reads as one
            else {
                "arrowstyle": "-",
                "color": "0.55",
                "lw": 0.6,
                "linestyle": (0, (1, 1.6)),
                "shrinkA": 0,
                "shrinkB": 2,
            },
        )


def _draw(
    cmap: CampaignMap,
    diary: Diary,
    marches: Sequence[March],
    battles: Sequence[BattleFought],
    marks: Sequence[Mark],
) -> Figure:
    """The map (see the module text): roads, ground, junctions, battle sites, marches,
    divisions, then every label placed clear of the rest, and the legend."""
    pos = _positions(cmap)
    frame = _frame(cmap, diary, pos)
    styles = side_styles(cmap)
    large = cmap.graph.number_of_nodes() > LARGE_MAP
    inside = [n for n in sorted(cmap.graph.nodes) if frame.inside(*pos[n])]
    kinds = {g for n in inside if (g := ground_of(cmap, n)) is not None}
    fig, ax, height = _figure(frame, 6 + 3 * len(styles) + len(kinds))
    segments = _roads(ax, cmap, pos, frame)
    grounds = draw_ground(ax, cmap, inside, pos)  # terrain, behind (labels may cover it)
    texts = _Texts(fig)
    bases = diary.header.bases if diary.header else {}
    battle_at = _battle_sites(diary, battles)
    notable = {n for n in cmap.graph.nodes if (n,) in battle_at} | _places(diary)
    how = _Junctions({j: s for s, j in bases.items()}, notable, large, styles)
    obstacles = _junctions(ax, cmap, pos, frame, how, texts)
    obstacles += _battle_marks(ax, battle_at, pos, frame, texts)
    _marches(ax, marches, pos, frame, styles)
    obstacles += _division_blocks(ax, marks, pos, frame, styles, texts)
    _print_texts(ax, frame, texts, obstacles, segments)
    legend(fig, diary, height, styles, grounds)
    return fig


def day_map(cmap: CampaignMap, diary: Diary, day: Day) -> Figure:
    """The map of one campaign day as a view knows it (at nightfall, or at the end).

    Returns
    -------
    matplotlib.figure.Figure
        7.2 in wide, labels at 8 pt or more; not attached to pyplot (safe in threads).
    """
    with drawing(MPL_RC):
        return _draw(cmap, diary, day.marches, day.battles, day.marks)


def campaign_map(cmap: CampaignMap, diary: Diary) -> Figure:
    """The whole campaign on one map: every march and battle the view knew of, and where
    each division stood at the end."""
    marches = [m for day in diary.days for m in day.marches]
    last = diary.days[-1].marks if diary.days else []
    with drawing(MPL_RC):
        return _draw(cmap, diary, marches, diary.battles, last)
