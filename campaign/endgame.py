"""Who holds what, the evening withdrawal checks and the end of a campaign (RULES.md §7.6, §8.7)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from battle.withdrawal import SideTally, roll_withdrawals, withdrawal_factors
from campaign.events import DayEnded, WithdrawalCheck

if TYPE_CHECKING:
    from collections.abc import Generator

    import simpy

    from campaign.engine import Campaign

__all__ = ["Endgame"]

SIDES = ("red", "blue")


def _enemy(side: str) -> str:
    return "blue" if side == "red" else "red"


class Endgame:
    """Tallies of each army and the campaign's end conditions."""

    def __init__(self, camp: Campaign) -> None:
        self.camp = camp
        self.owner: dict[str, str | None] = {}
        self.start_owner: dict[str, str | None] = {}
        self.tally = {s: dict(flags=0, batteries=0, retiring_shaken=0, off_table=0) for s in SIDES}
        self.hits = {s: 0 for s in SIDES}
        self.surrendered_boxes = {s: 0.0 for s in SIDES}
        self.initial_boxes = {s: 0 for s in SIDES}

    # ------------------------------------------------------------------ holding
    def start(self) -> None:
        """Record who holds what at the start: bases, and junctions one side alone occupies."""
        camp = self.camp
        for side in SIDES:
            self.owner[camp.map.sides[side].base] = side
            self.initial_boxes[side] = sum(d.boxes for d in camp.divisions if d.side == side)
        for j in sorted({d.location for d in camp.divisions if d.location}):
            self.occupy(j)
        self.start_owner = dict(self.owner)

    def occupy(self, junction: str) -> None:
        """A junction belongs to the side that last occupied it alone (source 000 h)."""
        sides = {d.side for d in self.camp.divisions if d.alive and d.location == junction}
        if len(sides) == 1:
            self.owner[junction] = sides.pop()

    def objective_value(self, side: str) -> int:
        return sum(v for j, v in self.camp.objectives.items() if self.owner.get(j) == side)

    # ------------------------------------------------------------------ checks
    def check_immediate(self) -> None:
        """End at once when a side has no divisions or holds the enemy base (§8.7)."""
        camp = self.camp
        if camp.over:
            return
        alive = {s: any(d.alive and d.side == s for d in camp.divisions) for s in SIDES}
        if not alive["red"] or not alive["blue"]:
            if alive["red"] or alive["blue"]:
                winner = "red" if alive["red"] else "blue"
                camp.end(winner, f"{camp.map.sides[_enemy(winner)].name} has no divisions left")
            else:
                camp.end(None, "neither side has a division left: a draw")
            return
        for side in SIDES:
            base = camp.map.sides[_enemy(side)].base
            there = {d.side for d in camp.divisions if d.alive and d.location == base}
            if there == {side}:
                camp.end(
                    side,
                    f"{camp.map.sides[side].name} holds the enemy base, "
                    f"{camp.map.graph.nodes[base]['name']}",
                )
                return

    def casualty_percent(self, side: str) -> float:
        """§7.6: hits taken (+25% of surrendered boxes) over the boxes the side began with."""
        total = self.initial_boxes[side]
        lost = self.hits[side] + self.surrendered_boxes[side]
        return 100.0 * lost / total if total else 0.0

    def _side_tally(self, side: str) -> SideTally:
        enemy = _enemy(side)
        lost = sum(
            1
            for j in self.camp.objectives
            if self.owner.get(j) == enemy and self.start_owner.get(j) != enemy
        )
        primary = self.camp.map.sides[side].primary_road
        road_lost = int(bool(primary) and any(self.owner.get(j) == enemy for j in primary or ()))
        return SideTally(objectives_lost=lost, primary_roads_lost=road_lost, **self.tally[side])

    def evenings(self) -> Generator[simpy.Event, Any, None]:
        """Each nightfall: the day's tally, withdrawal checks (§7.6), the time limit (§8.7)."""
        camp = self.camp
        env = camp.env
        for day in range(1, camp.cr.time_limit_days + 1):
            nightfall = (day - 1) * 1440 + camp.clock.daylight_minutes
            if nightfall > env.now:
                yield env.timeout(nightfall - env.now)
            if camp.over:
                return
            camp.emit(
                DayEnded(
                    int(env.now),
                    day,
                    {
                        s: sum(d.boxes for d in camp.divisions if d.alive and d.side == s)
                        for s in SIDES
                    },
                    {s: self.objective_value(s) for s in SIDES},
                    {d.id: d.place for d in camp.divisions if d.alive},
                    seen_by=(),
                )
            )
            self._withdrawal_checks()
            if camp.over:
                return
        self._decide_on_objectives()

    def _withdrawal_checks(self) -> None:
        camp = self.camp
        w = camp.rules.battle.withdrawal
        checks = []
        for side in SIDES:
            pct = self.casualty_percent(side)
            if pct < camp.cr.withdrawal_threshold_percent:
                continue
            rows = withdrawal_factors(
                w, self._side_tally(side), self._side_tally(_enemy(side)), pct
            )
            checks.append((side, pct, rows))
        if not checks:
            return
        br = camp.rules.battle
        die = br.withdrawal_die
        withdrew = []
        for c in roll_withdrawals(
            checks, lambda: camp.dice.d(die), br.withdrawal_success_total, die
        ):
            camp.emit(
                WithdrawalCheck(
                    int(camp.env.now),
                    c.side,
                    c.casualty_percent,
                    c.factors,
                    c.total,
                    c.rolls,
                    c.withdraws,
                    c.die,
                    c.success_total,
                )
            )
            if c.withdraws:
                withdrew.append(c.side)
        if len(withdrew) == 2:
            camp.end(None, "both armies withdrew the same evening: a draw")
        elif withdrew:
            loser = withdrew[0]
            camp.end(
                _enemy(loser),
                f"{camp.map.sides[loser].name} withdrew from the campaign "
                f"(evening withdrawal check, RULES.md §7.6)",
            )

    def _decide_on_objectives(self) -> None:
        camp = self.camp
        values = {s: self.objective_value(s) for s in SIDES}
        if values["red"] == values["blue"]:
            camp.end(None, f"time limit reached; objectives even at {values['red']}: a draw")
        else:
            winner = max(SIDES, key=lambda s: values[s])
            camp.end(
                winner,
                f"time limit reached; {camp.map.sides[winner].name} holds more "
                f"objective value ({values[winner]} to {values[_enemy(winner)]})",
            )

    def summary(self) -> dict[str, Any]:
        camp = self.camp
        rows = []
        for d in camp.divisions:
            state = (
                "surrendered" if d.surrendered else ("destroyed" if not d.alive else "in the field")
            )
            place = d.place or "-"
            rows.append((d.id, d.side, place, len(d.units), d.boxes if d.alive else 0, state))
        return {
            "losses": dict(self.hits),
            "divisions_left": {
                s: sum(1 for d in camp.divisions if d.alive and d.side == s) for s in SIDES
            },
            "objective_value": {s: self.objective_value(s) for s in SIDES},
            "divisions": tuple(rows),
        }
