"""Issue 29: ``--report diary.pdf`` prints the diary with headless Chromium, its contents
giving each day, battle and closing part the page it is printed on (two prints: the page
numbers are read from the first, campaign/report/pdf.py). Checked against the printed pages
themselves: a day's first page is the first whose running head names it, a battle's the
page that prints its heading; and the numbers do not change the pagination."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.errors import SimulatorError
from campaign.events import BattleFought
from campaign.maps import load_map
from campaign.printers.odds import OddsBook
from campaign.report import render_html, write_report
from campaign.report.browser import find_chromium, render_page

SEED = 42


def _page_texts(pdf) -> list[str]:
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    return text.split("\f")[:-1] if text.endswith("\f") else text.split("\f")


WORD = r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>'
#: What opens a contents entry: a day, a battle, a closing part.
ENTRY = re.compile(r"Day|#\d+|The|Result|After-action|Terms")


def _contents(pdf) -> dict[str, int]:
    """``label's first words -> page number`` of the cover's contents, read from the word
    boxes: an entry's number is the rightmost number on its first line within its column."""
    layout = subprocess.run(
        ["pdftotext", "-bbox", "-f", "1", "-l", "1", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    words = [(float(a), float(b), float(c), t) for a, b, c, _, t in re.findall(WORD, layout)]
    start = next(i for i, w in enumerate(words) if w[3] == "Contents")
    words = words[start + 1 :]
    found: dict[str, int] = {}
    for i, (x, y, _, text) in enumerate(words):
        if not ENTRY.fullmatch(text):
            continue
        line = [w for w in words if abs(w[1] - y) < 1.0 and x <= w[0] < x + 170]
        numbers = [w for w in line if w[3].isdigit() and w[0] > x]
        if text == "Day":
            label = f"Day {words[i + 1][3]}"
            numbers = [w for w in numbers if w is not words[i + 1]]
        else:
            one = text.startswith("#") or text == "Terms"
            label = text if one else " ".join(w[3] for w in words[i : i + 2])
        if numbers:
            found.setdefault(label, int(max(numbers)[3]))
    return found


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(find_chromium() is None, reason="needs Debian's chromium")
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
@pytest.mark.parametrize("detail", ["summary", "full"])
def test_the_pdfs_contents_give_the_printed_pages(tmp_path, detail):
    cmap = load_map(None)
    loaded = load_rules()
    events = run_campaign(cmap, loaded, SEED, None, record_events=True).events
    odds = OddsBook(loaded.rules, SEED)
    pdf = write_report(events, cmap, tmp_path / "diary.pdf", odds=odds, detail=detail)
    pages = _page_texts(pdf)
    contents = _contents(pdf)
    days = sorted({int(d) for p in pages for d in re.findall(r"· day (\d+)", p)})
    assert days and [f"Day {d}" for d in days] == [k for k in contents if k.startswith("Day")]
    for d in days:  # the first page whose running head names the day
        first = next(n for n, p in enumerate(pages, 1) if f"· day {d}\n" in p + "\n")
        assert contents[f"Day {d}"] == first, (d, contents)
    battles = [e for e in events if isinstance(e, BattleFought)]
    assert len([k for k in contents if k.startswith("#")]) == len(battles)
    for n in range(1, len(battles) + 1):
        head = rf"^\s*#{n} \S.*, \d\d:\d\d\." if detail == "summary" else rf"^\s*Battle #{n}: "
        printed = [i for i, p in enumerate(pages, 1) if i > 1 and re.search(head, p, re.M)]
        assert printed and contents[f"#{n}"] == printed[0], (n, printed, contents[f"#{n}"])
    closing = next(i for i, p in enumerate(pages, 1) if "· the whole campaign" in p)
    assert contents["The whole"] == closing
    terms = [i for i, p in enumerate(pages, 1) if i > 1 and re.search(r"^\s*Terms\s*$", p, re.M)]
    assert contents["Terms"] == terms[0]
    # the numbers did not change the pagination: the same diary printed without them
    page = tmp_path / "plain.html"
    page.write_text(render_html(events, cmap, "umpire", odds, detail=detail), encoding="utf-8")
    plain = _page_texts(render_page(page, tmp_path / "plain.pdf"))
    assert len(plain) == len(pages)


def test_without_chromium_a_pdf_is_refused_and_nothing_written(monkeypatch, tmp_path):
    from campaign.report import browser

    monkeypatch.setattr(browser, "find_chromium", lambda: None)
    cmap = load_map(None)
    loaded = load_rules()
    events = run_campaign(cmap, loaded, 1, None, record_events=True).events
    out = tmp_path / "diary.pdf"
    with pytest.raises(SimulatorError) as err:
        write_report(events, cmap, out, detail="summary")
    assert "Chromium is not installed" in str(err.value) and "apt-get install" in str(err.value)
    assert not out.exists() and list(tmp_path.iterdir()) == []
