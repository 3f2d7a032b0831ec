"""What one side's strategist keeps and learns (RULES.md §8.8): the state behind its decisions.

:class:`SideMind` holds the doctrine's numbers, each division's :class:`.knowledge.Memory`,
the army-level plan (:class:`.plan.ArmyPlan`), and the answers kept between decisions (the
enemy groups, own boxes at a junction, the stronger enemies, objectives by distance). It
learns from battles (pursuit, regrouping, the expected length of a battle), from divisions
destroyed or surrendered, and from enemies seen falling back (RULES.md §8.5, §8.6).
:class:`.choosing.Chooser` chooses orders on it and :class:`.doctrine.Strategist` keeps and
settles them.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from campaign.config import CampaignRules, StrategyDoctrine
from campaign.strategy.knowledge import GUARD_CODES, BattleSeen, EnemyGroup, Memory, SideView
from campaign.strategy.plan import DAY_MINUTES, ArmyPlan
from campaign.strategy.routing import PricedRoutes

#: the expected length of a battle before the side has seen one end, in minutes (house:
#: about the median battle of the shipped maps); after that, the mean of those it fought
EXPECTED_BATTLE_MINUTES = 120.0

__all__ = ["EXPECTED_BATTLE_MINUTES", "SideMind"]


class SideMind:
    """One side's memory and the answers it keeps (RULES.md §8.8); the parameters are
    :class:`.doctrine.Strategist`'s."""

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
        #: battle this side won (kept off the same day, :meth:`.doctrine.Strategist._let_go`)
        self.falling: dict[str, tuple[str, ...]] = {}
        #: division -> (day, enemy junction) of the last guard order it was given: a guard
        #: posted stays on the base until dawn (:meth:`.choosing.Chooser._urgent`)
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
        #: the groups, own base and nearest threat to it last worked out
        #: (:meth:`.choosing.Chooser._threat`)
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

    def observe_battle(self, seen: BattleSeen) -> None:
        """Learn the outcome of a battle its divisions fought (pursuit, regrouping, the
        plan's ``battle`` trigger, the expected length of a battle); a battle none of its
        divisions fought teaches it nothing here."""
        mine = seen.divisions.get(self.side, ())
        if not mine:
            return
        self.plan.battle_seen(seen.end, seen.place)
        if seen.minutes > 0:
            self._battles_seen += 1
            self._battle_minutes += seen.minutes
        enemy = "blue" if self.side == "red" else "red"
        fought = (int(seen.end // DAY_MINUTES), frozenset(seen.divisions.get(enemy, ())))
        if seen.winner != self.side:  # (they did not fall back from this one)
            for e in fought[1]:
                self.falling.pop(e, None)
        for div in mine:
            m = self._mem(div)
            m.plan = None
            m.planned = True
            came = m.came
            if came is not None and (
                came[1] == seen.place  # it fought where it marched to
                or (
                    seen.place is None and seen.winner == self.side
                )  # won on the road: marches on there
            ):
                m.arrived, m.arrived_order, m.arrived_t = came, m.came_order, m.came_t
            m.came = None
            m.fought = fought
            if seen.winner == self.side and self._doc_pursue_hours > 0:
                m.pursue = self.plan.alive(tuple(seen.divisions.get(enemy, ())))
                m.pursue_until = seen.end + self._doc_pursue_hours * 60.0
                m.regroup = False
            elif seen.winner == enemy:
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
