"""The phases of one bound (RULES.md §6.3 steps 2–6), as methods of the battle state.

:class:`BoundPhases` is a mixin of :class:`battle.state.BattleState`: the state keeps the
units, decks and the rules applied one at a time (hit filter, morale tests, falling back);
these methods run a bound's phases with them, in the order :func:`battle.engine._bound`
calls them.
"""

from __future__ import annotations

from battle.doctrine import Order
from battle.events import FormationChanged, MeleeResolved, Moved, StateChanged, TestRolled
from battle.formation import completion_total
from battle.units import Unit

__all__ = ["BoundPhases"]


class BoundPhases:
    """Steps 2–6 of RULES.md §6.3 (mixed into :class:`~battle.state.BattleState`)."""

    __slots__ = ()

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
            total = completion_total(
                fc,
                u.change_cost,
                grade=u.grade,
                irregular=u.irregular,
                shaken=u.shaken or u.failed_change,  # §5.3 a failed change counts as shaken
                hit_by_fire=u.hit_by_fire,
                charge_target=u.charge_target_flag,
            )
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
        chargers = {o.unit.id for o in charges} if fire_and_charge else ()
        # The gap to an enemy depends only on its position, so every firer ranks the enemy
        # units the same way: furthest forward first, then most hits, then lowest id.
        ranked = [
            (-e.pos, -(e.hits_before + e.hits), e.id, e)
            for e in self.sides[1 - side]
            if not e.out and e.melee is None
        ]
        ranked.sort()
        targets = [r[3] for r in ranked]
        fire_range = self.t.fire_range
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
            reach = self.depth - u.pos - fire_range[(u.kind, u.formation)]
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
        stop = self.t.stop_short if self.t.stop_short > to_gap else to_gap
        # the gap to the nearest enemy: the one furthest forward (the same float as the
        # smallest of the gaps, as ``gap = depth - pos - enemy_pos`` falls as enemy_pos grows)
        front = None
        for e in self.sides[1 - u.side]:
            if not e.out and (front is None or e.pos > front):
                front = e.pos
        room = (0.0 if front is None else self.depth - u.pos - front) - stop
        step = room if room < move else move
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
