"""Choosing a division's order (RULES.md §8.7-§8.8): the doctrine's precedence at work.

:class:`Chooser` adds to :class:`.mind.SideMind` the choice of a free division's next order,
in order of precedence (see :mod:`campaign.strategy.doctrine`): the urgent ones (guard the
base, hold the enemy base, regroup, march to the guns), pursue, attack, concentrate, then
the opening plan, objectives and the enemy base; each marches by :meth:`Chooser._go`, which
avoids stronger enemies (a flank march when that turns one). Whether the order is kept,
settled against the army-level plan or turned is :class:`.doctrine.Strategist`'s.
"""

from __future__ import annotations

import math

from campaign.strategy.gather import guns_place, is_guard, rally_point, regroup_place
from campaign.strategy.knowledge import EnemyGroup, Memory, Order, SideView, rally_places
from campaign.strategy.mind import SideMind
from campaign.strategy.plan import DAY_MINUTES, not_fought_today
from campaign.strategy.routing import hours_to, nearer, runs_through
from campaign.strategy.targets import attack_target, pursuit_target

__all__ = ["Chooser"]


class Chooser(SideMind):
    """One side's choice of orders (RULES.md §8.8) on its memory (:class:`.mind.SideMind`)."""

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
        rally = self.plan.standing_rendezvous(enemy.junction)
        if rally is None or rally not in places:  # (else the nearest place is not needed)
            nearest = rally_point(priced, self._base_hours(base), base, places, enemy.junction)
            if rally is None:  # chosen now, and kept for the others
                self.plan.rendezvous_for(enemy.junction, nearest, div)
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
