"""What the referee knows without the engine: the rules config and the arithmetic of
RULES.md §0.5 and §3.1 written out again, and its record of one unit.

Reads config/rules.yaml and config/variants/*.yaml with PyYAML only (no ``battle`` import).
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

__all__ = ["FIRE_WAYS", "MORALE_KINDS", "PHASES", "U", "deck", "dice_range", "load_battle_rules"]

CONFIG = Path(__file__).resolve().parents[2] / "config"
PHASES = ["response", "fire", "melee", "manoeuvre", "checks"]
MORALE_KINDS = {"morale", "stand", "charge", "rally", "half-strength"}
FIRE_WAYS = {"fire", "defensive-fire", "move-and-fire"}


def load_battle_rules(
    variants: Sequence[str] = (), overrides: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The ``battle:`` section of config/rules.yaml with variants (dotted keys) applied."""
    doc = yaml.safe_load((CONFIG / "rules.yaml").read_text())
    sets: dict[str, Any] = {}
    for name in variants:
        sets.update(yaml.safe_load((CONFIG / "variants" / f"{name}.yaml").read_text()) or {})
    sets.update(overrides or {})
    doc = copy.deepcopy(doc)
    for dotted, value in sets.items():
        node = doc
        *path, last = dotted.split(".")
        for part in path:
            node = node[part]
        node[last] = value
    return doc["battle"]


def deck(units: int, explicit: dict) -> list[int]:
    """RULES.md §3.1 in its own words, highest first."""
    if units in explicit or str(units) in explicit:
        return sorted(explicit.get(units, explicit.get(str(units))), reverse=True)
    values = [units, units, units - 1, units - 1]
    v = units - 2
    while v >= 4:
        values.append(v)
        v -= 1
    while len(values) < units + 1:
        values.append(3)
    return sorted((min(max(x, 1), units) for x in values[: units + 1]), reverse=True)


def dice_range(text: str) -> tuple[int, int, int, int]:
    """(low, high, constant, step) of a dice expression of RULES.md §0.5 (sums of terms:
    N, dN, KdN, M*dN); ``step`` is the lattice spacing of the results."""
    low = high = const = 0
    steps = []
    for sign, term in re.findall(r"([+-]?)\s*([^+-]+)", text.replace(" ", "")):
        s = -1 if sign == "-" else 1
        m = re.fullmatch(r"(?:(\d+)\*)?(\d*)d(\d+)", term)
        if m is None:
            const += s * math.prod(int(x) for x in term.split("*"))  # N or M*N
            continue
        mult, count, sides = int(m[1] or 1), int(m[2] or 1), int(m[3])
        a, b = s * mult * count, s * mult * count * sides
        low, high = low + min(a, b), high + max(a, b)
        steps.append(mult)
    return low + const, high + const, const, math.gcd(*steps) if steps else 1


@dataclass
class U:
    """What the referee knows of one unit."""

    id: str
    side: int
    kind: str
    grade: str
    irregular: bool
    formation: str
    hits_before: int
    morale: int
    total: int = 0
    shaken: bool = False
    disordered: bool = False
    failed_change: bool = False
    change_cost: int = 0
    out: str = ""  # routed, destroyed or off-table
    half_tested: bool = False
    retired_shaken: bool = False
    hit_by_fire: bool = False
    charge_target: bool = False
    pos: float = 0.0  # inches from its own baseline
    melee: str = ""  # the enemy it is in melee with
    bonus: int = 0  # an unspent charge bonus (it charged and has not fought yet)
    saved_bonus: int = 0  # a bonus kept for a pursuit (RULES.md §6.10)
    failed_test: bool = False  # its last morale-type test failed (a state change is due)
