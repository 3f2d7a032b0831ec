"""The diary's battle chart keeps every place name on the page (found cut off at the left:
"#11 the road Bois-Sainte-Anne - Roncourt" lost its number)."""

from __future__ import annotations

from matplotlib.backends.backend_agg import FigureCanvasAgg

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.maps import load_map
from campaign.report.charts import battle_timeline
from campaign.report.html import _diary


def test_every_battle_label_lies_inside_the_figure() -> None:
    cmap, loaded = load_map(), load_rules()
    events = run_campaign(cmap, loaded, 42, record_events=True).events
    fig = battle_timeline(_diary(events, cmap, "umpire", loaded.rules))
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    width = fig.bbox.width
    labels = [t for t in fig.axes[0].get_yticklabels() if t.get_text()]
    # the long one (39 characters, as "Bois-Sainte-Anne - Roncourt" was before issue 31)
    assert any("the road La Croisée - Pont-de-l'Isle" in t.get_text() for t in labels)
    for label in labels:
        box = label.get_window_extent(renderer)
        assert box.x0 >= 0 and box.x1 <= width, label.get_text()
