"""The unattended campaign (RULES.md §8): divisions as SimPy processes on a campaign clock.

:func:`run_campaign` raises both armies (§2.1), marches every division under its side's
strategy doctrine (§8.8) in daylight (§8.3), tests rough roads (§8.2), fights every meeting at
a junction or on a road with :func:`battle.engine.fight` (§8.4), feeds the result back —
casualties persist, the loser falls back 2 junctions or surrenders (§8.5) — and ends the
campaign by §8.7, with a hard cap on the number of events.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

import networkx as nx
import numpy as np
import simpy

from battle.dice import Dice, percentage_test
from campaign.army import Division, raise_division, unknown_division_boxes
from campaign.battles import BattleDesk
from campaign.clock import Clock
from campaign.config import LoadedRules
from campaign.endgame import Endgame
from campaign.events import (
    CampaignEnded,
    CampaignEvent,
    CampaignStarted,
    DivisionRaised,
    Halted,
    MarchArrived,
    MarchBegun,
    RoughRoadTest,
    Sighted,
)
from campaign.maps import CampaignMap
from campaign.paths import display_path
from campaign.result import CampaignResult
from campaign.strategy import SideView, choose_goal, next_step
from campaign.versions import versions

#: a SimPy process: yields events, returns nothing
Process = Generator[simpy.Event, Any, None]

__all__ = ["Campaign", "run_campaign"]

SIDES = ("red", "blue")


class CampaignOver(Exception):
    """Raised inside a process when the campaign has ended."""


class Campaign:
    """One campaign run; build it, then call :meth:`run` once."""

    def __init__(
        self,
        cmap: CampaignMap,
        loaded: LoadedRules,
        seed: int,
        doctrines: dict[str, str] | None = None,
        *,
        record_events: bool = True,
        battle_logs: bool = False,
    ) -> None:
        self.map = cmap
        self.graph: nx.Graph = cmap.graph
        self.routes = cmap.routes
        self.loaded = loaded
        self.rules = loaded.rules
        self.cr = loaded.rules.campaign
        self.unknown_boxes = unknown_division_boxes(self.rules)  # §8.8 estimate
        self.seed = seed
        self.doctrines = doctrines or {"red": "balanced", "blue": "balanced"}
        for side in SIDES:
            name = self.doctrines[side]
            if name not in self.cr.doctrines:
                from battle.errors import ConfigError

                raise ConfigError(
                    f"no strategy doctrine named {name!r}",
                    key=f"--{side}-doctrine",
                    fix=f"Choose one of: {', '.join(sorted(self.cr.doctrines))}.",
                )
        self.record = record_events
        self.battle_logs = battle_logs
        root = np.random.SeedSequence(seed)
        forces_ss, march_ss, battles_ss = root.spawn(3)
        self.forces_dice = Dice(np.random.default_rng(forces_ss))
        self.dice = Dice(np.random.default_rng(march_ss))
        self.battles_ss = battles_ss
        self.clock = Clock(self.cr.day_start_minutes, self.cr.day_end_minutes)
        self.env = simpy.Environment()
        self.done = self.env.event()
        self.events: list[CampaignEvent] = []
        self.n_events = 0
        self.divisions: list[Division] = []
        self.winner: str | None = None
        self.reason = ""
        self.over = False
        self.neighbourhood = {
            j: set(
                nx.single_source_shortest_path_length(self.graph, j, self.cr.fog_sight_junctions)
            )
            for j in self.graph.nodes
        }
        self.last_seen: dict[str, dict[str, str]] = {s: {} for s in SIDES}
        self.known_boxes: dict[str, dict[str, int]] = {s: {} for s in SIDES}
        self.objectives = {
            j: int(d.get("value", 0))
            for j, d in sorted(self.graph.nodes(data=True))
            if d.get("objective")
        }
        self.desk = BattleDesk(self)
        self.endgame = Endgame(self)

    # ------------------------------------------------------------------ events
    def emit(self, event: CampaignEvent) -> None:
        if self.over and not isinstance(event, CampaignEnded):
            return  # the campaign has ended: what else happened this minute is not recorded
        self.n_events += 1
        if self.record:
            self.events.append(event)
        if self.n_events >= self.cr.max_events and not self.over:
            self.end(None, "event cap reached: a draw")

    def end(self, winner: str | None, reason: str) -> None:
        if self.over:
            return
        self.over = True
        self.winner, self.reason = winner, reason
        if not self.done.triggered:
            self.done.succeed()

    # ------------------------------------------------------------------ set-up
    def _raise_armies(self) -> None:
        for side in SIDES:
            setup = self.map.sides[side]
            for i in range(self.cr.divisions_per_side):
                junction = setup.starts[i % len(setup.starts)]
                div, roll = raise_division(side, i + 1, junction, self.rules, self.forces_dice)
                self.divisions.append(div)
                self.emit(
                    DivisionRaised(
                        0,
                        side,
                        div.id,
                        roll,
                        tuple((u.id, u.kind) for u in div.units),
                        junction,
                        seen_by=(side,),
                    )
                )
        self.endgame.start()

    def run(self) -> CampaignResult:
        """Run the campaign to its end (RULES.md §8.7) and return the result."""
        cmap = self.map
        self.emit(
            CampaignStarted(
                0,
                cmap.name,
                display_path(cmap.source),
                self.loaded.label,
                self.loaded.hash,
                dict(self.doctrines),
                {s: cmap.sides[s].name for s in SIDES},
                {s: cmap.sides[s].base for s in SIDES},
                self.seed,
                versions(),
                tuple(cmap.notes),
                self.cr.day_start_minutes,
                self.cr.day_end_minutes,
            )
        )
        self._raise_armies()
        self.update_sightings()
        for div in self.divisions:
            div.process = self.env.process(self._division(div))
        self.env.process(self.endgame.evenings())
        self.env.process(self._initial_contacts())
        limit = self.cr.time_limit_days * 1440 + 1
        self.env.run(until=simpy.AnyOf(self.env, [self.done, self.env.timeout(limit)]))
        if not self.over:
            self.end(None, "time limit reached with nothing decided: a draw")
        return self._result()

    # ------------------------------------------------------------------ processes
    def _division(self, div: Division) -> Process:
        env = self.env
        while not self.over and div.alive:
            try:
                if div.orders:
                    yield from self._follow_orders(div)
                    continue
                if env.now < div.busy_until:
                    yield env.timeout(div.busy_until - env.now)
                    continue
                if not self.clock.is_daylight(env.now):
                    yield env.timeout(self.clock.next_dawn(env.now) - env.now)
                    continue
                yield from self._decide_and_march(div)
            except simpy.Interrupt:
                continue

    def _follow_orders(self, div: Division) -> Process:
        kind, arg = div.orders.pop(0)
        env = self.env
        if kind == "announce":
            self.emit(arg)  # type: ignore[arg-type]
        elif kind == "wait_until":
            until = float(arg)  # type: ignore[arg-type]
            if until > env.now:
                yield env.timeout(until - env.now)
        elif kind == "march":  # a fall back or a return: no rough-road test (§8.2)
            dest = str(arg)
            origin = div.location
            if origin is None or not self.graph.has_edge(origin, dest):
                return
            yield from self._march(div, origin, dest, test_rough=False)
        elif kind == "arrive":  # finish (or walk back) part of a road after a road battle
            dest, minutes = arg  # type: ignore[misc]
            div.location = None
            yield env.timeout(max(float(minutes), 0.0))  # type: ignore[has-type]
            div.location = dest
            div.on_road = ""
            seen = (div.side, *self._enemies_seeing(div.side, dest))
            self.emit(MarchArrived(int(env.now), div.side, div.id, dest, seen_by=seen))
            self.arrived(div, dest)
            yield env.timeout(0)

    def _decide_and_march(self, div: Division) -> Process:
        env = self.env
        at = div.location
        assert at is not None
        doctrine = self.cr.doctrines[self.doctrines[div.side]]
        goal, why = choose_goal(div.id, at, self.view(div.side), doctrine, self.routes)
        dest = next_step(self.routes, at, goal)
        if dest is None:
            self._halt(div, at, why if goal is None else "waits for the enemy here")
            yield env.timeout(self.cr.hold_minutes)
            return
        minutes = self.graph.edges[at, dest]["hours"] * 60.0
        nightfall = self.clock.nightfall(env.now)
        if env.now + minutes > nightfall and minutes <= self.clock.daylight_minutes:
            self._halt(div, at, "too late in the day to set off")
            yield env.timeout(self.clock.next_dawn(nightfall) - env.now)
            return
        yield from self._march(div, at, dest, test_rough=True)

    def _halt(self, div: Division, at: str, why: str) -> None:
        if div.halted_reason != why:
            div.halted_reason = why
            self.emit(Halted(int(self.env.now), div.side, div.id, at, why, seen_by=(div.side,)))

    def _march(self, div: Division, origin: str, dest: str, test_rough: bool) -> Process:
        env = self.env
        road = self.graph.edges[origin, dest]
        if test_rough and road["kind"] == "rough":
            passed, roll = percentage_test(self.dice, self.cr.rough_road_pass)
            self.emit(
                RoughRoadTest(
                    int(env.now),
                    div.side,
                    div.id,
                    origin,
                    dest,
                    roll,
                    self.cr.rough_road_pass,
                    passed,
                    seen_by=(div.side,),
                )
            )
            if not passed:
                div.halted_reason = ""
                yield env.timeout(self.cr.rough_road_retry_minutes)
                return
        div.halted_reason = ""
        minutes = road["hours"] * 60.0
        div.location = None
        div.came_from = origin
        div.road = (origin, dest, env.now, env.now + minutes)
        seen = (div.side, *self._enemies_seeing(div.side, origin))
        self.emit(
            MarchBegun(
                int(env.now),
                div.side,
                div.id,
                origin,
                dest,
                road["kind"],
                road["hours"],
                seen_by=seen,
            )
        )
        self.desk.watch_road(div)
        yield env.timeout(minutes)
        if div.road is None or not div.alive:  # a meeting on the road already settled it
            return
        div.road = None
        div.location = dest
        seen = (div.side, *self._enemies_seeing(div.side, dest))
        self.emit(MarchArrived(int(env.now), div.side, div.id, dest, seen_by=seen))
        self.arrived(div, dest)
        # Let every other arrival of this minute land before anyone marches on, so that
        # divisions reaching one junction at the same time meet there (§8.4).
        yield env.timeout(0)

    def arrived(self, div: Division, junction: str) -> None:
        """A division reached a junction: sightings, objectives, contact (§8.4, §8.6)."""
        div.arrived_at = self.env.now
        self.update_sightings()
        self.endgame.occupy(junction)
        # Contact and the end checks wait for every other arrival of this minute: divisions
        # arriving together fight together, and an enemy reaching the same base at the same
        # time is met there, not ignored.
        self._after_this_minute(lambda: self.desk.check_contact(junction, arriving=div))
        self._after_this_minute(self.endgame.check_immediate)

    def _after_this_minute(self, action: Callable[[], object]) -> None:
        """Run ``action`` after everything already scheduled for this minute.

        A zero-delay event created now is queued behind every event scheduled earlier for
        this minute (arrivals included) and ahead of anything the running process does next.
        """
        event = self.env.timeout(0)

        def run(_: object) -> None:
            if not self.over:
                action()

        event.callbacks.append(run)

    def _initial_contacts(self) -> Process:
        """Opposing divisions that start at one junction fight there at once (§8.4)."""
        yield self.env.timeout(0)
        for junction in sorted({d.location for d in self.divisions if d.location}):
            self.desk.check_contact(junction, arriving=None)

    def wake(self, div: Division) -> None:
        """Interrupt a division's process so that it reads its new orders."""
        p = div.process
        if p is not None and p.is_alive and p is not self.env.active_process:
            p.interrupt()

    # ------------------------------------------------------------------ knowledge
    def _enemies_seeing(self, side: str, junction: str) -> tuple[str, ...]:
        enemy = "blue" if side == "red" else "red"
        for d in self.divisions:
            if d.side == enemy and d.alive:
                here = d.location or (d.road[0] if d.road else d.last_junction)
                if here is not None and junction in self.neighbourhood[here]:
                    return (enemy,)
        return ()

    def update_sightings(self) -> None:
        """Each side sees enemy divisions within its sight of its own (RULES.md §8.6)."""
        for side in SIDES:
            sight: set[str] = set()
            for d in self.divisions:
                if d.side == side and d.alive:
                    here = d.location or (d.road[0] if d.road else d.last_junction)
                    if here is not None:
                        sight |= self.neighbourhood[here]
            seen = self.last_seen[side]
            for d in self.divisions:
                if d.side == side or not d.alive:
                    continue
                if d.location is None:  # marching: gone from where it was last seen?
                    if seen.get(d.id) in sight:
                        del seen[d.id]
                    continue
                if d.location in sight and seen.get(d.id) != d.location:
                    seen[d.id] = d.location
                    self.emit(Sighted(int(self.env.now), side, d.id, d.location, seen_by=(side,)))

    def forget(self, div: Division) -> None:
        """A division surrendered or was destroyed: both sides know it is gone."""
        for side in SIDES:
            self.last_seen[side].pop(div.id, None)

    def view(self, side: str) -> SideView:
        enemy = "blue" if side == "red" else "red"
        own = [d for d in self.divisions if d.side == side and d.alive and d.location]
        return SideView(
            side=side,
            own_positions={d.id: d.location for d in own},  # type: ignore[misc]
            own_boxes={d.id: d.boxes for d in own},
            enemy_positions=dict(self.last_seen[side]),
            enemy_boxes=dict(self.known_boxes[side]),
            own_base=self.map.sides[side].base,
            enemy_base=self.map.sides[enemy].base,
            objectives=self.objectives,
            owner=self.endgame.owner,
            unknown_boxes=self.unknown_boxes,
        )

    # ------------------------------------------------------------------ result
    def _result(self) -> CampaignResult:
        t = int(self.env.now)
        summary = self.endgame.summary()
        ended = CampaignEnded(
            t,
            self.winner,
            self.reason,
            self.clock.day(max(t - 1, 0)),
            self.desk.count,
            summary["losses"],
            summary["divisions_left"],
            summary["objective_value"],
            summary["divisions"],
        )
        self.emit(ended)
        if not self.record:
            self.events.append(ended)
        return CampaignResult(
            seed=self.seed,
            winner=self.winner,
            reason=self.reason,
            end_minutes=t,
            days=ended.days,
            battles=self.desk.count,
            losses=summary["losses"],
            divisions_left=summary["divisions_left"],
            objective_value=summary["objective_value"],
            events=tuple(self.events),
            battle_rows=tuple(self.desk.rows),
        )


def run_campaign(
    cmap: CampaignMap,
    loaded: LoadedRules,
    seed: int,
    doctrines: dict[str, str] | None = None,
    *,
    record_events: bool = True,
    battle_logs: bool = False,
) -> CampaignResult:
    """Run one whole campaign (RULES.md §8) and return its :class:`CampaignResult`.

    Parameters
    ----------
    cmap
        The loaded map (:func:`campaign.maps.load_map`).
    loaded
        Rules with variants applied (:func:`campaign.config.load_rules`).
    seed
        The run's seed; every die of the campaign and its battles flows from it (§0.6).
    doctrines
        Strategy doctrine per side, ``{"red": "aggressive", "blue": "cautious"}``.
    record_events
        Keep the event stream (off for speed in batch runs; the final event is kept).
    battle_logs
        Keep each battle's bound-by-bound log lines in its BattleFought event.

    Raises
    ------
    ConfigError
        If a doctrine name is unknown.
    """
    return Campaign(
        cmap, loaded, seed, doctrines, record_events=record_events, battle_logs=battle_logs
    ).run()
