"""Typed battle events: every rule application a reader wants to see, with its dice.

The engine only emits these; :mod:`battle.log` formats them. Each event carries the turn
(1-based) and bound (1-based within the battle) it happened in. ``side`` is 0 or 1 (index of
the force in :func:`battle.engine.fight`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Generic, NamedTuple, TypeVar

__all__ = [
    "END_REASONS",
    "PHASES",
    "BattleEnded",
    "BattleEvent",
    "BattleStarted",
    "BoundStarted",
    "CardLost",
    "Check",
    "Factor",
    "FormationChanged",
    "HitResolved",
    "MeleeResolved",
    "Moved",
    "PhaseStarted",
    "StateChanged",
    "TestRolled",
    "UnitStart",
    "WithdrawalChecked",
    "event_to_dict",
]

#: the phases of a bound in order (RULES.md §6.3 steps 2–6), then the turn's withdrawal phase
PHASES = ("response", "fire", "melee", "manoeuvre", "checks", "withdrawal")
#: why a battle ends (RULES.md §6.8 a–d, §7.4, §8.3): the ``reason`` of
#: :class:`BattleEnded` and of :class:`battle.result.BattleResult`
END_REASONS = (
    "cards",
    "both-cards",
    "withdrawal",
    "both-withdrew",
    "no-units",
    "turn-limit",
    "nightfall",
)


class Factor(NamedTuple):
    """One row of a withdrawal check (RULES.md §7.2): its name and its factors (+ or −)."""

    row: str
    factors: int


S = TypeVar("S")


class Check(NamedTuple, Generic[S]):
    """One army's withdrawal check (RULES.md §7.2–§7.4), the record shared by the battle and
    the campaign (§7.6): its factors, the dice rolled (``d{die}``), the sum that makes it
    withdraw (``success_total``, §0.4) and whether it withdraws."""

    side: S
    casualty_percent: float
    factors: tuple[Factor, ...]
    total: int
    rolls: tuple[int, ...]
    withdraws: bool
    die: int
    success_total: int


class UnitStart(NamedTuple):
    """One unit as it comes to the battle (RULES.md §1): what a referee needs to follow it."""

    id: str
    side: int
    kind: str
    grade: str
    irregular: bool
    formation: str
    pos: float
    hits_before: int
    morale: int


@dataclass(frozen=True, slots=True)
class BattleEvent:
    turn: int
    bound: int


@dataclass(frozen=True, slots=True)
class BattleStarted(BattleEvent):
    """The battle began (bound 0): the attacker, each unit, each side's deck (RULES.md §3.1).

    ``arrivals`` lists the units of late arrivals (RULES.md §8.4) as they will come, in arrival
    order: each joins at the start of the bound its ``StateChanged`` "joined" event names, at
    its own baseline; one whose arrival is destroyed beforehand, or falls after the end, never
    joins. Empty for a battle without arrivals."""

    attacker: int
    units: tuple[UnitStart, ...]
    decks: tuple[tuple[int, ...], tuple[int, ...]]
    arrivals: tuple[UnitStart, ...] = ()


@dataclass(frozen=True, slots=True)
class PhaseStarted(BattleEvent):
    """A phase of the active side's bound began (RULES.md §6.3; ``withdrawal``: §7, side -1)."""

    side: int
    phase: str


@dataclass(frozen=True, slots=True)
class BoundStarted(BattleEvent):
    """A side's bound began: the card drawn and the units activated (RULES.md §6.3 step 1)."""

    side: int
    card: int
    deck_size: int
    activated: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TestRolled(BattleEvent):
    """One test: ``kind`` is morale, casualty, stand, charge, rally, half-strength,
    completion (§5.2 reaction test), initiative or rout. ``dice`` names the dice
    (``d100``/``d6``); a percentage test passes on ``roll <= target``, a reaction test on
    ``roll > target``."""

    kind: str
    unit: str
    dice: str
    roll: int
    target: int
    passed: bool
    reason: str = ""


@dataclass(frozen=True, slots=True)
class HitResolved(BattleEvent):
    """The 4-step hit filter (RULES.md §4): D rolled, divided by the combat divisor.

    ``how`` is ``fire``, ``defensive-fire`` (§6.3 step 3), ``melee``, ``move-and-fire``,
    ``free-attack`` or ``pursuit`` (§6.10 variants).
    """

    how: str
    attacker: str
    target: str
    melee: bool
    d_roll: int
    bonus: int
    divisor: int
    morale_hits: int
    actual_hits: int
    target_total_hits: int


@dataclass(frozen=True, slots=True)
class MeleeResolved(BattleEvent):
    """A melee pair fought (RULES.md §4.5). ``outcome`` is ``decided`` (fewer hits inflicted:
    ``loser`` set, it falls back), ``broken`` (``loser`` routed or was destroyed by the melee:
    it lost, whatever the hits), ``tie`` (the melee goes on) or ``ended`` (both went)."""

    unit_a: str
    unit_b: str
    hits_by_a: int
    hits_by_b: int
    loser: str
    outcome: str


@dataclass(frozen=True, slots=True)
class CardLost(BattleEvent):
    """A bad thing removed a card from a side's deck (RULES.md §3.3)."""

    side: int
    card: int
    cards_left: int
    cause: str


@dataclass(frozen=True, slots=True)
class StateChanged(BattleEvent):
    """A unit became shaken, routed, destroyed, off-table, rallied, steady or disordered."""

    unit: str
    state: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Moved(BattleEvent):
    """A unit moved: ``action`` is advance, retire, charge, fall-back or drop-back;
    positions are inches from the unit's own baseline."""

    unit: str
    action: str
    from_inches: float
    to_inches: float
    target: str = ""


@dataclass(frozen=True, slots=True)
class FormationChanged(BattleEvent):
    """A unit began a formation change (RULES.md §5.1) and is disordered."""

    unit: str
    from_formation: str
    to_formation: str


@dataclass(frozen=True, slots=True)
class WithdrawalChecked(BattleEvent):
    """A withdrawal check (RULES.md §7.2–§7.4): factors summed, that many dice rolled; the
    army withdraws when they sum to ``success_total`` or more (§0.4)."""

    side: int
    casualty_percent: float
    factors: tuple[Factor, ...]
    total: int
    rolls: tuple[int, ...]
    withdraws: bool
    die: int
    success_total: int


@dataclass(frozen=True, slots=True)
class BattleEnded(BattleEvent):
    """The battle ended (RULES.md §6.8): ``winner`` is 0, 1 or None for a draw."""

    winner: int | None
    reason: str


def event_to_dict(event: BattleEvent) -> dict[str, object]:
    """A JSON-ready dict with the event's type name first."""
    data: dict[str, object] = {"type": type(event).__name__}
    for f in fields(event):
        value = getattr(event, f.name)
        if isinstance(value, tuple):
            value = [_plain(x) for x in value]
        data[f.name] = value
    return data


def _plain(x: object) -> object:
    """A named tuple as a dict of its fields, a tuple as a list (JSON-ready)."""
    if isinstance(x, tuple) and hasattr(x, "_asdict"):
        return dict(x._asdict())
    if isinstance(x, tuple):
        return [_plain(y) for y in x]
    return x
