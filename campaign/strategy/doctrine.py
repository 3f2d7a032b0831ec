"""Strategy doctrines that use the map (RULES.md §8.8): each division's next order and why.

One :class:`Strategist` per side reads its doctrine (``campaign.doctrines.NAME`` in
config/rules.yaml) and, each time a free division decides, returns an :class:`Order`: the
junction it makes for, the next junction on its route, and a reason code with the junctions
and divisions that explain it. In order of precedence a division

1. **guards** the base while a known enemy is within ``guard_hours`` of it and no other
   division holds or is bound for it (the nearest free division goes);
   Else it **holds the enemy base** it stands on until nightfall, when holding it wins
   (RULES.md §8.7), unless a known stronger enemy can retake it before dark;
2. **regroups** after a lost battle: rejoins the nearest friends, attacking nothing;
   **marches to the guns**: to the nearest battle its side is fighting within
   ``guns_hours`` of march, to join it as a late arrival (RULES.md §8.4; 0 = never);
3. **pursues** after a won battle, for ``pursue_hours``, a beaten enemy still in sight whom
   it can attack at ``attack_ratio``;
4. **attacks** the nearest known enemy within ``seek_hours`` it can attack at
   ``attack_ratio`` with the boxes at its junction;
5. **concentrates** against a nearer enemy too strong for it: marches to the rally point
   (the own position nearest that enemy) or waits there for friends on their way, when all
   within ``concentrate_hours`` of it together reach ``attack_ratio``;
6. follows its **plan**, objectives and the enemy base: the opening waypoint drawn from the
   seed (``plan_slack_hours``), else the nearest objective not held (``objectives_first``),
   else the enemy base (``advance_on_base``), else holds. The route avoids junctions held by
   a known stronger enemy (``flank``); a route that so turns an enemy is a flank march.

Whatever it chooses then passes the side's army-level plan (:mod:`campaign.strategy.plan`):
a division keeps its order until it is done or a re-plan trigger fires
(:mod:`campaign.strategy.triggers`), gets one order a minute, and drops orders naming a
division destroyed or surrendered. Routes are by expected hours
(:mod:`campaign.strategy.routing`). Ties go to the lower junction id. No oscillation: a
division does not march back the same day to the junction it just came from unless
:func:`.plan.may_turn_back` allows it (else another way not much longer, or it holds).
"""

from __future__ import annotations

import math

from campaign.strategy.checks import check_doctrines
from campaign.strategy.choosing import Chooser
from campaign.strategy.knowledge import (
    CODES,
    GROUP_CODES,
    GUARD_CODES,
    EnemyGroup,
    Memory,
    Order,
    SideView,
)
from campaign.strategy.plan import (
    DAY_MINUTES,
    TURN_BACK_DETOUR_HOURS,
    Asked,
    back_for_the_same_reason,
    may_turn_back,
    note_arrival,
)
from campaign.strategy.triggers import Snapshot

#: codes that may march on by the road a beaten enemy falls back on (:meth:`_let_go`)
LET_GO_EXEMPT = frozenset(("guard", "pursue", "guns"))
#: what a division knows of the enemy when it knows of none (read-only: shared)
NO_ENEMY = Snapshot(0, False, frozenset())

__all__ = ["CODES", "GROUP_CODES", "GUARD_CODES", "Order", "Strategist", "check_doctrines"]


