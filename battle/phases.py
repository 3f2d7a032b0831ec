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
from battle.units import ID as _ID
from battle.units import Unit

__all__ = ["BoundPhases"]


class BoundPhases:
    """Steps 2–6 of RULES.md §6.3 (mixed into :class:`~battle.state.BattleState`)."""

    __slots__ = ()

    def stand_tests(self, side: int) -> None:
        """Units an enemy charge reached last bound test to stand (RULES.md §6.4), by id."""
        charged = self.charged[side]
        if not charged:
            return
        if len(charged) > 1:
            charged.sort(key=_ID)
        for u in charged:
            c = u.charged_by
            if c is None or u.out:
                continue
            if c.out:
                u.charged_by = None
                continue
            if self.morale_test(u, 0, "stand") and not u.out:
                u.melee, c.melee = c, u
                u.stood_vs, c.stood_by = c, u
                u.charged_by = None
            elif not u.out:
                u.charged_by = None
                c.charge_bonus = 0
                self.fall_back(u, self.t.fall_back, "fall-back")
        charged.clear()

    def completion_tests(self, side: int) -> None:
        """Disordered units test to complete their formation change (RULES.md §5.2–§5.3),
        by id; a unit that fails is frozen for the bound and tests again next bound."""
        changing = self.changing[side]
        if not changing:
            return
        if len(changing) > 1:
            changing.sort(key=_ID)
        fc = self.r.formation_change
        for u in changing:
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
            roll = self.dice.d(self.t.reaction_die)
            passed = roll > total
            if self.record:
                self.emit(
                    TestRolled(
                        self.turn,
                        self.bounds,
                        "completion",
                        u.id,
                        f"d{self.t.reaction_die}",
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
        changing[:] = [u for u in changing if u.disordered and not u.out]

    def declare_charges(self, side: int, orders: list[Order]) -> list[Order]:
        """Activated units declare charges; each charger tests morale to go in (§6.4)."""
        charges = []
        t = self.t
        for o in orders:
            u, target = o.unit, o.target
            if o.action != "charge" or target is None:
                continue
            if u.out or u.frozen or u.shaken or u.disordered or u.melee is not None:
                continue
            if target.out or target.melee is not None or target.charged_by is not None:
                continue
            bonus = t.charge_weak_target_bonus if (target.disordered or target.shaken) else 0
            if self.morale_test(u, 0, "charge", bonus):
                u.charge_declared = True
                charges.append(o)
            elif not u.out:
                before = u.pos
                u.pos = max(u.pos - t.failed_charge_drop_back, 0.0)
                if self.record:
                    self.emit(Moved(self.turn, self.bounds, u.id, "drop-back", before, u.pos))
        return charges

    def fire_phase(self, side: int, charges: list[Order]) -> None:
        """Fire (RULES.md §6.3 step 3, §6.9 targets: nearest, most hits, lowest id)."""
        fire_and_charge = self.t.fire_and_charge
        enemies = self.field[1 - side]
        target = None  # the enemy every firer aims at (found when first needed)
        depth = self.depth
        # Own units cannot leave the field while their side fires, so the live list is safe.
        for u in self.field[side]:
            if u.disordered or u.cd_fire == 0:
                continue
            if u.stood_vs is not None:
                charger = u.stood_vs
                u.stood_vs = None
                if not charger.out:
                    self.hit_filter(u, charger, melee=False)
                    charger.hit_by_fire = True
                    self.flagged[charger.side].append(charger)
                continue
            if u.melee is not None:
                continue
            if u.activated and not (fire_and_charge and u.charge_declared):
                continue
            if target is None or target.out:
                target = _fire_target(enemies)
                if target is None:
                    continue
            if target.pos >= depth - u.pos - u.fire_range:  # in range
                self.hit_filter(u, target, melee=False)
                target.hit_by_fire = True
                self.flagged[target.side].append(target)

    def melee_phase(self) -> None:
        """Every pair in contact fights, both at once (RULES.md §4.5)."""
        pairs = []
        for u in self.sides[0]:
            if u.melee is not None and not u.out and not u.melee.out:
                pairs.append((u, u.melee))
        multiplier = self.t.cavalry_charge_multiplier
        for a, b in pairs:
            if a.melee is not b:  # contact ended earlier this phase
                continue
            bonus_a, bonus_b = (
                self._charge_bonus(a, b, multiplier),
                self._charge_bonus(b, a, multiplier),
            )
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
                self.bad_thing(loser.side, f"{loser.id} lost a melee" if self.record else "")
                if not loser.out:
                    self.fall_back(loser, self.t.fall_back, "fall-back")

    @staticmethod
    def _charge_bonus(u: Unit, other: Unit, cavalry_multiplier: int) -> int:
        bonus = u.charge_bonus
        if bonus:
            u.charge_bonus = 0
            if u.kind == "cavalry" and other.kind == "infantry" and other.formation != "square":
                bonus *= cavalry_multiplier
        return bonus

    def manoeuvre_phase(self, side: int, orders: list[Order], charges: list[Order]) -> None:
        """Activated units move, charge, change formation or rally (§6.3 step 5)."""
        front = None  # the enemy's furthest-forward position: no enemy moves in this phase
        for o in orders:
            u = o.unit
            if u.out or u.frozen or u.melee is not None:
                continue
            action = o.action
            if action == "charge":
                if u.charge_declared:
                    self._charge_move(u, o.target)
            elif action == "rally":
                if u.shaken and self.morale_test(u, 0, "rally"):
                    u.shaken = False
                    if self.record:
                        self.emit(StateChanged(self.turn, self.bounds, u.id, "rallied"))
            elif action == "form":
                self._change_formation(u, o.formation)
            elif action == "advance":
                if front is None:
                    front = max([e.pos for e in self.field[1 - side]], default=-1.0)
                self._advance(u, o.to_gap, front)

    def _charge_move(self, u: Unit, target: Unit | None) -> None:
        if target is None or target.out or target.melee is not None:
            return
        if target.charged_by is not None:
            return
        before = u.pos
        u.pos = self.depth - target.pos
        target.charged_by, u.charging = u, target
        self.charged[target.side].append(target)
        target.charge_target_flag = True
        self.flagged[target.side].append(target)
        u.charge_bonus = self.t.charge_bonus
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
        self.changing[u.side].append(u)
        self._set_formation_numbers(u)

    def _advance(self, u: Unit, to_gap: float, front: float) -> None:
        """Move up to ``u.move`` inches, stopping ``to_gap`` (at least ``stop_short``) inches
        from the enemy's furthest-forward unit at position ``front`` (< 0: no enemy left)."""
        stop = self.t.stop_short if self.t.stop_short > to_gap else to_gap
        room = (0.0 if front < 0 else self.depth - u.pos - front) - stop
        move = u.move
        step = room if room < move else move
        if step <= 0.0:
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

    def end_bound(self, side: int, orders: list[Order]) -> None:
        """Clear the side's per-bound flags: activation, charges declared, frozen, and hit
        by fire or charged since its last bound (used by completion tests, §5.2)."""
        for o in orders:
            o.unit.activated = o.unit.charge_declared = False
        for u in self.changing[side]:
            u.frozen = False
        flagged = self.flagged[side]
        for u in flagged:
            u.hit_by_fire = u.charge_target_flag = False
        flagged.clear()


def _fire_target(enemies: list[Unit]) -> Unit | None:
    """The enemy unit every firer aims at (RULES.md §6.9): the nearest, then most hits, then
    lowest id; units in melee are not fired on.

    The gap to an enemy depends only on its position, so every firer ranks the enemy units
    the same way and the nearest is the one furthest forward. Only the unit fired on takes
    hits during the fire phase, so the ranking stays as it was when the phase began.
    """
    best = None
    for e in enemies:
        if e.melee is not None:
            continue
        if best is not None:  # keep best unless e is further forward, or level with more hits
            if e.pos < best.pos:
                continue
            if e.pos == best.pos:
                if e.total_hits < best.total_hits:
                    continue
                if e.total_hits == best.total_hits and e.id > best.id:
                    continue
        best = e
    return best
