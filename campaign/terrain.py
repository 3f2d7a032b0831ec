"""The optional house rule ``terrain`` (variant ``config/variants/terrain.yaml``): ground that
helps the defender.

*(house, optional)* When a division marches into a junction the enemy already holds, the
side that was there first is the defender (the arriving side attacks, RULES.md §6.9). If the
map gives that junction a terrain named in ``campaign.terrain_grade_steps`` (a town, bridge
or wood: houses, a river line or trees to fight from), each of the defender's units fights
that battle that many training grades better (RULES.md §1.4: raw, regular, veteran, elite;
elite at most), which raises its morale (§1.3) and its formation tests (§5.2). Nothing else
changes: not the units the divisions keep, not a road meeting, not a battle whose attacker a
roll-off chose (neither side held the place first), not a late arrival (§8.4), which comes
on from its baseline. With the default (no terrain listed) this module changes nothing, so
campaigns without the variant are as before.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import cast

from battle.units import GRADES, Grade, UnitSpec

__all__ = ["defender_steps", "hold_ground", "stiffen"]


def defender_steps(steps: Mapping[str, int], terrain: object) -> int:
    """The grades the defender gains on ``terrain`` (a junction's map terrain, or None):
    ``steps[terrain]``, 0 for terrain not listed."""
    return steps.get(str(terrain), 0) if terrain else 0


def stiffen(units: Sequence[UnitSpec], steps: int) -> list[UnitSpec]:
    """``units`` each ``steps`` training grades better, elite at most (RULES.md §1.4).

    >>> [u.grade for u in stiffen([UnitSpec("R-I1", "infantry", "raw")], 2)]
    ['veteran']
    >>> [u.grade for u in stiffen([UnitSpec("R-I1", "infantry", "veteran")], 2)]
    ['elite']
    """
    if steps <= 0:
        return list(units)
    top = len(GRADES) - 1
    better = [cast(Grade, GRADES[min(GRADES.index(u.grade) + steps, top)]) for u in units]
    return [dataclasses.replace(u, grade=g) for u, g in zip(units, better, strict=True)]


def hold_ground(
    red: list[UnitSpec], blue: list[UnitSpec], attacker: str, steps: int
) -> tuple[list[UnitSpec], list[UnitSpec]]:
    """Both sides' units with the defender's (the side that is not ``attacker``) stiffened by
    ``steps`` grades (:func:`stiffen`)."""
    if attacker == "red":
        return red, stiffen(blue, steps)
    return stiffen(red, steps), blue
