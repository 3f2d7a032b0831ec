"""Read a running campaign's :class:`~campaign.state.CampaignState` (issue 26, item 1).

:func:`capture` copies what a campaign is at its clock's minute into plain data: nothing
it returns shares a mutable object with the campaign, so the campaign may run on and the
state stays as it was. It reads; it changes nothing and draws no die.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from battle.units import UnitSpec
from campaign.events import SIDES
from campaign.paths import display_path
from campaign.state import (
    BattleState,
    CampaignState,
    DivisionState,
    Inputs,
    MemoryState,
    OrderState,
    SideState,
    UnitState,
)
from campaign.strategy.knowledge import Memory, Order

if TYPE_CHECKING:
    from campaign.army import Division
    from campaign.engine import Campaign

__all__ = ["RECORD_FIELDS", "capture", "inputs_of"]

#: the counts of a side's :class:`campaign.ledger.SideRecord` a state keeps (all of them)
RECORD_FIELDS = (
    "initial_boxes",
    "hits",
    "surrendered_boxes",
    "units_destroyed",
    "batteries_destroyed",
    "divisions_destroyed",
    "divisions_surrendered",
    "battles_lost",
    "division_defeats",
    "onto_base",
    "cut_off",
    "fall_backs",
)


def inputs_of(camp: Campaign) -> Inputs:
    """What ``camp`` was started from (map, rules and their hash, seed, doctrines, the results
    of battles fought on the table)."""
    cmap = camp.map
    return Inputs(
        map=cmap.name,
        map_source=display_path(cmap.source),
        rules=camp.loaded.label,
        rules_hash=camp.loaded.hash,
        seed=camp.seed,
        doctrines=dict(camp.doctrines),
        table_results=tuple(camp.table_results[n] for n in sorted(camp.table_results)),
    )


def capture(camp: Campaign, time: float) -> CampaignState:
    """The state of ``camp`` at minute ``time`` (its clock's time, read by the scheduler)."""
    desk = camp.desk
    return CampaignState(
        inputs=inputs_of(camp),
        time=float(time),
        events=camp.n_events,
        over=camp.over,
        winner=camp.winner,
        reason=camp.reason,
        divisions=tuple(_division(d) for d in camp.divisions),
        control=dict(sorted(camp.ledger.owner.items())),
        sides={side: _side(camp, side) for side in SIDES},
        battles=tuple(
            BattleState(
                number=b.number,
                junction=b.where.junction,
                road=None if b.where.road is None else tuple(b.where.road),  # type: ignore[arg-type]
                start=float(b.start),
                attacker=b.attacker,
                divisions=tuple(d.id for d in b.divisions),
                joins=tuple((d.id, bound) for d, bound in b.joins),
            )
            for _, b in sorted(desk.pending.items())
        ),
        counts=dict(camp.counts),
    )


def _unit(u: UnitSpec) -> UnitState:
    return UnitState(u.id, u.kind, u.grade, u.irregular, u.light, u.hits, u.formation)


def _division(d: Division) -> DivisionState:
    return DivisionState(
        id=d.id,
        side=d.side,
        units=tuple(_unit(u) for u in d.units),
        location=d.location,
        came_from=d.came_from,
        road=None if d.road is None else (d.road[0], d.road[1], float(d.road[2]), float(d.road[3])),
        on_road=d.on_road,
        road_walked=(float(d.road_walked[0]), float(d.road_walked[1])),
        orders=tuple((kind, arg) for kind, arg in d.orders),
        busy_until=float(d.busy_until),
        arrived_at=float(d.arrived_at),
        alive=d.alive,
        surrendered=d.surrendered,
        in_battle=d.in_battle,
        halted_reason=d.halted_reason,
        held_for=d.held_for,
    )


def _order(o: Order) -> OrderState:
    return OrderState(o.code, o.goal, o.step, o.enemy_at, o.enemies, o.friends, o.aim)


def _memory(m: Memory) -> MemoryState:
    follow = m.follow
    return MemoryState(
        plan=m.plan,
        planned=m.planned,
        order=m.order,
        came=m.came,
        came_order=m.came_order,
        pursue=tuple(m.pursue),
        pursue_until=float(m.pursue_until),
        regroup=m.regroup,
        follow=None if follow is None else (float(follow[0]), follow[1], _order(follow[2])),
    )


def _side(camp: Campaign, side: str) -> SideState:
    strategist = camp.strategists[side]
    counts = camp.ledger.sides[side]
    record = {name: getattr(counts, name) for name in RECORD_FIELDS}
    return SideState(
        record=record,
        last_seen=dict(sorted(camp.last_seen[side].items())),
        known_boxes=dict(sorted(camp.known_boxes[side].items())),
        fled=dict(sorted(strategist.fled.items())),
        memory={k: _memory(m) for k, m in sorted(strategist.memory.items())},
        base_fell_day=camp.endgame.base_fell_day.get(side),
    )
