"""Re-plan triggers (RULES.md §8.8 *(house)*): the named reasons a division may give up the
order it was keeping for another.

A division keeps its order (:mod:`campaign.strategy.plan`) until it is done or one of these
fires, checked in this order:

``battle``
    its side has fought a battle since the order was given (a battle's result);
``nightfall``
    a night has passed since the order was given;
``void``
    the order's aim is void: every enemy division it named is destroyed, surrendered or
    gone from where it was seen, or the enemy it marched on has left its junction;
``sighting``
    a sighting changed the balance: the known enemy boxes within ``seek_hours`` of the
    division grew or shrank by half (:data:`BALANCE_FACTOR`), a threat to the base appeared,
    or a stronger enemy now stands on the order's route or at its goal;
``timeout``
    the order is older than :data:`TIMEOUT_MINUTES`;
``no_way``
    every route to the kept goal now runs through a stronger enemy;
``threat``
    the base must be guarded (RULES.md §8.8: a known enemy within ``guard_hours`` of it and
    this division the one to go): a guard order is never put off for a kept one;
``base``
    the division stands on the enemy base: it holds it until nightfall (RULES.md §8.7).

Each trigger is told in the log with the order it led to (``Ordered.trigger``), as a code
and a detail the printer turns into words: the battle's junction, the ids of the divisions
gone joined by commas, ``at:`` and the junction an enemy left, a junction now held by a
stronger enemy, or the kept goal no road reaches.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

__all__ = ["BALANCE_FACTOR", "TIMEOUT_MINUTES", "TRIGGERS", "Snapshot", "balance_changed"]

#: trigger codes, in the order they are checked (the printer has a phrase for each)
TRIGGERS = ("battle", "nightfall", "void", "sighting", "timeout", "no_way", "threat", "base")
#: the known enemy strength near a division must grow or shrink by this factor to count as
#: a change of the balance *(house)*
BALANCE_FACTOR = 1.5
#: an order is kept at most this long without another trigger (8 hours) *(house)*
TIMEOUT_MINUTES = 480.0


class Snapshot:
    """What a division knew of the enemy when its order was given: the known enemy boxes
    within ``seek_hours`` of it (``near``), whether the base was threatened (``threat``),
    and the enemy junctions it could not attack (``stronger``, a read-only set: it may be
    shared, never changed). Read-only."""

    __slots__ = ("near", "stronger", "threat")

    def __init__(self, near: int, threat: bool, stronger: AbstractSet[str]) -> None:
        self.near = near
        self.threat = threat
        self.stronger = stronger


def balance_changed(before: Snapshot, now: Snapshot) -> bool:
    """Whether the balance near a division changed between two snapshots: the enemy boxes
    known near it appeared, vanished, or grew or shrank by :data:`BALANCE_FACTOR`, or a
    threat to the base appeared (RULES.md §8.8 *(house)*)."""
    if now.threat and not before.threat:
        return True
    a, b = before.near, now.near
    if a == b:
        return False
    if a == 0 or b == 0:
        return True
    return b >= BALANCE_FACTOR * a or a >= BALANCE_FACTOR * b