class Strategist(Chooser):
    """One side's strategy doctrine at work (RULES.md §8.8).

    Parameters
    ----------
    side : str
        ``"red"`` or ``"blue"``.
    doctrine : StrategyDoctrine
        The doctrine's numbers (config).
    graph : networkx.Graph
        The campaign map (road ``hours`` and ``kind``).
    rules : CampaignRules
        For the rough-road pass chance and retry wait (RULES.md §8.2).
    rng : numpy.random.Generator
        The side's own generator, used only to draw opening plans.

    What it remembers and learns is :class:`.mind.SideMind`'s, how it chooses an order
    :class:`.choosing.Chooser`'s; here each decision is kept, settled against the army-level
    plan (:mod:`.plan`) and kept off the way back and the road a beaten enemy falls back on.
    """

    # ------------------------------------------------------------------ decide
    def decide(self, div: str, at: str, view: SideView) -> Order:
        """The order of division ``div`` at junction ``at``, from ``view`` alone (§8.6)."""
        m = self._mem(div)
        last = m.last
        if last is not None and self._given_this_minute(div, at, view, last, m):
            return last
        if m.plan == at:
            m.plan = None  # the opening waypoint is reached
        note_arrival(m, at)
        follow = m.follow
        if follow is not None and follow[0] == view.now and follow[1] == at:
            # it marches with the divisions that counted it in, unless the base needs it
            order = self._guard_first(div, at, view) or follow[2]
        else:
            order = self._choose(div, at, view, m)
        m.follow = None
        if order.code in GROUP_CODES:
            for friend in order.friends:
                self._mem(friend).follow = (view.now, at, order)
        order = self._settle(div, at, view, order, m)
        if order.code not in ("plan", "flank"):
            m.plan = None  # the campaign has begun in earnest: the opening plan is over
            m.planned = True
        came = m.arrived
        if came is not None and back_for_the_same_reason(order, at, came, m.arrived_order):
            order = self._another_way(at, order, came[0], set(), math.inf)
        if order.step is not None and self.falling and m.fought[1]:
            order = self._let_go(div, at, view, order, m)
        step = order.step
        # (one tuple, shared by both memories: an optional type keeps it built once)
        code_goal: tuple[str, str | None] | None = (order.code, order.goal)
        if step is not None:
            m.came = (at, step)
            m.came_t = view.now
            m.came_order = code_goal
        m.order = code_goal
        m.last, m.last_t, m.last_at = order, view.now, at
        if order.code in GUARD_CODES:
            self.posted[div] = (int(view.now // DAY_MINUTES), order.enemy_at)
        return order

    def _given_this_minute(self, div: str, at: str, view: SideView, last: Order, m: Memory) -> bool:
        """Whether ``last`` was given this minute at ``at`` and stands: one order per
        division per minute, unless the base needs it now (RULES.md §8.8 *(house)*)."""
        if m.last_t != view.now or m.last_at != at:
            return False
        if last.step is None and at == view.own_base:
            return True  # it holds the base already: the guard it would be (no second order)
        return last.code in GUARD_CODES or self._guard_first(div, at, view) is None

    def _settle(self, div: str, at: str, view: SideView, order: Order, m: Memory) -> Order:
        """``order``, or the order ``div`` (remembered in ``m``) keeps when no trigger fired
        (:mod:`.plan`)."""
        asked = _Asked(self, div, at, view)
        known = view.enemy_boxes
        for boxes in known.values():  # (``0 in known.values()``, as a loop the compiled
            if boxes == 0:  # module runs on ints rather than a generic search)
                for enemy, left in known.items():
                    if left <= 0 and enemy not in self.plan.gone:  # no boxes left: as good as gone
                        self.observe_gone(enemy)
                break
        came = m.arrived
        came_from = came[0] if came is not None and came[1] == at else None
        order = self.plan.settle(div, at, view.now, order, asked, view.enemy_positions, came_from)
        if (
            came_from is None
            or order.step != came_from
            or m.arrived_t // DAY_MINUTES != view.now // DAY_MINUTES
        ):
            return order
        if may_turn_back(order):
            if not order.trigger and order.code in GUARD_CODES:  # the log says why
                order = order.with_trigger("threat", order.enemy_at or "")
            return order
        # the same day back where it came from, for no reason strong enough: another way
        # if there is one not much longer, else it holds
        return self._another_way(at, order, came_from, asked.strong(), TURN_BACK_DETOUR_HOURS)

    def _let_go(self, div: str, at: str, view: SideView, order: Order, m: Memory) -> Order:
        """``order``, kept off the fall back path of the enemies ``m`` beat today (no second
        battle with the same forces the same day, RULES.md §8.8 *(house)*: marching after
        them by the road they fall back on catches them at its first junction): by another
        way to its goal, else ``let_go`` (it holds, and thinks again). A guard, a pursuit
        (§8.8: following the beaten enemy is its aim) and a march to the guns go on."""
        day, fought = m.fought
        if day != int(view.now // DAY_MINUTES) or order.code in LET_GO_EXEMPT:
            return order
        beaten: list[str] = []
        path: set[str] = set()
        for e in fought:
            way = self.falling.get(e)
            if way is not None and e not in self.plan.gone:
                beaten.append(e)
                path.update(way)
        path.discard(at)
        goal = order.goal
        if order.step not in path and goal not in path:
            return order
        if goal is not None and goal not in path:
            avoid = path | self._stronger_now(div, at, view)
            came = m.arrived  # (nor back the way it came today)
            if came is not None and came[1] == at and m.arrived_t // DAY_MINUTES == day:
                avoid.add(came[0])
            route, _ = self.priced.route_hours_avoiding(at, goal, avoid)
            if len(route) >= 2:
                return Order(
                    order.code, goal, route[1], order.enemy_at, order.enemies,
                    order.friends, order.aim, order.trigger, order.cause,
                )  # fmt: skip
        beaten.sort()
        return Order("let_go", None, None, enemies=tuple(beaten), aim=goal)

    def _stronger_now(self, div: str, at: str, view: SideView) -> set[str]:
        """The junctions of the known enemy groups too strong for ``div`` at ``at``."""
        groups = self._enemy_groups(view)
        here, _ = self._here(div, at, view)
        return self._stronger(groups, here)

    def _snapshot(
        self, at: str, view: SideView, groups: dict[str, EnemyGroup], stronger: set[str]
    ) -> Snapshot:
        """The known enemy boxes within ``seek_hours`` of ``at``, whether the base is
        threatened, and the junctions of the enemy groups too strong to attack (triggers);
        with no enemy known, :data:`NO_ENEMY` (none near, no threat, none stronger)."""
        if not groups:
            return NO_ENEMY
        from_at = self.priced.costs_from(at)
        seek = self._doc_seek_hours
        near = 0
        for j, g in groups.items():
            if from_at.get(j, math.inf) <= seek:
                near += g.boxes
        threat = self._doc_guard_hours > 0 and self._threat(groups, view.own_base) is not None
        # (``stronger`` itself, read-only and shared, not a sorted copy: the triggers only
        # ask what is in it)
        return Snapshot(near, threat, stronger)

    def _another_way(
        self, at: str, order: Order, came_from: str, avoid: set[str], slack: float
    ) -> Order:
        """``order`` by a route to its goal that does not go back to ``came_from`` (nor
        through ``avoid``), at most ``slack`` hours longer than the cheapest (unlimited for
        a guard: the base comes first); else ``no_turn_back``: it holds."""
        goal = order.goal
        if goal is not None and goal != came_from:
            if order.code in GUARD_CODES:
                slack = math.inf
            path, hours = self.priced.route_hours_avoiding(at, goal, avoid | {came_from})
            if len(path) >= 2 and hours <= self.priced.cost(at, goal) + slack:
                return Order(
                    order.code, goal, path[1], order.enemy_at, order.enemies,
                    order.friends, order.aim, order.trigger, order.cause,
                )  # fmt: skip
        return Order("no_turn_back", None, None, aim=goal)


class _Asked(Asked):
    """What :meth:`Strategist._settle` may ask about division ``div`` at ``at``, each worked
    out once, when first asked: the junctions of the enemy groups too strong to attack from
    here, and the :class:`Snapshot` of what it knows of the enemy now (:class:`.plan.Asked`).

    (A small object rather than closures: closures over each other make a reference cycle,
    which only the garbage collector frees, at every decision.)
    """

    __slots__ = ("_snap", "_strong", "at", "div", "strategist", "view")

    def __init__(self, strategist: Strategist, div: str, at: str, view: SideView) -> None:
        self.strategist = strategist
        self.div = div
        self.at = at
        self.view = view
        self._strong: set[str] | None = None
        self._snap: Snapshot | None = None

    def strong(self) -> set[str]:
        """The junctions of the known enemy groups too strong for ``div`` at ``at``."""
        if self._strong is None:
            self._strong = self.strategist._stronger_now(self.div, self.at, self.view)
        return self._strong

    def snap(self) -> Snapshot:
        """What the division knows of the enemy now (:meth:`Strategist._snapshot`)."""
        if self._snap is None:
            s = self.strategist
            groups = s._enemy_groups(self.view)
            self._snap = s._snapshot(self.at, self.view, groups, self.strong())
        return self._snap

    def go(
        self, code: str, at: str, goal: str, enemy_at: str | None,
        enemies: tuple[str, ...], friends: tuple[str, ...], aim: str | None,
    ) -> Order:  # fmt: skip
        """March for ``goal`` around the stronger enemies (:data:`.plan.Go`)."""
        return self.strategist._go(code, at, goal, self.strong(), enemy_at, enemies, friends, aim)
