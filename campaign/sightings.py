"""What each side sees of the enemy (RULES.md §8.6): sightings within sight of its own
divisions, and who sees a march begin or end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaign.events import SIDES, Sighted

if TYPE_CHECKING:
    from campaign.engine import Campaign

__all__ = ["enemies_seeing", "update_sightings"]


def enemies_seeing(camp: Campaign, side: str, junction: str) -> tuple[str, ...]:
    """``(enemy,)`` when an enemy division stands within sight of ``junction`` (RULES.md
    §8.6), else ``()``: who sees a march begin or end there."""
    enemy = "blue" if side == "red" else "red"
    for d in camp.divisions:
        if d.side == enemy and d.alive:
            here = d.location or (d.road[0] if d.road else d.last_junction)
            if here is not None and junction in camp.neighbourhood[here]:
                return (enemy,)
    return ()


def update_sightings(camp: Campaign) -> None:
    """Each side sees enemy divisions within its sight of its own (RULES.md §8.6)."""
    neighbourhood = camp.neighbourhood
    divisions = camp.divisions
    # where each side's divisions stand: a junction, the road's start, or held on it
    stands: tuple[list[str], list[str]] = ([], [])
    for d in divisions:
        if d.alive:
            here = d.location or (d.road[0] if d.road else d.last_junction)
            if here is not None:
                stands[0 if d.side == "red" else 1].append(here)
    # j is in sight when a junction stood on is within sight of it: the neighbourhoods
    # are symmetric (junctions within n roads of one another on an undirected map)
    for side in SIDES:
        standing = stands[0 if side == "red" else 1]
        seen = camp.last_seen[side]
        for d in divisions:
            if d.side == side or not d.alive:
                continue
            location = d.location
            if location is None:  # marching: gone from where it was last seen?
                was = seen.get(d.id)
                if was is not None and _in_sight(neighbourhood[was], standing):
                    del seen[d.id]
                continue
            if seen.get(d.id) != location and _in_sight(neighbourhood[location], standing):
                seen[d.id] = location
                if camp.record:
                    camp.emit(Sighted(int(camp.env._now), side, d.id, location, seen_by=(side,)))
                else:
                    camp.tally()


def _in_sight(around: frozenset[str], standing: list[str]) -> bool:
    """Whether any junction of ``standing`` is in ``around`` (``not around.isdisjoint``)."""
    return any(j in around for j in standing)
