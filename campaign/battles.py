"""Meetings and their battles in a campaign (RULES.md §8.4, §8.5).

The :class:`BattleDesk` notices meetings — opposing divisions at one junction, or about to
pass each other on a road — and fights them with :func:`battle.engine.fight`:

* **One battle per junction** (§8.4): every division of either side at the junction fights;
  no second battle starts there while one is fought. Divisions already on the road to the
  junction when the battle starts, arriving before nightfall, are handed to the engine as
  :class:`~battle.arrivals.Arrival` data: they join their side at the start of the bound after
  they arrive (15 minutes a bound from the battle's start). A division that sets off for the
  junction later and arrives while the battle is fought waits there for its end.
* **Losses** go through the campaign's ledger (:meth:`campaign.ledger.Ledger.apply_losses`)
  when the battle is fought; the divisions are held until it ends.
* **Consequences** are worked out when the battle **ends** (§8.5), from where the enemy is
  then: the loser falls back 2 junctions — from its own base along the road leading farthest
  from the enemy — or surrenders when cut off; on a draw the attacker goes back whence it came.
* No battle starts between nightfall and dawn (§8.3): a meeting at night is fought at dawn.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from battle.arrivals import Arrival
from battle.engine import fight
from battle.log import format_events
from battle.result import BattleResult
from battle.units import Force
from campaign.army import Division
from campaign.events import (
    BattleFought,
    Check,
    FellBack,
    LateArrival,
    MeetingOnRoad,
    StrengthLearned,
    Surrendered,
    UnitFate,
)
from campaign.maps import retreat_path
from campaign.result import BattleRow

if TYPE_CHECKING:
    from campaign.engine import Campaign

__all__ = ["BattleDesk", "Meeting", "arrival_bound"]

SIDES = ("red", "blue")
Road = tuple[str, str]


def _enemy(side: str) -> str:
    return "blue" if side == "red" else "red"


def arrival_bound(arrive: float, start: float, bound_minutes: float) -> int:
    """The bound a division arriving at minute ``arrive`` joins, for a battle that started at
    minute ``start`` (RULES.md §8.4: at the start of its next bound; bound 1 starts at
    ``start``, bound k at ``start + (k - 1) * bound_minutes``).

    >>> arrival_bound(610, 600, 15), arrival_bound(615, 600, 15), arrival_bound(616, 600, 15)
    (2, 2, 3)
    """
    return max(1, math.ceil((arrive - start) / bound_minutes) + 1)


@dataclass(frozen=True, slots=True)
class Meeting:
    """Where a battle is fought: a junction, or a road between ``road[0]`` and ``road[1]``
    (RULES.md §8.4). A structured key: nothing parses junction ids."""

    junction: str | None = None
    road: Road | None = None

    @property
    def key(self) -> str:
        """The display key of the event stream: the junction id, or ``"a~b"`` for a road."""
        return self.junction if self.junction is not None else "~".join(self.road or ())


def _clear(path: list[str], blocked: set[str], road: Road | None) -> bool:
    """True if a precomputed route avoids the blocked junctions and the enemy's road."""
    if not path or any(j in blocked for j in path[1:]):
        return False
    return road is None or all({a, b} != set(road) for a, b in pairwise(path))


