"""Named division commanders, drawn reproducibly from ``config/commanders.yaml`` (issue 13).

A side's list is chosen by its name on the map (``French`` → ``french``), else by its colour.
The names of one side are a permutation of its list drawn from a generator seeded with the
campaign's seed and the side (``SeedSequence([seed, side number])``), so the same campaign
always has the same generals; division ``R3`` gets the third name of Red's permutation.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from battle.yamlfile import safe_load_text
from campaign.errors import SimulatorError
from campaign.events import SIDES
from campaign.paths import CONFIG_DIR

__all__ = ["COMMANDERS_FILE", "Commanders"]

COMMANDERS_FILE = CONFIG_DIR / "commanders.yaml"
_SIDES = SIDES


@cache
def _load(path: Path) -> dict[str, Any]:
    try:
        data = safe_load_text(path.read_text(encoding="utf-8"))
        lists = data["lists"]
        for key in _SIDES:
            if not lists[key]["names"]:
                raise KeyError(key)
        return {"nations": dict(data.get("nations") or {}), "lists": lists}
    except (OSError, yaml.YAMLError, KeyError, TypeError) as exc:
        raise SimulatorError(
            f"cannot read the commanders' name lists ({exc.__class__.__name__}: {exc})",
            source=str(path),
            fix="Restore config/commanders.yaml: 'lists' with a 'red' and a 'blue' entry, each "
            "with 'rank' and a non-empty 'names' list.",
        ) from None


class Commanders:
    """Commander names of one campaign.

    Parameters
    ----------
    seed : int
        The campaign's seed (``CampaignStarted.seed``).
    side_names : dict
        ``{"red": "French", "blue": "Allies"}``: picks each side's list.

    Raises
    ------
    SimulatorError
        If ``config/commanders.yaml`` is missing or malformed.
    """

    def __init__(self, seed: int, side_names: dict[str, str], path: Path = COMMANDERS_FILE):
        data = _load(path)
        self._rank: dict[str, str] = {}
        self._names: dict[str, list[str]] = {}
        for number, side in enumerate(_SIDES):
            key = data["nations"].get(side_names.get(side, side).strip().lower(), side)
            entry = data["lists"].get(key) or data["lists"][side]
            names = list(entry["names"])
            rng = np.random.default_rng(np.random.SeedSequence([seed, number]))
            self._names[side] = [names[i] for i in rng.permutation(len(names))]
            self._rank[side] = str(entry.get("rank", "General"))

    def surname(self, division: str) -> str:
        """``Foy`` for ``R2``: the commander of a division id ``<letter><number>``."""
        side, number = _parse(division)
        if side is None:
            return ""
        names = self._names[side]
        return names[(number - 1) % len(names)]

    def full(self, division: str) -> str:
        """``Général Foy``: rank and name ('' for an id that is not a division's)."""
        side, _ = _parse(division)
        return f"{self._rank[side]} {self.surname(division)}" if side else ""


def _parse(division: str) -> tuple[str | None, int]:
    m = re.fullmatch(r"([RB])(\d+)", division)
    if m is None:
        return None, 0
    return ("red" if m.group(1) == "R" else "blue"), int(m.group(2))
