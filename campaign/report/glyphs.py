"""Names the diary's maps can draw: fonts with wide coverage, and a fallback for the rest.

Matplotlib draws a label with the first font of ``font.family`` that has each glyph
(font fallback). :data:`FONT_FAMILIES` lists DejaVu Sans (shipped with matplotlib) first,
then the wide-coverage fonts of the system when installed (Noto, STIX): only families that
are present are named, so matplotlib never logs "findfont: Font family not found".

A junction name holding a character none of them has (an emoji such as U+1F3F0 where no
emoji font is installed, a rare script) is labelled by the junction's id instead
(:func:`shown_name`), and the command says so once per map (:func:`undrawable_names`), not
once per glyph: no matplotlib warning reaches the terminal, no label shows a missing-glyph
box, and no label reaches FreeType with a glyph it cannot render (:func:`safe_label`, the
one gate of every text a map or chart draws; ``$`` escaped, so no mathtext).
"""

from __future__ import annotations

import contextlib
import unicodedata
import warnings
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

import matplotlib as mpl
from matplotlib import font_manager
from matplotlib.ft2font import FT2Font

__all__ = ["FONT_FAMILIES", "drawable", "drawing", "safe_label", "shown_name", "undrawable_names"]

#: Families tried in order for each glyph; those not installed are left out.
_WANTED = (
    "DejaVu Sans",
    "Noto Sans",
    "Noto Sans CJK JP",
    "Noto Sans Symbols",
    "Noto Sans Symbols 2",
    "Noto Sans Math",
    "Noto Emoji",
    "STIXGeneral",
)


@cache
def _installed() -> dict[str, str]:
    """Family name -> font file, for the wanted families that are installed."""
    files: dict[str, str] = {}
    for entry in font_manager.fontManager.ttflist:
        if entry.name in _WANTED and entry.name not in files and entry.style == "normal":
            files[entry.name] = entry.fname
    return files


def font_families() -> list[str]:
    """The installed families of :data:`_WANTED`, in order (DejaVu Sans at least)."""
    have = _installed()
    return [name for name in _WANTED if name in have] or ["DejaVu Sans"]


FONT_FAMILIES = font_families()


@cache
def _coverage() -> frozenset[int]:
    """Code points some font of :data:`FONT_FAMILIES` has a glyph for."""
    points: set[int] = set()
    for name in FONT_FAMILIES:
        path = _installed().get(name) or font_manager.findfont(name)
        try:
            points.update(c for c, glyph in FT2Font(path).get_charmap().items() if glyph)
        except (OSError, RuntimeError):
            continue
    return frozenset(points)


def drawable(text: str) -> bool:
    """Whether every character of ``text`` has a glyph in the maps' fonts (spaces and
    other characters that draw nothing, such as joiners, always pass)."""
    have = _coverage()
    return all(
        ord(ch) in have or ch.isspace() or unicodedata.category(ch) in ("Cf", "Mn", "Zs")
        for ch in text
    )


def shown_name(name: str, fallback: str) -> str:
    """The name a map labels a junction with: ``name`` when the fonts have all its glyphs,
    else ``fallback`` (the junction id)."""
    return name if drawable(name) or not drawable(fallback) else fallback


def safe_label(text: str) -> str:
    """``text`` as matplotlib should be given it: each character no font has shown as its
    code point (``U+1F3F0``), control characters dropped, ``$`` escaped (no mathtext)."""
    have = _coverage()
    out = []
    for ch in text:
        category = unicodedata.category(ch)
        if category in ("Cc", "Cs") and ch != "\n":
            continue
        if ord(ch) in have or ch.isspace() or category in ("Cf", "Mn", "Zs"):
            out.append(ch)
        else:
            out.append(f"U+{ord(ch):04X}")
    return "".join(out).replace("$", r"\$")


def undrawable_names(names: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """``(id, name)`` pairs whose name the maps' fonts cannot draw (labelled by id)."""
    return [(key, name) for key, name in names if not drawable(name)]


@contextlib.contextmanager
def drawing(rc: dict[Any, Any]) -> Iterator[None]:
    """Matplotlib's settings ``rc`` while a figure is drawn or saved, and its warnings kept
    off the user's terminal (a glyph a font lacks, a layout that cannot shrink further: the
    labels are already made drawable, and a cramped figure is still a figure)."""
    with warnings.catch_warnings(), mpl.rc_context(rc):
        warnings.simplefilter("ignore", UserWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        yield
