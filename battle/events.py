"""Typed battle events: every rule application a reader wants to see, with its dice.

The engine only emits these; :mod:`battle.log` formats them. Each event carries the turn
(1-based) and bound (1-based within the battle) it happened in. ``side`` is 0 or 1 (index of
the force in :func:`battle.engine.fight`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

__all__ = [
    "BattleEnded",
    "BattleEvent",
    "BoundStarted",
    "CardLost",
    "FormationChanged",
    "HitResolved",
    "MeleeResolved",
    "Moved",
    "StateChanged",
    "TestRolled",
    "WithdrawalChecked",
    "event_to_dict",
]


@dataclass(frozen=True, slots=True)
class BattleEvent:
    turn: int
    bound: int


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
    """The 4-step hit filter (RULES.md §4): D rolled, divided by the combat divisor."""

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
    """A melee pair fought (RULES.md §4.5). ``outcome`` is ``decided`` (``loser`` set),
    ``tie`` (the melee goes on) or ``ended`` (one of them routed or was destroyed)."""

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
    """A withdrawal check (RULES.md §7.2–§7.4): factors summed, that many d6 rolled."""

    side: int
    casualty_percent: float
    factors: tuple[tuple[str, int], ...]
    total: int
    rolls: tuple[int, ...]
    withdraws: bool


@dataclass(frozen=True, slots=True)
class BattleEnded(BattleEvent):
    """The battle ended (RULES.md §6.8): ``winner`` is 0, 1 or None for a draw."""

    winner: int | None
    reason: str


def event_to_dict(event: BattleEvent) -> dict[str, object]:
    """A JSON-ready dict with the event's type name first."""
    data: dict[str, object] = {"type": type(event).__name__}
    data.update(asdict(event))
    for f in fields(event):
        if isinstance(data[f.name], tuple):
            data[f.name] = [list(x) if isinstance(x, tuple) else x for x in data[f.name]]
    return data
