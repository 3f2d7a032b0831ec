"""What each side sees of the enemy (RULES.md §8.6): sightings within sight of its own
divisions, who sees a march begin or end, and what a side knows when it decides (§8.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaign.events import Sighted
from campaign.schedule import now_of
from campaign.strategy.knowledge import OwnDivision, SideView

if TYPE_CHECKING:
    from campaign.army import Division
    from campaign.engine import Campaign

__all__ = ["decision_view", "enemies_seeing", "side_view", "update_sightings"]


def _stand(d: Division) -> str | None:
    """The junction a division sees from (RULES.md §8.6): where it is, else the start of the
    road it marches (or is held on), else None. (Spelled out for the compiled module: a
    road tuple is read once, not unboxed to test it and again to index it.)"""
    here = d.location
    if here:
        return here
    road = d.road
    if road is not None:
        return road[0]
    held = d.on_road
    return held[0] if held is not None else None


def enemies_seeing(camp: Campaign, side: str, junction: str) -> tuple[str, ...]:
    """``(enemy,)`` when an enemy division stands within sight of ``junction`` (RULES.md
    §8.6), else ``()``: who sees a march begin or end there."""
    enemy = "blue" if side == "red" else "red"
    neighbourhood = camp.neighbourhood
    for d in camp.divisions:
        if d.side == enemy and d.alive:
            here = _stand(d)
            if here is not None and junction in neighbourhood[here]:
                return (enemy,)
    return ()


def update_sightings(camp: Campaign) -> None:
    """Each side sees enemy divisions within its sight of its own (RULES.md §8.6): red's
    sightings of blue divisions first, then blue's of red ones, each in the campaign's
    order of divisions.

    One pass finds where each side's living divisions stand (a junction, the road's start,
    or held on it); each side then looks at the other's divisions."""
    red: list[str] = []
    blue: list[str] = []
    for d in camp.divisions:
        if d.alive:
            here = _stand(d)
            if here is not None:
                if d.side == "red":
                    red.append(here)
                else:
                    blue.append(here)
    _sight(camp, "red", red)
    _sight(camp, "blue", blue)


def _sight(camp: Campaign, side: str, standing: list[str]) -> None:
    """``side`` sees the living enemy divisions within sight of the junctions it stands on
    (``standing``), and sees marching ones gone from where it last saw them (§8.6); with
    none standing it sees nothing, and nothing gone.

    A junction is in sight when a junction stood on is within sight of it: the
    neighbourhoods are symmetric (junctions within n roads of one another on an undirected
    map)."""
    if not standing:
        return
    neighbourhood = camp.neighbourhood
    seen = camp.last_seen[side]
    for d in camp.divisions:
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
            if camp.event_wanted():
                camp.emit(Sighted(int(now_of(camp.env)), side, d.id, location, seen_by=(side,)))


def _in_sight(around: frozenset[str], standing: list[str]) -> bool:
    """Whether any junction of ``standing`` is in ``around``."""
    return not around.isdisjoint(standing)


def side_view(camp: Campaign, side: str) -> SideView:
    """What ``side`` knows now, for its strategy doctrine (RULES.md §8.6, §8.8).

    The view's sightings and known strengths are the campaign's own dicts, not copies:
    read-only, and good for the decision it is made for only (nothing changes them
    while a doctrine decides). Each own division's :class:`OwnDivision` is the one of the
    side's previous view while none of its fields has changed (``Division.own_view``:
    immutable values, shared rather than built again for every decision)."""
    view = _view(camp, side, "", False)
    assert view is not None  # (never None unless asked to look for an enemy)
    return view


def decision_view(camp: Campaign, side: str, at: str) -> SideView | None:
    """:func:`side_view` for a free division of ``side`` at junction ``at`` about to decide,
    or None when an enemy division without orders stands at ``at``: it reached the junction
    this minute, and the contact check comes first (RULES.md §8.4). One pass over the
    divisions looks for that enemy and builds the view."""
    return _view(camp, side, at, True)


def _view(camp: Campaign, side: str, at: str, contested: bool) -> SideView | None:
    """:func:`side_view`; when ``contested``, None as soon as a living enemy division
    without orders is found at ``at`` (:func:`decision_view`)."""
    now: float = now_of(camp.env)
    own: list[OwnDivision] = []
    for d in camp.divisions:
        if not d.alive:
            continue
        if d.side != side:
            if contested and d.location == at and not d.orders:
                return None
            continue
        road = d.road
        heading = road[1] if road is not None else None
        orders = d.orders
        location = d.location
        if orders:
            for kind, arg in orders:  # the last march ordered is where it is bound
                if kind == "march":
                    heading = str(arg)
            free = False
        else:
            free = location is not None and d.busy_until <= now
        boxes = d.boxes
        view = d.own_view
        if (
            view is None
            or view.at != location
            or view.heading != heading
            or view.boxes != boxes
            or view.free != free
        ):
            view = d.own_view = OwnDivision(d.id, location, heading, boxes, free)
        own.append(view)
    own_base, enemy_base = camp.bases[side]
    engaged, since = camp.desk.engaged_now(side)
    return SideView(
        side,
        now,
        tuple(own),
        camp.last_seen[side],
        camp.known_boxes[side],
        own_base,
        enemy_base,
        camp.objectives,
        camp.endgame.owner,
        camp.unknown_boxes,
        engaged,
        since,
    )
