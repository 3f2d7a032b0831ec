"""The state of one battle (RULES.md §3–§7): :class:`BattleState`.

It holds both sides' units, decks, tallies and events, and records; it applies no rule. The
rules are functions of it, one a rule step, each citing its RULES.md section:
:mod:`battle.reference.hits` (§4's hit filter, morale tests, hits taken),
:mod:`battle.reference.losses` (bad things, shaken and routed units, falling back),
:mod:`battle.reference.ending` (initiative, the end checks, withdrawal), and the phases of a
bound in :mod:`battle.reference.phases`. :func:`battle.reference.engine.fight` drives them.
"""

from __future__ import annotations

from collections.abc import Sequence

from battle.arrivals import Arrival
from battle.dice import Dice
from battle.events import (
    BattleEvent,
    BattleStarted,
    BoundStarted,
    PhaseStarted,
    UnitStart,
    WithdrawalChecked,
)
from battle.reference.deck import MovementDeck, deck_for
from battle.reference.doctrine import Order
from battle.reference.unit import Unit, new_unit
from battle.result import BattleResult, UnitOutcome
from battle.tables import Tables
from battle.units import ID, Force
from battle.withdrawal import SideTally

__all__ = ["BattleState"]


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
        "changed",
        "changing",
        "charged",
        "decks",
        "dice",
        "events",
        "field",
        "first_check_turn",
        "flagged",
        "forces",
        "half_pending",
        "lost",
        "on_field",
        "over",
        "pct_die",
        "pct_name",
        "r",
        "reason",
        "record",
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
        destroyed_at = t.destroyed_at
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

    # ------------------------------------------------------------------ ends
    def casualty_percent(self, side: int) -> float:
        """RULES.md §7.1: this battle's hits plus routed units' remaining boxes, over boxes.

        Kept as a running count (``self.lost``): hits add as they are taken, a rout adds the
        unit's remaining boxes (and hits on a routed unit then change nothing).
        """
        return 100.0 * self.lost[side] / self.boxes[side] if self.boxes[side] else 0.0

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
