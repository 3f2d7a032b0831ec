"""Issue 29: junction terrain on the diary's drawn maps — a pale mark behind every junction
whose map terrain is registered (campaign/report/ground.py), named in the legend — and in the
battle maps' captions."""

from __future__ import annotations

from matplotlib.backends.backend_agg import FigureCanvasAgg

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.maps import load_map
from campaign.report.battle_maps import battle_map
from campaign.report.days import build_diary
from campaign.report.ground import GROUND
from campaign.report.html import _battle_caption
from campaign.report.maps import day_map


def _seed_42():
    cmap = load_map(None)
    events = run_campaign(cmap, load_rules(), 42, None, record_events=True).events
    return cmap, build_diary(events, "umpire", destroyed_at=10)


def _marks(fig) -> dict[tuple[float, float], str]:
    """Position -> face colour of each ground mark (the lines drawn under the roads)."""
    ax = fig.axes[0]
    return {
        (float(line.get_xdata()[0]), float(line.get_ydata()[0])): str(line.get_markerfacecolor())
        for line in ax.get_lines()
        if line.get_zorder() == 0.5
    }


def test_every_registered_terrain_is_marked_and_in_the_legend():
    cmap, diary = _seed_42()
    fig = day_map(cmap, diary, diary.days[0])
    FigureCanvasAgg(fig).draw()
    marks = _marks(fig)
    expected = {
        (float(d["pos"][0]), float(d["pos"][1])): GROUND[d["terrain"]].color
        for _, d in cmap.graph.nodes(data=True)
        if d.get("terrain") in GROUND
    }
    assert expected and marks == expected
    legend = {t.get_text() for t in fig.legends[0].get_texts()}
    kinds = {
        GROUND[d["terrain"]].label
        for _, d in cmap.graph.nodes(data=True)
        if d.get("terrain") in GROUND
    }
    assert {"town", "wood", "bridge"} <= kinds <= legend
    assert not ({g.label for g in GROUND.values()} - kinds) & legend  # only the map's own


def test_a_battle_map_marks_the_ground_and_its_caption_names_it():
    cmap, diary = _seed_42()
    at_junction = [(n, b) for n, b in enumerate(diary.battles, 1) if not b.road]
    assert at_junction
    for n, b in at_junction:
        terrain = cmap.graph.nodes[b.place].get("terrain")
        caption = _battle_caption(cmap, diary, n, b)
        assert caption.startswith(f"#{n} {b.place_name} ({terrain}), "), caption
        if terrain in GROUND:
            x, y = cmap.graph.nodes[b.place]["pos"]
            assert (
                _marks(battle_map(cmap, diary, b)).get((float(x), float(y)))
                == GROUND[terrain].color
            )
