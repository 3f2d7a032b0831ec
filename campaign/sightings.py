"""What each side sees of the enemy (RULES.md §8.6): sightings within sight of its own
divisions, and who sees a march begin or end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaign.events import SIDES, Sighted

if TYPE_CHECKING:
    from campaign.army import Division
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
    # each side's divisions alive, and where they stand: a junction, the road's start, or
    # held on it
    alive: dict[str, list[Division]] = {}
    stands: dict[str, list[str]] = {}
    for side in SIDES:
        alive[side] = []
        stands[side] = []
    for d in camp.divisions:
        if d.alive:
            alive[d.side].append(d)
            here = d.location
            if not here:
                road = d.road
                here = road[0] if road else d.last_junction
            if here is not None:
                stands[d.side].append(here)
    # j is in sight when a junction stood on is within sight of it: the neighbourhoods
    # are symmetric (junctions within n roads of one another on an undirected map), so
    # the junctions a side sees are the union of those of the junctions it stands on
    for side in SIDES:
        sight: set[str] = set()
        for here in stands[side]:
            sight.update(neighbourhood[here])
        seen = camp.last_seen[side]
        for d in alive["blue" if side == "red" else "red"]:
            at = d.location
            if at is None:  # marching: gone from where it was last seen?
                if seen:
                    was = seen.get(d.id)
                    if was is not None and was in sight:
                        del seen[d.id]
                continue
            if at in sight and seen.get(d.id) != at:
                seen[d.id] = at
                if camp.record:
                    camp.emit(Sighted(int(camp.env.now), side, d.id, at, seen_by=(side,)))
                else:
                    camp.tally()
