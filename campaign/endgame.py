"""Who holds what, the evening withdrawal checks and the end of a campaign (RULES.md §7.6, §8.7)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from battle.events import Factor
from battle.withdrawal import WithdrawalTable, roll_withdrawals, withdrawal_table
from campaign.events import SIDES, CampaignEnded, DayEnded, DivisionAtEnd, WithdrawalCheck
from campaign.ledger import Ledger
from campaign.result import CampaignResult
from campaign.schedule import Waitable, due_now, now_of

if TYPE_CHECKING:
    from collections.abc import Generator

    from campaign.engine import Campaign

__all__ = ["Endgame", "final_result"]


#: the §7.2 row names as they read at division scale (RULES.md §7.6)
DIVISION_ROWS = {
    "flags lost": "divisions lost",
    "flags captured": "enemy divisions lost",
    "batteries lost": "batteries lost (per 3)",
    "batteries captured": "enemy batteries lost (per 3)",
    "units retiring shaken": "divisions beaten",
    "enemy units retiring shaken": "enemy divisions beaten",
    "units off the table": "divisions onto base or cut off",
    "enemy units off the table": "enemy divisions onto base or cut off",
}


def _enemy(side: str) -> str:
    return "blue" if side == "red" else "red"


class Endgame:
    """The campaign's end conditions, read from the ledger (RULES.md §7.6, §8.7)."""

    def __init__(self, camp: Campaign) -> None:
        self.camp = camp
        self.ledger: Ledger = camp.ledger
        #: side -> the campaign day its base fell (held alone by the enemy at nightfall)
        self.base_fell_day: dict[str, int] = {}
        self.rules_changed()

    # the evening check's numbers (RULES.md §7.6), read once (a config model's attribute is a
    # generic look-up from compiled code), set by :meth:`rules_changed`:
    threshold: float
    scale: str
    batteries_per_factor: int
    #: the §7.2 factor table (shared per rules object, battle.withdrawal)
    table: WithdrawalTable
    die: int
    success_total: int

    def rules_changed(self) -> None:
        """Read the campaign's rules again (as it is made, and when a fork changes them)."""
        cr = self.camp.cr
        br = self.camp.rules.battle
        self.threshold = cr.withdrawal_threshold_percent
        self.scale = cr.withdrawal_scale
        self.batteries_per_factor = cr.batteries_per_factor
        self.table = withdrawal_table(br.withdrawal)
        self.die = br.withdrawal_die
        self.success_total = br.withdrawal_success_total

    @property
    def owner(self) -> dict[str, str | None]:
        """Junction -> the side that controls it (RULES.md §7.2), for the strategy's view."""
        return self.ledger.owner

    # ------------------------------------------------------------------ holding
    def start(self) -> None:
        """Record the casualty base and who controls what when the campaign begins."""
        camp = self.camp
        red = blue = 0
        occupied: dict[str, list[str]] = {}
        for d in camp.divisions:  # (one loop, no generators)
            if d.side == "red":
                red += d.boxes
            else:
                blue += d.boxes
            if d.location:
                occupied.setdefault(d.location, []).append(d.side)
        self.ledger.begin_army("red", red)
        self.ledger.begin_army("blue", blue)
        self.ledger.begin({s: camp.bases[s][0] for s in SIDES}, occupied)

    def occupy(self, junction: str) -> None:
        """The occupants of ``junction`` changed: update control (RULES.md §7.2)."""
        red = blue = False
        for d in self.camp.divisions:
            if d.location == junction and d.alive:
                if d.side == "red":
                    red = True
                else:
                    blue = True
                if red and blue:  # (asked at every march and arrival: no need to look on)
                    break
        self.ledger.occupied(junction, red, blue)

    def objective_value(self, side: str) -> int:
        return self.ledger.objective_value(side)

    # ------------------------------------------------------------------ checks
    def check_immediate(self) -> None:
        """End at once when a side has no divisions left (RULES.md §8.7)."""
        camp = self.camp
        if camp.over:
            return
        red = blue = False  # (a loop, no set or dict: checked after every battle)
        for d in camp.divisions:
            if d.alive:
                if d.side == "red":
                    red = True
                elif d.side == "blue":
                    blue = True
        if not red or not blue:
            if red or blue:
                winner = "red" if red else "blue"
                loser = camp.map.sides[_enemy(winner)]
                camp.end(winner, f"{loser.name} {loser.agrees('has', 'have')} no divisions left")
            else:
                camp.end(None, "neither side has a division left: a draw")
            return

    def check_bases(self) -> None:
        """At nightfall: a side that holds the enemy's base alone wins (RULES.md §8.7; a base
        taken by day can still be retaken before dark). Both at once: a draw."""
        camp = self.camp
        if camp.over:
            return
        holders: list[tuple[str, str]] = []
        for side in SIDES:
            base = camp.bases[side][1]  # the enemy's
            own = enemy = False  # (loops, no sets: checked every evening)
            for d in camp.divisions:
                if d.alive and d.location == base:
                    if d.side == side:
                        own = True
                    else:
                        enemy = True
            if own and not enemy:
                holders.append((side, base))
        if len(holders) == 2:
            camp.end(None, "each side holds the other's base at nightfall: a draw")
        elif holders:
            side, base = holders[0]
            self.base_fell_day[_enemy(side)] = camp.clock.day(max(now_of(camp.env) - 1, 0))
            holder = camp.map.sides[side]
            camp.end(
                side,
                f"{holder.name} {holder.agrees('holds', 'hold')} the enemy base, "
                f"{camp.map.graph.nodes[base]['name']}, at nightfall",
            )

    def casualty_percent(self, side: str) -> float:
        """§7.6: hits taken (+25% of surrendered boxes) over the boxes the side began with."""
        return self.ledger.casualty_percent(side)

    def evenings(self) -> Generator[Waitable, Any, None]:
        """Each nightfall: the day's tally, withdrawal checks (§7.6), the time limit (§8.7)."""
        camp = self.camp
        env = camp.env
        for day in range(1, camp.time_limit_days + 1):
            nightfall = (day - 1) * 1440 + camp.clock.daylight_minutes
            if nightfall > now_of(env):
                yield env.wait(nightfall - now_of(env))
            # let every battle that ends at nightfall settle its fall backs first (§8.5); with
            # nothing else due this minute, the wait would end at once
            if due_now(env):
                yield env.wait(0)
            if camp.over:
                return
            if camp.event_wanted():
                self._day_ended(day)
            self.check_bases()
            if camp.over:
                return
            self._withdrawal_checks()
            if camp.over:
                return
        self._decide_on_objectives()

    def _day_ended(self, day: int) -> None:
        """Log the day's tally: strength, objectives and every division's place."""
        camp = self.camp
        camp.emit(
            DayEnded(
                int(now_of(camp.env)),
                day,
                {s: sum(d.boxes for d in camp.divisions if d.alive and d.side == s) for s in SIDES},
                {s: self.objective_value(s) for s in SIDES},
                {d.id: d.place for d in camp.divisions if d.alive},
                seen_by=(),
            )
        )

    def _withdrawal_checks(self) -> None:
        camp = self.camp
        threshold = self.threshold
        checks: list[tuple[str, float, list[Factor]]] = []
        for side in SIDES:
            pct = self.ledger.casualty_percent(side)
            if pct < threshold:
                continue
            scale = self.scale
            own, enemy = self.ledger.withdrawal_tallies(side, scale, self.batteries_per_factor)
            rows = self.table.factors(own, enemy, pct)  # (withdrawal_factors, RULES.md §7.2)
            if scale == "division" and camp.record:  # names: the log's only
                rows = [Factor(DIVISION_ROWS.get(name, name), n) for name, n in rows]
            checks.append((side, pct, rows))
        if checks:
            self._roll_withdrawals(checks)

    def _roll_withdrawals(self, checks: list[tuple[str, float, list[Factor]]]) -> None:
        """Roll the evening's withdrawal checks (RULES.md §7.3, §7.6) and end the campaign
        if an army withdraws. (Apart from :meth:`_withdrawal_checks`: compiled, a function
        with a closure makes its closure's frame at every call, taken or not.)"""
        camp = self.camp
        die = self.die
        dice = camp.dice
        withdrew = []
        for c in roll_withdrawals(checks, lambda: dice.d(die), self.success_total, die):
            if camp.event_wanted():
                camp.emit(
                    WithdrawalCheck(
                        int(now_of(camp.env)),
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
            ahead = camp.map.sides[winner]
            camp.end(
                winner,
                f"time limit reached; {ahead.name} {ahead.agrees('holds', 'hold')} more "
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
            boxes = d.boxes if d.alive else 0
            rows.append(DivisionAtEnd(d.id, d.side, place, len(d.units), boxes, state))
        return {
            "losses": {s: self.ledger.sides[s].hits for s in SIDES},
            "divisions_left": {
                s: sum(1 for d in camp.divisions if d.alive and d.side == s) for s in SIDES
            },
            "objective_value": {s: self.objective_value(s) for s in SIDES},
            "divisions": tuple(rows),
        }


def final_result(camp: Campaign) -> CampaignResult:
    """Emit ``camp``'s last event (CampaignEnded, kept with events off too) and return its
    result (RULES.md §8.7). Compiled with the campaign: every campaign ends through it."""
    t = int(now_of(camp.env))
    endgame = camp.endgame
    summary = endgame.summary()
    fell = min(endgame.base_fell_day.items(), default=None)
    desk = camp.desk
    ended = CampaignEnded(
        t,
        camp.winner,
        camp.reason,
        camp.clock.day(max(t - 1, 0)),
        desk.count,
        summary["losses"],
        summary["divisions_left"],
        summary["objective_value"],
        summary["divisions"],
    )
    camp.emit(ended)
    if not camp.record:
        camp.events.append(ended)
    counts = camp.counts
    return CampaignResult(
        seed=camp.seed,
        winner=camp.winner,
        reason=camp.reason,
        end_minutes=t,
        days=ended.days,
        battles=desk.count,
        losses=summary["losses"],
        divisions_left=summary["divisions_left"],
        objective_value=summary["objective_value"],
        events=tuple(camp.events),
        battle_rows=tuple(desk.rows),
        rough_road_tests=counts["rough_road_tests"],
        rough_road_failures=counts["rough_road_failures"],
        battle_places=len(desk.places),
        marches=counts["marches"],
        flank_marches=counts["flank"],
        base_fell=fell[0] if fell else None,
        base_fell_day=fell[1] if fell else None,
    )
