"""The state of one battle and the phases of a bound (RULES.md §3–§7).

:class:`BattleState` holds both sides' units and decks and applies one rule at a time,
emitting events when recording is on. :func:`battle.reference.engine.fight` drives it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from battle.arrivals import Arrival
from battle.dice import Dice
from battle.events import (
    BattleEnded,
    BattleEvent,
    BattleStarted,
    BoundStarted,
    CardLost,
    HitResolved,
    Moved,
    PhaseStarted,
    StateChanged,
    TestRolled,
    UnitStart,
    WithdrawalChecked,
)
from battle.fire import morale_hits
from battle.reference.deck import MovementDeck, deck_for
from battle.reference.doctrine import Order
from battle.reference.unit import Unit, new_unit
from battle.result import BattleResult, UnitOutcome
from battle.tables import Tables
from battle.units import ID, Force
from battle.withdrawal import SideTally, roll_withdrawals

__all__ = ["BattleState"]


#: the ways of hitting that use the fire combat divisor (RULES.md §4, §6.10); others are melee
_FIRE = frozenset(("fire", "defensive-fire", "move-and-fire"))


class BattleState:
    """Units, decks and bookkeeping of one battle (internal to the engine).

    Slotted: the hot loop reads its attributes thousands of times per battle, and a plain
    instance with this many attributes falls back to slower dictionary look-ups.
    """

    __slots__ = (
        "attacker",
        "bounds",
        "boxes",
        "cards_lost",
        "casualty_per_h",
        "changed",
        "changing",
        "charged",
        "cumulative",
        "decks",
        "depth",
        "destroyed_at",
        "dice",
        "events",
        "field",
        "first_check_turn",
        "flagged",
        "forces",
        "half_at",
        "half_pending",
        "hits_fail",
        "hits_pass",
        "lose_at",
        "lost",
        "on_field",
        "over",
        "pct_die",
        "pct_name",
        "r",
        "reason",
        "record",
        "shaken_penalty",
        "sides",
        "t",
        "tally",
        "turn",
        "winner",
        "withdrawals",
    )

    def __init__(
        self,
        t: Tables,
        forces: tuple[Force, Force],
        dice: Dice,
        attacker: int,
        record: bool,
        arrivals: Sequence[Arrival] = (),
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
        self.depth = t.depth
        # rule numbers read for every hit, kept on the state (RULES.md §1.2, §1.5, §4.3, §4.4)
        self.cumulative = t.cumulative_morale
        self.shaken_penalty = t.shaken_penalty
        self.destroyed_at = destroyed_at = t.destroyed_at
        self.half_at = t.half_strength_at
        self.casualty_per_h = t.casualty_per_morale_hit
        self.hits_pass = t.hits_on_pass
        self.hits_fail = t.hits_on_fail
        self.pct_die = r.percentage_dice  # §0.1 percentage tests roll a d100
        self.pct_name = f"d{r.percentage_dice}"
        self.sides: tuple[list[Unit], list[Unit]] = ([], [])
        for side, force in enumerate(forces):
            self.sides[side].extend(
                new_unit(t, spec, side, t.deploy)  # deployed within 4" of its baseline (§6.1)
                for spec in sorted(force.units, key=ID)  # in id order (§6.9)
                if spec.hits < destroyed_at  # a destroyed unit does not come (RULES.md §1.2)
            )
        self.on_field = [len(units) for units in self.sides]
        #: each side's units still on the field, in id order (kept up to date by _gone)
        self.field: tuple[list[Unit], list[Unit]] = (list(self.sides[0]), list(self.sides[1]))
        self.lose_at = t.lose_at_cards
        self.half_pending: list[Unit] = []
        # per side, units awaiting a step of their side's next bound (kept so that a bound
        # need not look at every unit): charged by the enemy, to test to stand (§6.4);
        # changing formation, to test to complete it (§5.2); hit by fire or charged, whose
        # flags clear at the end of their side's bound
        self.charged: tuple[list[Unit], list[Unit]] = ([], [])
        self.changing: tuple[list[Unit], list[Unit]] = ([], [])
        self.flagged: tuple[list[Unit], list[Unit]] = ([], [])
        self.boxes = tuple([sum([destroyed_at - u.hits_before for u in us]) for us in self.sides])
        self.decks = (
            MovementDeck(deck_for(t, len(self.sides[0])), t.deck_draw, t.deck_removal),
            MovementDeck(deck_for(t, len(self.sides[1])), t.deck_draw, t.deck_removal),
        )
        self.cards_lost = [0, 0]
        self.lost = [0, 0]  # §7.1 casualties so far, in boxes
        self.changed = False  # a card lost or a unit gone since the last end check
        self.tally = (SideTally(), SideTally())  # §7.2 counts per side
        self.withdrawals: list[WithdrawalChecked] = []
        self.first_check_turn: int | None = None  # variant fifteen-after-check (§6.8)
        if record:
            self.emit(
                BattleStarted(
                    0,
                    0,
                    attacker,
                    tuple(
                        UnitStart(
                            u.id,
                            u.side,
                            u.kind,
                            u.grade,
                            u.irregular,
                            u.formation,
                            u.pos,
                            u.hits_before,
                            u.morale,
                        )
                        for u in self.sides[0] + self.sides[1]
                    ),
                    (tuple(self.decks[0].cards), tuple(self.decks[1].cards)),
                    _arrival_starts(t, arrivals),
                )
            )

    # ------------------------------------------------------------------ helpers
    def emit(self, event: BattleEvent) -> None:
        self.events.append(event)

    def phase(self, side: int, name: str) -> None:
        """Record the start of a phase (RULES.md §6.3; called only when recording)."""
        self.emit(PhaseStarted(self.turn, self.bounds, side, name))

    def active_units(self, side: int) -> list[Unit]:
        """The side's units still on the field, in id order (a live list: do not keep it)."""
        return self.field[side]

    def first_side(self) -> int:
        """Who has the first bound this turn (RULES.md §6.2; variant roll-initiative)."""
        if not self.t.initiative_roll:
            return self.attacker
        die = self.t.initiative_die
        a, b = self.dice.d(die), self.dice.d(die)
        first = self.attacker if a == b else (0 if a > b else 1)
        if self.record:
            self.emit(
                TestRolled(
                    self.turn,
                    self.bounds + 1,
                    "initiative",
                    "",
                    f"d{die} vs d{die}",
                    a,
                    b,
                    first == 0,
                    f"side {first} has the first bound",
                )
            )
        return first

    def bound_started(self, side: int, card: int, orders: list[Order]) -> None:
        """Record the start of a bound (called only when recording events)."""
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
        self.changed = True
        if card:
            self.cards_lost[side] += 1
        if self.record:
            self.emit(CardLost(self.turn, self.bounds, side, card, len(self.decks[side]), cause))

    def morale_test(
        self,
        u: Unit,
        minus: int,
        kind: str,
        bonus: int = 0,
        in_melee: bool = False,
        reason: str = "",
    ) -> bool:
        """A morale test (RULES.md §4.3, §0.2); a failure is a bad thing and shakes or routs.

        ``minus``: morale hits (§4.3); ``bonus``: the §6.4 charge bonus to the test (house);
        ``reason``: kept in the event (a charge test names its target).
        A shaken unit tests at −10 (§1.5); so does, in melee, a unit that failed to complete
        a formation change (§5.3: it counts as shaken in melee).
        """
        if self.cumulative and minus:
            u.morale -= minus
            minus = 0
        target = u.morale - minus + bonus
        if u.shaken or (in_melee and u.failed_change):
            target -= self.shaken_penalty
        roll = self.dice.d(self.pct_die)  # a percentage test (§0.2): passes on roll <= target
        passed = roll <= target
        if self.record:
            self.emit(
                TestRolled(
                    self.turn, self.bounds, kind, u.id, self.pct_name, roll, target, passed, reason
                )
            )
        if not passed:
            self.fail_morale(u, kind)
        return passed

    def fail_morale(self, u: Unit, cause: str) -> None:
        """A failed morale test: a bad thing (§3.3), and a steady unit shakes, a shaken one
        routs (§1.5)."""
        record = self.record
        self.bad_thing(u.side, f"{u.id} failed a {cause} test" if record else cause)
        if u.shaken:
            self.rout(u, f"failed a {cause} test while shaken" if record else cause)
        else:
            u.shaken = True
            if self.record:
                self.emit(StateChanged(self.turn, self.bounds, u.id, "shaken", cause))

    def _leave_contact(self, u: Unit) -> None:
        """``u`` leaves melee and every pending charge or stand it is part of (RULES.md §6.4)."""
        if u.melee is not None:
            u.melee.melee = None
            u.melee = None
        target = u.charging  # the enemy u charged: no longer charged by it
        if target is not None and target.charged_by is u:
            target.charged_by = None
        charger = u.charged_by  # the enemy charging u: its charge has nothing left to hit
        if charger is not None and charger.charging is u:
            charger.charging = None
            charger.charge_bonus = 0
        stood = u.stood_by  # the enemy that stood against u's charge: nothing to fire at
        if stood is not None and stood.stood_vs is u:
            stood.stood_vs = None
        u.charged_by = u.charging = u.stood_vs = u.stood_by = None
        u.charge_bonus = 0

    def _gone(self, u: Unit) -> None:
        self.changed = True
        u.out = True
        self.on_field[u.side] -= 1
        self.field[u.side].remove(u)

    def rout(self, u: Unit, reason: str) -> None:
        """The unit routs and leaves the field at once (RULES.md §1.5)."""
        if u.out:
            return
        u.routed = True
        # §7.1: a routed unit counts all its remaining boxes as casualties
        self.lost[u.side] += self.destroyed_at - u.total_hits
        self._gone(u)
        self._leave_contact(u)
        if self.record:
            self.emit(StateChanged(self.turn, self.bounds, u.id, "routed", reason))

    def fall_back(self, u: Unit, inches: float, action: str) -> None:
        """Retire toward the own baseline (RULES.md §6.5); past it the unit leaves the table."""
        if u.shaken and not u.retired_shaken:
            u.retired_shaken = True
            self.tally[u.side].retiring_shaken += 1
        self._leave_contact(u)
        before = u.pos
        u.pos -= inches
        if self.record:
            self.emit(Moved(self.turn, self.bounds, u.id, action, before, max(u.pos, 0.0)))
        if u.pos < 0.0:
            self._off_table(u, "fell back past its baseline")

    def drop_back(self, u: Unit) -> None:
        """A charger that failed its test drops back (RULES.md §6.4); past its baseline it
        leaves the table (§6.5), a unit retreating off the table for §7.2."""
        before = u.pos
        u.pos -= self.t.failed_charge_drop_back
        if self.record:
            self.emit(Moved(self.turn, self.bounds, u.id, "drop-back", before, max(u.pos, 0.0)))
        if u.pos < 0.0:
            self._off_table(u, "dropped back past its baseline")

    def _off_table(self, u: Unit, reason: str) -> None:
        u.off_table = True
        self._gone(u)
        self._leave_contact(u)
        self.tally[u.side].off_table += 1
        if self.record:
            self.emit(StateChanged(self.turn, self.bounds, u.id, "off-table", reason))

    def take_hits(self, u: Unit, hits: int) -> int:
        """``u`` takes ``hits`` actual hits, at most up to destruction; returns those taken.

        They count toward its side's casualties (§7.1) unless it routed; a unit first at 6+
        hits owes a half-strength test in the checks phase (§6.3 step 6); at 10 it is
        destroyed (§1.2) and is a flag, or a battery, lost for §7.2.
        """
        total = u.total_hits
        room = self.destroyed_at - total
        if hits > room:
            hits = room if room > 0 else 0
        u.hits += hits
        total += hits
        u.total_hits = total
        if not u.routed:  # a routed unit's remaining boxes were all counted when it routed
            self.lost[u.side] += hits
        if not u.half_tested and total >= self.half_at:
            u.half_tested = True
            self.half_pending.append(u)
        if total >= self.destroyed_at and not u.destroyed:
            if u.routed:
                u.routed = False
            else:
                self._gone(u)
            u.destroyed = True
            if u.battery:
                self.tally[u.side].batteries += 1
            else:
                self.tally[u.side].flags += 1
            self._leave_contact(u)
            if self.record:
                self.emit(
                    StateChanged(
                        self.turn,
                        self.bounds,
                        u.id,
                        "destroyed",
                        f"{self.destroyed_at} actual hits",
                    )
                )
        return hits

    def hit_filter(self, a: Unit, b: Unit, how: str, bonus: int = 0, cd_x: int = 1) -> int:
        """The 4-step hit filter of ``a`` on ``b`` (RULES.md §4.1–§4.4); returns actual hits.

        ``how``: ``fire``, ``defensive-fire`` or ``move-and-fire`` use ``a``'s fire CD,
        ``melee``, ``free-attack`` and ``pursuit`` its melee CD (:meth:`combat_divisor`).
        ``bonus`` is added to D (§6.4); ``cd_x`` multiplies the CD (§6.10 options). The
        HitResolved event goes before the events of the tests it caused.
        """
        mark = len(self.events)
        d_roll = self.t.hit_dice.roll(self.dice)  # §4.1 D, e.g. 20 + 2*d10
        melee = how not in _FIRE
        cd = self.combat_divisor(a, b, melee) * cd_x
        h = morale_hits(d_roll + bonus, cd)  # §4.2 h = ceil(D / CD)
        self.morale_test(b, h, "morale", 0, melee)  # §4.3
        hits = self.take_hits(b, self.casualty_filter(b, h))  # §4.4
        if self.record:
            event = HitResolved(
                self.turn, self.bounds, how, a.id, b.id, melee, d_roll, bonus, cd, h, hits,
                b.total_hits,
            )  # fmt: skip
            self.events.insert(mark, event)
        return hits

    @staticmethod
    def combat_divisor(a: Unit, b: Unit, melee: bool) -> int:
        """``a``'s combat divisor against ``b`` (RULES.md §1.1, §1.6, §1.7): in melee its
        formation's melee CD, times its type's multiplier against a square (cavalry ×3);
        in fire its formation's fire CD times ``b``'s fired-at multiplier (skirmishers ×2)."""
        if melee:
            return a.cd_melee * (a.vs_square_x if b.square else 1)
        return a.cd_fire * b.fired_at_x

    def casualty_filter(self, b: Unit, h: int) -> int:
        """The casualty filter (RULES.md §4.4): a percentage test at 10 × ``h``; pass: 3
        actual hits, fail: 1."""
        roll = self.dice.d(self.pct_die)
        target = self.casualty_per_h * h
        passed = roll <= target
        if self.record:
            self.emit(
                TestRolled(
                    self.turn, self.bounds, "casualty", b.id, self.pct_name, roll, target, passed
                )
            )
        return self.hits_pass if passed else self.hits_fail

    # ------------------------------------------------------------------ ends
    def check_end(self) -> bool:
        """End at once on last card or no units (RULES.md §6.8 a, c); True if over."""
        if not self.changed:  # no card lost and no unit gone since the last check
            return self.over
        self.changed = False
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
        """RULES.md §7.1: this battle's hits plus routed units' remaining boxes, over boxes.

        Kept as a running count (``self.lost``): hits add as they are taken, a rout adds the
        unit's remaining boxes (and hits on a routed unit then change nothing).
        """
        return 100.0 * self.lost[side] / self.boxes[side] if self.boxes[side] else 0.0

    def withdrawal_phase(self) -> None:
        """End-of-turn withdrawal checks (RULES.md §7.2–§7.4)."""
        t = self.t
        if self.record:
            self.phase(-1, "withdrawal")
        checks = []
        for s in (0, 1):
            pct = 100.0 * self.lost[s] / self.boxes[s] if self.boxes[s] else 0.0  # §7.1
            if pct >= t.withdrawal_threshold:
                rows = t.withdrawal.factors(self.tally[s], self.tally[1 - s], pct)
                checks.append((s, pct, rows))
        if not checks:
            return
        if self.first_check_turn is None:
            self.first_check_turn = self.turn
        roll_die = partial(self.dice.d, t.withdrawal_die)
        made = roll_withdrawals(checks, roll_die, t.withdrawal_success_total, t.withdrawal_die)
        withdrew = []
        for c in made:  # a Check's fields are the event's, after the turn and bound
            ev = WithdrawalChecked(self.turn, self.bounds, *c)
            self.withdrawals.append(ev)
            if self.record:
                self.emit(ev)
            if c.withdraws:
                withdrew.append(c.side)
        if len(withdrew) == 2:
            self.finish(None, "both-withdrew")
        elif withdrew:
            self.finish(1 - withdrew[0], "withdrawal")

    def finish(self, winner: int | None, reason: str) -> None:
        self.winner, self.reason, self.over = winner, reason, True
        if self.record:
            self.emit(BattleEnded(self.turn, self.bounds, winner, reason))

    def result(self) -> BattleResult:
        """The battle's :class:`~battle.result.BattleResult`: side 0's units first, each
        side's by id."""
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
                u.total_hits,
                u.retired_shaken,
            )
            for u in self.sides[0] + self.sides[1]
        )
        return BattleResult(
            names=(self.forces[0].name, self.forces[1].name),
            attacker=self.attacker,
            winner=self.winner,
            reason=self.reason,
            bounds=self.bounds,
            turns=self.turn,
            minutes=self.bounds * self.t.bound_minutes,
            recorded_units=units,
            cards_left=(len(self.decks[0]), len(self.decks[1])),
            cards_lost=(self.cards_lost[0], self.cards_lost[1]),
            casualty_percent=(self.casualty_percent(0), self.casualty_percent(1)),
            recorded_checks=tuple(self.withdrawals),
            recorded=tuple(self.events),
        )


def _arrival_starts(t: Tables, arrivals: Sequence[Arrival]) -> tuple[UnitStart, ...]:
    """The late arrivals' units as they will come (RULES.md §8.4), listed when the battle
    begins so that a reader of its events knows what may join: arrival by arrival (in the
    order they are due), each arrival's units in id order, at their own baseline; a unit
    that comes already destroyed is not brought (§1.2)."""
    starts = []
    for arrival in arrivals:
        for spec in sorted(arrival.units, key=ID):
            if spec.hits >= t.destroyed_at:
                continue
            u = new_unit(t, spec, arrival.side, t.deploy)
            starts.append(
                UnitStart(
                    u.id, u.side, u.kind, u.grade, u.irregular, u.formation, u.pos,
                    u.hits_before, u.morale,
                )
            )  # fmt: skip
    return tuple(starts)
