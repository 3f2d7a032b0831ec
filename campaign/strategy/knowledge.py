"""What one side knows, as its strategy doctrine sees it, and the order it gives (RULES.md
§8.6, §8.8).

A doctrine sees its own divisions (where they are, where they are going, their boxes) and
the enemy only as sighted: divisions where last seen, and their strength once fought, else
the estimate of an average division (:func:`campaign.army.unknown_division_boxes`).

The classes here are built for every decision: plain classes with slots, cheaper to make
than named tuples or dataclasses, and native classes (constructors in C) when the module
is compiled with mypyc. Treat them as read-only. (:class:`BattleSeen`, made once a battle,
is a dataclass.)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "CODES",
    "GROUP_CODES",
    "GUARD_CODES",
    "BattleSeen",
    "EnemyGroup",
    "Memory",
    "Order",
    "OwnDivision",
    "SideView",
    "count_flank_marches",
    "rally_places",
]


class OwnDivision:
    """One of the side's own divisions (read-only; equal when every field is).

    ``at`` is its junction (None while on a road); ``heading`` the junction it is marching
    or falling back to (None when it is not moving); ``boxes`` the hits it can still take;
    ``free`` whether it can take orders now (at a junction, not fighting, no fall back
    pending).
    """

    __slots__ = ("at", "boxes", "free", "heading", "id")

    def __init__(
        self, id: str, at: str | None, heading: str | None, boxes: int, free: bool
    ) -> None:
        self.id = id
        self.at = at
        self.heading = heading
        self.boxes = boxes
        self.free = free

    def _key(self) -> tuple[str, str | None, str | None, int, bool]:
        return (self.id, self.at, self.heading, self.boxes, self.free)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OwnDivision) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "OwnDivision(id={!r}, at={!r}, heading={!r}, boxes={!r}, free={!r})".format(
            *self._key()
        )


class EnemyGroup:
    """Enemy divisions last seen together at one junction, and their estimated boxes
    (read-only; equal when every field is)."""

    __slots__ = ("boxes", "divisions", "junction")

    def __init__(self, junction: str, divisions: tuple[str, ...], boxes: int) -> None:
        self.junction = junction
        self.divisions = divisions
        self.boxes = boxes

    def _key(self) -> tuple[str, tuple[str, ...], int]:
        return (self.junction, self.divisions, self.boxes)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EnemyGroup) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "EnemyGroup(junction={!r}, divisions={!r}, boxes={!r})".format(*self._key())


class SideView:
    """One side's knowledge at one moment (built by the campaign for each decision).

    ``now`` is campaign minutes; ``own`` the side's divisions; ``enemy_positions`` maps
    enemy division -> junction last seen; ``enemy_boxes`` holds strengths learned by
    fighting (RULES.md §8.6); ``own_base`` and ``enemy_base`` are junctions;
    ``objectives`` maps junction -> value and ``owner`` junction -> holding side;
    ``estimate_boxes`` is the boxes assumed of an enemy division not fought yet;
    ``engaged`` lists the junctions where the side is fighting a battle now (it hears the
    guns: RULES.md §8.4, §8.8), ``engaged_since`` the minute each of those battles began.

    Read-only: the dicts may be the campaign's own (none is copied for a decision), so a
    view is good for the decision it was made for only.
    """

    __slots__ = (
        "enemy_base",
        "enemy_boxes",
        "enemy_positions",
        "engaged",
        "engaged_since",
        "estimate_boxes",
        "now",
        "objectives",
        "own",
        "own_base",
        "owner",
        "side",
    )

    def __init__(
        self,
        side: str,
        now: float,
        own: tuple[OwnDivision, ...],
        enemy_positions: dict[str, str],
        enemy_boxes: dict[str, int],
        own_base: str,
        enemy_base: str,
        objectives: dict[str, int],
        owner: dict[str, str | None],
        estimate_boxes: int,
        engaged: tuple[str, ...] = (),
        engaged_since: tuple[float, ...] = (),
    ) -> None:
        self.side = side
        self.now = now
        self.own = own
        self.enemy_positions = enemy_positions
        self.enemy_boxes = enemy_boxes
        self.own_base = own_base
        self.enemy_base = enemy_base
        self.objectives = objectives
        self.owner = owner
        self.estimate_boxes = estimate_boxes
        self.engaged = engaged
        self.engaged_since = engaged_since

    def __repr__(self) -> str:
        return (
            f"SideView(side={self.side!r}, now={self.now!r}, own={self.own!r}, "
            f"enemy_positions={self.enemy_positions!r}, enemy_boxes={self.enemy_boxes!r}, "
            f"own_base={self.own_base!r}, enemy_base={self.enemy_base!r}, "
            f"objectives={self.objectives!r}, owner={self.owner!r}, "
            f"estimate_boxes={self.estimate_boxes!r}, engaged={self.engaged!r})"
        )

    def enemy_groups(self) -> dict[str, EnemyGroup]:
        """Known enemy groups by junction (sorted by junction id). A division known to have
        no boxes left (all its units lost in a battle still being fought) is left out: it
        is as good as destroyed."""
        positions = self.enemy_positions
        if not positions:
            return {}
        by_junction: dict[str, list[str]] = {}
        known = self.enemy_boxes
        for div, junction in positions.items():  # (each group's divisions sorted below)
            if known.get(div, 1) <= 0:
                continue
            divs = by_junction.get(junction)
            if divs is None:
                by_junction[junction] = [div]
            else:
                divs.append(div)
        boxes, estimate = self.enemy_boxes, self.estimate_boxes
        groups: dict[str, EnemyGroup] = {}
        for junction in sorted(by_junction):
            divs = by_junction[junction]
            total = 0
            for div in divs:
                total += boxes.get(div, estimate)
            if len(divs) > 1:
                divs.sort()
            groups[junction] = EnemyGroup(junction, tuple(divs), total)
        return groups

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


@dataclass(frozen=True)
class BattleSeen:
    """A battle as both sides learn it when it ends (RULES.md §8.6): ``end`` in campaign
    minutes, ``divisions`` side -> the ids of its divisions in it, the ``winner`` side (None:
    a draw), its length in ``minutes`` and its junction ``place`` (None: on a road)."""

    end: float
    divisions: dict[str, tuple[str, ...]]
    winner: str | None
    minutes: float = 0.0
    place: str | None = None


class Order:
    """One decision: ``code`` (one of :data:`campaign.strategy.doctrine.CODES`), the
    ``goal`` junction (None: holds), the next junction ``step`` (None: holds here), and
    what explains it: the enemy junction ``enemy_at`` and divisions ``enemies``, the
    ``friends`` joined or awaited, and the final aim ``aim`` of a plan or flank march.
    ``trigger`` names the re-plan trigger that made the division give up the order it kept
    for this one (:data:`campaign.strategy.triggers.TRIGGERS`; "" when none was needed) and
    ``cause`` its detail (a junction, or division ids joined by commas).
    Read-only; equal when every field is."""

    __slots__ = (
        "aim",
        "cause",
        "code",
        "enemies",
        "enemy_at",
        "friends",
        "goal",
        "step",
        "trigger",
    )

    def __init__(
        self,
        code: str,
        goal: str | None,
        step: str | None,
        enemy_at: str | None = None,
        enemies: tuple[str, ...] = (),
        friends: tuple[str, ...] = (),
        aim: str | None = None,
        trigger: str = "",
        cause: str = "",
    ) -> None:
        self.code = code
        self.goal = goal
        self.step = step
        self.enemy_at = enemy_at
        self.enemies = enemies
        self.friends = friends
        self.aim = aim
        self.trigger = trigger
        self.cause = cause

    def with_trigger(self, trigger: str, cause: str) -> Order:
        """This order, given for the re-plan ``trigger`` with its ``cause``."""
        return Order(
            self.code, self.goal, self.step, self.enemy_at, self.enemies, self.friends,
            self.aim, trigger, cause,
        )  # fmt: skip

    def _key(
        self,
    ) -> tuple[
        str,
        str | None,
        str | None,
        str | None,
        tuple[str, ...],
        tuple[str, ...],
        str | None,
        str,
        str,
    ]:
        return (
            self.code,
            self.goal,
            self.step,
            self.enemy_at,
            self.enemies,
            self.friends,
            self.aim,
            self.trigger,
            self.cause,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Order) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            "Order(code={!r}, goal={!r}, step={!r}, enemy_at={!r}, enemies={!r}, "
            "friends={!r}, aim={!r}, trigger={!r}, cause={!r})".format(*self._key())
        )


def count_flank_marches(orders: Iterable[tuple[str, str, str | None]]) -> int:
    """Flank marches in a stream of orders ``(division, code, goal)``: each time a division
    is given a ``flank`` order with a goal other than its previous order's (RULES.md §8.8).
    A flank march of several roads is one march (its later steps repeat the order)."""
    last: dict[str, tuple[str, str | None]] = {}
    count = 0
    for division, code, goal in orders:
        if code == "flank" and last.get(division) != (code, goal):
            count += 1
        last[division] = (code, goal)
    return count


#: Reason codes of an order (printers turn them into sentences).
CODES = (
    "guard",  # returns to the base to cover it
    "guard_hold",  # stays on the base to cover it
    "regroup",  # rejoins friends after a defeat
    "guns",  # marches to a battle its side is fighting, to join it
    "pursue",  # follows a beaten enemy
    "attack",  # marches on a known enemy it can beat
    "concentrate",  # marches to the rally point before attacking
    "wait",  # waits at the rally point for friends
    "plan",  # the opening route of the campaign plan
    "flank",  # a route around a stronger enemy toward the goal
    "objective",  # makes for an objective not held
    "advance",  # advances on the enemy base
    "hold",  # nothing worth doing: holds
    "no_way",  # every route to the goal runs through a stronger enemy: holds
    "no_turn_back",  # would turn back for no new reason: holds
    "hold_base",  # holds the enemy base it took until nightfall (RULES.md §8.7)
    "let_go",  # holds off the road a beaten enemy falls back on: no second battle today
)

#: Codes of a division that is on, or bound for, its own base to cover it.
GUARD_CODES = ("guard", "guard_hold")
#: Codes of an order given on the strength of every free division at the junction: those
#: divisions (the order's ``friends``) march with it.
GROUP_CODES = ("attack", "pursue")


class Memory:
    """What a side's :class:`campaign.strategy.doctrine.Strategist` remembers of one of its
    divisions between decisions (a plain class: a native class, built in C, when
    compiled)."""

    def __init__(self) -> None:
        self.plan: str | None = None
        self.planned = False
        self.order: tuple[str, str | None] | None = None
        self.came: tuple[str, str] | None = None
        self.came_t = -1.0  # the minute it set off on ``came``
        #: the last march it made, ``(from, to)``, that march's order and the minute it set off
        #: (``came`` is the last march ordered, which a failed rough-road test may hold up)
        self.arrived: tuple[str, str] | None = None
        self.arrived_order: tuple[str, str | None] | None = None
        self.arrived_t = -1.0
        self.came_order: tuple[str, str | None] | None = None
        self.pursue: tuple[str, ...] = ()
        self.pursue_until = -1.0
        self.regroup = False
        #: (minute, junction, order): an order given with this division counted in, to follow
        self.follow: tuple[float, str, Order] | None = None
        #: the last order given, its minute and junction: one order per division per minute
        self.last: Order | None = None
        self.last_t = -1.0
        self.last_at = ""
        #: (day, enemy divisions) it fought today: no same-day rematch of the same forces
        self.fought: tuple[int, frozenset[str]] = (-1, frozenset())


def rally_places(
    memory: dict[str, Memory], view: SideView, groups: dict[str, EnemyGroup]
) -> tuple[dict[str, tuple[str, int, str | None]], list[str]]:
    """Divisions that may concentrate, ``id -> (position, boxes, junction)`` (all but the
    base's guards; the position is where it is or is bound), and the positions free of
    known enemies (``groups``: the view's enemy groups, by junction), sorted: the rally
    points to choose from (RULES.md §8.8). ``memory``: the side's memory of its
    divisions (their last orders)."""
    enemy_held = groups  # (its keys are the junctions where enemies were seen)
    able: dict[str, tuple[str, int, str | None]] = {}
    free_places: set[str] = set()
    for d in view.own:
        p = d.at or d.heading
        if not p:
            continue
        mem = memory.get(d.id)
        if mem is not None and mem.order is not None and mem.order[0] in GUARD_CODES:
            continue  # a guard of the base
        able[d.id] = (p, d.boxes, d.at)
        if p not in enemy_held:
            free_places.add(p)
    return able, sorted(free_places)
