"""Diary maps: labels at 8 pt or more that never overlap, marches never styled like roads,
a complete legend, the area of operations on large maps (issue 13)."""

from __future__ import annotations

from pathlib import Path

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch
from matplotlib.text import Text

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.maps import load_map
from campaign.paths import MAPS_DIR, SHARED_MAPS_DIR
from campaign.report.days import build_diary
from campaign.report.labels import Label, overlaps, place_labels
from campaign.report.maps import LARGE_MAP, SIDE_STYLE, campaign_map, day_map

SIDE_COLOURS = {SIDE_STYLE[s]["color"] for s in SIDE_STYLE}
MAPS = {
    "default": (None, 7),
    "waterloo": (MAPS_DIR / "waterloo-1815.yaml", 1815),
    "wilderness_war": (SHARED_MAPS_DIR / "wilderness_war.yaml", 3),
    "nevsky": (SHARED_MAPS_DIR / "nevsky.yaml", 1),
}


@pytest.fixture(scope="module", params=sorted(MAPS))
def drawn(request):
    path, seed = MAPS[request.param]
    if path is not None and not Path(path).exists():
        pytest.skip(f"{path} is absent (maps by other people live in ../shared/maps)")
    cmap = load_map(path)
    events = run_campaign(cmap, load_rules(), seed, None, record_events=True).events
    diary = build_diary(events, "umpire", destroyed_at=load_rules().rules.battle.destroyed_at_hits)
    figures = [day_map(cmap, diary, day) for day in diary.days]
    figures.append(campaign_map(cmap, diary))
    return cmap, diary, figures


def _texts(fig):
    canvas = FigureCanvasAgg(fig)
    canvas.draw()  # lays out the legend
    renderer = canvas.get_renderer()
    out = []
    for t in fig.findobj(Text):
        if t.get_text().strip() and t.get_visible():
            bb = Text.get_window_extent(t, renderer)  # the words, not a leader line
            scale = 72.0 / fig.dpi
            out.append((t, (bb.x0 * scale, bb.y0 * scale, bb.x1 * scale, bb.y1 * scale)))
    return out


def test_labels_print_at_8_pt_and_never_overlap(drawn):
    _, _, figures = drawn
    for fig in figures:
        texts = _texts(fig)
        assert len(texts) > 10
        for t, _ in texts:
            assert t.get_fontsize() >= 8, t.get_text()
        clashes = [
            (a.get_text(), b.get_text())
            for i, (a, box_a) in enumerate(texts)
            for b, box_b in texts[i + 1 :]
            if overlaps(box_a, box_b, pad=-0.5)
        ]
        assert clashes == []
        assert fig.get_figwidth() == pytest.approx(7.2)  # printed at its drawn width


def test_what_matters_is_labelled(drawn):
    cmap, diary, figures = drawn
    final = {t.get_text() for t, _ in _texts(figures[-1])}
    names = {n: d["name"] for n, d in cmap.graph.nodes(data=True)}
    for base in diary.header.bases.values():
        assert any(label.startswith(names[base]) for label in final), names[base]
    for i, _ in enumerate(diary.battles, start=1):
        assert any(f"#{i}" in label.replace(",", " ").split() for label in final), i
    if cmap.graph.number_of_nodes() > LARGE_MAP:
        # On a large map a junction is labelled only when it matters: an objective, a base, a
        # battle site or a place a division stood, passed or was seen; the rest stay bare.
        stood: set[str] = set()
        for e in diary.events:
            for attr in ("junction", "origin", "destination"):
                if isinstance(getattr(e, attr, None), str):
                    stood.add(getattr(e, attr))
            if getattr(e, "road", None):
                stood.update(e.road)
        for day in diary.days:
            for m in day.marks:
                stood.update([m.junction] if m.junction else (m.road or ()))
        minor = [
            n
            for n, d in cmap.graph.nodes(data=True)
            if not d.get("objective") and n not in diary.header.bases.values() and n not in stood
        ]
        assert minor  # the check below is not empty
        assert not [names[n] for n in minor if names[n] in final]


def test_marches_are_solid_and_roads_never_use_side_colours(drawn):
    _, diary, figures = drawn
    arrows = 0
    for fig in figures:
        ax = fig.axes[0]
        for line in ax.get_lines():
            colour = to_hex(line.get_color())
            if line.get_linestyle() not in ("None", "") and len(line.get_xdata()) == 2:
                assert colour not in SIDE_COLOURS  # a road: grey, whatever its kind
        patches = [getattr(t, "arrow_patch", None) for t in ax.texts]
        for patch in [p for p in patches if isinstance(p, FancyArrowPatch)]:
            colour = to_hex(patch.get_edgecolor())
            if colour in SIDE_COLOURS:
                arrows += 1
                assert patch.get_linestyle() in ("-", "solid")
    if any(day.marches for day in diary.days):
        assert arrows > 0


def test_the_legend_is_complete(drawn):
    _, diary, figures = drawn
    legend = {t.get_text() for t in figures[0].legends[0].get_texts()}
    names = [diary.side_name(s) for s in ("red", "blue")]
    wanted = {"road", "rough road", "primary road", "junction", "objective (value)"}
    wanted |= {"battle (number)"} | {f"{n} base" for n in names} | {f"{n} march" for n in names}
    assert wanted <= legend
    assert sum("division" in t for t in legend) == 2
    assert all(isinstance(h, Line2D) for h in figures[0].legends[0].legend_handles)


def test_the_large_map_shows_the_area_of_operations():
    path = SHARED_MAPS_DIR / "wilderness_war.yaml"
    if not path.exists():
        pytest.skip("../shared/maps/wilderness_war.yaml is absent")
    cmap = load_map(path)
    events = run_campaign(cmap, load_rules(), 3, None, record_events=True).events
    diary = build_diary(events, "umpire", destroyed_at=load_rules().rules.battle.destroyed_at_hits)
    ax = campaign_map(cmap, diary).axes[0]
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    xs = [float(d["pos"][0]) for _, d in cmap.graph.nodes(data=True)]
    ys = [float(d["pos"][1]) for _, d in cmap.graph.nodes(data=True)]
    shown = sum(1 for x, y in zip(xs, ys, strict=True) if x0 <= x <= x1 and y0 <= y <= y1)
    assert shown < len(xs)  # the map is cut to where the armies went


def test_the_label_placer_never_overlaps_and_drops_only_minor_labels():
    labels = [
        Label(
            f"k{i}", (50.0 + (i % 5) * 6, 50.0 + (i // 5) * 4), (30.0, 9.0), i % 3, 3.0, i % 3 == 0
        )
        for i in range(25)
    ]
    obstacles = [(48.0, 48.0, 52.0, 52.0)]
    placed = place_labels(labels, obstacles, (0.0, 0.0, 200.0, 200.0))
    boxes = [p.box for p in placed]
    for i, a in enumerate(boxes):
        assert not overlaps(a, obstacles[0])
        for b in boxes[i + 1 :]:
            assert not overlaps(a, b)
        assert a[0] >= 0 and a[1] >= 0 and a[2] <= 200 and a[3] <= 200
    kept = {p.label.key for p in placed}
    assert {lab.key for lab in labels if lab.required} <= kept  # the important ones all fit
    assert len(kept) < len(labels)  # and some minor ones gave way
    assert place_labels(labels, obstacles, (0.0, 0.0, 200.0, 200.0)) == placed  # deterministic
