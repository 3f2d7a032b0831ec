"""What a battle returns (RULES.md §6.8): winner or draw and why, and each unit's fate."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from battle.events import BattleEvent, WithdrawalChecked

__all__ = ["BattleResult", "UnitOutcome"]


class UnitOutcome(NamedTuple):
    """One unit at the end of a battle (immutable).

    ``hits_taken`` are this battle's actual hits; ``total_hits`` includes those carried in
    (at most 10). ``state`` is steady, shaken, disordered, routed, off-table or destroyed.
    A named tuple rather than a frozen dataclass: a battle makes one per unit, and a tuple
    is made several times faster (this is on the batch runs' hot path).
    """

    id: str
    side: int
    kind: str
    grade: str
    formation: str
    state: str
    hits_before: int
    hits_taken: int
    total_hits: int
    retired_shaken: bool


@dataclass(frozen=True)
class BattleResult:
    """The outcome of :func:`battle.engine.fight`.

    Attributes
    ----------
    winner
        0 or 1 (index of the winning force), or None for a draw.
    reason
        Why it ended: ``cards`` (loser down to its last card, §3.4), ``both-cards`` (draw),
        ``withdrawal`` (§7), ``both-withdrew`` (draw), ``no-units`` (§6.8 c),
        ``turn-limit`` (draw, §6.8 d) or ``nightfall`` (draw, §8.3).
    bounds, turns, minutes
        Bounds fought, turns begun, and minutes of battle time (bounds x 15).
    units
        Every unit's :class:`UnitOutcome`, in id order.
    cards_left, cards_lost
        Per side, the deck size at the end and the cards removed by bad things.
    casualty_percent
        Per side, RULES.md §7.1 casualty fraction in percent.
    withdrawal_checks
        Every withdrawal check made, with its factors and dice.
    events
        Every event, when recording was on (else empty).
    """

    names: tuple[str, str]
    attacker: int
    winner: int | None
    reason: str
    bounds: int
    turns: int
    minutes: int
    units: tuple[UnitOutcome, ...]
    cards_left: tuple[int, int]
    cards_lost: tuple[int, int]
    casualty_percent: tuple[float, float]
    withdrawal_checks: tuple[WithdrawalChecked, ...] = ()
    events: tuple[BattleEvent, ...] = field(default=(), repr=False)

    @property
    def loser(self) -> int | None:
        return None if self.winner is None else 1 - self.winner

    @property
    def winner_name(self) -> str | None:
        return None if self.winner is None else self.names[self.winner]

    def hits_taken(self, side: int) -> int:
        """Actual hits taken by one side in this battle."""
        return sum(u.hits_taken for u in self.units if u.side == side)

    def to_dict(self, with_events: bool = True) -> dict[str, object]:
        """A JSON-ready dict (stable key order) of the whole result."""
        from battle.events import event_to_dict

        data: dict[str, object] = {
            "names": list(self.names),
            "attacker": self.attacker,
            "winner": self.winner,
            "winner_name": self.winner_name,
            "reason": self.reason,
            "bounds": self.bounds,
            "turns": self.turns,
            "minutes": self.minutes,
            "cards_left": list(self.cards_left),
            "cards_lost": list(self.cards_lost),
            "casualty_percent": [round(p, 3) for p in self.casualty_percent],
            "units": [u._asdict() for u in self.units],
            "withdrawal_checks": [event_to_dict(w) for w in self.withdrawal_checks],
        }
        if with_events:
            data["events"] = [event_to_dict(e) for e in self.events]
        return data
