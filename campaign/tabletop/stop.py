"""Stop a campaign just before a battle to fight on the table, and the engine's own result of a
logged battle as a table result (issue 28).

:func:`stop_before_battle` runs a campaign until just before the first battle a policy
(:mod:`campaign.tabletop.policy`) accepts that has no table result yet, and hands back what a
briefing needs (:class:`BattleStop`: the battle's :class:`~campaign.analysis.refight.BattleSetup`
with its late arrivals and their bounds, see :mod:`campaign.table_battle`) and the campaign's
state then. The campaign is then built again with the battle's result
(``Campaign(..., table_results=...)``) and run on: the campaign is a function of its inputs.

Example
-------
>>> from campaign.config import load_rules
>>> from campaign.engine import Campaign
>>> from campaign.maps import load_map
>>> cmap, loaded = load_map(), load_rules()
>>> stop = stop_before_battle(Campaign(cmap, loaded, 5), lambda b: True)
>>> stop.number, stop.setup.attacker in (0, 1)
(1, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from campaign.analysis.refight import BattleSetup, setup_on
from campaign.engine import Campaign
from campaign.events import BattleFought
from campaign.state import CampaignState
from campaign.table_battle import BattleStart
from campaign.table_result import TableResult, TableUnit

__all__ = ["BattleStop", "engine_result", "stop_before_battle", "table_status"]


@dataclass(frozen=True)
class BattleStop:
    """Where a campaign stopped for a battle fought on the table.

    ``number`` is the battle's (1-based, as the log numbers battles); ``setup`` its forces
    with the hits each unit carries, grade and formation, attacker, late arrivals each with
    the bound it arrives, and bounds of daylight left (``setup.event`` names the place:
    ``place`` is the junction id, or ``a~b`` for a road; its result fields are a look-ahead's,
    not a battle's); ``state`` the campaign just before the battle began.
    """

    number: int
    setup: BattleSetup
    state: CampaignState


def stop_before_battle(camp: Campaign, rule: Callable[[BattleStart], bool]) -> BattleStop | None:
    """Run ``camp`` until just before the first battle ``rule`` accepts that has no table
    result, or to its end (then None). ``camp`` cannot run on after a stop
    (:meth:`Campaign.run_until_battle`)."""
    reached = camp.run_until_battle(rule)
    if reached is None:
        return None
    sides = {s: camp.map.sides[s].name for s in camp.map.sides}
    setup = setup_on(reached.event, reached.number, camp.rules, camp.clock, sides)
    return BattleStop(reached.number, setup, reached.state)


def table_status(state: str) -> str:
    """A unit's status at the table (``in``, ``routed``, ``withdrawn``, ``destroyed``) for its
    state at the end of an abstract battle (``off-table`` is withdrawn; steady, shaken and
    disordered units are in)."""
    if state in ("destroyed", "routed", "withdrawn", "in"):
        return state
    return "withdrawn" if state == "off-table" else "in"


def engine_result(event: BattleFought, setup: BattleSetup) -> TableResult:
    """The logged battle ``event`` (as the engine fought it) as the result of the battle of
    ``setup``, as a player would enter it: every unit of ``setup`` with its hits and status
    at the end (an announced late arrival that did not come keeps the hits it carried in);
    entered for the same battle of the same campaign, the campaign goes on exactly as it did
    with the engine's battle."""
    fates = {u.id: u for u in event.units}
    side_of = {u.id: s for i, s in enumerate(("red", "blue")) for u in setup.forces[i].units}
    side_of.update({u.id: ("red", "blue")[a.side] for a in setup.arrivals for u in a.units})
    carried = {u.id: u.hits for f in setup.forces for u in f.units}
    carried.update({u.id: u.hits for a in setup.arrivals for u in a.units})
    units = []
    for uid, before in carried.items():
        fate = fates.get(uid)
        if fate is None:
            units.append(TableUnit(uid, side_of[uid], before, "in"))
        else:
            units.append(TableUnit(uid, side_of[uid], fate.total_hits, table_status(fate.state)))
    return TableResult(setup.number, event.winner, event.bounds, tuple(units))
