"""Events that tell what the rules did to a division, so that the log misses no move and no
end (issue 31, item 3): a return after a draw (RULES.md §8.4, §8.5), the winner of a road
battle marching on (§8.4), a fall back caught on its way (§8.4, §8.5), a division destroyed
(§1.2) or surrendered (§8.5) and by whom.

Each function emits one event through the campaign's one record path
(:meth:`campaign.engine.Campaign.event_wanted`, which with events off counts it toward the
event cap and says not to build it).
Nothing here changes what a division does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign.events import (
    DivisionDestroyed,
    FallBackCaught,
    MarchResumed,
    Place,
    ReturnBegun,
)
from campaign.schedule import now_of

if TYPE_CHECKING:
    from campaign.army import Division
    from campaign.engine import Campaign

__all__ = [
    "catches",
    "destroyed",
    "fall_back_goal",
    "marches_on",
    "returns",
    "road_left",
    "winners",
]


def fall_back_goal(d: Division) -> str | None:
    """The junction a division in mid fall back is making for (the last junction of its
    fall back's ``march`` orders, RULES.md §8.5), or None when it is not falling back (its
    next order is not a fall back's march: :func:`campaign.meetings.may_fight`)."""
    if not d.orders or d.orders[0][0] != "march":
        return None
    goal = None
    for kind, arg in d.orders:
        if kind == "march":
            goal = str(arg)
    return goal


def winners(divisions: list[Division], side: str) -> tuple[str, ...]:
    """The ids of the divisions of ``divisions`` not of ``side``, sorted: whom ``side``'s
    divisions fought."""
    return tuple(sorted([d.id for d in divisions if d.side != side]))


def catches(
    camp: Campaign, divisions: list[Division], junction: str, battle: list[Division]
) -> None:
    """Each of ``divisions`` in mid fall back is caught at ``junction`` by the enemy
    divisions of ``battle`` (§8.4): told to both sides (a battle is fought there), with the
    junction it was falling back toward."""
    for d in divisions:
        toward = fall_back_goal(d)
        if toward is None:
            continue
        if not camp.event_wanted():
            continue
        by = winners(battle, d.side)
        camp.emit(FallBackCaught(int(now_of(camp.env)), d.side, d.id, junction, toward, by))


def destroyed(camp: Campaign, d: Division, place: Place, by: tuple[str, ...]) -> None:
    """``d`` lost its last unit in the battle at ``place`` fought against ``by`` (§1.2):
    told at the battle's end, to both sides (they fought it)."""
    if camp.event_wanted():
        camp.emit(DivisionDestroyed(int(now_of(camp.env)), d.side, d.id, place, by))


def returns(
    camp: Campaign, d: Division, origin: Place, dest: str, battle: str, seen: tuple[str, ...]
) -> None:
    """``d`` goes back to ``dest`` after the drawn battle at ``battle`` (§8.4, §8.5), from
    ``origin``; ``seen``: its side and the enemy when in sight (§8.6, the engine's
    :func:`campaign.sightings.enemies_seeing`)."""
    if camp.event_wanted():
        camp.emit(
            ReturnBegun(int(now_of(camp.env)), d.side, d.id, origin, dest, battle, seen_by=seen)
        )


def marches_on(
    camp: Campaign, d: Division, road: tuple[str, str], dest: str, seen: tuple[str, ...]
) -> None:
    """``d``, the winner of a battle on ``road``, marches on to ``dest`` (§8.4); ``seen`` as
    for :func:`returns`."""
    if camp.event_wanted():
        camp.emit(MarchResumed(int(now_of(camp.env)), d.side, d.id, road, dest, seen_by=seen))


def road_left(
    camp: Campaign, d: Division, kind: str, leg: tuple[Any, ...], seen: tuple[str, ...]
) -> None:
    """A division held on a road by a battle there goes on (:meth:`Campaign._follow_orders`):
    ``kind`` ``march_on`` with ``leg`` ``(destination, minutes, origin)`` for the winner,
    ``return_road`` with ``(junction left, minutes, the other end, battle key)`` after a
    draw (RULES.md §8.4, :mod:`campaign.fallback`)."""
    dest = str(leg[0])
    if kind == "march_on":
        marches_on(camp, d, (str(leg[2]), dest), dest, seen)
    else:
        returns(camp, d, (dest, str(leg[2])), dest, str(leg[3]), seen)
