"""Headless Chromium renders the diary: pages come out and the maps are visible."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib import image

from campaign.report.browser import find_chromium, render_page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        find_chromium() is None, reason="needs Debian's chromium (apt-get install chromium)"
    ),
]


def test_screenshot_shows_a_drawn_map(umpire_file, tmp_path):
    png = render_page(umpire_file, tmp_path / "page.png", size=(1200, 1600))
    assert png.stat().st_size > 50_000
    pixels = image.imread(png)[..., :3]
    assert pixels.shape[:2] == (1600, 1200)
    ink = (pixels < 0.9).any(axis=2)
    assert ink.mean() > 0.03, "the page is nearly blank"
    r, g, b = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    red = (r > 0.55) & (g < 0.35) & (b < 0.35)
    blue = (b > 0.45) & (r < 0.3)
    star = (r > 0.8) & (g > 0.6) & (b < 0.3)  # objective stars
    assert red.sum() > 200 and blue.sum() > 200 and star.sum() > 200, "no map drawn"
    assert np.var(pixels) > 0.01
