"""The state of one battle and the phases of a bound (RULES.md §3–§7).

:class:`BattleState` holds both sides' units and decks and applies one rule at a time,
emitting events when recording is on. :func:`battle.engine.fight` drives it.
"""

from __future__ import annotations

from battle.deck import MovementDeck, deck_composition
from battle.dice import Dice
from battle.doctrine import Order
from battle.events import (
    BattleEnded,
    BattleEvent,
    BoundStarted,
    CardLost,
    FormationChanged,
    HitResolved,
    MeleeResolved,
    Moved,
    StateChanged,
    TestRolled,
    WithdrawalChecked,
)
from battle.result import BattleResult, UnitOutcome
from battle.tables import Tables
from battle.units import Force, Unit
from battle.withdrawal import SideTally, withdrawal_factors

__all__ = ["BattleState"]


class BattleState:
    """Units, decks and bookkeeping of one battle (internal to the engine)."""

    def __init__(
        self, t: Tables, forces: tuple[Force, Force], dice: Dice, attacker: int, record: bool
    ):
        r = t.rules
        self.t = t
        self.r = r
        self.dice = dice
        self.forces = forces
        self.attacker = attacker
        self.record = record
        self.events: list[BattleEvent] = []
        self.turn = 0
        self.bounds = 0
        self.winner: int | None = None
        self.reason = ""
        self.over = False
        self.depth = r.ground_depth_inches
        self.sides: tuple[list[Unit], list[Unit]] = ([], [])
        for side, force in enumerate(forces):
            for spec in sorted(force.units, key=lambda s: s.id):
                if spec.hits >= r.destroyed_at_hits:
                    continue  # a destroyed unit does not come to the battle (RULES.md §1.2)
                formation = spec.formation or t.default_formation[spec.kind]
                u = Unit(spec, side, t.morale[spec.grade], formation, r.deploy_inches)
                self._set_cds(u)
                self.sides[side].append(u)
        self.on_field = [len(units) for units in self.sides]
        self.lose_at = r.deck.lose_at_cards
        self.half_pending: list[Unit] = []
        self.boxes = tuple(sum(10 - u.hits_before for u in units) for units in self.sides)
        self.decks = tuple(
            MovementDeck(deck_composition(len(units), r.deck.explicit), r.deck.draw, r.deck.removal)
            for units in self.sides
        )
        self.cards_lost = [0, 0]
        self.tally = [dict(flags=0, batteries=0, retiring_shaken=0, off_table=0) for _ in (0, 1)]
        self.withdrawals: list[WithdrawalChecked] = []

    # ------------------------------------------------------------------ helpers
    def emit(self, event: BattleEvent) -> None:
        self.events.append(event)

    def _set_cds(self, u: Unit) -> None:
        key = (u.kind, u.formation)
        u.cd_fire = (self.t.cd_fire[key] or 0) if self.t.fire_range[key] > 0 else 0
        u.cd_melee = self.t.cd_melee[key]

    def active_units(self, side: int) -> list[Unit]:
        return [u for u in self.sides[side] if not u.out]

    def first_side(self) -> int:
        """Who has the first bound this turn (RULES.md §6.2; variant roll-initiative)."""
        if self.r.initiative == "attacker":
            return self.attacker
        a, b = self.dice.d(6), self.dice.d(6)
        first = self.attacker if a == b else (0 if a > b else 1)
        if self.record:
            self.emit(
                TestRolled(
                    self.turn,
                    self.bounds + 1,
                    "initiative",
                    "",
                    "d6 vs d6",
                    a,
                    b,
                    first == 0,
                    f"side {first} has the first bound",
                )
            )
        return first

    def bound_started(self, side: int, card: int, orders: list[Order]) -> None:
        if self.record:
            self.emit(
                BoundStarted(
                    self.turn,
                    self.bounds,
                    side,
                    card,
                    len(self.decks[side]),
                    tuple(o.unit.id for o in orders),
                )
            )

    def bad_thing(self, side: int, cause: str) -> None:
        """A bad thing removes one card from ``side``'s deck (RULES.md §3.3)."""
        card = self.decks[side].remove_for_bad_thing(self.dice)
        if card:
            self.cards_lost[side] += 1
        if self.record:
            self.emit(CardLost(self.turn, self.bounds, side, card, len(self.decks[side]), cause))

    def morale_test(self, u: Unit, minus: int, kind: str, bonus: int = 0) -> bool:
        """A morale test (RULES.md §4.3, §0.2); a failure is a bad thing and shakes or routs."""
        if self.r.morale.model == "cumulative" and minus:
            u.morale -= minus
            minus = 0
        target = u.morale - minus + bonus
        if u.shaken or u.failed_change:
            target -= self.r.morale.shaken_penalty
        roll = self.dice.d(100)
        passed = roll <= target
        if self.record:
            self.emit(TestRolled(self.turn, self.bounds, kind, u.id, "d100", roll, target, passed))
        if not passed:
            self.fail_morale(u, kind)
        return passed

    def fail_morale(self, u: Unit, cause: str) -> None:
        self.bad_thing(u.side, f"{u.id} failed a {cause} test")
        if u.shaken:
            self.rout(u, f"failed a {cause} test while shaken")
        else:
            u.shaken = True
            if self.record:
                self.emit(StateChanged(self.turn, self.bounds, u.id, "shaken", cause))

    def _leave_contact(self, u: Unit) -> None:
        if u.melee is not None:
            u.melee.melee = None
            u.melee = None
        for e in self.sides[1 - u.side]:
            if e.charged_by is u:
                e.charged_by = None
            if e.charging is u:
                e.charging = None
            if e.stood_vs is u:
                e.stood_vs = None
        u.charged_by = u.charging = u.stood_vs = None
        u.charge_bonus = 0

    def _gone(self, u: Unit) -> None:
        u.out = True
        self.on_field[u.side] -= 1

    def rout(self, u: Unit, reason: str) -> None:
        """The unit routs and leaves the field at once (RULES.md §1.5)."""
        if u.out:
            return
        u.routed = True
        self._gone(u)
        self._leave_contact(u)
        if self.record:
            self.emit(StateChanged(self.turn, self.bounds, u.id, "routed", reason))

    def fall_back(self, u: Unit, inches: float, action: str) -> None:
        """Retire toward the own baseline (RULES.md §6.5); past it the unit leaves the table."""
        if u.shaken and not u.retired_shaken:
            u.retired_shaken = True
            self.tally[u.side]["retiring_shaken"] += 1
        self._leave_contact(u)
        before = u.pos
        u.pos -= inches
        if self.record:
            self.emit(Moved(self.turn, self.bounds, u.id, action, before, max(u.pos, 0.0)))
        if u.pos < 0:
            u.off_table = True
            self._gone(u)
            self.tally[u.side]["off_table"] += 1
            if self.record:
                self.emit(
                    StateChanged(
                        self.turn, self.bounds, u.id, "off-table", "fell back past its baseline"
                    )
                )

    def take_hits(self, u: Unit, hits: int) -> int:
        room = self.r.destroyed_at_hits - u.hits_before - u.hits
        hits = min(hits, max(room, 0))
        u.hits += hits
        if not u.half_tested and u.hits_before + u.hits >= self.r.half_strength_hits:
            u.half_tested = True
            self.half_pending.append(u)
        if u.hits_before + u.hits >= self.r.destroyed_at_hits and not u.destroyed:
            if u.routed:
                u.routed = False
            else:
                self._gone(u)
            u.destroyed = True
            self.tally[u.side]["batteries" if u.kind == "artillery" else "flags"] += 1
            self._leave_contact(u)
            if self.record:
                self.emit(
                    StateChanged(
                        self.turn,
                        self.bounds,
                        u.id,
                        "destroyed",
                        f"{self.r.destroyed_at_hits} actual hits",
                    )
                )
        return hits

    def hit_filter(self, a: Unit, b: Unit, melee: bool, bonus: int = 0) -> int:
        """The 4-step hit filter of ``a`` on ``b`` (RULES.md §4.1–§4.4); returns actual hits."""
        r = self.r
        mark = len(self.events)
        d_roll = self.t.hit_dice.roll(self.dice)
        cd = a.cd_melee if melee else a.cd_fire
        if melee and a.kind == "cavalry" and b.kind == "infantry" and b.formation == "square":
            cd *= r.formation_effects.cavalry_vs_square_cd_multiplier
        h = -(-(d_roll + bonus) // cd)
        self.morale_test(b, h, "morale")
        roll = self.dice.d(100)
        target = r.casualty_test_per_morale_hit * h
        passed = roll <= target
        if self.record:
            self.emit(
                TestRolled(self.turn, self.bounds, "casualty", b.id, "d100", roll, target, passed)
            )
        hits = self.take_hits(b, r.hits_on_casualty_pass if passed else r.hits_on_casualty_fail)
        if self.record:  # the hit line goes before the tests it caused
            self.events.insert(
                mark,
                HitResolved(
                    self.turn,
                    self.bounds,
                    a.id,
                    b.id,
                    melee,
                    d_roll,
                    bonus,
                    cd,
                    h,
                    hits,
                    b.hits_before + b.hits,
                ),
            )
        return hits

    # ------------------------------------------------------------------ phases
    def stand_tests(self, side: int) -> None:
        """Units an enemy charge reached last bound test to stand (RULES.md §6.4)."""
        for u in self.sides[side]:
            c = u.charged_by
            if c is None or u.out:
                continue
            if c.out:
                u.charged_by = None
                continue
            if self.morale_test(u, 0, "stand") and not u.out:
                u.melee, c.melee = c, u
                u.stood_vs = c
                u.charged_by = None
            elif not u.out:
                u.charged_by = None
                c.charge_bonus = 0
                self.fall_back(u, self.r.fall_back_inches, "fall-back")

    def completion_tests(self, side: int) -> None:
        """Disordered units test to complete their formation change (RULES.md §5.2–§5.3)."""
        fc = self.r.formation_change
        for u in self.sides[side]:
            if not u.disordered or u.out:
                continue
            total = u.change_cost
            if u.hit_by_fire:
                total += fc.hit_by_fire
            if u.grade == "raw" or u.irregular or u.shaken or u.failed_change:
                total += fc.raw_irregular_or_shaken
            if u.charge_target_flag:
                total += fc.charge_target
            if u.grade in ("veteran", "elite"):
                total += fc.veteran_or_elite
            roll = self.dice.d(self.r.reaction_die)
            passed = roll > total
            if self.record:
                self.emit(
                    TestRolled(
                        self.turn,
                        self.bounds,
                        "completion",
                        u.id,
                        f"d{self.r.reaction_die}",
                        roll,
                        total,
                        passed,
                        f"to complete forming {u.formation}",
                    )
                )
            if passed:
                u.disordered = u.failed_change = False
                if self.record:
                    self.emit(
                        StateChanged(
                            self.turn, self.bounds, u.id, "steady", f"formed {u.formation}"
                        )
                    )
            else:
                u.failed_change = True
                u.frozen = True

    def declare_charges(self, side: int, orders: list[Order]) -> list[Order]:
        """Activated units declare charges; each charger tests morale to go in (§6.4)."""
        charges = []
        ch = self.r.charge
        for o in orders:
            u, target = o.unit, o.target
            if o.action != "charge" or target is None:
                continue
            if u.out or u.frozen or u.shaken or u.disordered or u.melee is not None:
                continue
            if target.out or target.melee is not None or target.charged_by is not None:
                continue
            bonus = ch.target_disordered_morale_bonus if (target.disordered or target.shaken) else 0
            if self.morale_test(u, 0, "charge", bonus):
                charges.append(o)
            elif not u.out:
                before = u.pos
                u.pos = max(u.pos - ch.failed_drop_back_inches, 0.0)
                if self.record:
                    self.emit(Moved(self.turn, self.bounds, u.id, "drop-back", before, u.pos))
        return charges

    def fire_phase(self, side: int, charges: list[Order]) -> None:
        """Fire (RULES.md §6.3 step 3, §6.9 targets: nearest, most hits, lowest id)."""
        fire_and_charge = self.r.charge.fire_and_charge
        chargers = {o.unit.id for o in charges}
        # The gap to an enemy depends only on its position, so every firer ranks the enemy
        # units the same way: furthest forward first, then most hits, then lowest id.
        targets = sorted(
            (e for e in self.sides[1 - side] if not e.out and e.melee is None),
            key=lambda e: (-e.pos, -(e.hits_before + e.hits), e.id),
        )
        for u in self.sides[side]:
            if u.out or u.disordered or u.cd_fire == 0:
                continue
            if u.stood_vs is not None:
                target = u.stood_vs
                u.stood_vs = None
                if not target.out:
                    self._fire(u, target)
                continue
            if u.melee is not None:
                continue
            if u.activated and not (fire_and_charge and u.id in chargers):
                continue
            reach = self.depth - u.pos - self.t.fire_range[(u.kind, u.formation)]
            for e in targets:
                if e.out or e.melee is not None:
                    continue
                if e.pos >= reach:
                    self._fire(u, e)
                break

    def _fire(self, u: Unit, target: Unit) -> None:
        self.hit_filter(u, target, melee=False)
        target.hit_by_fire = True

    def melee_phase(self) -> None:
        """Every pair in contact fights, both at once (RULES.md §4.5)."""
        pairs = []
        for u in self.sides[0]:
            if u.melee is not None and not u.out and not u.melee.out:
                pairs.append((u, u.melee))
        fx = self.r.formation_effects
        for a, b in pairs:
            if a.melee is not b:  # contact ended earlier this phase
                continue
            bonus_a, bonus_b = self._charge_bonus(a, b, fx), self._charge_bonus(b, a, fx)
            hits_by_a = self.hit_filter(a, b, melee=True, bonus=bonus_a)
            hits_by_b = self.hit_filter(b, a, melee=True, bonus=bonus_b)
            loser = None
            if a.out or b.out:
                outcome = "ended"
            elif hits_by_a == hits_by_b:
                outcome = "tie"
            else:
                outcome = "decided"
                loser = a if hits_by_a < hits_by_b else b
            if self.record:
                self.emit(
                    MeleeResolved(
                        self.turn,
                        self.bounds,
                        a.id,
                        b.id,
                        hits_by_a,
                        hits_by_b,
                        loser.id if loser else "",
                        outcome,
                    )
                )
            if loser is not None:
                self.bad_thing(loser.side, f"{loser.id} lost a melee")
                if not loser.out:
                    self.fall_back(loser, self.r.fall_back_inches, "fall-back")

    @staticmethod
    def _charge_bonus(u: Unit, other: Unit, fx) -> int:
        bonus = u.charge_bonus
        if bonus:
            u.charge_bonus = 0
            if u.kind == "cavalry" and other.kind == "infantry" and other.formation != "square":
                bonus *= fx.cavalry_charge_bonus_multiplier
        return bonus

    def manoeuvre_phase(self, side: int, orders: list[Order], charges: list[Order]) -> None:
        """Activated units move, charge, change formation or rally (§6.3 step 5)."""
        charging = {id(o.unit) for o in charges}
        for o in orders:
            u = o.unit
            if u.out or u.frozen or u.melee is not None:
                continue
            if o.action == "charge":
                if id(u) in charging:
                    self._charge_move(u, o.target)
            elif o.action == "rally":
                if u.shaken and self.morale_test(u, 0, "rally"):
                    u.shaken = False
                    if self.record:
                        self.emit(StateChanged(self.turn, self.bounds, u.id, "rallied"))
            elif o.action == "form":
                self._change_formation(u, o.formation)
            elif o.action == "advance":
                self._advance(u, o.to_gap)

    def _charge_move(self, u: Unit, target: Unit | None) -> None:
        if target is None or target.out or target.melee is not None:
            return
        if target.charged_by is not None:
            return
        before = u.pos
        u.pos = self.depth - target.pos
        target.charged_by = u
        target.charge_target_flag = True
        u.charge_bonus = self.r.charge.bonus
        if self.record:
            self.emit(Moved(self.turn, self.bounds, u.id, "charge", before, u.pos, target.id))

    def _change_formation(self, u: Unit, formation: str) -> None:
        if formation == u.formation:
            return
        cost = self.t.change_cost.get(frozenset((u.formation, formation)))
        if cost is None:
            return
        if self.record:
            self.emit(FormationChanged(self.turn, self.bounds, u.id, u.formation, formation))
        u.formation = formation
        u.change_cost = cost
        u.disordered = True
        self._set_cds(u)

    def _advance(self, u: Unit, to_gap: float) -> None:
        move = self.t.move[(u.kind, u.formation)]
        stop = max(to_gap, self.r.advance_stop_short_inches)
        room = (
            min(
                (self.depth - u.pos - e.pos for e in self.sides[1 - u.side] if not e.out),
                default=0.0,
            )
            - stop
        )
        step = min(move, room)
        if step <= 0:
            return
        before = u.pos
        u.pos += step
        if self.record:
            self.emit(Moved(self.turn, self.bounds, u.id, "advance", before, u.pos))

    def half_strength_checks(self) -> None:
        """A unit first reduced to 6+ actual hits takes a morale test (§6.3 step 6)."""
        if not self.half_pending:
            return
        pending = sorted(self.half_pending, key=lambda u: (u.side, u.id))
        self.half_pending.clear()
        for u in pending:
            if not u.out:
                self.morale_test(u, 0, "half-strength")

    def end_bound(self, side: int) -> None:
        for u in self.sides[side]:
            u.activated = False
            u.frozen = False
            u.hit_by_fire = False
            u.charge_target_flag = False

    # ------------------------------------------------------------------ ends
    def check_end(self) -> bool:
        """End at once on last card or no units (RULES.md §6.8 a, c); True if over."""
        if self.over:
            return True
        lose = self.lose_at
        out0 = len(self.decks[0].cards) <= lose
        out1 = len(self.decks[1].cards) <= lose
        if out0 or out1:
            if out0 and out1:
                self.finish(None, "both-cards")
            else:
                self.finish(1 if out0 else 0, "cards")
            return True
        gone0 = self.on_field[0] <= 0
        gone1 = self.on_field[1] <= 0
        if gone0 or gone1:
            self.finish(None if gone0 and gone1 else (1 if gone0 else 0), "no-units")
            return True
        return False

    def casualty_percent(self, side: int) -> float:
        """RULES.md §7.1: this battle's hits plus routed units' remaining boxes, over boxes."""
        lost = 0
        for u in self.sides[side]:
            lost += u.hits
            if u.routed:
                lost += self.r.destroyed_at_hits - u.hits_before - u.hits
        return 100.0 * lost / self.boxes[side] if self.boxes[side] else 0.0

    def withdrawal_phase(self) -> None:
        """End-of-turn withdrawal checks (RULES.md §7.2–§7.4)."""
        w = self.r.withdrawal
        checks = []
        for s in (0, 1):
            pct = self.casualty_percent(s)
            if pct < w.threshold_percent:
                continue
            rows = withdrawal_factors(
                w, SideTally(**self.tally[s]), SideTally(**self.tally[1 - s]), pct
            )
            checks.append((sum(n for _, n in rows), s, pct, rows))
        if not checks:
            return
        checks.sort(key=lambda c: (-c[0], c[1]))
        equal = len(checks) == 2 and checks[0][0] == checks[1][0]
        withdrew = []
        for total, s, pct, rows in checks:
            rolls = [self.dice.d(self.r.withdrawal_die) for _ in range(max(total, 0))]
            withdraws = sum(rolls) >= self.r.withdrawal_success_total
            ev = WithdrawalChecked(
                self.turn,
                self.bounds,
                s,
                round(pct, 3),
                tuple(rows),
                total,
                tuple(rolls),
                withdraws,
            )
            self.withdrawals.append(ev)
            if self.record:
                self.emit(ev)
            if withdraws:
                withdrew.append(s)
                if not equal:
                    break
        if len(withdrew) == 2:
            self.finish(None, "both-withdrew")
        elif withdrew:
            self.finish(1 - withdrew[0], "withdrawal")

    def finish(self, winner: int | None, reason: str) -> None:
        self.winner, self.reason, self.over = winner, reason, True
        if self.record:
            self.emit(BattleEnded(self.turn, self.bounds, winner, reason))

    def result(self) -> BattleResult:
        units = tuple(
            UnitOutcome(
                u.id,
                u.side,
                u.kind,
                u.grade,
                u.formation,
                u.state,
                u.hits_before,
                u.hits,
                u.hits_before + u.hits,
                u.retired_shaken,
            )
            for side in (0, 1)
            for u in self.sides[side]
        )
        return BattleResult(
            names=(self.forces[0].name, self.forces[1].name),
            attacker=self.attacker,
            winner=self.winner,
            reason=self.reason,
            bounds=self.bounds,
            turns=self.turn,
            minutes=self.bounds * self.r.bound_minutes,
            units=units,
            cards_left=(len(self.decks[0]), len(self.decks[1])),
            cards_lost=(self.cards_lost[0], self.cards_lost[1]),
            casualty_percent=(self.casualty_percent(0), self.casualty_percent(1)),
            withdrawal_checks=tuple(self.withdrawals),
            events=tuple(self.events),
        )
