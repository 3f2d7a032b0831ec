"""Map labels that never overlap: greedy candidate-position placement.

The algorithm is the greedy point-feature label placement of Christensen, Marks and Shieber
("An empirical study of algorithms for point-feature label placement", ACM Transactions on
Graphics 14(3), 1995), with the candidate order cartographers use (Imhof, "Positioning Names
on Maps", 1975): labels are placed one at a time in order of importance; each tries a fixed
list of positions around its point (above, below, right, left, then the corners) and takes
the first free one that crosses the fewest roads; "free" means inside the frame and clear of
every symbol and every label already placed. An important label that finds no free place
close by tries rings further out and is drawn with a leader line; a minor one that finds none
is left out, never printed over another. Everything is in points (1/72 inch) on the page, so
"clear" holds on paper. Deterministic: ties go to the earlier candidate and the lower key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Box", "Label", "Placed", "overlaps", "place_labels"]

#: ``(x0, y0, x1, y1)`` in points, x0 <= x1, y0 <= y1 (y up).
Box = tuple[float, float, float, float]
Segment = tuple[tuple[float, float], tuple[float, float]]

#: Candidate directions (unit steps) in order of preference: N, S, E, W, NE, SE, NW, SW.
_DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))
#: Distances (in gaps) of the rings an important label may try, with a leader line beyond
#: :data:`_CLOSE`.
_RINGS = (1.0, 1.7, 2.2, 3.6, 5.2, 7.0, 9.0)
#: Rings close enough to their point to need no leader line; every label tries them all and
#: takes the place that crosses the fewest roads (a label printed over a road hides it).
_CLOSE = 1.7
#: Slides of a label above or below its point (fractions of its width), tried after the
#: centred place: a label can often clear a road by moving sideways.
_SLIDES = (0.0, -0.35, 0.35)


@dataclass(frozen=True)
class Label:
    """A label to place near ``anchor`` (points); ``size`` = (width, height) in points.

    ``priority``: lower is placed first. ``gap``: clearance between the anchor and the
    label's nearest edge. ``required``: may move further out with a leader line rather than
    be left out.
    """

    key: str
    anchor: tuple[float, float]
    size: tuple[float, float]
    priority: int
    gap: float = 4.0
    required: bool = False


@dataclass(frozen=True)
class Placed:
    """Where a label went: its box (points) and whether it needs a leader line."""

    label: Label
    box: Box
    leader: bool


def overlaps(a: Box, b: Box, pad: float = 0.0) -> bool:
    """Whether two boxes overlap (touching within ``pad`` points counts)."""
    return a[0] < b[2] + pad and b[0] < a[2] + pad and a[1] < b[3] + pad and b[1] < a[3] + pad


def _inside(box: Box, frame: Box) -> bool:
    return box[0] >= frame[0] and box[1] >= frame[1] and box[2] <= frame[2] and box[3] <= frame[3]


def _crosses(box: Box, seg: Segment) -> bool:
    """Whether a segment passes through a box (Liang-Barsky clipping)."""
    (x0, y0), (x1, y1) = seg
    dx, dy = x1 - x0, y1 - y0
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        r = q / p
        if p < 0:
            lo = max(lo, r)
        else:
            hi = min(hi, r)
        if lo > hi:
            return False
    return True


def _candidate(label: Label, direction: tuple[int, int], ring: float, slide: float = 0.0) -> Box:
    (ax, ay), (w, h) = label.anchor, label.size
    dx, dy = direction
    gap = label.gap * ring
    if dx > 0:
        x0 = ax + gap
    elif dx < 0:
        x0 = ax - gap - w
    else:
        x0 = ax - w / 2 + slide * w
    if dy > 0:
        y0 = ay + gap
    elif dy < 0:
        y0 = ay - gap - h
    else:
        y0 = ay - h / 2
    if dx and dy:  # corners sit a little closer: the gap is diagonal
        x0 -= dx * gap * 0.3
        y0 -= dy * gap * 0.3
    return (x0, y0, x0 + w, y0 + h)


def _candidates(label: Label, ring: float) -> list[Box]:
    """The places of one ring in order of preference (N and S also slid sideways)."""
    out: list[Box] = []
    for direction in _DIRECTIONS:
        slides = _SLIDES if direction[0] == 0 else (0.0,)
        out.extend(_candidate(label, direction, ring, slide) for slide in slides)
    return out


def _widened(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def place_labels(
    labels: Sequence[Label],
    obstacles: Sequence[Box],
    frame: Box,
    segments: Sequence[Segment] = (),
    pad: float = 1.0,
    road_clear: float = 2.0,
) -> list[Placed]:
    """Place ``labels`` clear of ``obstacles`` and of each other, inside ``frame``.

    Parameters
    ----------
    labels : sequence of Label
        In any order; placed by (priority, key).
    obstacles : sequence of Box
        Symbols no label may cover (points).
    frame : Box
        The drawable area (points).
    segments : sequence of Segment
        Roads: a label prefers a place that crosses fewer of them (a soft cost): it tries
        every place close to its point (two rings, N and S slid sideways) before taking
        one over a road, and goes further out (with a leader line) only when none is free.
    pad : float
        Minimum clearance between boxes, points.
    road_clear : float
        A label this close to a road (points) counts as crossing it: a road is drawn with a
        width, and a label touching it reads as printed on it.

    Returns
    -------
    list of Placed
        One per label that found room, in placement order. No two boxes overlap, no box
        overlaps an obstacle, every box is inside the frame.
    """
    placed: list[Placed] = []
    taken: list[Box] = list(obstacles)
    for label in sorted(labels, key=lambda lab: (lab.priority, lab.key)):
        rings = [r for r in _RINGS if label.required or r <= _CLOSE]
        choice: tuple[int, Box, bool] | None = None
        for ring in rings:
            if choice is not None and (choice[0] == 0 or ring > _CLOSE):
                break  # a free place close by, or no road-free one: no leader line for it
            for box in _candidates(label, ring):
                if not _inside(box, frame) or any(overlaps(box, t, pad) for t in taken):
                    continue
                wide = _widened(box, road_clear)
                cost = sum(1 for s in segments if _crosses(wide, s))
                if choice is None or cost < choice[0]:
                    choice = (cost, box, ring > _CLOSE)
                    if cost == 0:
                        break
        if choice is not None:
            placed.append(Placed(label, choice[1], choice[2]))
            taken.append(choice[1])
    return placed