class BattleDesk:
    """Finds meetings, fights them and applies their results."""

    def __init__(self, camp: Campaign) -> None:
        self.camp = camp
        self.count = 0
        self.rows: list[BattleRow] = []
        #: junction -> minute the battle fought there ends (RULES.md §8.4: one at a time)
        self.fighting: dict[str, float] = {}
        #: divisions still marching to a battle they have joined: no road meeting stops them
        #: *(house)*: the battle was fought with them in it
        self.committed: set[str] = set()
        #: distinct places battles were fought at: a junction, or a road whichever way marched
        self.places: dict[str | tuple[str, ...], None] = {}

    # ------------------------------------------------------------------ meetings
    def watch_road(self, div: Division) -> None:
        """A division set off: schedule a meeting with any enemy coming the other way."""
        camp = self.camp
        assert div.road is not None
        origin, dest, t0, t1 = div.road
        for other in camp.divisions:
            if other.side == div.side or not other.alive or other.road is None:
                continue
            o_origin, o_dest, s0, s1 = other.road
            if (o_origin, o_dest) != (dest, origin) or s1 <= t0:
                continue
            meet = (t0 + s0 + (t1 - t0)) / 2.0  # both march the road in the same time
            camp.env.process(self._road_meeting(div, other, div.road, other.road, meet))

    def _road_meeting(
        self,
        a: Division,
        b: Division,
        road_a: tuple[str, str, float, float],
        road_b: tuple[str, str, float, float],
        meet: float,
    ) -> Generator[Any, Any, None]:
        camp = self.camp
        yield camp.env.timeout(max(meet - camp.env.now, 0.0))
        if camp.over or a.road is not road_a or b.road is not road_b:
            return
        if not (a.alive and b.alive) or a.id in self.committed or b.id in self.committed:
            return
        # Divisions marching together (same road, same direction, same hour) meet the enemy
        # together and fight as one force (RULES.md §2.3).
        together = []
        for d in camp.divisions:
            if not d.alive or d.id in self.committed or d.road is None:
                continue
            if (d.side == a.side and d.road[:3] == road_a[:3]) or (
                d.side == b.side and d.road[:3] == road_b[:3]
            ):
                together.append(d)
        ids = tuple(d.id for d in together)
        camp.emit(MeetingOnRoad(int(camp.env.now), (road_a[0], road_a[1]), ids))
        self.fight(Meeting(road=(road_a[0], road_a[1])), together, arriving=None)

    def check_contact(self, junction: str, arriving: Division | None) -> None:
        """Opposing divisions at one junction fight with everything there (§2.3, §8.4).

        While a battle is fought at the junction no other starts there: divisions that reach
        it and did not join the battle wait for its end, when the junction is checked again.
        """
        camp = self.camp
        if camp.over:
            return
        now = camp.env.now
        end = self.fighting.get(junction)
        if end is not None and end > now:
            for d in camp.divisions:
                if d.alive and d.location == junction and not d.orders and d.busy_until < end:
                    d.busy_until = end
            return
        here = [
            d
            for d in camp.divisions
            if d.alive and d.location == junction and d.busy_until <= now and not d.orders
        ]
        if len({d.side for d in here}) == 2:
            if arriving is not None and any(
                d.side != arriving.side and d.arrived_at == now for d in here
            ):
                arriving = None  # arrived together: a roll-off decides the attacker (§6.9)
            dawn = self._start_time(now)
            if dawn > now:  # no battle starts at night: fought at dawn with all there then (§8.3)
                self.fighting[junction] = dawn  # arrivals in the night wait for it (§8.4)
                for d in here:
                    d.busy_until = max(d.busy_until, dawn)
                    camp.wake(d)
                camp.env.process(self._at_dawn(junction, dawn, arriving))
                return
            self.fight(Meeting(junction=junction), here, arriving)

    def _start_time(self, now: float) -> float:
        """When a battle due at minute ``now`` starts: now, or at dawn when it is night or
        less than one bound of daylight is left (RULES.md §8.3)."""
        clock = self.camp.clock
        if not clock.is_daylight(now) or clock.nightfall(now) - now < (
            self.camp.rules.battle.bound_minutes
        ):
            return clock.next_dawn(clock.nightfall(now) + 1)
        return now

    def _at_dawn(
        self, junction: str, dawn: float, arriving: Division | None
    ) -> Generator[Any, Any, None]:
        """Hold a battle due at night until dawn, then fight it with everyone there."""
        camp = self.camp
        yield camp.env.timeout(max(dawn - camp.env.now, 0.0))
        if camp.over:
            return
        if self.fighting.get(junction) == dawn:
            del self.fighting[junction]
        if arriving is not None and (not arriving.alive or arriving.location != junction):
            arriving = None
        self.check_contact(junction, arriving)

    # ------------------------------------------------------------------ the battle
    def _joiners(
        self, junction: str, start: float, max_bounds: int, present: list[Division]
    ) -> list[tuple[Division, int]]:
        """Divisions on the road to ``junction`` that reach it while the battle may still be
        fought, with the bound each joins (RULES.md §8.4). A division with an enemy coming
        the other way on its road meets that enemy first and is left out."""
        camp = self.camp
        bound_minutes = camp.rules.battle.bound_minutes
        last = start + max_bounds * bound_minutes
        out = []
        for d in camp.divisions:
            if not d.alive or d.road is None or d.orders or d in present:
                continue
            origin, dest, _, t1 = d.road
            if dest != junction or t1 >= last:
                continue
            if any(
                e.alive and e.side != d.side and e.road is not None and e.road[:2] == (dest, origin)
                for e in camp.divisions
            ):
                continue
            out.append((d, arrival_bound(t1, start, bound_minutes)))
        return out

    def fight(self, where: Meeting, divisions: list[Division], arriving: Division | None) -> None:
        """Fight one battle now (or at dawn if it is night, §8.3) and apply its result."""
        camp = self.camp
        env = camp.env
        br = camp.rules.battle
        roll_off = None
        if arriving is not None:
            attacker = arriving.side
        else:  # simultaneous arrivals and road meetings: a seeded roll-off (§6.9)
            r, b = camp.dice.d(6), camp.dice.d(6)
            while r == b:
                r, b = camp.dice.d(6), camp.dice.d(6)
            roll_off = (r, b)
            attacker = "red" if r > b else "blue"
        start = self._start_time(env.now)  # a road meeting at night is fought at dawn (§8.3)
        max_bounds = int((camp.clock.nightfall(start) - start) // br.bound_minutes)
        joiners = (
            self._joiners(where.junction, start, max_bounds, divisions)
            if where.junction is not None
            else []
        )
        forces = [
            Force(
                camp.map.sides[s].name,
                tuple(u for d in sorted(divisions, key=_by_id) if d.side == s for u in d.units),
            )
            for s in SIDES
        ]
        arrivals = [Arrival(k, SIDES.index(d.side), tuple(d.units)) for d, k in joiners]
        battle_ss = camp.battles_ss.spawn(1)[0]
        result = fight(
            forces[0],
            forces[1],
            br,
            np.random.default_rng(battle_ss),
            attacker=SIDES.index(attacker),
            doctrines=(camp.cr.battle_doctrine, camp.cr.battle_doctrine),
            max_bounds=max_bounds,
            record_events=camp.battle_logs,
            arrivals=arrivals,
        )
        self.count += 1
        place = tuple(sorted(where.road)) if where.road is not None else where.junction
        assert place is not None
        self.places.setdefault(place, None)
        end = start + result.minutes
        joined = [(d, k, tuple(u.id for u in d.units)) for d, k in joiners if k <= result.bounds]
        self.committed.update(d.id for d, _, _ in joined)
        everyone = divisions + [d for d, _, _ in joined]
        by_side = {s: sorted((d for d in everyone if d.side == s), key=_by_id) for s in SIDES}
        winner = None if result.winner is None else SIDES[result.winner]
        totals = {u.id: u.total_hits for u in result.units}
        ledger = camp.ledger
        ledger.fought(everyone)
        lost_as = {kind: unit.lost_as for kind, unit in br.units.items()}  # flag or battery
        for d in everyone:
            ledger.apply_losses(d, totals, br.destroyed_at_hits, lost_as)  # §1.2, §7.6
            d.busy_until = end
        if winner is not None:  # a battle lost (RULES.md §7.6)
            ledger.battle_lost(_enemy(winner), by_side[_enemy(winner)])
        self._record(where, by_side, attacker, winner, result, start, roll_off, battle_ss, joined)
        for s in SIDES:  # each side learns the strength of what it fought (§2.4, §8.6)
            for d in by_side[_enemy(s)]:
                camp.known_boxes[s][d.id] = d.boxes
                camp.emit(StrengthLearned(int(start), s, d.id, len(d.units), d.boxes, seen_by=(s,)))
        for d in everyone:
            if not d.alive:
                camp.forget(d)
        if where.road is not None:
            self._hold_on_road(by_side)
        else:
            assert where.junction is not None
            self.fighting[where.junction] = end
        env.process(self._battle_over(where, by_side, winner, attacker, end, result.reason))
        for d in divisions:  # not the joiners still marching: they arrive, then wait
            camp.wake(d)
        camp.endgame.check_immediate()

    def _battle_over(
        self,
        where: Meeting,
        by_side: dict[str, list[Division]],
        winner: str | None,
        attacker: str,
        end: float,
        reason: str,
    ) -> Generator[Any, Any, None]:
        """At the battle's end: its consequences, worked out from where everyone is then."""
        camp = self.camp
        yield camp.env.timeout(max(end - camp.env.now, 0.0))
        if camp.over:
            return
        for s in SIDES:
            self.committed.difference_update(d.id for d in by_side[s])
        if where.road is not None:
            self._after_road_battle(where.road, by_side, winner, end, reason)
        else:
            assert where.junction is not None
            self.fighting.pop(where.junction, None)
            self._after_junction_battle(where.junction, by_side, winner, attacker, end, reason)
        for s in SIDES:
            for d in by_side[s]:
                camp.wake(d)
        camp.endgame.check_immediate()
        if where.junction is not None:  # once every arrival of this minute is in
            junction = where.junction
            camp._after_this_minute(lambda: self.check_contact(junction, arriving=None))

    def _record(
        self,
        where: Meeting,
        by_side: dict[str, list[Division]],
        attacker: str,
        winner: str | None,
        result: BattleResult,
        start: float,
        roll_off: tuple[int, int] | None,
        battle_ss: np.random.SeedSequence,
        joined: list[tuple[Division, int, tuple[str, ...]]],
    ) -> None:
        camp = self.camp
        names = camp.graph.nodes
        if where.road is not None:
            a, b = where.road
            place_name = f"the road {names[a]['name']} - {names[b]['name']}"
        else:
            place_name = names[where.junction]["name"]
        units = tuple(
            UnitFate(
                u.id, SIDES[u.side], u.kind, u.state, u.hits_before, u.hits_taken, u.total_hits
            )
            for u in result.units
        )
        checks = tuple(
            Check(
                SIDES[w.side],
                w.casualty_percent,
                w.factors,
                w.total,
                w.rolls,
                w.withdraws,
                w.die,
                w.success_total,
            )
            for w in result.withdrawal_checks
        )
        log = tuple(format_events(result)) if camp.battle_logs else ()
        camp.emit(
            BattleFought(
                int(start),
                where.key,
                place_name,
                {s: tuple(d.id for d in by_side[s]) for s in SIDES},
                attacker,
                winner,
                result.reason,
                result.bounds,
                result.minutes,
                {s: result.cards_lost[i] for i, s in enumerate(SIDES)},
                {s: result.cards_left[i] for i, s in enumerate(SIDES)},
                {s: result.hits_taken(i) for i, s in enumerate(SIDES)},
                {s: round(result.casualty_percent[i], 2) for i, s in enumerate(SIDES)},
                units,
                checks,
                tuple(int(k) for k in battle_ss.spawn_key),
                roll_off,
                log,
                road=where.road,
                joined=tuple(LateArrival(d.id, k, ids) for d, k, ids in joined),
            )
        )
        self.rows.append(
            BattleRow(
                self.count,
                int(start),
                camp.clock.day(start),
                where.key,
                where.road is not None,
                attacker,
                winner,
                result.reason,
                result.bounds,
                len(by_side["red"]),
                len(by_side["blue"]),
                sum(1 for u in result.units if u.side == 0),
                sum(1 for u in result.units if u.side == 1),
                result.hits_taken(0),
                result.hits_taken(1),
                result.cards_lost[0],
                result.cards_lost[1],
            )
        )

    # ------------------------------------------------------------------ consequences
    def _after_junction_battle(
        self,
        junction: str,
        by_side: dict[str, list[Division]],
        winner: str | None,
        attacker: str,
        end: float,
        reason: str,
    ) -> None:
        camp = self.camp
        if winner is None:
            # §8.5: on a draw the attacker returns whence it came (at dawn after nightfall).
            when = camp.clock.next_dawn(end + 1) if reason == "nightfall" else end
            for d in by_side[attacker]:
                if (
                    d.alive
                    and d.location == junction
                    and d.came_from
                    and camp.graph.has_edge(junction, d.came_from)
                ):
                    d.orders = [("wait_until", when), ("return", d.came_from)]
            return
        loser = _enemy(winner)
        came_by = None
        if winner == attacker:
            froms = sorted({d.came_from for d in by_side[winner] if d.came_from})
            came_by = (junction, froms[0]) if froms else None
        for d in by_side[loser]:
            if d.alive and d.location == junction:
                self._fall_back(d, junction, came_by, end)

    def _hold_on_road(self, by_side: dict[str, list[Division]]) -> None:
        """After a battle on a road both sides stay where they met until it ends."""
        now = self.camp.env.now
        for s in SIDES:
            for d in by_side[s]:
                if d.road is None:
                    continue
                origin, dest, t0, t1 = d.road
                d.road = None
                d.location = None
                d.on_road = (origin, dest)
                d.road_walked = (now - t0, (t1 - t0) - (now - t0))

    def _after_road_battle(
        self,
        road: Road,
        by_side: dict[str, list[Division]],
        winner: str | None,
        end: float,
        reason: str,
    ) -> None:
        camp = self.camp
        for s in SIDES:
            for d in by_side[s]:
                if not d.alive or d.on_road is None:
                    continue
                origin, dest = d.on_road
                walked, left = d.road_walked
                if winner == s:  # the winner marches on (§8.4)
                    d.orders = [("arrive", (dest, left))]
                elif winner is None:  # (house) a draw on the road: both go back whence they came
                    when = camp.clock.next_dawn(end + 1) if reason == "nightfall" else end
                    d.orders = [("wait_until", when), ("arrive", (origin, walked))]
                else:  # the loser's first junction back is the one it left (§8.4)
                    self._fall_back(d, origin, (origin, dest), end, from_road=walked)

    def _fall_back(
        self, d: Division, start: str, came_by: Road | None, end: float, from_road: float = 0.0
    ) -> None:
        """Fall back 2 junctions toward the base, or surrender if cut off (RULES.md §8.5).

        Worked out now, at the battle's end, from where the enemy is now: the path avoids
        junctions enemy divisions stand on and the road the enemy came by. Beaten on its own
        base, the division falls back along the road that leads farthest from the enemy.
        """
        camp = self.camp
        base = camp.map.sides[d.side].base
        blocked = {
            e.location
            for e in camp.divisions
            if e.alive and e.side != d.side and e.location and e.location != start
        }
        path: list[str] | None
        if start == base and not from_road:
            path = self._away_from_base(d, base, came_by, blocked)
        else:
            path = camp.routes.path(start, base)
            if not _clear(path, blocked, came_by):  # the usual shortest route is barred
                path = retreat_path(camp.graph, start, base, blocked, came_by)
        if path is None:
            self._surrender(d, start)
            return
        steps = camp.cr.fall_back_junctions
        orders: list[tuple[str, object]] = []
        if from_road:
            orders.append(("arrive", (start, from_road)))
            route = path[1:steps]
        else:
            route = path[1 : steps + 1]
        orders += [("march", j) for j in route]
        final = route[-1] if route else start
        onto_base = final == base
        camp.ledger.fell_back(d.side, onto_base)
        fell = FellBack(int(end), d.side, d.id, tuple([start, *route]), onto_base, bool(from_road))
        d.orders = [("announce", fell), *orders]  # logged as it sets off

    def _away_from_base(
        self, d: Division, base: str, came_by: Road | None, blocked: set[str]
    ) -> list[str] | None:
        """From its own base: up to ``fall_back_junctions`` steps along the road leading
        farthest from the enemy, never the enemy's road nor into an enemy-held junction
        (RULES.md §8.5). Distance is march hours to the nearest enemy division; ties go to
        the lowest junction ids. None when no road is open (cut off)."""
        camp = self.camp
        graph = camp.graph
        enemies = sorted(
            {
                e.location or (e.on_road[0] if e.on_road else "") or (e.road[0] if e.road else "")
                for e in camp.divisions
                if e.alive and e.side != d.side
            }
            - {""}
        )

        def open_road(a: str, b: str) -> bool:
            return b not in blocked and (came_by is None or {a, b} != set(came_by))

        paths: list[list[str]] = [[base]]
        if camp.cr.fall_back_junctions == 0:  # nobody falls back: it stays where it is
            return [base]
        for _ in range(camp.cr.fall_back_junctions):
            longer = [
                [*p, n]
                for p in paths
                for n in sorted(graph.neighbors(p[-1]))
                if n not in p and open_road(p[-1], n)
            ]
            if not longer:
                break
            paths = longer
        if len(paths[0]) == 1:
            return None

        def score(p: list[str]) -> tuple[float, list[str]]:
            far = min((camp.routes.hours(p[-1], e) for e in enemies), default=0.0)
            return (-far, p)

        return min(paths, key=score)

    def _surrender(self, d: Division, where: str) -> None:
        """A cut-off division surrenders (RULES.md §8.5, §7.5)."""
        camp = self.camp
        d.alive = False
        d.surrendered = True
        d.orders = []
        camp.ledger.surrendered(d, camp.rules.battle.withdrawal.surrendered_casualty_fraction)
        camp.forget(d)
        camp.endgame.occupy(where)
        camp.emit(Surrendered(int(camp.env.now), d.side, d.id, where))


def _by_id(d: Division) -> str:
    return d.id
