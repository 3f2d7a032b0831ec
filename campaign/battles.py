"""Meetings and their battles in a campaign (RULES.md §8.4, §8.5).

The :class:`BattleDesk` notices meetings — opposing divisions at one junction, or about to
pass each other on a road — and fights them on the battle engine chosen (its own ``fight``,
:func:`battle.engine.engine_fight`):

* **One battle per junction** (§8.4): every division of either side at the junction when it
  starts fights; no second battle starts there while one is fought.
* **Late arrivals** (§8.4): a division that reaches the junction while the battle is fought —
  whether it was already on the road when the battle began or set off later, marching to the
  guns — joins its side at the start of the battle's next bound (15 minutes a bound from its
  start), handed to the engine as :class:`~battle.arrivals.Arrival` data. The battle is then
  fought again from the start of its own random stream with the arrival added: every bound
  before the one it joins replays exactly (the engine draws nothing for an arrival before it
  joins), so what was already fought stands and only the rest changes. A division arriving
  after the battle's last bound began waits for its end.
* **Results are applied when the battle ends**: losses go through the campaign's ledger
  (:meth:`campaign.ledger.Ledger.apply_losses`), each side learns the strength of what it
  fought, and the consequences follow (:mod:`campaign.fallback`, §8.5). The
  :class:`~campaign.events.BattleFought` record is written into the event stream at the
  moment the battle began (so the stream stays in time order), with its late arrivals.
* No battle starts between nightfall and dawn (§8.3): a meeting at night is fought at dawn.
* A battle fought on the table (issue 28) takes its result from :mod:`campaign.table_battle`
  instead of the engine, and goes on from there by the same path.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from battle.arrivals import Arrival
from battle.engine import Fight, engine_fight
from battle.result import BattleResult
from battle.rules import BattleRules
from battle.units import Force, UnitSpec
from campaign import telling
from campaign.army import Division
from campaign.battle_record import battle_row, fought_event, unit_totals
from campaign.clock import arrival_bound
from campaign.events import SIDES, CampaignEvent, MeetingOnRoad, StrengthLearned
from campaign.fallback import Aftermath
from campaign.meetings import (
    Battle,
    Meeting,
    arrived_together,
    both_sides,
    both_sides_at,
    may_fight,
    place_of,
    pursuing_side,
    same_start,
)
from campaign.result import BattleRow
from campaign.schedule import later, now_of
from campaign.streams import BATTLE
from campaign.terrain import defender_steps, hold_ground

if TYPE_CHECKING:
    from campaign.engine import Campaign

__all__ = ["BattleDesk"]


def _enemy(side: str) -> str:
    return "blue" if side == "red" else "red"


class BattleDesk:
    """Finds meetings, fights them and applies their results when they end."""

    def __init__(self, camp: Campaign) -> None:
        self.camp = camp
        self.aftermath = Aftermath(camp)
        self.count = 0  # battles ended and recorded
        self.started = 0  # battles begun (numbers them in order of their start)
        self.rows: list[BattleRow] = []
        #: junction -> the battle fought there now (RULES.md §8.4: one at a time)
        self.fighting: dict[str, Battle] = {}
        #: side -> :meth:`engaged_now`'s answer while ``fighting`` stays the
        #: same (asked at every decision; emptied whenever a battle is added or removed)
        self._engaged: dict[str, tuple[tuple[str, ...], tuple[float, ...]]] = {}
        #: junction -> dawn, for a battle due at night and held until then (§8.3)
        self.dawn: dict[str, float] = {}
        #: every battle begun and not yet ended, by number (roads included)
        self.pending: dict[int, Battle] = {}
        #: distinct places battles were fought at: a junction, or a road whichever way marched
        self.places: dict[str | tuple[str, str], None] = {}
        #: the chosen engine's ``fight``, looked up at the first battle (the engine loads
        #: then): each battle calls it without the dispatch of :func:`battle.engine.fight`
        self.engine: Fight | None = None
        self.rules_changed()

    # read for every meeting or battle, set by :meth:`rules_changed` (a config model's
    # attribute is a generic look-up from compiled code): ``battle.bound_minutes`` (§8.3),
    # ``campaign.terrain_grade_steps`` (the house rule ``terrain``; empty without it), the
    # battle rules (``battle:``, §3–§7), both sides' ``campaign.battle_doctrine`` (§6.7)
    bound_minutes: int
    terrain_steps: dict[str, int]
    battle_rules: BattleRules
    doctrines: tuple[str, str]

    def rules_changed(self) -> None:
        """Read the campaign's rules again (as it is made, and when a fork changes them)."""
        camp = self.camp
        self.bound_minutes = camp.rules.battle.bound_minutes
        self.terrain_steps = camp.cr.terrain_grade_steps
        self.battle_rules = camp.rules.battle
        self.doctrines = (camp.cr.battle_doctrine, camp.cr.battle_doctrine)

    def engaged_now(self, side: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
        """The junctions where ``side`` is fighting a battle now, sorted, and the start of
        each of those battles (campaign minutes: with the expected length of a battle, when
        it should end), for a doctrine's view (RULES.md §8.4, §8.8: it hears the guns);
        worked out once while the battles stay the same."""
        if not self.fighting:
            return (), ()
        found = self._engaged.get(side)
        if found is None:
            starts: list[tuple[str, float]] = []
            for j, b in self.fighting.items():  # (loops, not generators: a decision's view)
                for d in b.divisions:
                    if d.side == side:
                        starts.append((j, b.start))
                        break
            starts.sort()
            junctions = tuple([j for j, _ in starts])
            found = self._engaged[side] = (junctions, tuple([t for _, t in starts]))
        return found

    # ------------------------------------------------------------------ meetings
    def watch_road(self, div: Division) -> None:
        """A division set off: schedule a meeting with any enemy coming the other way."""
        camp = self.camp
        assert div.road is not None
        origin, dest, t0, t1 = div.road
        side = div.side
        for other in camp.divisions:
            road = other.road
            if road is None or other.side == side or not other.alive:
                continue
            o_origin, o_dest, s0, s1 = road
            if o_origin != dest or o_dest != origin or s1 <= t0:  # (no tuples built)
                continue
            meet = (t0 + s0 + (t1 - t0)) / 2.0  # both march the road in the same time
            self._meet_later(div, other, max(meet - now_of(camp.env), 0.0))

    def _meet_later(self, a: Division, b: Division, delay: float) -> None:
        """Schedule the meeting of ``a`` and ``b`` on their road in ``delay`` minutes, where a
        process started now would have (campaign.schedule.later)."""
        road_a, road_b = a.road, b.road
        assert road_a is not None and road_b is not None
        later(self.camp.env, delay, lambda: self._road_meeting(a, b, road_a, road_b))

    def _road_meeting(
        self,
        a: Division,
        b: Division,
        road_a: tuple[str, str, float, float],
        road_b: tuple[str, str, float, float],
    ) -> None:
        camp = self.camp
        if camp.over or a.road != road_a or b.road != road_b:
            return
        if not (a.alive and b.alive):
            return
        # Divisions marching together (same road, same direction, same hour) meet the enemy
        # together and fight as one force (RULES.md §2.3).
        together = []
        for d in camp.divisions:
            road = d.road
            if not d.alive or road is None:
                continue
            # the same road, way and hour of departure (its first three items; no slices)
            if (d.side == a.side and same_start(road, road_a)) or (
                d.side == b.side and same_start(road, road_b)
            ):
                together.append(d)
        if camp.event_wanted():
            ids = tuple([d.id for d in together])
            camp.emit(MeetingOnRoad(int(now_of(camp.env)), (road_a[0], road_a[1]), ids))
        self.fight(Meeting(road=(road_a[0], road_a[1])), together, arriving=None)

    def check_contact(self, junction: str, arriving: Division | None) -> None:
        """Opposing divisions at one junction fight with everything there (§2.3, §8.4).

        While a battle is fought at the junction no other starts there: divisions that reach
        it join that battle at its next bound, or wait for its end when its last bound has
        begun; the junction is checked again when it ends.
        """
        camp = self.camp
        if camp.over:
            return
        now: float = now_of(camp.env)  # (a native float for the comparisons below)
        battle = self.fighting.get(junction)
        if battle is not None:
            self._join(battle, junction)
            return
        dawn = self.dawn.get(junction)
        if dawn is not None and dawn > now:
            self._wait_for_dawn(junction, dawn)
            return
        if not both_sides_at(camp.divisions, junction):  # (most checks: no one to meet)
            return
        # at night, divisions only resting until dawn count too: the meeting is fought then
        # (§8.3, §8.4; left out, nobody looked at the junction again at dawn)
        start = self._start_time(now)
        here = self._ready_at(junction, start)
        met = [d for d in here if may_fight(d)]
        if not both_sides(met):
            return
        if arriving is not None and arrived_together(here, arriving, now):
            arriving = None  # arrived together: a roll-off decides the attacker (§6.9)
        if start > now:  # no battle starts at night: fought at dawn with all there then (§8.3)
            self._hold_for_dawn(junction, met, now, start, arriving)
            return
        self.fight(Meeting(junction=junction), here, arriving)

    def _wait_for_dawn(self, junction: str, dawn: float) -> None:
        """Divisions that reach ``junction`` in the night of a battle held for ``dawn`` wait
        for it there (RULES.md §8.4)."""
        for d in self.camp.divisions:
            if d.alive and d.location == junction and may_fight(d) and d.busy_until < dawn:
                d.busy_until = dawn

    def _ready_at(self, junction: str, start: float) -> list[Division]:
        """The divisions at ``junction`` free for a battle starting at ``start``: everything
        each side has there (RULES.md §8.4), a draw's attacker waiting to go back included.
        Whether a battle starts is for those of them :func:`_may_fight` says are met."""
        return [
            d
            for d in self.camp.divisions
            if d.alive and d.location == junction and d.busy_until <= start
        ]

    def _hold_for_dawn(
        self,
        junction: str,
        here: list[Division],
        now: float,
        dawn: float,
        arriving: Division | None,
    ) -> None:
        """A meeting at ``junction`` at night: fought at ``dawn`` with all there then (§8.3).
        (Apart from :meth:`check_contact`: compiled, a function with a closure makes its
        closure's frame at every call, taken or not.)"""
        camp = self.camp
        self.dawn[junction] = dawn
        for d in here:
            d.busy_until = max(d.busy_until, dawn)
            camp.wake(d)
        delay = max(dawn - now, 0.0)
        later(camp.env, delay, lambda: self._at_dawn(junction, dawn, arriving))

    def _start_time(self, now: float) -> float:
        """When a battle due at minute ``now`` starts: now, or at dawn when it is night or
        less than one bound of daylight is left (RULES.md §8.3)."""
        clock = self.camp.clock
        if not clock.is_daylight(now):  # the coming dawn (after midnight, nightfall(now) is
            return clock.next_dawn(now)  # the coming evening's: a battle waited a whole day)
        if clock.nightfall(now) - now < self.bound_minutes:
            return clock.next_dawn(clock.nightfall(now) + 1)
        return now

    def _at_dawn(self, junction: str, dawn: float, arriving: Division | None) -> None:
        """At dawn, a battle held over the night (§8.3), fought with everyone there then."""
        camp = self.camp
        if camp.over:
            return
        if self.dawn.get(junction) == dawn:
            del self.dawn[junction]
        if arriving is not None and (not arriving.alive or arriving.location != junction):
            arriving = None
        self.check_contact(junction, arriving)

    # ------------------------------------------------------------------ the battle
    def fight(self, where: Meeting, divisions: list[Division], arriving: Division | None) -> None:
        """Begin one battle now (or at dawn if it is night, §8.3); its result is applied
        when it ends."""
        camp = self.camp
        roll_off = None
        pursuer = pursuing_side(divisions) if where.junction is not None else None
        if pursuer is not None:  # a beaten division caught on its fall back (issue 31)
            attacker = pursuer
        elif arriving is not None:
            attacker = arriving.side
        else:  # simultaneous arrivals and road meetings: a seeded roll-off (§6.9)
            r, b = camp.dice.d(6), camp.dice.d(6)
            while r == b:
                r, b = camp.dice.d(6), camp.dice.d(6)
            roll_off = (r, b)
            attacker = "red" if r > b else "blue"
        start = self._start_time(now_of(camp.env))  # a road meeting at night is fought at dawn
        camp.table.check_stop(self.started + 1, where, divisions, start)  # issue 28's stop
        red: list[UnitSpec] = []
        blue: list[UnitSpec] = []
        for d in sorted(divisions, key=_by_id):  # each side's units, its divisions by id
            (red if d.side == "red" else blue).extend(d.units)
        steps = 0
        terrain = self.terrain_steps  # house rule `terrain` (without it, no ground helps)
        if terrain and arriving is not None and where.junction is not None:
            ground = camp.map.graph.nodes[where.junction].get("terrain")
            steps = defender_steps(terrain, ground)
            red, blue = hold_ground(red, blue, attacker, steps)
        sides = camp.map.sides
        forces = (Force(sides["red"].name, tuple(red)), Force(sides["blue"].name, tuple(blue)))
        if where.junction is not None:  # told before the battle (its record goes here)
            telling.catches(camp, divisions, where.junction, divisions)
        self.started += 1
        battle = Battle(
            self.started,
            where,
            list(divisions),
            forces,
            attacker,
            roll_off,
            start,
            int((camp.clock.nightfall(start) - start) // self.bound_minutes),
            BATTLE + self.started,  # its own stream (campaign/streams.py, RULES.md §0.6)
            len(camp.events),
            steps,
        )
        self.pending[battle.number] = battle
        for d in divisions:  # in the battle now: no longer holding (each is woken once)
            camp.holding.discard(d.id)
            if where.junction is not None:
                d.orders = []  # a fall back caught here ends here: the battle decides (§8.4)
        if where.road is not None:
            self.aftermath.hold_on_road({s: [d for d in divisions if d.side == s] for s in SIDES})
        else:
            assert where.junction is not None
            self.fighting[where.junction] = battle
            self._engaged.clear()
        self._fight_out(battle)
        for d in camp.divisions:  # the guns are heard: divisions holding think again (§8.8)
            if d.id in camp.holding:
                camp.holding.discard(d.id)  # woken once: never again mid-march
                camp.wake(d)

    def _fight_out(self, battle: Battle) -> None:
        """Fight ``battle`` from its own stream with its late arrivals, and (re)schedule its end.

        Fought again after a late arrival, every bound before the arrival's replays exactly:
        the same stream from its start, forces and attacker, and the engine draws nothing for
        an arrival before the bound it joins (RULES.md §8.4).
        """
        camp = self.camp
        rank = camp.side_order.index  # not by id: 'B' < 'R' would put Blue first (issue 10)
        battle.joins.sort(key=lambda j: (j[1], rank(j[0].side), j[0].id))
        arrivals = [Arrival(k, SIDES.index(d.side), tuple(d.units)) for d, k in battle.joins]
        result = camp.table.outcome(battle)  # fought on the table (campaign.table_battle)
        if result is None:
            engine = self.engine
            if engine is None:
                engine = self.engine = engine_fight()
            result = engine(
                battle.forces[0],
                battle.forces[1],
                self.battle_rules,
                camp.streams.restart(battle.stream),  # from the stream's start, every time
                attacker=SIDES.index(battle.attacker),
                doctrines=self.doctrines,
                max_bounds=battle.max_bounds,
                record_events=camp.battle_logs,
                arrivals=arrivals,
                rewind=False,  # the shared generator is restarted before its next use
            )
        battle.result = result
        battle.version += 1
        end = battle.end
        over = end <= now_of(camp.env)  # over before its first bound (a side began beaten)
        if not over:
            # its end is scheduled before the divisions it holds go back to sleep, so that
            # at that minute the result is applied before any of them thinks again
            version = battle.version
            later(camp.env, end - now_of(camp.env), lambda: self._battle_over(battle, version))
        for d in battle.members():
            d.busy_until = end  # held until it ends
            d.in_battle = True
        if over:  # settled now (which wakes them once, to read their new orders)
            self._settle(battle)
            return
        for d in battle.members():
            # Not woken (it would only fall asleep until the battle's end, which wakes it): one
            # asleep in this battle, or one that arrived this minute and waits for its contact
            # check, to go on after it (Campaign._land): it will find itself in the battle
            if (d.asleep and not d.woken) or d.checking:
                continue
            camp.wake(d)

    def _join(self, battle: Battle, junction: str) -> None:
        """Divisions that reached ``junction`` while ``battle`` is fought there join their
        side at its next bound (RULES.md §8.4); after its last bound began they wait."""
        camp = self.camp
        assert battle.result is not None
        inside = {d.id for d in battle.members()}
        # it joins from now: one that stood there on other orders joins as it arrives
        k = arrival_bound(now_of(camp.env), battle.start, self.bound_minutes)
        new = []
        for d in camp.divisions:
            if not d.alive or d.location != junction or not may_fight(d) or d.id in inside:
                continue
            telling.catches(camp, [d], junction, battle.members())
            d.orders = []  # a fall back caught by the battle stops here (§8.4)
            if k <= battle.result.bounds and d.units and camp.table.may_join(battle, d):
                new.append((d, k))
            elif d.busy_until < battle.end:
                d.busy_until = battle.end  # the battle is all but over: it waits for the end
                camp.wake(d)
        if new:
            battle.joins.extend(new)
            self._fight_out(battle)

    def _battle_over(self, battle: Battle, version: int) -> None:
        """At the battle's end: its result applied and recorded, and its consequences worked
        out from where everyone is then (RULES.md §8.5)."""
        camp = self.camp
        if camp.over or battle.version != version:
            return  # fought again with a late arrival: that version ends it
        self._settle(battle)

    def _settle(self, battle: Battle) -> None:
        """Apply and record ``battle``'s result and work out its consequences (§8.5)."""
        camp = self.camp
        if camp.table.ends_look_ahead(battle):  # the stop before a table battle (issue 28)
            return
        del self.pending[battle.number]
        everyone = battle.members()
        for d in everyone:
            d.in_battle = False  # woken below
        where = battle.where
        junction = where.junction
        if junction is not None:
            del self.fighting[junction]
            self._engaged.clear()
        by_side, winner = self._apply(battle, everyone)
        result = battle.result
        reason = result.reason if result is not None else ""
        road = where.road
        if road is not None:
            self.aftermath.after_road_battle(road, by_side, winner, battle.end, reason)
        else:
            assert junction is not None
            self.aftermath.after_junction_battle(
                junction, by_side, winner, battle.attacker, battle.end, reason
            )
        for s in camp.side_order:  # woken in the campaign's seeded order, not red first
            for d in by_side[s]:
                camp.wake(d)
        camp.endgame.check_immediate()
        if junction is not None:  # once every arrival of this minute is in
            self._check_later(junction)

    def _check_later(self, junction: str) -> None:
        """The contact check of ``junction`` after everything already due this minute.
        (Apart from :meth:`_settle`: compiled, a function with a closure makes its
        closure's frame at every call.)"""
        self.camp._after_this_minute(lambda: self.check_contact(junction, arriving=None))

    def _apply(
        self, battle: Battle, everyone: list[Division]
    ) -> tuple[dict[str, list[Division]], str | None]:
        """Losses, the battle lost, what each side learned (RULES.md §1.2, §2.4, §7.6), and
        the battle's record in the stream; returns the divisions by side and the winner.
        ``everyone`` is :meth:`Battle.members`."""
        camp = self.camp
        result = battle.result
        assert result is not None
        red: list[Division] = []
        blue: list[Division] = []
        for d in sorted(everyone, key=_by_id):  # one sort: each side's list stays by id
            (red if d.side == "red" else blue).append(d)
        by_side = {"red": red, "blue": blue}
        winner = None if result.winner is None else SIDES[result.winner]
        record = camp.record
        # each late arrival's units as it brought them, before its losses take the
        # destroyed ones off it (RULES.md §8.4: the log and the odds name them all)
        joined = [(d, k, tuple([u.id for u in d.units])) for d, k in battle.joins] if record else []
        self._losses(result, everyone, by_side, winner)
        self.count += 1
        place = place_of(battle.where)
        if place not in self.places:
            self.places[place] = None
        start = int(battle.start)
        events: list[CampaignEvent] = []
        camp.battle_seen(
            start + result.minutes,
            {"red": _ids(red), "blue": _ids(blue)},
            winner,
            result.minutes,
            battle.where.junction,
        )
        if camp.event_wanted():  # (emitted with the rest by _write)
            events.append(fought_event(camp, battle, by_side, joined))
        self._learn_strengths(start, by_side, events)
        if record:
            self._write(battle, events)
        self._add_row(battle_row(camp, battle, by_side))
        for d in everyone:
            if not d.alive:
                telling.destroyed(camp, d, place, telling.winners(everyone, d.side))
                camp.forget(d)
                if d.location:  # the last enemy division there gone: control (RULES.md §7.2)
                    camp.endgame.occupy(d.location)
        return by_side, winner

    def _losses(
        self,
        result: BattleResult,
        everyone: list[Division],
        by_side: dict[str, list[Division]],
        winner: str | None,
    ) -> None:
        """Each division's losses and the battle lost, in the ledger (RULES.md §1.2, §7.6)."""
        camp = self.camp
        totals = unit_totals(result)
        ledger = camp.ledger
        ledger.fought(everyone)
        destroyed_at = camp.destroyed_at
        lost_as = camp.lost_as  # flag or battery, by unit type
        for d in everyone:
            ledger.apply_losses(d, totals, destroyed_at, lost_as)
        if winner is not None:
            loser = _enemy(winner)
            ledger.battle_lost(loser, by_side[loser])

    def _learn_strengths(
        self, start: int, by_side: dict[str, list[Division]], events: list[CampaignEvent]
    ) -> None:
        """Each side learns the strength of what it fought (RULES.md §2.4, §8.6)."""
        camp = self.camp
        known = camp.known_boxes
        for s in SIDES:
            learned = known[s]
            for d in by_side[_enemy(s)]:
                learned[d.id] = d.boxes
                if camp.event_wanted():
                    events.append(
                        StrengthLearned(start, s, d.id, len(d.units), d.boxes, seen_by=(s,))
                    )

    def _add_row(self, row: BattleRow) -> None:
        """The battle's table row, in the order the battles began."""
        rows = self.rows
        if not rows or rows[-1].index < row.index:  # ended in the order begun: at the end
            rows.append(row)
        else:
            bisect.insort(rows, row, key=_row_index)

    def _write(self, battle: Battle, record: list[CampaignEvent]) -> None:
        """Emit a battle's record and move it to where the battle began in the stream: after
        everything before its start, and after the battles begun before it."""
        camp = self.camp
        events = camp.events
        n = len(events)
        for e in record:
            camp.emit(e)
        added = events[n:]
        slot = max(battle.slot, bisect.bisect_left(events, battle.start, hi=n, key=_t))
        if not added:
            return
        if slot < n:
            del events[n:]
            events[slot:slot] = added
        # later slots move down by what was put in, also when the record stayed at the end: a
        # battle begun the same minute with a later number still comes after it in the log
        for other in self.pending.values():
            if other.slot > slot or (other.slot == slot and other.number > battle.number):
                other.slot += len(added)


def _ids(divisions: list[Division]) -> tuple[str, ...]:
    """The ids of ``divisions``, in order."""
    return tuple([d.id for d in divisions])


def _row_index(row: BattleRow) -> int:
    return row.index


def _t(e: CampaignEvent) -> float:
    return e.t


def _by_id(d: Division) -> str:
    return d.id
