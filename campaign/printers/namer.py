"""What the sentence helpers need of a narrator: names of places, sides and divisions.

:class:`Namer` is the interface :mod:`campaign.printers.battle_story` and
:mod:`campaign.printers.orders` write against; :class:`campaign.printers.narrative.Narrator`
provides it. Written as a Protocol so those helpers do not import the narrator that calls
them (no import cycle among the printers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from campaign.events import BattleFought, Place
from campaign.printers.odds import Odds

__all__ = ["Namer"]


class Namer(Protocol):
    """Names as a view gives them (see :class:`campaign.printers.narrative.Narrator`)."""

    #: each side's base junction id
    bases: dict[str, str]
    #: divisions whose opening plan was told
    opened: set[str]

    #: each battle's odds before it was fought (None: not shown in this view)
    odds: Callable[[BattleFought], Odds | None] | None

    def j(self, junction: Place) -> str: ...

    def side(self, side: str | None) -> str: ...

    def noun(self, side: str | None, start: bool = False) -> str: ...

    def adjective(self, side: str) -> str: ...

    def div(self, division: str) -> str: ...

    def divs(self, divisions: Iterable[str]) -> str: ...

    def led(self, division: str) -> str: ...

    def beaten(self, division: str) -> bool: ...
