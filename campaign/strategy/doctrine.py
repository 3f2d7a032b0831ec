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

import networkx as nx
import numpy as np

from campaign.config import CampaignRules, StrategyDoctrine
from campaign.strategy.checks import check_doctrines
from campaign.strategy.gather import guns_place, is_guard, rally_point, regroup_place
from campaign.strategy.knowledge import (
    CODES,
    GROUP_CODES,
    GUARD_CODES,
    EnemyGroup,
    Memory,
    Order,
    SideView,
    rally_places,
)
from campaign.strategy.plan import (
    DAY_MINUTES,
    TURN_BACK_DETOUR_HOURS,
    ArmyPlan,
    back_for_the_same_reason,
    may_turn_back,
    not_fought_today,
    note_arrival,
)
from campaign.strategy.routing import PricedRoutes, hours_to, nearer, runs_through
from campaign.strategy.targets import attack_target, pursuit_target
from campaign.strategy.triggers import Snapshot

#: codes that may march on by the road a beaten enemy falls back on (:meth:`_let_go`)
LET_GO_EXEMPT = frozenset(("guard", "pursue", "guns"))
#: the expected length of a battle before the side has seen one end, in minutes (house:
#: about the median battle of the shipped maps); after that, the mean of those it fought
EXPECTED_BATTLE_MINUTES = 120.0
#: what a division knows of the enemy when it knows of none (read-only: shared)
NO_ENEMY = Snapshot(0, False, ())

__all__ = ["CODES", "GROUP_CODES", "GUARD_CODES", "Order", "Strategist", "check_doctrines"]


