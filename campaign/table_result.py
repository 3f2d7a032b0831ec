"""A battle's result as fought on the table and entered by hand (issue 28): plain data.

A :class:`TableResult` is what a wargamer reads off the table when a campaign battle is over:
the winner (or a draw), how many bounds of 15 minutes it lasted (RULES.md §8.3), and for every
unit its actual hits after the battle (those it carried in included, RULES.md §1.2) and its
status at the end (:data:`STATUSES`). A campaign given one for its battle N
(``Campaign(..., table_results=...)``, :attr:`campaign.state.Inputs.table_results`) applies it
instead of fighting the abstract battle (:mod:`campaign.table_battle`). Checking a sheet a
player filled in is :mod:`campaign.tabletop.sheet`'s job; this module only holds the data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from campaign.analysis.refight import BattleSetup

__all__ = ["STATUSES", "TableResult", "TableUnit", "table_result_from_dict"]

#: a unit's state at the end of a battle fought on the table
STATUSES = ("in", "routed", "withdrawn", "destroyed")


@dataclass(frozen=True)
class TableUnit:
    """One unit after a battle fought on the table: its id, side (``"red"``/``"blue"``),
    actual hits (carried in included, 0 to ``battle.destroyed_at_hits``) and status
    (:data:`STATUSES`)."""

    id: str
    side: str
    hits: int
    status: str


@dataclass(frozen=True)
class TableResult:
    """A battle's result as entered by hand.

    ``battle`` is the battle's number in the campaign, 1-based, in the order the battles began
    (as the log numbers them; two battles begun in the same minute may be listed the other
    way round, a fault of the log's order); ``winner`` is ``"red"``, ``"blue"`` or None (a
    draw); ``bounds`` the bounds fought; ``units`` every unit of the battle (late arrivals
    announced by the briefing included), in the battle's order.
    """

    battle: int
    winner: str | None
    bounds: int
    units: tuple[TableUnit, ...]

    def unit(self, unit_id: str) -> TableUnit | None:
        """The entry of ``unit_id``, or None if the result does not list it."""
        for u in self.units:
            if u.id == unit_id:
                return u
        return None

    def hits_taken(self, setup: BattleSetup) -> dict[str, int]:
        """Hits each side took in the battle (after, less carried in), by side."""
        arrived = [u for a in setup.arrivals for u in a.units]
        carried = {u.id: u.hits for f in setup.forces for u in f.units}
        carried.update({u.id: u.hits for u in arrived})
        taken = {"red": 0, "blue": 0}
        for u in self.units:
            taken[u.side] += u.hits - carried[u.id]
        return taken


def table_result_from_dict(data: Mapping[str, Any]) -> TableResult:
    """The :class:`TableResult` of :func:`dataclasses.asdict`'s data (a state or save file);
    KeyError or TypeError if a field is missing or of the wrong shape."""
    units = tuple(
        TableUnit(str(u["id"]), str(u["side"]), int(u["hits"]), str(u["status"]))
        for u in data["units"]
    )
    winner = data["winner"]
    return TableResult(
        int(data["battle"]), None if winner is None else str(winner), int(data["bounds"]), units
    )
