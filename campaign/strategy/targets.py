"""Which enemy a division goes for (RULES.md §8.8): the pursuit of a beaten enemy and the
nearest group it can attack, parts of :meth:`campaign.strategy.choosing.Chooser._choose`.

Both search junctions by the nearest-junction key of §8.8: expected hours from where the
division is, then nearness to its own base (``to_base``, :func:`hours_to`), then id.
"""

from __future__ import annotations

import math

from campaign.strategy.knowledge import EnemyGroup, SideView
from campaign.strategy.routing import PricedRoutes, hours_to, nearer

__all__ = ["attack_target", "pursuit_target"]


def pursuit_target(
    priced: PricedRoutes,
    from_at: dict[str, float],
    to_base: dict[str, float],
    at: str,
    view: SideView,
    groups: dict[str, EnemyGroup],
    where: dict[str, str | None],
    here: int,
    ratio: float,
) -> EnemyGroup | None:
    """The nearest junction other than ``at`` where pursued enemies (``where``: enemy
    division -> where it is or fled to, None if unknown) stand that ``here`` boxes can attack
    at ``ratio`` (``here >= ratio * boxes``), as the group there (the view's group, else the
    pursued divisions there with their known or estimated boxes); None if there is none."""
    base = view.own_base
    seen: list[tuple[float, float, str]] = []  # (hours, *tie key)
    for w in where.values():
        if w is not None and all(w != key[2] for key in seen):
            seen.append((from_at.get(w, math.inf), hours_to(priced, to_base, w, base), w))
    seen.sort()
    for _, _, j in seen:
        beaten = tuple(sorted(e for e, w in where.items() if w == j))
        g = groups.get(j) or EnemyGroup(
            j, beaten, sum(view.enemy_boxes.get(e, view.estimate_boxes) for e in beaten)
        )
        if j != at and here >= ratio * g.boxes:
            return g
    return None


def attack_target(
    priced: PricedRoutes,
    from_at: dict[str, float],
    to_base: dict[str, float],
    at: str,
    base: str,
    groups: dict[str, EnemyGroup],
    seek: float,
    here: int,
    ratio: float,
) -> tuple[EnemyGroup | None, bool]:
    """The nearest enemy group within ``seek`` hours of ``at`` that ``here`` boxes can attack
    at ``ratio`` (``here >= ratio * boxes``), or None; and whether any group is within
    ``seek`` hours at all (then a division too weak may concentrate against it)."""
    inf = math.inf
    target: EnemyGroup | None = None
    target_hours = target_tie = inf
    within_reach = False
    for j, g in groups.items():
        if j != at:
            hours = from_at.get(j, inf)
            if hours <= seek:
                within_reach = True
                if here >= ratio * g.boxes:
                    tie = hours_to(priced, to_base, j, base)
                    if target is None or nearer(
                        hours, tie, j, target_hours, target_tie, target.junction
                    ):
                        target, target_hours, target_tie = g, hours, tie
    return target, within_reach
