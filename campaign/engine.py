"""The unattended campaign (RULES.md §8): divisions as SimPy processes on a campaign clock.

:func:`run_campaign` raises both armies (§2.1), marches every division under its side's
strategy doctrine (§8.8) in daylight (§8.3), tests rough roads (§8.2), fights every meeting at
a junction or on a road with :func:`battle.engine.fight` (§8.4), feeds the result back —
casualties persist, the loser falls back 2 junctions or surrenders (§8.5) — and ends the
campaign by §8.7, with a hard cap on the number of events.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any, TypedDict, Unpack

import networkx as nx
import simpy
from simpy.core import StopSimulation

from battle.dice import Dice, percentage_test
from campaign import telling
from campaign.army import Division
from campaign.battles import BattleDesk
from campaign.config import LoadedRules
from campaign.endgame import Endgame, final_result
from campaign.events import (
    SIDES,
    CampaignEnded,
    CampaignEvent,
    MarchArrived,
    MarchBegun,
    RoughRoadTest,
)
from campaign.ledger import Ledger
from campaign.maps import CampaignMap
from campaign.orders import OrderBook
from campaign.reinforcements import raise_armies, schedule_entries
from campaign.result import CampaignResult, header
from campaign.schedule import (
    WOKEN,
    Alarm,
    Clock,
    Routine,
    Wait,
    Waitable,
    after_urgent,
    due_now,
    first_of,
    may_wake,
    now_of,
    queued,
    ring,
    set_active,
    waits_on,
)
from campaign.setting import setting_of
from campaign.sightings import enemies_seeing, update_sightings
from campaign.snapshot import capture
from campaign.state import CampaignState
from campaign.strategy import BattleSeen, Strategist, check_doctrines
from campaign.streams import FORCES, MARCH, SIDE_ORDER, STRATEGY, Streams
from campaign.table_battle import BattleReached, BattleStart, TableDesk
from campaign.table_result import TableResult

#: a process (campaign.schedule.Routine): yields events or waits, returns nothing
Process = Generator[Waitable, Any, None]
#: a part of a division's process: yields events, returns True when it was woken at one of
#: its waits (:meth:`Campaign.wake`: resumed with ``WOKEN``), for
#: :meth:`Campaign.division_process` to start over from the top
Step = Generator[Waitable, Any, bool]

__all__ = ["Campaign", "Recording", "run_campaign"]


class Recording(TypedDict, total=False):
    """What a campaign keeps besides its result, as keyword arguments of :class:`Campaign`
    and of the functions that build one for a caller (:func:`run_campaign`,
    :func:`campaign.resume.resume`): ``record_events`` keeps the event stream (default
    True; off for speed in batch runs, the final event is kept), ``battle_logs`` each
    battle's bound-by-bound log lines in its BattleFought event (default False)."""

    record_events: bool
    battle_logs: bool


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
        table_results: Sequence[TableResult] = (),
    ) -> None:
        self.seed = seed
        self.doctrines = doctrines or {"red": "balanced", "blue": "balanced"}
        check_doctrines(self.doctrines, loaded.rules.campaign.doctrines)
        setting = setting_of(cmap, loaded)  # the same for every campaign of this map and rules
        self.map = cmap
        self.graph: nx.Graph = setting.graph
        self.routes = cmap.routes
        self.loaded = loaded
        self.rules = setting.rules
        self.cr = setting.cr
        self.unknown_boxes = setting.unknown_boxes  # §8.8 estimate (shared)
        #: unit type -> what losing one counts as, "flag" or "battery" (RULES.md §7.2)
        self.lost_as = setting.lost_as
        #: actual hits that destroy a unit (``battle.destroyed_at_hits``, RULES.md §1.2)
        self.destroyed_at: int = setting.destroyed_at
        self.time_limit_days = setting.time_limit_days  # reinforcements checked (§8.9)
        self.record = record_events
        self.battle_logs = battle_logs
        # every stream of the seed is Philox under one key, told apart by its counter block
        # (RULES.md §0.6; campaign/streams.py lists them)
        self.streams = Streams(seed)
        self.forces_dice = Dice(self.streams.generator(FORCES))
        self.dice = Dice(self.streams.generator(MARCH))
        # Who acts first when things happen in the same minute (processes started, woken,
        # reinforcements entering) is a seeded draw per campaign, never the colour: with
        # red always first, equal positions were not equal (issue 10, item 4).
        first = self.streams.coin(SIDE_ORDER)  # (``integers(2)`` of its stream)
        #: the sides in the order they act within one minute (RULES.md §0.6: seeded)
        self.side_order: tuple[str, str] = (SIDES[first], SIDES[1 - first])
        self.clock = setting.clock  # immutable: shared
        self.env = Clock()
        self.done = self.env.event()
        #: never triggered: a division in a battle sleeps on it until the battle's end wakes it
        self.never = self.env.event()
        #: triggered as the campaign ends or its time limit passes (set by :meth:`start`)
        self.finished = self.never
        self.stopped = False  # (True once ``finished`` has stopped SimPy)
        self.events: list[CampaignEvent] = []
        self.n_events = 0
        #: ``campaign.max_events``, read for every event: a native int here (a config
        #: model's attribute is a generic, interpreted look-up from compiled code)
        self.max_events: int = setting.max_events
        self.hold_minutes: int = setting.hold_minutes  # (the same: read every hold)
        #: campaign character counts (see CampaignResult)
        self.counts = {"rough_road_tests": 0, "rough_road_failures": 0, "marches": 0, "flank": 0}
        self.divisions: list[Division] = []
        self.winner: str | None = None
        self.reason = ""
        self.over = False
        #: (a, b) -> (march hours, road kind), both directions
        self.roads = setting.roads
        #: a -> b -> the same (hours, kind), read for every decision that marches
        self.roads_from = setting.roads_from
        #: junction -> what a division there sees (RULES.md §8.6); shared, read-only
        self.neighbourhood = setting.neighbourhood
        self.last_seen: dict[str, dict[str, str]] = {"red": {}, "blue": {}}
        self.known_boxes: dict[str, dict[str, int]] = {"red": {}, "blue": {}}
        self.objectives = dict(setting.objectives)
        #: side -> (its base, the enemy's), read for every decision (RULES.md §8.7); shared
        self.bases: dict[str, tuple[str, str]] = setting.bases
        self.ledger = Ledger(self.objectives, setting.primary_roads)
        self.desk = BattleDesk(self)
        #: battles fought on the table: their results, the stop before one (issue 28)
        self.table = TableDesk(self, table_results)
        #: what each division is ordered, and what the log has told of it (RULES.md §8.8)
        self.orders = OrderBook(self)
        self.holding: set[str] = set()  # divisions holding on a doctrine's order (may be woken)
        self.endgame = Endgame(self)
        self.strategists = {
            side: Strategist(
                side,
                self.cr.doctrines[self.doctrines[side]],
                self.graph,
                self.cr,
                self.streams.generator(STRATEGY[side]),
            )
            for side in SIDES
        }

    # ------------------------------------------------------------------ events
    def emit(self, event: CampaignEvent) -> None:
        if self.over and not isinstance(event, CampaignEnded):
            return  # the campaign has ended: what else happened this minute is not recorded
        self.n_events += 1
        if self.record:
            self.events.append(event)
        if self.n_events >= self.max_events and not self.over:
            self.end(None, "event cap reached: a draw")

    def battle_seen(
        self,
        ended: float,
        divisions: dict[str, tuple[str, ...]],
        winner: str | None,
        minutes: float = 0.0,
        place: str | None = None,
    ) -> None:
        """Both sides' strategists learn a battle's end, divisions, winner, length in
        minutes and junction (None on a road) (RULES.md §8.6), whether events are recorded
        or not."""
        if not self.over:
            seen = BattleSeen(ended, divisions, winner, minutes, place)
            for strategist in self.strategists.values():
                strategist.observe_battle(seen)

    def fall_back_seen(self, side: str, division: str, path: tuple[str, ...]) -> None:
        """Both sides' strategists learn a fall back and its path (RULES.md §8.5)."""
        if not self.over:
            for strategist in self.strategists.values():
                strategist.observe_fall_back(side, division, path)

    def event_wanted(self) -> bool:
        """Whether to build the event that happens now and :meth:`emit` it: yes with events
        on; with events off (batch runs) no, and it is counted here as :meth:`emit` would
        count it, so that the event cap (``campaign.max_events``) ends a campaign at the
        same event either way. Every event of the stream takes this one path:
        ``if camp.event_wanted(): camp.emit(Event(...))``."""
        if self.record:
            return True
        if not self.over:
            self.n_events += 1
            if self.n_events >= self.max_events:
                self.end(None, "event cap reached: a draw")
        return False

    def end(self, winner: str | None, reason: str) -> None:
        if self.over:
            return
        self.over = True
        self.winner, self.reason = winner, reason
        if not self.done.triggered:
            self.done.succeed()

    def _started(self) -> None:
        """Log the campaign's header: map, rules, doctrines, bases, seed, versions."""
        if self.event_wanted():
            self.emit(header(self))

    def run(self) -> CampaignResult:
        """Run the campaign to its end (RULES.md §8.7) and return the result."""
        self.start()
        return self.finish()

    def start(self) -> None:
        """Begin the campaign (header, armies raised, processes scheduled); nothing runs
        until :meth:`run_until` or :meth:`finish`."""
        self._started()
        raise_armies(self)  # at their starts (RULES.md §2.1)
        update_sightings(self)
        env = self.env
        for div in self.divisions:
            div.process = Routine(env, self.division_process(div))
        Routine(env, self.endgame.evenings())
        # the initial contact check and the reinforcements' entries, scheduled by one urgent
        # event where the processes that waited for them started (campaign.schedule.ring)
        begin = env.event()
        begin.callbacks.append(lambda _: schedule_entries(self))
        ring(env, begin)
        limit = self.time_limit_days * 1440 + 1
        self.finished = first_of(env, (self.done, env.timeout(limit)))
        self.finished.callbacks.append(self._stop)

    def _stop(self, event: simpy.Event) -> None:  # over, or out of time: SimPy stops
        self.stopped = True
        if not self.over:
            self.end(None, "time limit reached with nothing decided: a draw")
        StopSimulation.callback(event)

    def run_until(self, minute: float) -> bool:
        """Run up to the start of ``minute`` (> now), or to the end if it comes first; True
        if it stopped at ``minute``. Run on, it goes as if it had not stopped."""
        if self.stopped:
            return False
        self.env.run(until=minute)
        return not self.stopped

    def run_until_battle(self, rule: Callable[[BattleStart], bool]) -> BattleReached | None:
        """Run (starting the campaign if need be) until just before the first battle that
        ``rule`` accepts and that has no table result, and return where it stopped (its state
        then and the battle's set-up with its late arrivals, :mod:`campaign.table_battle`);
        None if the campaign ended first. A campaign stopped so cannot run on: build it
        again with the battle's result (``table_results``)."""
        if self.finished is self.never:  # not started yet
            self.start()
        table = self.table
        table.rule = rule
        self.run_to_end()
        table.rule = None
        if table.reached is None and table.ahead is not None:  # ended while it was fought
            table.ends_look_ahead(self.desk.pending[table.ahead])
        return table.reached

    @property
    def table_results(self) -> dict[int, TableResult]:
        """Battle number -> the result entered for it by hand (issue 28)."""
        return self.table.results

    def run_to_end(self) -> None:
        """Run the campaign on to its end (nothing if it has ended)."""
        if not self.stopped:
            self.env.run()

    def state(self) -> CampaignState:
        """The campaign's state now, as plain data (:mod:`campaign.state`)."""
        return capture(self, now_of(self.env))

    def finish(self) -> CampaignResult:
        """Run the campaign on to its end (RULES.md §8.7) and return the result."""
        if self.table.reached is not None:
            raise RuntimeError("a campaign stopped before a battle cannot run on: build it again")
        self.run_to_end()
        result = final_result(self)  # its last event (RULES.md §8.7)
        self.streams.release()  # its generators go to the next campaign of this process
        return result

    # ------------------------------------------------------------------ processes
    def division_process(self, div: Division) -> Process:
        """A division's life: orders first, then waits (a battle, the night), then its
        doctrine's decisions (RULES.md §8.8). Woken (:meth:`wake`: resumed with ``WOKEN``),
        whatever it waited on, it starts over from the top: the step it was in returns True
        at once (after what it must do first), as SimPy's interrupt would have unwound it."""
        env = self.env
        while not self.over and div.alive:
            now = now_of(env)
            woken = False
            if div.orders:
                woken = yield from self._follow_orders(div)
            elif now < div.busy_until:
                if div.in_battle:  # asleep until the battle's end rings its alarm (wake)
                    div.alarm = alarm = Alarm()
                    div.asleep = True
                    woken = (yield alarm) is WOKEN
                    div.woken = div.asleep = False
                else:
                    woken = (yield env.wait(div.busy_until - now)) is WOKEN
            elif not self.clock.is_daylight(now):
                woken = (yield env.wait(self.clock.next_dawn(now) - now)) is WOKEN
            else:  # its doctrine decides: march on, or wait (or hold) where it is
                dest, delay, hold = self.orders.decide(div)
                if dest is not None:
                    woken = yield from self._march(div, div.location or "", dest, test_rough=True)
                elif hold:  # may be woken to march with others or by the guns (§8.8)
                    self.holding.add(div.id)
                    try:
                        woken = (yield env.wait(delay)) is WOKEN
                    finally:
                        self.holding.discard(div.id)
                else:
                    woken = (yield env.wait(delay)) is WOKEN
            if woken:
                div.woken = div.asleep = div.checking = False
        # sleeps for good (woken after all, it ends): an ending process schedules an event
        yield self.never

    def _follow_orders(self, div: Division) -> Step:
        kind, arg = div.orders.pop(0)
        env = self.env
        if kind == "wait_until":
            until = float(arg)  # type: ignore[arg-type]
            now = now_of(env)
            if until > now:
                if (yield env.wait(until - now)) is WOKEN:
                    if now_of(env) < until and div.orders:  # woken early: it still waits (a
                        div.orders.insert(0, (kind, arg))  # return after a draw at nightfall
                    return True  # goes at dawn, RULES.md §8.3, §8.5)
                return False
        elif kind in ("march", "return", "return_retry"):  # a fall back or a return
            dest = str(arg)
            origin = div.location
            if origin is None or (origin, dest) not in self.roads:
                return False
            if kind != "march":  # only fall backs march at night (RULES.md §8.3)
                march_minutes = self.roads[origin, dest][0] * 60.0
                now = now_of(env)
                nightfall = self.clock.nightfall(now)
                if not self.clock.is_daylight(now) or (
                    now + march_minutes > nightfall and march_minutes <= self.clock.daylight_minutes
                ):
                    div.orders.insert(0, (kind, arg))
                    # at night the coming dawn (after midnight nightfall() is the coming
                    # evening's); by day the dawn after this evening
                    night = not self.clock.is_daylight(now)
                    dawn = self.clock.next_dawn(now if night else nightfall)
                    return (yield env.wait(dawn - now)) is WOKEN
            if kind == "return":  # told once, as it first sets off (issue 31: every move)
                seen = (div.side, *enemies_seeing(self, div.side, origin))
                telling.returns(self, div, origin, dest, origin, seen)
            # §8.2: a return after a draw is no fall back: it tests its rough road, and on a
            # fail holds and tries again after the wait
            if (yield from self._march(div, origin, dest, test_rough=kind != "march")):
                return True
            if kind != "march" and div.location == origin:
                div.orders.insert(0, ("return_retry", arg))
                return False
            if div.orders and div.location == dest and due_now(env):
                # a fall back that reaches a junction lets this minute's contact check run
                # before it marches on: an enemy standing there catches it (RULES.md §8.4)
                return (yield env.wait(0)) is WOKEN
        elif kind in ("arrive", "march_on", "return_road"):  # the rest of a road after a
            # road battle: a loser's walk back (its fall back told), a winner's march on or a
            # return after a draw (told here, §8.4)
            leg: tuple[Any, ...] = arg  # type: ignore[assignment]
            dest, minutes = str(leg[0]), float(leg[1])
            if kind != "arrive":
                seen = (div.side, *enemies_seeing(self, div.side, dest))
                telling.road_left(self, div, kind, leg, seen)
            div.location = None
            if (yield env.wait(max(minutes, 0.0))) is WOKEN:
                return True
            div.on_road = None
            self.arrived(div, dest)
            return (yield from self._land(div, dest))
        return False

    def _march(self, div: Division, origin: str, dest: str, test_rough: bool) -> Step:
        env = self.env
        hours, kind = self.roads[origin, dest]
        if test_rough and kind == "rough":
            passed, roll = percentage_test(self.dice, self.cr.rough_road_pass)
            self.counts["rough_road_tests"] += 1
            self.counts["rough_road_failures"] += not passed
            if self.event_wanted():
                self.emit(
                    RoughRoadTest(
                        int(now_of(env)),
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
                return (yield env.wait(self.cr.rough_road_retry_minutes)) is WOKEN
        div.halted_reason = ""
        minutes = hours * 60.0
        self.counts["marches"] += 1
        div.location = None
        div.came_from = origin
        now = now_of(env)
        div.road = (origin, dest, now, now + minutes)
        self.endgame.occupy(origin)  # a contested junction left to one side (RULES.md §7.2)
        if self.event_wanted():
            seen = (div.side, *enemies_seeing(self, div.side, origin))
            self.emit(
                MarchBegun(int(now), div.side, div.id, origin, dest, kind, hours, seen_by=seen)
            )
        self.desk.watch_road(div)
        if (yield env.wait(minutes)) is WOKEN:
            return True
        if div.road is None or not div.alive:  # a meeting on the road already settled it
            return False
        div.road = None
        self.arrived(div, dest)
        return (yield from self._land(div, dest))

    def arrived(self, div: Division, junction: str) -> None:
        """A division reached a junction: it stands there, its arrival is logged (seen by
        the enemy within sight), then sightings and objectives (§8.6); its contact check
        (§8.4) follows in :meth:`_land`."""
        div.location = junction
        if self.event_wanted():
            seen = (div.side, *enemies_seeing(self, div.side, junction))
            self.emit(MarchArrived(int(now_of(self.env)), div.side, div.id, junction, seen_by=seen))
        div.arrived_at = now_of(self.env)
        update_sightings(self)
        self.endgame.occupy(junction)

    def _land(self, div: Division, junction: str) -> Step:
        """After an arrival: the contact check after every other arrival of this minute
        (arriving together, they fight together, §8.4), then the division goes on: one
        zero-delay event for both (once two in a row), or none if it would run next. Woken
        by the check, it waits for its wake-up; else it lets what the check began go first."""
        # no end check (§8.7): a side loses its last division in a battle's settlement, which
        # checks at once (BattleDesk._settle): the campaign is over, what follows counts not
        env = self.env
        div.checking = True
        if due_now(env):
            # the check runs when this zero-delay event does, before the division goes on:
            # done by the division's process as it resumes (where a callback of the event
            # would run it, without the callback), outside any process as a callback would be
            check = env.wait(0)
            if (yield check) is WOKEN:  # woken first: the check still runs with its event
                self._contact_when(check, div, junction)
                return True
            set_active(env, None)
            self._contact(check, div, junction)
            set_active(env, div.process)
        else:  # run as its event would be: outside any process (so a wake interrupts this)
            set_active(env, None)
            self._contact(None, div, junction)
            set_active(env, div.process)
        defer, div.defer, div.checking = div.defer, False, False
        if div.woken:  # its wake-up (sent) ends this wait
            return (yield self.never) is WOKEN
        if defer and not div.in_battle:  # (in a battle it only falls asleep next)
            return (yield after_urgent(env)) is WOKEN
        return False

    def _contact_when(self, check: Wait, div: Division, junction: str) -> None:
        """Run the contact check of ``div`` at ``junction`` when ``check`` runs (apart from
        :meth:`_land`: compiled, a closure makes its frame at every call, taken or not)."""
        check.then(lambda _: self._contact(check, div, junction))

    def _contact(self, check: Wait | None, div: Division, junction: str) -> None:
        """The contact check after ``div``'s arrival (§8.4), run by ``check`` (or inline)."""
        if not self.over:
            n = queued(self.env)
            self.desk.check_contact(junction, arriving=div)
            p = div.process
            div.defer = (
                queued(self.env) != n and p is not None and (check is None or waits_on(p) is check)
            )

    def _after_this_minute(self, action: Callable[[], object]) -> None:
        """Run ``action`` after everything already scheduled for this minute: a zero-delay
        event created now is queued behind every event scheduled earlier for this minute
        (arrivals included) and ahead of anything the running process does next."""
        event = self.env.wait(0)

        def run(_: object) -> None:
            if not self.over:
                action()

        event.then(run)

    def wake(self, div: Division) -> None:
        """Wake a division's process (as an interrupt would: ``Routine.wake``) so that it
        reads its new orders."""
        p = div.process
        if p is not None and may_wake(self.env, p):
            if div.asleep and not div.woken and div.alarm is not None:
                ring(self.env, div.alarm)  # where an interrupt would be, and cheaper
            else:
                p.wake()  # it starts over (division_process)
            div.woken = True

    def forget(self, div: Division) -> None:
        """A division surrendered or was destroyed: both sides know it is gone."""
        for side in SIDES:
            self.last_seen[side].pop(div.id, None)
        for strategist in self.strategists.values():
            strategist.observe_gone(div.id)


def run_campaign(
    cmap: CampaignMap,
    loaded: LoadedRules,
    seed: int,
    doctrines: dict[str, str] | None = None,
    **recording: Unpack[Recording],
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
    **recording
        ``record_events`` and ``battle_logs`` (:class:`Recording`).

    Raises
    ------
    ConfigError
        If a doctrine name is unknown.
    """
    return Campaign(cmap, loaded, seed, doctrines, **recording).run()
