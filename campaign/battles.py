"""Meetings and their battles in a campaign (RULES.md §8.4, §8.5).

The :class:`BattleDesk` notices meetings — opposing divisions at one junction, or about to
pass each other on a road — fights them with :func:`battle.engine.fight`, and feeds the
result back: actual hits persist, destroyed units are gone, the loser falls back 2 junctions
or surrenders when cut off, and the divisions are held for the battle's duration.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

from battle.engine import fight
from battle.log import format_events
from battle.units import Force
from campaign.army import Division
from campaign.events import BattleFought, FellBack, MeetingOnRoad, StrengthLearned, Surrendered
from campaign.maps import retreat_path
from campaign.result import BattleRow

if TYPE_CHECKING:
    from collections.abc import Generator

    import simpy

    from battle.result import BattleResult
    from campaign.engine import Campaign

    #: a SimPy process: yields events, returns nothing
    Process = Generator[simpy.Event, object, None]
    Road = tuple[str, str, float, float]

__all__ = ["BattleDesk"]

SIDES = ("red", "blue")


def _enemy(side: str) -> str:
    return "blue" if side == "red" else "red"


def _clear(path: list[str] | None, blocked: set[str], road: tuple[str, str] | None) -> bool:
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

    # ------------------------------------------------------------------ meetings
    def watch_road(self, div: Division) -> None:
        """A division set off: schedule a meeting with any enemy coming the other way."""
        camp = self.camp
        origin, dest, t0, t1 = div.road  # type: ignore[misc]
        for other in camp.divisions:
            if other.side == div.side or not other.alive or other.road is None:
                continue
            o_origin, o_dest, s0, s1 = other.road
            if (o_origin, o_dest) != (dest, origin) or s1 <= t0:
                continue
            meet = (t0 + s0 + (t1 - t0)) / 2.0  # both march the road in the same time
            assert div.road is not None and other.road is not None  # both on the road
            camp.env.process(self._road_meeting(div, other, div.road, other.road, meet))

    def _road_meeting(
        self, a: Division, b: Division, road_a: Road, road_b: Road, meet: float
    ) -> Process:
        camp = self.camp
        yield camp.env.timeout(max(meet - camp.env.now, 0.0))
        if camp.over or a.road is not road_a or b.road is not road_b:
            return
        if not (a.alive and b.alive):
            return
        # Divisions marching together (same road, same direction, same hour) meet the enemy
        # together and fight as one force (RULES.md §2.3).
        together = [
            d
            for d in camp.divisions
            if d.alive
            and d.road is not None
            and (
                (d.side == a.side and d.road[:3] == road_a[:3])
                or (d.side == b.side and d.road[:3] == road_b[:3])
            )
        ]
        ids = tuple(d.id for d in together)
        camp.emit(MeetingOnRoad(int(camp.env.now), (road_a[0], road_a[1]), ids))
        self.fight(f"{road_a[0]}~{road_a[1]}", together, arriving=None)

    def check_contact(self, junction: str, arriving: Division | None) -> None:
        """Opposing divisions at one junction fight with everything there (§2.3, §8.4)."""
        camp = self.camp
        if camp.over:
            return
        now = camp.env.now
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
            self.fight(junction, here, arriving)

    def _recheck(self, junction: str, at: float) -> Process:
        camp = self.camp
        yield camp.env.timeout(max(at - camp.env.now, 0.0))
        if not camp.over:
            self.check_contact(junction, arriving=None)

    # ------------------------------------------------------------------ the battle
    def fight(self, place: str, divisions: list[Division], arriving: Division | None) -> None:
        """Fight one battle now (or at dawn if it is night) and apply its result."""
        camp = self.camp
        env = camp.env
        br = camp.rules.battle
        on_road = "~" in place
        by_side = {
            s: sorted((d for d in divisions if d.side == s), key=lambda d: d.id) for s in SIDES
        }
        roll_off = None
        if arriving is not None:
            attacker = arriving.side
        else:  # simultaneous arrivals and road meetings: a seeded roll-off (§6.9)
            r, b = camp.dice.d(6), camp.dice.d(6)
            while r == b:
                r, b = camp.dice.d(6), camp.dice.d(6)
            roll_off = (r, b)
            attacker = "red" if r > b else "blue"
        start = env.now
        if (
            not camp.clock.is_daylight(start)
            or camp.clock.nightfall(start) - start < br.bound_minutes
        ):
            start = camp.clock.next_dawn(camp.clock.nightfall(start) + 1)
        max_bounds = int((camp.clock.nightfall(start) - start) // br.bound_minutes)
        forces = [
            Force(camp.map.sides[s].name, tuple(u for d in by_side[s] for u in d.units))
            for s in SIDES
        ]
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
        )
        self.count += 1
        end = start + result.minutes
        winner = None if result.winner is None else SIDES[result.winner]
        totals = {u.id: u.total_hits for u in result.units}
        for s in SIDES:
            camp.endgame.hits[s] += result.hits_taken(SIDES.index(s))
            for d in by_side[s]:
                kinds = {u.id: u.kind for u in d.units}
                before = {u.id for u in d.units}
                d.apply_hits(totals, br.destroyed_at_hits)
                for uid in sorted(before - {u.id for u in d.units}):
                    lost_as = br.units[kinds[uid]].lost_as  # RULES.md §7.2 flag or battery
                    key = "batteries" if lost_as == "battery" else "flags"
                    camp.endgame.tally[s][key] += 1
                d.busy_until = end
        self._record(place, by_side, attacker, winner, result, start, roll_off, battle_ss)
        for s in SIDES:  # each side learns the strength of what it fought (§2.4, §8.6)
            for d in by_side[_enemy(s)]:
                camp.known_boxes[s][d.id] = d.boxes
                camp.emit(
                    StrengthLearned(int(env.now), s, d.id, len(d.units), d.boxes, seen_by=(s,))
                )
        for d in divisions:
            if not d.alive:
                camp.forget(d)
        if on_road:
            self._after_road_battle(by_side, winner, end, result.reason)
        else:
            self._after_junction_battle(place, by_side, winner, attacker, end, result.reason)
        for d in divisions:
            camp.wake(d)
        if winner is not None:
            camp.endgame.tally[_enemy(winner)]["retiring_shaken"] += 1  # a battle lost (§7.6)
        camp.endgame.check_immediate()

    def _record(
        self,
        place: str,
        by_side: dict[str, list[Division]],
        attacker: str,
        winner: str | None,
        result: BattleResult,
        start: float,
        roll_off: tuple[int, int] | None,
        battle_ss: np.random.SeedSequence,
    ) -> None:
        camp = self.camp
        names = camp.graph.nodes
        if "~" in place:
            a, b = place.split("~")
            place_name = f"the road {names[a]['name']} - {names[b]['name']}"
        else:
            place_name = names[place]["name"]
        units = tuple(
            (u.id, SIDES[u.side], u.kind, u.state, u.hits_before, u.hits_taken, u.total_hits)
            for u in result.units
        )
        checks = tuple(
            (SIDES[w.side], w.total, w.rolls, w.withdraws) for w in result.withdrawal_checks
        )
        log = tuple(format_events(result)) if camp.battle_logs else ()
        camp.emit(
            BattleFought(
                int(start),
                place,
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
            )
        )
        self.rows.append(
            BattleRow(
                self.count,
                int(start),
                camp.clock.day(start),
                place,
                "~" in place,
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
                if d.alive and d.came_from and camp.graph.has_edge(junction, d.came_from):
                    d.orders = [("wait_until", when), ("march", d.came_from)]
            camp.env.process(self._recheck(junction, end))
            return
        loser = _enemy(winner)
        came_by = None
        if winner == attacker:
            froms = sorted({d.came_from for d in by_side[winner] if d.came_from})
            came_by = (junction, froms[0]) if froms else None
        for d in by_side[loser]:
            if d.alive:
                self._fall_back(d, junction, came_by, end)
        camp.env.process(self._recheck(junction, end))

    def _after_road_battle(
        self, by_side: dict[str, list[Division]], winner: str | None, end: float, reason: str
    ) -> None:
        camp = self.camp
        for s in SIDES:
            for d in by_side[s]:
                if not d.alive:
                    d.road = None
                    continue
                assert d.road is not None  # it was marching when the battle began
                origin, dest, t0, t1 = d.road
                walked = camp.env.now - t0
                d.road = None
                d.on_road = f"{origin}~{dest}"
                if winner == s:  # the winner marches on (§8.4)
                    d.orders = [("wait_until", end), ("arrive", (dest, (t1 - t0) - walked))]
                elif winner is None:  # (house) a draw on the road: both go back whence they came
                    when = camp.clock.next_dawn(end + 1) if reason == "nightfall" else end
                    d.orders = [("wait_until", when), ("arrive", (origin, walked))]
                else:  # the loser's first junction back is the one it left (§8.4)
                    d.location = None
                    self._fall_back(d, origin, (origin, dest), end, from_road=walked)

    def _fall_back(
        self,
        d: Division,
        start: str,
        came_by: tuple[str, str] | None,
        end: float,
        from_road: float = 0.0,
    ) -> None:
        """Fall back 2 junctions toward the base, or surrender if cut off (§8.5)."""
        camp = self.camp
        base = camp.map.sides[d.side].base
        blocked = {
            e.location
            for e in camp.divisions
            if e.alive and e.side != d.side and e.location and e.location != start
        }
        path: list[str] | None = camp.routes.path(start, base)
        if not _clear(path, blocked, came_by):  # the usual shortest route is barred
            path = retreat_path(camp.graph, start, base, blocked, came_by)
        if start == base and not from_road:
            path = None  # (house) beaten on its own base it has nowhere to fall back: cut off
        if path is None:
            d.alive = False
            d.surrendered = True
            camp.endgame.tally[d.side]["flags"] += 1
            camp.endgame.tally[d.side]["off_table"] += 1
            camp.endgame.surrendered_boxes[d.side] += (
                camp.rules.battle.withdrawal.surrendered_casualty_fraction * d.boxes
            )
            camp.forget(d)
            camp.emit(Surrendered(int(camp.env.now), d.side, d.id, start))
            return
        steps = camp.cr.fall_back_junctions
        orders: list[tuple[str, object]] = [("wait_until", end)]
        if from_road:
            orders.append(("arrive", (start, from_road)))
            route = path[1:steps]
        else:
            route = path[1 : steps + 1]
        orders += [("march", j) for j in route]
        final = route[-1] if route else start
        onto_base = final == base
        if onto_base:
            camp.endgame.tally[d.side]["off_table"] += 1
        # logged when the division sets off, once the battle is over
        orders.insert(
            1,
            (
                "announce",
                FellBack(
                    int(end), d.side, d.id, tuple([start, *route]), onto_base, bool(from_road)
                ),
            ),
        )
        d.orders = orders
