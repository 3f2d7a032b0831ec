"""Render a diary with headless Chromium (Debian package ``chromium``): PNG or PDF.

Used by the browser tests and to make the README's screenshot. Chromium runs with no network
features, a throw-away profile and a time limit; nothing here is needed to write a diary.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from campaign.errors import SimulatorError

__all__ = ["find_chromium", "render_page"]

_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)


def find_chromium() -> str | None:
    """The path of a Chromium executable, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def render_page(
    page: Path, out: Path, size: tuple[int, int] = (1200, 1600), timeout: float = 120.0
) -> Path:
    """Render the HTML file ``page`` to ``out`` (``.png`` screenshot or ``.pdf`` print).

    Raises
    ------
    SimulatorError
        If Chromium is missing, fails, or writes no file.
    """
    exe = find_chromium()
    if exe is None:
        raise SimulatorError(
            "Chromium is not installed",
            fix="Install Debian's chromium package (apt-get install chromium).",
        )
    out = Path(out).resolve()
    what = f"--print-to-pdf={out}" if out.suffix.lower() == ".pdf" else f"--screenshot={out}"
    with tempfile.TemporaryDirectory(prefix="diary-chromium-") as profile:
        cmd = [
            exe,
            *_FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={size[0]},{size[1]}",
            "--no-pdf-header-footer",
            what,
            Path(page).resolve().as_uri(),
        ]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise SimulatorError(f"Chromium took over {timeout:g} s", source=str(page)) from None
    if not out.exists() or out.stat().st_size == 0:
        raise SimulatorError(
            f"Chromium wrote no {out.suffix} file (exit {done.returncode}): "
            f"{done.stderr.strip()[-400:]}",
            source=str(page),
        )
    return out
