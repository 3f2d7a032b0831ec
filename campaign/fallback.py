"""What follows a battle in a campaign (RULES.md §8.4, §8.5): the loser falls back 2 junctions —
from its own base along the road leading farthest from the enemy — or surrenders when cut off;
on a draw at a junction the attacker goes back whence it came; after a battle on a road the
winner marches on and the loser walks back to the junction it left.

Everything is worked out when the battle **ends**, from where the enemy is then (§8.5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaign.army import Division
from campaign.events import SIDES, FellBack, Surrendered
from campaign.schedule import now_of
from campaign.telling import winners

if TYPE_CHECKING:
    from campaign.engine import Campaign

__all__ = ["Aftermath", "Road"]

Road = tuple[str, str]


def _enemy(side: str) -> str:
    return "blue" if side == "red" else "red"


def _same_road(a: str, b: str, road: Road) -> bool:
    """Whether ``a``-``b`` is ``road`` either way: ``{a, b} == set(road)``, without the sets."""
    x, y = road
    return a in (x, y) and b in (x, y) and x in (a, b) and y in (a, b)


def _on_any(a: str, b: str, roads: tuple[Road, ...]) -> bool:
    """Whether ``a``-``b`` is one of ``roads`` (either way)."""
    for road in roads:  # noqa: SIM110 (a loop: a compiled generator is an object a call)
        if _same_road(a, b, road):
            return True
    return False


def _clear(path: list[str], blocked: set[str], roads: tuple[Road, ...]) -> bool:
    """True if a precomputed route avoids the blocked junctions and every road the enemy
    came by."""
    if not path:
        return False
    for i in range(1, len(path)):
        if path[i] in blocked:
            return False
    prev = path[0]
    for j in path[1:]:
        if _on_any(prev, j, roads):
            return False
        prev = j
    return True


class Aftermath:
    """The consequences of battles (RULES.md §8.4, §8.5) for one campaign."""

    def __init__(self, camp: Campaign) -> None:
        self.camp = camp
        #: ``campaign.fall_back_junctions`` (RULES.md §8.5: 2), read at every fall back
        self.steps: int = camp.cr.fall_back_junctions

    def after_junction_battle(
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
                    and (junction, d.came_from) in camp.roads  # (the graph's edge)
                ):
                    d.orders = [("wait_until", when), ("return", d.came_from)]
            return
        loser = _enemy(winner)
        # §8.5: never by the road the enemy came by: every such road, never a self-loop
        came_by: tuple[Road, ...] = ()
        if winner == attacker:
            froms = sorted({d.came_from for d in by_side[winner] if d.came_from})
            came_by = tuple([(junction, f) for f in froms if f != junction])
        by = winners(by_side[winner], loser)
        for d in by_side[loser]:
            if d.alive and d.location == junction:
                self.fall_back(d, junction, came_by, end, by=by)

    def hold_on_road(self, by_side: dict[str, list[Division]]) -> None:
        """After a battle on a road both sides stay where they met until it ends."""
        now = now_of(self.camp.env)
        for s in SIDES:
            for d in by_side[s]:
                if d.road is None:
                    continue
                origin, dest, t0, t1 = d.road
                d.road = None
                d.location = None
                d.on_road = (origin, dest)
                d.road_walked = (now - t0, (t1 - t0) - (now - t0))

    def after_road_battle(
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
                if winner == s:  # the winner re-forms, then marches on (§8.4, house)
                    d.orders = [("march_on", (dest, left, origin))]
                    rally = camp.cr.road_victor_rally_minutes
                    if rally:
                        d.orders.insert(0, ("wait_until", end + rally))
                elif winner is None:  # (house) a draw on the road: both go back whence they came
                    # by daylight (RULES.md §8.3): at dawn after one ended at or by nightfall
                    when = camp.clock.next_dawn(end + 1 if reason == "nightfall" else end)
                    key = "~".join(road)  # the battle's place (Meeting.key)
                    d.orders = [("wait_until", when), ("return_road", (origin, walked, dest, key))]
                else:  # the loser's first junction back is the one it left (§8.4)
                    by = winners(by_side[winner], s)
                    self.fall_back(d, origin, ((origin, dest),), end, from_road=walked, by=by)

    def fall_back(
        self,
        d: Division,
        start: str,
        came_by: tuple[Road, ...],
        end: float,
        from_road: float = 0.0,
        by: tuple[str, ...] = (),
    ) -> None:
        """Fall back 2 junctions toward the base, or surrender if cut off (RULES.md §8.5) to
        ``by``, the divisions that beat it.

        Worked out now, at the battle's end, from where the enemy is now: the path avoids
        junctions enemy divisions stand on and every road the enemy came by. Beaten on its own
        base, the division falls back along the road that leads farthest from the enemy.
        """
        camp = self.camp
        base = camp.bases[d.side][0]
        blocked = {
            e.location
            for e in camp.divisions
            if e.alive and e.side != d.side and e.location and e.location != start
        }
        path: list[str] | None
        if start == base and not from_road:
            path = self.away_from_base(d, base, came_by, blocked)
        else:
            path = camp.routes.path(start, base)
            if not _clear(path, blocked, came_by):  # the usual shortest route is barred
                path = camp.routes.retreat(start, base, blocked, came_by)
        if path is None:
            self.surrender(d, start, by)
            return
        steps = self.steps
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
        # announced now, as the battle is settled and before anyone is woken: both sides
        # learn it at once, whichever side's divisions think first (issue 10, item 4)
        path_taken = (start, *route)
        camp.fall_back_seen(d.side, d.id, path_taken)
        if camp.event_wanted():
            camp.emit(FellBack(int(end), d.side, d.id, path_taken, onto_base, bool(from_road)))
        d.orders = orders

    def away_from_base(
        self, d: Division, base: str, came_by: tuple[Road, ...], blocked: set[str]
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
            return b not in blocked and not _on_any(a, b, came_by)

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

    def surrender(self, d: Division, where: str, by: tuple[str, ...] = ()) -> None:
        """A cut-off division surrenders (RULES.md §8.5, §7.5) at ``where`` to ``by``."""
        camp = self.camp
        d.alive = False
        d.surrendered = True
        d.orders = []
        camp.ledger.surrendered(d, camp.rules.battle.withdrawal.surrendered_casualty_fraction)
        camp.forget(d)
        camp.endgame.occupy(where)
        if camp.event_wanted():
            camp.emit(Surrendered(int(now_of(camp.env)), d.side, d.id, where, by))