class Strategist:
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
    """

    def __init__(
        self,
        side: str,
        doctrine: StrategyDoctrine,
        graph: nx.Graph,
        rules: CampaignRules,
        rng: np.random.Generator,
    ) -> None:
        self.side = side
        self.doctrine = doctrine
        self.rng = rng
        self.priced = PricedRoutes.of(
            graph, rules.rough_road_pass, rules.rough_road_retry_minutes, doctrine.rough_risk_weight
        )
        self.waypoint_window = rules.opening_waypoint_window
        # the doctrine's numbers as plain typed attributes, read for every decision (compiled
        # with mypyc, these are native reads; the frozen config model's go through Python)
        self._doc_attack_ratio: float = doctrine.attack_ratio
        self._doc_seek_hours: float = doctrine.seek_hours
        self._doc_guard_hours: float = doctrine.guard_hours
        self._doc_concentrate: bool = doctrine.concentrate
        self._doc_concentrate_hours: float = doctrine.concentrate_hours
        self._doc_flank: bool = doctrine.flank
        self._doc_pursue_hours: float = doctrine.pursue_hours
        self._doc_regroup: bool = doctrine.regroup
        self._doc_objectives_first: bool = doctrine.objectives_first
        self._doc_advance_on_base: bool = doctrine.advance_on_base
        self._doc_plan_slack_hours: float = doctrine.plan_slack_hours
        self._doc_guns_hours: float = doctrine.guns_hours
        self.memory: dict[str, Memory] = {}
        #: the army-level plan: kept orders, rendezvous, divisions gone (RULES.md §8.8)
        self.plan = ArmyPlan()
        self.daylight_minutes = float(rules.day_end_minutes - rules.day_start_minutes)
        #: battles the side fought and their total minutes (their mean is the expected
        #: length of a battle, for "to the guns")
        self._battles_seen = 0
        self._battle_minutes = 0.0
        self.fled: dict[str, str] = {}  # enemy division -> where it was seen falling back to
        #: enemy division -> the junctions of the fall back it was last seen making after a
        #: battle this side won (kept off the same day, :meth:`_let_go`)
        self.falling: dict[str, tuple[str, ...]] = {}
        #: division -> (day, enemy junction) of the last guard order it was given: a guard
        #: posted stays on the base until dawn (:meth:`_urgent`)
        self.posted: dict[str, tuple[int, str | None]] = {}
        #: the enemy groups last worked out, and the sightings and strengths (copies) they
        #: were worked out from: most decisions see the enemy as the one before did
        self._groups: dict[str, EnemyGroup] = {}
        #: the groups of no sightings (one dict, so that the answers kept for groups by
        #: their identity are kept for it too; never filled)
        self._no_groups: dict[str, EnemyGroup] = {}
        self._groups_of: tuple[dict[str, str], dict[str, int], int] = ({}, {}, 0)
        #: own base -> junction -> expected hours from the junction to that base (the tie
        #: key of equally near junctions, ``routing.hours_to``), filled as asked
        self._to_base: dict[str, dict[str, float]] = {}
        #: junction -> the objectives reachable from it but neither it nor the own base, by
        #: (hours from it, *tie key): the order objectives are tried in, for the objectives
        #: and own base below (a campaign's never change: the map never changes)
        self._objective_order: dict[str, tuple[str, ...]] = {}
        self._objectives_of: tuple[dict[str, int], str] = ({}, "")
        self._objective_names: tuple[str, ...] = ()
        #: the groups, own base and nearest threat to it last worked out (:meth:`_threat`)
        self._threat_groups: dict[str, EnemyGroup] | None = None
        self._threat_base = ""
        self._threat_at: str | None = None
        #: the groups the :meth:`_stronger` answers kept are of, and those answers by own
        #: boxes (a few strengths ask again and again while the sightings stay the same)
        self._stronger_groups: dict[str, EnemyGroup] | None = None
        self._stronger_by_here: dict[int, set[str]] = {}
        self._no_stronger: set[str] = set()  # (no groups: none stronger; never filled)
        #: the view the groups and own boxes below were last worked out for: a decision
        #: asks for them several times of one view (choosing, then settling the order)
        self._groups_view: SideView | None = None
        self._view_groups: dict[str, EnemyGroup] = self._no_groups
        self._here_view: SideView | None = None
        self._here_asked: tuple[str, str] = ("", "")
        self._here_found: tuple[int, tuple[str, ...]] = (0, ())

    # ------------------------------------------------------------------ memory
    def _mem(self, div: str) -> Memory:
        m = self.memory.get(div)
        if m is None:
            m = self.memory[div] = Memory()
        return m

    def _enemy_groups(self, view: SideView) -> dict[str, EnemyGroup]:
        """``view.enemy_groups()``, worked out again only when the sightings or the known
        strengths differ from the last decision's (read-only: shared between decisions);
        looked up once per view (a view is good for one decision: nothing it holds changes
        while the doctrine decides)."""
        if view is not self._groups_view:
            self._groups_view = view  # (kept alive here: its identity is not reused)
            self._view_groups = self._groups_seen(view)
        return self._view_groups

    def _groups_seen(self, view: SideView) -> dict[str, EnemyGroup]:
        """The enemy groups of ``view``: those last worked out while the sightings and the
        known strengths are the same (:meth:`_enemy_groups`)."""
        positions = view.enemy_positions
        if not positions:
            return self._no_groups
        seen, boxes, estimate = self._groups_of
        if estimate == view.estimate_boxes and seen == positions and boxes == view.enemy_boxes:
            return self._groups
        self._groups = view.enemy_groups()
        if boxes != view.enemy_boxes:  # (strengths are learned less often than sightings)
            boxes = dict(view.enemy_boxes)
        self._groups_of = (dict(positions), boxes, view.estimate_boxes)
        return self._groups

    def _here(self, div: str, at: str, view: SideView) -> tuple[int, tuple[str, ...]]:
        """Own boxes at ``at`` that can act now (the free divisions there and ``div``), and
        the other free divisions there, sorted (they march with an attack or pursuit).
        Counted once per view, division and junction (asked again while it decides)."""
        if view is self._here_view and self._here_asked == (div, at):
            return self._here_found
        self._here_view = view  # (kept alive here: its identity is not reused)
        self._here_asked = (div, at)
        self._here_found = self._count_here(div, at, view)
        return self._here_found

    def _count_here(self, div: str, at: str, view: SideView) -> tuple[int, tuple[str, ...]]:
        """:meth:`_here`, counted."""
        here = 0
        band: list[str] | None = None  # (made only when another free division is there)
        for d in view.own:
            if d.at == at:
                if d.id == div:
                    here += d.boxes
                elif d.free:
                    here += d.boxes
                    if band is None:
                        band = [d.id]
                    else:
                        band.append(d.id)
        if band is None:
            return here, ()
        band.sort()
        return here, tuple(band)

    def _stronger(self, groups: dict[str, EnemyGroup], here: int) -> set[str]:
        """Junctions of the enemy groups ``here`` boxes cannot attack (§8.8; kept for these
        groups by ``here``, read-only)."""
        if not groups:
            return self._no_stronger
        if groups is not self._stronger_groups:
            self._stronger_groups = groups  # kept alive here: its identity is not reused
            self._stronger_by_here = {}
        found = self._stronger_by_here.get(here)
        if found is None:
            ratio = self._doc_attack_ratio
            found = {j for j, g in groups.items() if here < ratio * g.boxes}
            self._stronger_by_here[here] = found
        return found

    def _objectives_from(self, at: str, view: SideView) -> tuple[str, ...]:
        """The objectives a division at ``at`` may make for, nearest first: reachable, not
        ``at`` nor the own base, by (hours from ``at``, *tie key) (RULES.md §8.8). Sorted
        once per junction (read-only); those held or held by a stronger enemy are left out
        by the caller, which keeps the order."""
        objectives, own_base = view.objectives, view.own_base
        known, known_base = self._objectives_of
        if objectives is not known or own_base != known_base:
            if own_base != known_base or objectives != known:
                self._objective_order = {}
            self._objectives_of = (objectives, own_base)
            self._objective_names = tuple(objectives)
        found = self._objective_order.get(at)
        if found is None:
            found = self._objective_order[at] = self.priced.nearest_first(
                at, self._objective_names, own_base
            )
        return found

    def _base_hours(self, base: str) -> dict[str, float]:
        """Junction -> hours from it to ``base``, filled as asked (``routing.hours_to``)."""
        if (found := self._to_base.get(base)) is None:
            found = self._to_base[base] = {}
        return found

    def observe_battle(
        self,
        t_end: float,
        divisions: dict[str, tuple[str, ...]],
        winner: str | None,
        minutes: float = 0.0,
        place: str | None = None,
    ) -> None:
        """Learn the outcome of a battle its divisions fought (pursuit, regrouping, the
        plan's ``battle`` trigger, the expected length of a battle).

        ``t_end`` is the battle's end in campaign minutes; ``divisions`` maps side -> ids;
        ``minutes`` its length; ``place`` its junction (None on a road).
        """
        mine = divisions.get(self.side, ())
        if not mine:
            return
        self.plan.battle_seen(t_end, place)
        if minutes > 0:
            self._battles_seen += 1
            self._battle_minutes += minutes
        enemy = "blue" if self.side == "red" else "red"
        fought = (int(t_end // DAY_MINUTES), frozenset(divisions.get(enemy, ())))
        if winner != self.side:  # (they did not fall back from this one)
            for e in fought[1]:
                self.falling.pop(e, None)
        for div in mine:
            m = self._mem(div)
            m.plan = None
            m.planned = True
            came = m.came
            if came is not None and (
                came[1] == place  # it fought where it marched to
                or (place is None and winner == self.side)  # won on the road: marches on there
            ):
                m.arrived, m.arrived_order, m.arrived_t = came, m.came_order, m.came_t
            m.came = None
            m.fought = fought
            if winner == self.side and self._doc_pursue_hours > 0:
                m.pursue = self.plan.alive(tuple(divisions.get(enemy, ())))
                m.pursue_until = t_end + self._doc_pursue_hours * 60.0
                m.regroup = False
            elif winner == enemy:
                m.pursue = ()
                m.regroup = self._doc_regroup

    def observe_gone(self, division: str) -> None:
        """A division (either side's) was destroyed or surrendered: orders naming it are
        dropped at once (RULES.md §8.8 *(house)*)."""
        self.plan.forget(division)
        self.fled.pop(division, None)
        self.falling.pop(division, None)
        for m in self.memory.values():
            if division in m.pursue:
                m.pursue = self.plan.alive(m.pursue)
            follow = m.follow
            if follow is not None and (
                division in follow[2].enemies or division in follow[2].friends
            ):
                m.follow = None

    def expected_battle_minutes(self) -> float:
        """The expected length of a battle in minutes: the mean of those the side fought,
        :data:`EXPECTED_BATTLE_MINUTES` before the first ends."""
        if self._battles_seen == 0:
            return EXPECTED_BATTLE_MINUTES
        return self._battle_minutes / self._battles_seen

    def observe_fall_back(self, side: str, division: str, path: tuple[str, ...]) -> None:
        """An enemy division was seen falling back along ``path`` (RULES.md §8.5, §8.6):
        remember where it went, for a pursuit."""
        if side != self.side and path:
            self.fled[division] = path[-1]
            self.falling[division] = path

    def guards(self) -> list[str]:
        """Divisions whose last order was to guard the base."""
        return sorted(d for d, m in self.memory.items() if m.order and m.order[0] in GUARD_CODES)

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
        order = self._settle(div, at, view, order)
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

    def _settle(self, div: str, at: str, view: SideView, order: Order) -> Order:
        """``order``, or the order ``div`` keeps when no trigger fired (:mod:`.plan`)."""

        # (the enemy groups, own boxes here, those too strong and the snapshot are kept for
        # the view and the sightings: asking again costs a look-up)
        def strong() -> set[str]:
            """The junctions of the enemy groups too strong to attack from here."""
            return self._stronger(self._enemy_groups(view), self._here(div, at, view)[0])

        made: list[Snapshot] = []  # (worked out once, if asked)

        def snap() -> Snapshot:
            """What the division knows of the enemy now."""
            if not made:
                groups = self._enemy_groups(view)
                stronger = self._stronger(groups, self._here(div, at, view)[0])
                made.append(self._snapshot(at, view, groups, stronger))
            return made[0]

        def go(
            code: str, at: str, goal: str, enemy_at: str | None,
            enemies: tuple[str, ...], friends: tuple[str, ...], aim: str | None,
        ) -> Order:  # fmt: skip
            return self._go(code, at, goal, strong(), enemy_at, enemies, friends, aim)

        if 0 in view.enemy_boxes.values():
            for enemy, boxes in view.enemy_boxes.items():
                if boxes <= 0 and enemy not in self.plan.gone:  # no boxes left: as good as gone
                    self.observe_gone(enemy)
        m = self._mem(div)
        came = m.arrived
        came_from = came[0] if came is not None and came[1] == at else None
        order = self.plan.settle(
            div, at, view.now, order, snap, view.enemy_positions, go, came_from
        )
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
        return self._another_way(at, order, came_from, strong(), TURN_BACK_DETOUR_HOURS)

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
            route, _ = self.priced.path_avoiding(at, goal, avoid)
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
        return Snapshot(near, threat, tuple(sorted(stronger)))

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
            path, hours = self.priced.path_avoiding(at, goal, avoid | {came_from})
            if len(path) >= 2 and hours <= self.priced.cost(at, goal) + slack:
                return Order(
                    order.code, goal, path[1], order.enemy_at, order.enemies,
                    order.friends, order.aim, order.trigger, order.cause,
                )  # fmt: skip
        return Order("no_turn_back", None, None, aim=goal)

    def _guard_first(self, div: str, at: str, view: SideView) -> Order | None:
        """The guard order for ``div`` if the base needs it now (RULES.md §8.8), else None."""
        if self._doc_guard_hours <= 0:
            return None
        groups = self._enemy_groups(view)
        here, _ = self._here(div, at, view)
        return self._guard(div, at, view, groups, self._stronger(groups, here))

    def _choose(self, div: str, at: str, view: SideView, m: Memory) -> Order:
        priced = self.priced
        from_at = priced.costs_from(at)  # from_at.get(j, inf) is cost(at, j)
        groups = self._enemy_groups(view)
        here, band = self._here(div, at, view)
        ratio = self._doc_attack_ratio
        stronger = self._stronger(groups, here)
        order = self._urgent(div, at, view, m, groups, here, stronger)
        if order is not None:
            return order
        seen = groups  # (every group seen: none is a rally point)
        groups = not_fought_today(m, groups, view.now)
        if groups is not seen:
            stronger = self._stronger(groups, here)
        if m.pursue and view.now <= m.pursue_until:
            where = {e: view.enemy_positions.get(e, self.fled.get(e)) for e in m.pursue}
            to_base = self._base_hours(view.own_base)
            g = pursuit_target(priced, from_at, to_base, at, view, groups, where, here, ratio)
            if g is not None:
                j = g.junction
                return self._go(
                    "pursue", at, j, stronger, enemy_at=j, enemies=g.divisions, friends=band
                )
        if view.now > m.pursue_until:
            m.pursue = ()
        if not groups:  # nothing known of the enemy: no attack, nothing to concentrate on
            return self._strategic(div, at, view, stronger, m)
        inf = math.inf
        seek = self._doc_seek_hours
        base = view.own_base
        to_base = self._base_hours(base)
        # attack the nearest group within seek_hours it can attack (hours, *tie key)
        target, within_reach = attack_target(
            priced, from_at, to_base, at, base, groups, seek, here, ratio
        )
        if target is not None:
            j = target.junction
            return self._go(
                "attack", at, j, stronger, enemy_at=j, enemies=target.divisions, friends=band
            )
        if self._doc_concentrate and within_reach:
            able, places = rally_places(self.memory, view, seen)
            if places:  # against each group within reach, nearest first (hours, *tie key)
                near: list[tuple[float, float, str]] = []
                for j in groups:
                    if j != at:
                        hours = from_at.get(j, inf)
                        if hours <= seek:
                            near.append((hours, hours_to(self.priced, to_base, j, base), j))
                near.sort()
                for _, _, j in near:
                    order = self._concentrate(div, at, view, groups[j], stronger, able, places)
                    if order is not None:
                        return order
        return self._strategic(div, at, view, stronger, m)

    # ------------------------------------------------------------------ parts
    def _urgent(
        self, div: str, at: str, view: SideView, m: Memory, groups: dict[str, EnemyGroup],
        here: int, stronger: set[str],
    ) -> Order | None:  # fmt: skip
        """The orders that come first (RULES.md §8.7-§8.8): guard the base, hold a taken
        enemy base, regroup after a defeat, march to the guns; None if none is due."""
        if at == view.enemy_base:  # (before the guard: another division guards the base)
            return self._hold_base(at)
        if self._doc_guard_hours > 0 and groups:
            order = self._guard(div, at, view, groups, stronger)
            if order is not None:
                return order
        posted = self.posted.get(div)
        if posted is not None and at == view.own_base and posted[0] == view.now // DAY_MINUTES:
            # *(house)* a guard posted today stays on the base until dawn, though the enemy
            # seen has gone out of guard_hours: it does not leave to come back (RULES.md §8.8)
            return Order("guard_hold", None, None, enemy_at=posted[1])
        if m.regroup:
            order = self._regroup(div, at, view, stronger, m)
            if order is not None:
                return order
        if self._doc_guns_hours > 0 and view.engaged:
            return self._guns(at, view, groups, stronger)
        return None

    @staticmethod
    def _hold_base(at: str) -> Order:
        """Hold the enemy base ``at`` until nightfall: holding it then wins (RULES.md §8.7).
        *(house)* Whatever comes: a stronger enemy on its way is met there (a draw or a win
        keeps the base), since marching off gives it up for certain."""
        return Order("hold_base", None, None, aim=at)

    def _go(
        self,
        code: str,
        at: str,
        goal: str,
        stronger: set[str],
        enemy_at: str | None = None,
        enemies: tuple[str, ...] = (),
        friends: tuple[str, ...] = (),
        aim: str | None = None,
    ) -> Order:
        """March for ``goal`` by the cheapest route that avoids stronger enemies (§8.8):
        the order ``code`` with ``enemy_at``, ``enemies``, ``friends`` and ``aim`` (see
        :class:`Order`); ``no_way`` when no route avoids them, ``flank`` when the route of
        a plan, objective or advance turns an enemy the cheapest route runs through."""
        priced = self.priced
        plain = priced.route(at, goal)
        path = plain
        if self._doc_flank and stronger and (not plain or runs_through(plain, stronger)):
            # (a cheapest route that enters no stronger enemy's junction is its own way round)
            avoid = stronger - {goal}
            path = priced.route_avoiding(at, goal, avoid)
            if len(path) >= 2 and path != plain and code in ("objective", "advance", "plan"):
                # the route differs only when the cheapest one runs through a junction
                # avoided (neither end: a cheapest route never passes its ends again)
                turned = [j for j in plain[1:-1] if j in avoid]
                if turned:
                    return Order("flank", goal, path[1], turned[0], enemies, friends, goal)
        if len(path) < 2:
            return Order("no_way", None, None, enemy_at, enemies, friends, goal)
        return Order(code, goal, path[1], enemy_at, enemies, friends, aim)

    def _guard(
        self,
        div: str,
        at: str,
        view: SideView,
        groups: dict[str, EnemyGroup],
        stronger: set[str],
    ) -> Order | None:
        base = view.own_base
        enemy_at = self._threat(groups, base)
        if enemy_at is None:
            return None
        if not is_guard(self.priced, self._base_hours(base), self.memory, div, view):
            return None
        if at == base or self._covers(div, at, view, enemy_at):
            return Order("guard_hold", None, None, enemy_at=enemy_at)
        return self._go("guard", at, base, stronger, enemy_at=enemy_at)

    def _covers(self, div: str, at: str, view: SideView, enemy_at: str) -> bool:
        """Whether ``div`` guards the base best by holding ``at``, which covers it (RULES.md
        §8.8: "the base or the junction that covers it"): ``at`` lies on the enemy's road
        to the base, and the way back to the base is the road it came by today, so that it
        does not march back and forth (*(house)*: it stands in the enemy's way instead)."""
        m = self.memory.get(div)
        came = m.arrived if m is not None else None
        if came is None or came[1] != at or at == enemy_at:
            return False
        if m is None or m.arrived_t // DAY_MINUTES != view.now // DAY_MINUTES:
            return False
        base = view.own_base
        back = self.priced.route(at, base)
        return len(back) >= 2 and back[1] == came[0] and at in self.priced.route(enemy_at, base)

    def _threat(self, groups: dict[str, EnemyGroup], base: str) -> str | None:
        """The enemy group nearest ``base`` within ``guard_hours``, by (hours, id), or None
        (RULES.md §8.8); kept until asked of other groups (new sightings) or another base."""
        if groups is self._threat_groups and base == self._threat_base:
            return self._threat_at
        to_base = self._base_hours(base)
        guard_hours = self._doc_guard_hours
        enemy_at: str | None = None
        threat_hours = math.inf
        for j in groups:
            hours = hours_to(self.priced, to_base, j, base)
            if hours <= guard_hours and (
                enemy_at is None or nearer(hours, 0.0, j, threat_hours, 0.0, enemy_at)
            ):
                enemy_at, threat_hours = j, hours
        self._threat_groups = groups  # kept alive here: its identity is not reused
        self._threat_base = base
        self._threat_at = enemy_at
        return enemy_at

    def _guns(
        self, at: str, view: SideView, groups: dict[str, EnemyGroup], stronger: set[str]
    ) -> Order | None:
        """March to the nearest battle the side is fighting within ``guns_hours`` that the
        division can reach before its expected end (:func:`.gather.guns_place`, with
        :meth:`expected_battle_minutes`), to join it at its next bound (RULES.md §8.4,
        §8.8 *(house)*: "march to the sound of the guns"); None when none is in reach."""
        to_base = self._base_hours(view.own_base)
        j = guns_place(
            self.priced, to_base, at, view, self._doc_guns_hours, self.expected_battle_minutes()
        )
        if j is None:
            return None
        enemies = groups[j].divisions if j in groups else ()
        return self._go("guns", at, j, stronger, enemy_at=j, enemies=enemies)

    def _regroup(
        self, div: str, at: str, view: SideView, stronger: set[str], m: Memory
    ) -> Order | None:
        """Rejoin the nearest friends after a defeat (RULES.md §8.8); None, and the regroup
        over, when rejoined or no one is left to rejoin."""
        target, with_them = regroup_place(
            self.priced, self._base_hours(view.own_base), div, at, view
        )
        if target is None:
            m.regroup = False
            return None
        return self._go("regroup", at, target, stronger, friends=with_them)

    def _concentrate(
        self,
        div: str,
        at: str,
        view: SideView,
        enemy: EnemyGroup,
        stronger: set[str],
        able: dict[str, tuple[str, int, str | None]],
        places: list[str],
    ) -> Order | None:
        """Concentrate against ``enemy`` (RULES.md §8.8): march to the plan's rendezvous
        against it (the position in ``places`` nearest the enemy, chosen once), or wait
        there for friends on their way, when all of ``able`` within ``concentrate_hours`` of
        it reach ``attack_ratio``."""
        priced = self.priced
        if not places:
            return None
        base = view.own_base
        nearest = rally_point(priced, self._base_hours(base), base, places, enemy.junction)
        rally = self.plan.rendezvous_for(enemy.junction, nearest, div)
        if rally not in places:
            rally = nearest
        within = self._doc_concentrate_hours
        gathered = 0  # the boxes of ``div`` and of all of ``able`` within reach of the rally
        for d, (p, boxes, _) in able.items():
            if d == div or priced.cost(p, rally) <= within:
                gathered += boxes
        if gathered < self._doc_attack_ratio * enemy.boxes:
            return None
        if rally != at:  # (a division at the rally point is within reach of it)
            with_them = tuple(sorted([d for d, (p, _, _) in able.items() if p == rally]))
            return self._go(
                "concentrate", at, rally, stronger, friends=with_them, enemy_at=enemy.junction
            )
        coming: list[str] = []
        for d, (p, _, now_at) in able.items():
            if now_at != at and (d == div or priced.cost(p, rally) <= within):
                coming.append(d)
        if not coming:
            return None
        coming.sort()
        return Order("wait", None, None, enemy_at=enemy.junction, friends=tuple(coming))

    def _plan(self, at: str, view: SideView) -> str | None:
        """Draw the opening waypoint: a junction within ``campaign.opening_waypoint_window``
        of the way to the enemy base (30-70% by default) on a route at most
        ``plan_slack_hours`` longer than the best (house, RULES.md §8.8)."""
        low, high = self.waypoint_window
        candidates = self.priced.waypoints(
            at, view.own_base, view.enemy_base, low, high, self._doc_plan_slack_hours
        )
        if not candidates:
            return None
        return str(candidates[int(self.rng.integers(len(candidates)))])

    def _strategic(self, div: str, at: str, view: SideView, stronger: set[str], m: Memory) -> Order:
        if not m.planned:
            m.planned = True
            m.plan = self._plan(at, view)
        if m.plan == at:
            m.plan = None
        if m.plan is not None and m.plan not in stronger:
            order = self._go("plan", at, m.plan, stronger, aim=view.enemy_base)
            if order.step is not None:
                return order
        if self._doc_objectives_first:
            side, owner = view.side, view.owner
            for j in self._objectives_from(at, view):
                if owner.get(j) != side and j not in stronger:
                    order = self._go("objective", at, j, stronger)
                    if order.step is not None:
                        return order
        if self._doc_advance_on_base and at != view.enemy_base:
            if view.enemy_base in stronger:
                return Order("no_way", None, None, aim=view.enemy_base, enemy_at=view.enemy_base)
            return self._go("advance", at, view.enemy_base, stronger)
        return Order("hold", None, None)
