"""A campaign battle's record: its :class:`~campaign.events.BattleFought` event and its
results-table row (RULES.md §8.4), built from the battle as fought."""

from __future__ import annotations

from typing import TYPE_CHECKING

from battle.log import format_events
from battle.result import BattleResult
from campaign.army import Division
from campaign.events import SIDES, BattleFought, Check, LateArrival, UnitFate
from campaign.meetings import Battle
from campaign.result import BattleRow

if TYPE_CHECKING:
    from campaign.engine import Campaign

__all__ = ["battle_row", "fought_event", "side_totals", "unit_totals"]


def fought_event(
    camp: Campaign,
    battle: Battle,
    by_side: dict[str, list[Division]],
    joined: list[tuple[Division, int, tuple[str, ...]]],
) -> BattleFought:
    """The battle as an event, timed at its start; ``joined`` holds each late arrival, the
    bound it joined and its unit ids (RULES.md §8.4)."""
    result = battle.result
    assert result is not None
    where = battle.where
    names = camp.graph.nodes
    if where.road is not None:
        a, b = where.road
        place_name = f"the road {names[a]['name']} - {names[b]['name']}"
    else:
        place_name = names[where.junction]["name"]
    units = tuple(
        UnitFate(u.id, SIDES[u.side], u.kind, u.state, u.hits_before, u.hits_taken, u.total_hits)
        for u in result.units
    )
    checks = tuple(
        Check(
            SIDES[w.side],
            w.casualty_percent,
            w.factors,
            w.total,
            w.rolls,
            w.withdraws,
            w.die,
            w.success_total,
        )
        for w in result.withdrawal_checks
    )
    log = tuple(format_events(result)) if camp.battle_logs else ()
    return BattleFought(
        int(battle.start),
        where.key,
        place_name,
        {s: tuple(d.id for d in by_side[s]) for s in SIDES},
        battle.attacker,
        None if result.winner is None else SIDES[result.winner],
        result.reason,
        result.bounds,
        result.minutes,
        {s: result.cards_lost[i] for i, s in enumerate(SIDES)},
        {s: result.cards_left[i] for i, s in enumerate(SIDES)},
        {s: result.hits_taken(i) for i, s in enumerate(SIDES)},
        {s: round(result.casualty_percent[i], 2) for i, s in enumerate(SIDES)},
        units,
        checks,
        (battle.stream,),
        battle.roll_off,
        log,
        road=where.road,
        joined=tuple(LateArrival(d.id, k, ids) for d, k, ids in joined),
        on_table=battle.number in camp.table.results,  # its result entered by hand (issue 28)
        defender_grade_steps=battle.ground_steps,  # the house rule `terrain`
    )


def battle_row(camp: Campaign, battle: Battle, by_side: dict[str, list[Division]]) -> BattleRow:
    """The battle as a results-table row, numbered in order of the battles' starts."""
    result = battle.result
    assert result is not None
    where = battle.where
    # from the kernel's columns: no unit outcome is built
    units_red, units_blue, hits_red, hits_blue = side_totals(result)
    return BattleRow(
        battle.number,
        int(battle.start),
        camp.clock.day(battle.start),
        where.key,
        where.road is not None,
        battle.attacker,
        None if result.winner is None else SIDES[result.winner],
        result.reason,
        result.bounds,
        len(by_side["red"]),
        len(by_side["blue"]),
        units_red,
        units_blue,
        hits_red,
        hits_blue,
        result.cards_lost[0],
        result.cards_lost[1],
    )


def side_totals(result: BattleResult) -> tuple[int, int, int, int]:
    """Each side's units in the battle and actual hits taken in it: exactly
    ``(unit_count(0), unit_count(1), hits_taken(0), hits_taken(1))`` of
    :class:`~battle.result.BattleResult`, read from its unit columns in one compiled loop
    (as :func:`unit_totals`: a campaign records each of its battles)."""
    c = result.unit_columns
    if c is None:
        return (
            result.unit_count(0),
            result.unit_count(1),
            result.hits_taken(0),
            result.hits_taken(1),
        )
    hits: list[int] = c.hits
    present: list[int] | None = c.present
    split: int = c.split
    n = len(c.ids)
    units_a = units_b = hits_a = hits_b = 0
    for i in range(n):  # a late arrival that never joined took no hits (and is no unit)
        if i < split:
            hits_a += hits[i]
            units_a += 1 if present is None else present[i]
        else:
            hits_b += hits[i]
            units_b += 1 if present is None else present[i]
    return units_a, units_b, hits_a, hits_b


def unit_totals(result: BattleResult) -> dict[str, int]:
    """Each unit's total actual hits at the battle's end, by id: exactly
    :meth:`BattleResult.total_hits <battle.result.BattleResult.total_hits>`, read from the
    result's unit columns in one compiled loop where the kernel left them (no zip, compress
    or dict call through the interpreter: a campaign settles each of its battles)."""
    c = result.unit_columns
    if c is None:
        return result.total_hits()
    ids: list[str] = c.ids
    total: list[int] = c.total
    present: list[int] | None = c.present
    totals: dict[str, int] = {}
    if present is None:
        for i in range(len(ids)):
            totals[ids[i]] = total[i]
    else:
        for i in range(len(ids)):
            if present[i]:
                totals[ids[i]] = total[i]
    return totals
