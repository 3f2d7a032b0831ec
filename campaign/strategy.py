"""Strategy doctrines (RULES.md §8.8): where each division marches next.

A doctrine sees only its own side's knowledge (RULES.md §8.6): enemy divisions where last
sighted, and their strength once fought (otherwise an average division's estimate). The
numbers are data (``campaign.doctrines`` in config/rules.yaml); these functions read them.
Every choice is deterministic and ties are broken by junction id.
"""

from __future__ import annotations

from dataclasses import dataclass

from campaign.config import StrategyDoctrine
from campaign.maps import Routes

__all__ = ["SideView", "choose_goal", "next_step"]


@dataclass
class SideView:
    """What one side knows and has, as a doctrine sees it."""

    side: str
    own_positions: dict[str, str]  # own division id -> junction (at a junction, not busy)
    own_boxes: dict[str, int]
    enemy_positions: dict[str, str]  # enemy division id -> junction last seen
    enemy_boxes: dict[str, int]  # known strengths (by fighting)
    own_base: str
    enemy_base: str
    objectives: dict[str, int]  # junction -> value
    owner: dict[str, str | None]  # objective junction -> side holding it
    #: estimated boxes of an unfought division (campaign.army.unknown_division_boxes)
    unknown_boxes: int

    def enemy_strength_at(self) -> dict[str, int]:
        """Estimated enemy boxes at each junction where enemy divisions were last seen."""
        out: dict[str, int] = {}
        for div, junction in sorted(self.enemy_positions.items()):
            out[junction] = out.get(junction, 0) + self.enemy_boxes.get(div, self.unknown_boxes)
        return out

    def own_strength_at(self, junction: str) -> int:
        return sum(self.own_boxes[d] for d, j in self.own_positions.items() if j == junction)


def _nearest(routes: Routes, start: str, candidates: list[str]) -> str | None:
    best = None
    best_key = None
    for c in candidates:
        h = routes.hours(start, c)
        if h == float("inf"):
            continue
        key = (h, c)
        if best_key is None or key < best_key:
            best, best_key = c, key
    return best


def choose_goal(
    division: str, at: str, view: SideView, doctrine: StrategyDoctrine, routes: Routes
) -> tuple[str | None, str]:
    """The junction a division makes for, and why; None means hold where it is.

    aggressive: the nearest known enemy, else the enemy base.
    balanced: the nearest known enemy it is strong enough to attack (own boxes at its
    junction >= attack_ratio x estimate), else the nearest objective not held, else the
    enemy base. cautious: the same test with its higher ratio; else the nearest objective
    not held and not guarded by a known stronger enemy; else hold.
    With ``concentrate``, divisions away from the side's main body first join it, and the
    main body waits for divisions within a day's march.
    """
    enemy_at = view.enemy_strength_at()
    if doctrine.concentrate:
        body = _main_body(view, routes)
        if body is not None and at != body:
            return body, "joins the main body"
        stragglers = [
            d
            for d, j in view.own_positions.items()
            if j != at and routes.hours(j, at) <= doctrine.concentrate_hours
        ]
        if body == at and stragglers and not enemy_at.get(at):
            return None, "waits for the army to concentrate"
    mine = view.own_strength_at(at)
    attackable = [j for j, boxes in enemy_at.items() if mine >= doctrine.attack_ratio * boxes]
    target = _nearest(routes, at, attackable)
    if target is not None:
        return target, "marches on the enemy"
    if not doctrine.objectives_first and doctrine.advance_on_base:
        return view.enemy_base, "advances on the enemy base"
    open_objectives = [
        j
        for j in sorted(view.objectives)
        if view.owner.get(j) != view.side
        and not (doctrine.hold_objectives and enemy_at.get(j, 0) * doctrine.attack_ratio > mine)
    ]
    target = _nearest(routes, at, open_objectives)
    if target is not None:
        return target, "makes for an objective"
    if doctrine.advance_on_base:
        return view.enemy_base, "advances on the enemy base"
    return None, "holds its ground"


def _main_body(view: SideView, routes: Routes) -> str | None:
    """The junction with most own divisions (ties: nearest the enemy base, then id)."""
    counts: dict[str, int] = {}
    for junction in view.own_positions.values():
        counts[junction] = counts.get(junction, 0) + 1
    if not counts:
        return None
    return min(counts, key=lambda j: (-counts[j], routes.hours(j, view.enemy_base), j))


def next_step(routes: Routes, at: str, goal: str | None) -> str | None:
    """The next junction on the shortest march route from ``at`` to ``goal``."""
    if goal is None or goal == at:
        return None
    return routes.next_step(at, goal)
