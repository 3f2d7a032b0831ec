"""The printed diary (issue 13): headless Chromium prints it to PDF, and the PDF's text
layout (``pdftotext -bbox``) shows no word printed over another, no near-empty page but the
last, and every battle's bound-by-bound log in print. Letter (Chromium's default) for four
maps, A4 for one. Slow: one Chromium run per PDF."""

from __future__ import annotations

import re
import shutil
import subprocess
from html import unescape
from pathlib import Path

import pytest

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import BattleFought
from campaign.maps import load_map
from campaign.paths import MAPS_DIR, SHARED_MAPS_DIR
from campaign.printers.odds import OddsBook
from campaign.report import render_html
from campaign.report.browser import find_chromium, render_page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        find_chromium() is None, reason="needs Debian's chromium (apt-get install chromium)"
    ),
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils (pdftotext)"),
]

#: name: (map file, seed, paper); seeds chosen so that each campaign has battles.
CASES = {
    "default": (None, 42, "Letter"),
    "waterloo": (MAPS_DIR / "waterloo-1815.yaml", 1815, "A4"),
    "nevsky": (SHARED_MAPS_DIR / "nevsky.yaml", 1, "Letter"),
    "wilderness_war": (SHARED_MAPS_DIR / "wilderness_war.yaml", 3, "Letter"),
}
#: A page is near-empty when its lowest word ends in the top third (house threshold).
NEAR_EMPTY = 1 / 3

Word = tuple[float, float, float, float, str]
WORD = r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>'


@pytest.fixture(scope="module", params=sorted(CASES))
def printed(request, tmp_path_factory):
    path, seed, paper = CASES[request.param]
    if path is not None and not Path(path).exists():
        pytest.skip(f"{path} is absent (maps by other people live in ../shared/maps)")
    cmap = load_map(path)
    loaded = load_rules()
    events = run_campaign(cmap, loaded, seed, None, record_events=True, battle_logs=True).events
    text = render_html(events, cmap, "umpire", OddsBook(loaded.rules, seed))
    if paper == "A4":
        text = text.replace("</head>", "<style>@page { size: A4; }</style></head>", 1)
    folder = tmp_path_factory.mktemp(request.param)
    page = folder / "diary.html"
    page.write_text(text, encoding="utf-8")
    pdf = render_page(page, folder / "diary.pdf")
    layout = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    plain = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    return request.param, paper, events, _pages(layout), plain


def _pages(layout: str) -> list[tuple[float, float, list[Word]]]:
    pages = []
    for chunk in re.split(r"<page ", layout)[1:]:
        w, h = (float(v) for v in re.search(r'width="([\d.]+)" height="([\d.]+)"', chunk).groups())
        words = [
            (float(a), float(b), float(c), float(d), unescape(t))
            for a, b, c, d, t in re.findall(WORD, chunk)
        ]
        pages.append((w, h, words))
    return pages


def test_the_paper_size(printed):
    _, paper, _, pages, _ = printed
    w, h, _ = pages[0]
    expected = (595.3, 841.9) if paper == "A4" else (612.0, 792.0)
    assert (w, h) == pytest.approx(expected, abs=1.0)


def test_no_word_is_printed_over_another(printed):
    name, _, _, pages, _ = printed
    clashes = []
    for number, (_, _, words) in enumerate(pages, start=1):
        for i, a in enumerate(words):
            for b in words[i + 1 :]:
                dx = min(a[2], b[2]) - max(a[0], b[0])
                dy = min(a[3], b[3]) - max(a[1], b[1])
                if dx > 0.5 and dy > 0.5:
                    clashes.append((number, a[4], b[4]))
    assert clashes == [], f"{name}: {clashes[:5]}"


def test_no_page_but_the_last_is_near_empty(printed):
    name, _, _, pages, _ = printed
    assert len(pages) >= 3
    for number, (_, h, words) in enumerate(pages[:-1], start=1):
        bottom = max((w[3] for w in words), default=0.0)
        assert bottom > NEAR_EMPTY * h, f"{name}: page {number} of {len(pages)} is near-empty"


def test_every_battle_log_is_in_print(printed):
    name, _, events, _, plain = printed
    flat = " ".join(plain.split())
    battles = [e for e in events if isinstance(e, BattleFought)]
    assert battles, f"{name}: the fixed seed should give battles"
    for b in battles:
        assert b.log
        for line in (b.log[0], b.log[len(b.log) // 2], b.log[-1]):
            assert " ".join(line.split()) in flat, f"{name}: log line not printed: {line}"
