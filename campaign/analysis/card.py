"""The printable odds reference card: one self-contained HTML file, two A4/Letter pages.

The card is the table a player keeps beside the figures (source 000 praises rules that fit
"one two-sided reference card"): every number comes from :func:`campaign.analysis.odds.odds_sheet`.
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction
from pathlib import Path
from typing import Any

import jinja2

from campaign.analysis.odds import SITUATIONS, OddsSheet
from campaign.config import LoadedRules
from campaign.errors import write_error

__all__ = ["pct", "render_card", "span", "write_card"]


def pct(p: Fraction) -> str:
    """A chance as a percentage with one decimal (``Fraction(1, 3)`` -> ``33.3``)."""
    return f"{100 * float(p):.1f}"


def span(values: Collection[int]) -> str:
    """The range of some whole numbers, ``5–8``, or the one value, ``2``.

    >>> span([5, 6, 8]), span([2])
    ('5–8', '2')
    """
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low}–{high}"


def render_card(sheet: OddsSheet, loaded: LoadedRules) -> str:
    """The card's HTML text (autoescaped; print CSS for A4 with Letter-safe margins)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("campaign", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    battle = loaded.rules.battle
    morales = sorted({m for h in sheet.hit_filter for m in h.morale_fail})
    grades: list[str] = []
    changes: dict[str, dict[str, Any]] = {}
    for label, grade, cells in sheet.formation_changes:
        changes.setdefault(label, {})[grade] = cells
        if grade not in grades:
            grades.append(grade)
    return env.get_template("odds_card.html.j2").render(
        s=sheet,
        pct=pct,
        span=span,
        b=battle,
        morales=morales,
        situations=list(SITUATIONS),
        grades=grades,
        changes=list(changes.items()),
        die=battle.reaction_die,
        fc=battle.formation_change,
        rough_pass=loaded.rules.campaign.rough_road_pass,
    )


def write_card(sheet: OddsSheet, loaded: LoadedRules, path: Path) -> Path:
    """Write the card to ``path``.

    Raises
    ------
    SimulatorError
        If the file cannot be written (names the file and ``--card``).
    """
    try:
        path.write_text(render_card(sheet, loaded), encoding="utf-8")
    except OSError as exc:
        raise write_error(path, exc, "--card") from None
    return path
