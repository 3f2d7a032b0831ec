"""The diary printed to PDF, its contents with real page numbers (``--report diary.pdf``).

Chromium does not support CSS ``target-counter()``, so the HTML diary's contents can only
link. A PDF's contents can do better, in two passes: print the diary with a two-digit
placeholder beside every contents entry, read on which page each heading landed (the PDF's
named destinations, which Chromium writes for every linked anchor: ``pdfinfo -dests`` of
poppler-utils), render the contents again with those numbers and print again. The second
print is kept only if every heading stayed on its page (same page count, same pages);
otherwise the numbers are read again, at most :data:`PASSES` prints in all.

Needs headless Chromium (Debian's ``chromium``) and poppler-utils (``pdfinfo``); without
them a clear error says what to install, and the HTML diary plus the Chromium command of
the README do the same by hand.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from campaign.errors import SimulatorError

if TYPE_CHECKING:
    from campaign.report.request import DiaryRequest

__all__ = ["PASSES", "destinations", "render_pdf"]

#: Prints at most: the first with placeholders, then until the page numbers settle.
PASSES = 3
#: The placeholder page number of the first print (two digits, as most diaries need).
PLACEHOLDER = 88
_DEST = re.compile(r'^\s*(\d+)\s+\[.*\]\s+"([^"]+)"\s*$')


def destinations(pdf: Path, timeout: float = 60.0) -> dict[str, int]:
    """``anchor -> page`` (1-based) of the named destinations of ``pdf`` (``pdfinfo -dests``).

    Raises
    ------
    SimulatorError
        If poppler-utils' ``pdfinfo`` is missing or fails.
    """
    exe = shutil.which("pdfinfo")
    if exe is None:
        raise SimulatorError(
            "pdfinfo is not installed (it reads the printed pages for the contents)",
            key="--report",
            fix="Install poppler-utils (apt-get install poppler-utils), or write the diary "
            "as .html and print it with the README's Chromium command.",
        )
    done = subprocess.run(
        [exe, "-dests", str(pdf)], capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        raise SimulatorError(f"pdfinfo failed: {done.stderr.strip()[-300:]}", source=str(pdf))
    found = {}
    for line in done.stdout.splitlines():
        m = _DEST.match(line)
        if m:
            found[m.group(2)] = int(m.group(1))
    return found


def _numbers(pages: dict[str, int]) -> Callable[[str], int | None]:
    """The contents' page numbers: ``pages``, or placeholders before the first print."""
    if not pages:
        return lambda anchor: PLACEHOLDER
    return pages.get


def _pages(pdf: Path) -> int:
    done = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=False)
    m = re.search(r"^Pages:\s+(\d+)", done.stdout, re.M)
    return int(m.group(1)) if m else 0


def render_pdf(r: DiaryRequest) -> bytes:
    """The diary of ``r.view`` printed to PDF with page numbers in its contents.

    ``r.path`` is not used (the prints are made in a temporary folder); the rest as for
    :func:`campaign.report.html.render_html`.

    Returns
    -------
    bytes
        The PDF, whose contents give each day, battle and closing part its printed page.

    Raises
    ------
    SimulatorError
        If Chromium or pdfinfo is missing or fails, the print has no named destinations,
        or the numbers do not settle within :data:`PASSES` prints (the message says so;
        the HTML diary still prints).
    """
    from campaign.report.browser import render_page
    from campaign.report.html import render_html

    pages: dict[str, int] = {}  # none yet: the first print has placeholders (two digits)
    printed = 0  # the page count of the print before
    with tempfile.TemporaryDirectory(prefix="diary-pdf-") as tmp:
        page, pdf = Path(tmp) / "diary.html", Path(tmp) / "diary.pdf"
        for _ in range(PASSES):
            text = render_html(r.events, r.cmap, r.view, r.odds, r.rules, r.detail, _numbers(pages))
            page.write_text(text, encoding="utf-8")
            render_page(page, pdf)
            found, count = destinations(pdf), _pages(pdf)
            if not found:  # no heading was found in print: never leave placeholders
                raise SimulatorError(
                    "the printed diary has no named destinations to read page numbers from",
                    key="--report",
                    fix="Write the diary as .html and print it with the README's Chromium "
                    "command (its contents link instead of giving pages).",
                )
            if found == pages and count == printed:
                return pdf.read_bytes()
            pages, printed = found, count
    raise SimulatorError(
        f"the contents' page numbers did not settle in {PASSES} prints",
        key="--report",
        fix="Write the diary as .html and print it with the README's Chromium command "
        "(its contents link instead of giving pages).",
    )
