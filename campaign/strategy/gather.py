"""Where a division joins others (RULES.md §8.8): the battle it marches to ("to the guns"),
the friends it rejoins after a defeat, and the rally point it concentrates at — the place
searches of :class:`campaign.strategy.doctrine.Strategist`, as plain functions.

Each searches junctions by the nearest-junction key of §8.8: expected hours, then nearness
to the own base (``to_base``, :func:`hours_to`), then id.
"""

from __future__ import annotations

import math

from campaign.strategy.knowledge import Memory, SideView
from campaign.strategy.routing import PricedRoutes, hours_to, nearer

__all__ = ["guns_place", "is_guard", "rally_point", "regroup_place"]


def guns_place(
    priced: PricedRoutes,
    to_base: dict[str, float],
    at: str,
    view: SideView,
    guns_hours: float,
    expected_minutes: float,
) -> str | None:
    """The nearest junction where the side is fighting (``view.engaged``) within
    ``guns_hours`` of ``at`` that a division there can reach before the battle's expected
    end (its start, ``view.engaged_since``, plus ``expected_minutes``); None if none."""
    from_at = priced.costs_from(at)
    base = view.own_base
    nearest: str | None = None  # by (hours, *tie key)
    nearest_hours = nearest_tie = math.inf
    starts = view.engaged_since
    for i, j in enumerate(view.engaged):
        if j != at:
            hours = from_at.get(j, math.inf)
            ends = starts[i] + expected_minutes if i < len(starts) else math.inf
            if hours <= guns_hours and view.now + hours * 60.0 <= ends:
                tie = hours_to(priced, to_base, j, base)
                if nearest is None or nearer(hours, tie, j, nearest_hours, nearest_tie, nearest):
                    nearest, nearest_hours, nearest_tie = j, hours, tie
    return nearest


def regroup_place(
    priced: PricedRoutes, to_base: dict[str, float], div: str, at: str, view: SideView
) -> tuple[str | None, tuple[str, ...]]:
    """Where a beaten ``div`` at ``at`` rejoins its friends: the nearest junction where
    another division is or is bound, and the divisions there (sorted); ``(None, ())`` when
    it has rejoined (one is at, or bound for, ``at``) or there is no one to rejoin."""
    friends: dict[str, str] = {}  # the other divisions -> where they are or are bound
    for d in view.own:
        if d.id != div:
            p = d.at or d.heading
            if p:
                if at in (d.at, d.heading):
                    return None, ()  # rejoined
                friends[d.id] = p
    from_at = priced.costs_from(at)
    base = view.own_base
    target: str | None = None  # the nearest, by (hours, *tie key)
    nearest_hours = nearest_tie = math.inf
    for p in friends.values():
        hours = from_at.get(p, math.inf)
        if hours < math.inf:  # reachable (hours are never NaN)
            tie = hours_to(priced, to_base, p, base)
            if target is None or nearer(hours, tie, p, nearest_hours, nearest_tie, target):
                target, nearest_hours, nearest_tie = p, hours, tie
    if target is None:
        return None, ()
    return target, tuple(sorted([d for d, p in friends.items() if p == target]))


def rally_point(
    priced: PricedRoutes, to_base: dict[str, float], base: str, places: list[str], enemy_at: str
) -> str:
    """The rally point against the enemy at ``enemy_at``: the one of ``places`` (not empty)
    nearest it (RULES.md §8.8)."""
    nearest: str | None = None  # the place nearest the enemy, by (hours, *tie key)
    nearest_hours = nearest_tie = math.inf
    for p in places:
        hours = priced.cost(p, enemy_at)
        tie = hours_to(priced, to_base, p, base)
        if nearest is None or nearer(hours, tie, p, nearest_hours, nearest_tie, nearest):
            nearest, nearest_hours, nearest_tie = p, hours, tie
    assert nearest is not None
    return nearest


def is_guard(
    priced: PricedRoutes, to_base: dict[str, float], memory: dict[str, Memory], div: str,
    view: SideView,
) -> bool:  # fmt: skip
    """Whether ``div`` is the division to guard the base (RULES.md §8.8): no other holds,
    is bound for, or was ordered to guard it, and ``div`` is the free division nearest it
    by (hours, id). ``memory`` is the side's memory of its divisions (their last orders)."""
    base = view.own_base
    taken = view.enemy_base  # a division holding the enemy base holds it (§8.7), never guards
    for d in view.own:  # another division holds, is bound for, or guards the base
        if d.id != div:
            if base in (d.at, d.heading):
                return False
            mem = memory.get(d.id)
            order = mem.order if mem is not None else None
            if order is not None:  # ordered to guard: ("guard", base) or ("guard_hold", None)
                code, goal = order  # (compared unpacked: no tuples built to compare with)
                if (code == "guard" and goal == base) or (code == "guard_hold" and goal is None):
                    return False
    nearest: str | None = None  # the free division nearest the base, by (hours, id)
    nearest_hours = math.inf
    for d in view.own:
        if (d.free or d.id == div) and d.at is not None and d.at != taken:
            hours = hours_to(priced, to_base, d.at, base)
            if nearest is None or nearer(hours, 0.0, d.id, nearest_hours, 0.0, nearest):
                nearest, nearest_hours = d.id, hours
    return nearest == div
