"""What a battle returns (RULES.md §6.8): winner or draw and why, and each unit's fate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress
from typing import Any, NamedTuple

from battle.events import BattleEvent, WithdrawalChecked

__all__ = ["BattleResult", "UnitColumns", "UnitOutcome"]


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


class UnitColumns(NamedTuple):
    """What a campaign reads of a battle's units, as the kernel left them (no object per
    unit): side 0's units first, each side's in the order given (its force's, then those of
    its late arrivals in turn; ``BattleResult.units`` lists them by id).

    ``ids`` their ids; ``split`` how many are of side 0; ``hits`` this battle's actual hits;
    ``total`` hits carried in plus this battle's; ``present`` 1 for a unit in the battle,
    0 for a late arrival that never joined (RULES.md §8.4; not among ``units``), or None
    when every unit is present.
    """

    ids: list[str]
    split: int
    hits: list[int]
    total: list[int]
    present: list[int] | None


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
        Every unit's :class:`UnitOutcome`, side 0 first, each side in id order; built when
        first read (``recorded_units``), from ``unit_columns`` when the kernel fought it.
    cards_left, cards_lost
        Per side, the deck size at the end and the cards removed by bad things.
    casualty_percent
        Per side, RULES.md §7.1 casualty fraction in percent.
    withdrawal_checks
        Every withdrawal check made, with its factors and dice.
    events
        Every event, when recording was on (else empty). The kernel records them as rows of
        numbers; they become event objects when first read (``recorded`` decodes them).
    """

    names: tuple[str, str]
    attacker: int
    winner: int | None
    reason: str
    bounds: int
    turns: int
    minutes: int
    cards_left: tuple[int, int]
    cards_lost: tuple[int, int]
    casualty_percent: tuple[float, float]
    #: the withdrawal checks, or what decodes them (called once, when first read)
    recorded_checks: tuple[WithdrawalChecked, ...] | Callable[[], tuple[WithdrawalChecked, ...]] = (
        field(default=(), repr=False, compare=False)
    )
    #: the units' outcomes, or what builds them (called once, when first read)
    recorded_units: tuple[UnitOutcome, ...] | Callable[[], tuple[UnitOutcome, ...]] = field(
        default=(), repr=False, compare=False
    )
    #: the units' columns the campaign reads (None: read ``units``)
    unit_columns: UnitColumns | None = field(default=None, repr=False, compare=False)
    #: the recorded events, or what decodes them (called once, when first read)
    recorded: tuple[BattleEvent, ...] | Callable[[], tuple[BattleEvent, ...]] = field(
        default=(), repr=False, compare=False
    )

    @classmethod
    def of(cls, **fields: Any) -> BattleResult:
        """The result with these ``fields`` (every field by name), made as the dataclass's
        ``__init__`` would, without its per-field ``object.__setattr__`` calls: the kernel's
        decoder makes one per battle, on the batch runs' hot path."""
        made = object.__new__(cls)
        object.__setattr__(made, "__dict__", fields)  # the keywords' own dict: not copied
        return made

    @cached_property
    def units(self) -> tuple[UnitOutcome, ...]:
        """Every unit's :class:`UnitOutcome`: side 0 first, each side in id order (late
        arrivals that never joined left out, RULES.md §8.4)."""
        units = self.recorded_units
        return units if isinstance(units, tuple) else units()

    @cached_property
    def withdrawal_checks(self) -> tuple[WithdrawalChecked, ...]:
        """Every withdrawal check made, with its factors and dice (RULES.md §7.2–§7.4)."""
        checks = self.recorded_checks
        return checks if isinstance(checks, tuple) else checks()

    @cached_property
    def events(self) -> tuple[BattleEvent, ...]:
        """Every event, in order (empty when recording was off)."""
        recorded = self.recorded
        return recorded if isinstance(recorded, tuple) else recorded()

    def __eq__(self, other: object) -> bool:
        """Equal outcomes and equal events."""
        if not isinstance(other, BattleResult):
            return NotImplemented
        return self._outcome() == other._outcome() and self.events == other.events

    def __hash__(self) -> int:
        return hash(self._outcome())

    def _outcome(self) -> tuple[Any, ...]:
        return (
            self.names,
            self.attacker,
            self.winner,
            self.reason,
            self.bounds,
            self.turns,
            self.minutes,
            self.units,
            self.cards_left,
            self.cards_lost,
            self.casualty_percent,
            self.withdrawal_checks,
        )

    def __getstate__(self) -> dict[str, Any]:
        """Pickled with its events decoded (a decoder does not pickle)."""
        state = dict(self.__dict__)
        state["recorded"] = self.events
        state["recorded_checks"] = self.withdrawal_checks
        state["recorded_units"] = self.units
        for name in ("events", "withdrawal_checks", "units"):
            state.pop(name, None)
        return state

    @property
    def loser(self) -> int | None:
        return None if self.winner is None else 1 - self.winner

    @property
    def winner_name(self) -> str | None:
        return None if self.winner is None else self.names[self.winner]

    def hits_taken(self, side: int) -> int:
        """Actual hits taken by one side (0 or 1) in this battle."""
        c = self.unit_columns
        if c is None:
            return sum(u.hits_taken for u in self.units if u.side == side)
        return sum(c.hits[: c.split] if side == 0 else c.hits[c.split :])  # none if absent

    def unit_count(self, side: int) -> int:
        """How many of ``units`` are of side 0 or 1."""
        c = self.unit_columns
        if c is None:
            return sum(1 for u in self.units if u.side == side)
        if c.present is None:
            return c.split if side == 0 else len(c.ids) - c.split
        return sum(c.present[: c.split] if side == 0 else c.present[c.split :])

    def total_hits(self) -> dict[str, int]:
        """Each unit's total hits at the end (carried in plus this battle's), by id: the
        units of ``units``."""
        c = self.unit_columns
        if c is None:
            return {u.id: u.total_hits for u in self.units}
        if c.present is None:
            return dict(zip(c.ids, c.total, strict=True))
        return dict(compress(zip(c.ids, c.total, strict=True), c.present))

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
