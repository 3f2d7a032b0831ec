"""What one side knows, as its strategy doctrine sees it (RULES.md §8.6, §8.8).

A doctrine sees its own divisions (where they are, where they are going, their boxes) and
the enemy only as sighted: divisions where last seen, and their strength once fought, else
the estimate of an average division (:func:`campaign.army.unknown_division_boxes`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["EnemyGroup", "OwnDivision", "SideView"]


class OwnDivision(NamedTuple):
    """One of the side's own divisions (immutable; a named tuple, built for every decision,
    is several times cheaper to make than a frozen dataclass).

    ``at`` is its junction (None while on a road); ``heading`` the junction it is marching
    or falling back to (None when it is not moving); ``free`` whether it can take orders
    now (at a junction, not fighting, no fall back pending).
    """

    id: str
    at: str | None
    heading: str | None
    boxes: int
    free: bool


class EnemyGroup(NamedTuple):
    """Enemy divisions last seen together at one junction, and their estimated boxes."""

    junction: str
    divisions: tuple[str, ...]
    boxes: int


@dataclass(slots=True)
class SideView:
    """One side's knowledge at one moment (built by the campaign for each decision).

    ``now`` is campaign minutes; ``enemy_positions`` maps enemy division -> junction last
    seen; ``enemy_boxes`` holds strengths learned by fighting (RULES.md §8.6);
    ``objectives`` maps junction -> value and ``owner`` junction -> holding side;
    ``engaged`` lists the junctions where the side is fighting a battle now (it hears the
    guns: RULES.md §8.4, §8.8).
    """

    side: str
    now: float
    own: tuple[OwnDivision, ...]
    enemy_positions: dict[str, str]
    enemy_boxes: dict[str, int]
    own_base: str
    enemy_base: str
    objectives: dict[str, int]
    owner: dict[str, str | None]
    estimate_boxes: int
    engaged: tuple[str, ...] = ()

    def enemy_groups(self) -> dict[str, EnemyGroup]:
        """Known enemy groups by junction (sorted by junction id)."""
        if not self.enemy_positions:
            return {}
        by_junction: dict[str, list[str]] = {}
        for div, junction in sorted(self.enemy_positions.items()):
            by_junction.setdefault(junction, []).append(div)
        boxes, estimate = self.enemy_boxes, self.estimate_boxes
        return {
            j: EnemyGroup(j, tuple(divs), sum([boxes.get(d, estimate) for d in divs]))
            for j, divs in sorted(by_junction.items())
        }

    def strength_at(self, junction: str, free_only: bool = False, also: str = "") -> int:
        """Own boxes at a junction now (only free divisions, and ``also``, if asked)."""
        return sum(
            d.boxes
            for d in self.own
            if d.at == junction and (not free_only or d.free or d.id == also)
        )

    def division(self, div_id: str) -> OwnDivision | None:
        """The own division of that id (None if gone)."""
        for d in self.own:
            if d.id == div_id:
                return d
        return None
