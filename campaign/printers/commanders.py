"""Named division commanders: the map's own, else drawn from ``config/commanders.yaml``.

A side's list is the one its map gives (``sides.<side>.commanders`` in the map file or its
names overlay ``maps/names/<stem>.yaml``, :mod:`campaign.maps.naming`); a map that gives
none gets the list of the side's name in ``config/commanders.yaml`` (``French`` →
``french``), else the period-neutral list of its colour, never another map's list. A division
the map names with its commander (``divisions: [{name: III Corps, commander: Vandamme}]``, a
reinforcement's ``commanders``) keeps that commander; the others' names are a permutation of
the list less those, drawn from a generator seeded with the campaign's seed and the side
(``SeedSequence([seed, side number])``), so the same campaign always has the same generals;
division ``R3`` gets the third name of Red's permutation. (house: flavour only, no rule of
RULES.md uses these names.)
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
from campaign.events import SIDES, Reinforced
from campaign.maps.naming import DivisionName, MapNaming
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
        ``{"red": "French", "blue": "Allies"}``: picks each side's list when the map gives
        none.
    naming : MapNaming or None
        The map's names (``CampaignMap.naming``); None or empty: the config's lists.

    Raises
    ------
    SimulatorError
        If ``config/commanders.yaml`` is missing or malformed.
    """

    def __init__(
        self,
        seed: int,
        side_names: dict[str, str],
        naming: MapNaming | None = None,
        path: Path = COMMANDERS_FILE,
    ) -> None:
        data = _load(path)
        self.naming = naming or MapNaming()
        self._rank: dict[str, str] = {}
        self._names: dict[str, list[str]] = {}
        self._fixed: dict[str, dict[int, DivisionName]] = {}
        for number, side in enumerate(_SIDES):
            own = self.naming.side(side)
            self._fixed[side] = {
                i: d for i, d in enumerate(own.divisions, start=1) if d.commander or d.name
            }
            taken = {d.commander for d in own.divisions if d.commander}
            names = [n for n in own.commanders if n not in taken]
            rank = own.rank
            if not names:  # the config's list: the side's nation, else its colour's
                key = data["nations"].get(side_names.get(side, side).strip().lower(), side)
                entry = data["lists"].get(key) or data["lists"][side]
                names = [n for n in entry["names"] if n not in taken] or list(entry["names"])
                rank = rank if own.names_commanders else str(entry.get("rank", "General"))
            rng = np.random.default_rng(np.random.SeedSequence([seed, number]))
            self._names[side] = [names[i] for i in rng.permutation(len(names))]
            self._rank[side] = "General" if rank is None else rank

    def joined(self, e: Reinforced) -> None:
        """Name reinforcements (RULES.md §8.9) by the commanders the map gives them."""
        for name, division in zip(e.names, e.divisions, strict=False):
            side, number = _parse(division)
            commander = self.naming.reinforcement_commander(e.side, name)
            if side is not None and commander:
                self._fixed[side][number] = DivisionName(name, commander)

    def division_name(self, division: str) -> str:
        """``III Corps``: the name the map gives a division ('' if none)."""
        side, number = _parse(division)
        named = self._fixed[side].get(number) if side else None
        return named.name if named else ""

    def surname(self, division: str) -> str:
        """``Foy`` for ``R2``: the commander of a division id ``<letter><number>``."""
        side, number = _parse(division)
        if side is None:
            return ""
        named = self._fixed[side].get(number)
        if named is not None and named.commander:
            return named.commander
        names = self._names[side]
        return names[(number - 1) % len(names)]

    def full(self, division: str) -> str:
        """``Général Foy``: rank and name ('' for an id that is not a division's)."""
        side, number = _parse(division)
        if side is None:
            return ""
        named = self._fixed[side].get(number)
        rank = named.rank if named is not None and named.rank is not None else self._rank[side]
        return f"{rank} {self.surname(division)}".strip()


def _parse(division: str) -> tuple[str | None, int]:
    m = re.fullmatch(r"([RB])(\d+)", division)
    if m is None:
        return None, 0
    return ("red" if m.group(1) == "R" else "blue"), int(m.group(2))
