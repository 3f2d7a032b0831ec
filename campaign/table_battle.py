"""Battles fought on the table in a running campaign (issue 28): their results applied through
the campaign's own path, and the stop just before one.

**A result entered by hand** (:class:`~campaign.table_result.TableResult`, keyed by the
battle's number, 1-based in the order battles begin, as the log numbers them) takes the place
of the abstract battle: :meth:`TableDesk.outcome` turns it into the
:class:`~battle.result.BattleResult` that :mod:`campaign.battles` would have had from
:func:`battle.engine.fight`, and everything after is the engine's: the battle lasts its bounds
x 15 minutes (RULES.md §8.3), losses persist and destroyed units are gone (§1.2, §7.6), the
loser falls back 2 junctions or surrenders, on a draw the attacker goes back (§8.5). The
abstract battle's own random stream is not drawn from, and no other stream depends on it
(RULES.md §0.6), so every other die of the campaign falls as it would have.

**Late arrivals** *(house)*: RULES.md §8.4 has divisions that reach the field while a battle
is fought join their side at its next bound. At the table the briefing announces them, each
with the bound it arrives (those the campaign has reaching the field before nightfall), and
the result covers their units too. A division joins the table battle when it arrives at a
bound the battle reached (the bounds entered), as in the abstract battle; an announced one
whose bound the battle did not reach took no part (its units keep the hits they carried:
:func:`campaign.tabletop.sheet.check_result` refuses others); a division the result does not
list (the briefing did not announce it) does not join: it waits for the battle's end, as one
that arrives after the last bound began does (§8.4).

**How it ended**: a table battle's ``reason`` is ``"table"``, except a draw that lasted every
bound of daylight left, which nightfall ended (``"nightfall"``, RULES.md §8.3: the attacker
then goes back at dawn, §8.5). Movement cards and withdrawal checks are the table's and are
not recorded (0 and none). The casualty percent per side is RULES.md §7.1's: hits taken plus
the boxes left of units routed at the end, over the boxes its units had at the start (late
arrivals' included).

**The stop** (:meth:`campaign.engine.Campaign.run_until_battle`): the campaign stops just
before the first battle a rule accepts that has no table result yet, with the state it was in
then; to announce the late arrivals, it first fights that battle as a draw lasting every bound
of daylight left (no hits, no die: a look-ahead) until it ends, and hands back that record
(:class:`BattleReached`). A campaign so stopped cannot run on: build it again with the
battle's result (the campaign is a function of its inputs, :mod:`campaign.resume`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from simpy.core import StopSimulation

from battle.result import BattleResult, UnitOutcome
from battle.units import UnitSpec
from campaign.battle_record import fought_event
from campaign.errors import SimulatorError
from campaign.events import SIDES, BattleFought
from campaign.meetings import Battle, Meeting
from campaign.state import CampaignState
from campaign.table_result import TableResult, TableUnit

if TYPE_CHECKING:
    from campaign.army import Division
    from campaign.engine import Campaign

__all__ = [
    "BattleReached",
    "BattleStart",
    "TableDesk",
    "check_table_results",
    "table_battle_result",
]

#: a table battle's ``reason`` (unless nightfall ended it)
TABLE_REASON = "table"


@dataclass(frozen=True)
class BattleStart:
    """A battle about to begin, as a stop rule sees it (:mod:`campaign.tabletop.policy`).

    ``number`` is 1-based in the order battles begin; ``junction`` is where it is fought
    (None on a road, then ``road`` holds the two junctions); ``start`` the campaign minute it
    begins; ``units`` each side's units there at its start (late arrivals are not known yet).
    """

    number: int
    junction: str | None
    road: tuple[str, str] | None
    start: float
    units: dict[str, int]


@dataclass(frozen=True)
class BattleReached:
    """Where :meth:`~campaign.engine.Campaign.run_until_battle` stopped: battle ``number``,
    the campaign's ``state`` just before it began, and ``event``, its record fought as a draw
    lasting every bound of daylight left: its forces, attacker, start and stream, and its late
    arrivals with their bounds (``joined``); its result fields are the look-ahead's, not a
    battle's."""

    number: int
    state: CampaignState
    event: BattleFought


def check_table_results(results: Sequence[TableResult]) -> dict[int, TableResult]:
    """``results`` by battle number; :class:`SimulatorError` if two are for one battle or a
    number is below 1."""
    by_number: dict[int, TableResult] = {}
    for r in results:
        if r.battle < 1 or r.battle in by_number:
            raise SimulatorError(
                f"table result for battle {r.battle}: "
                + ("given twice" if r.battle in by_number else "battles are numbered from 1"),
                key="table_results",
                fix="Give one result per battle, numbered as the log numbers its battles.",
            )
        by_number[r.battle] = r
    return by_number


def table_battle_result(
    table: TableResult,
    names: tuple[str, str],
    attacker: int,
    units: Sequence[tuple[int, UnitSpec]],
    max_bounds: int,
    bound_minutes: int,
    limit: int,
) -> BattleResult:
    """The :class:`BattleResult` of a battle fought on the table (see the module docstring).

    ``units`` are ``(side index, unit)`` of every unit in the battle, late arrivals that
    joined included, each with the hits it carried in; ``max_bounds`` the bounds of daylight
    left at its start; ``limit`` the actual hits that destroy a unit
    (``battle.destroyed_at_hits``, RULES.md §1.2). Units the result lists that are not in
    ``units`` (an announced late arrival that never came) are left out.

    Raises
    ------
    SimulatorError
        If a unit of the battle is not in ``table`` (a result for another battle).
    """
    outcomes = []
    boxes = [0, 0]
    lost = [0, 0]
    for side, spec in units:
        entry = table.unit(spec.id)
        if entry is None:
            raise SimulatorError(
                f"the table result of battle {table.battle} does not list unit {spec.id}",
                key=f"table_results[battle {table.battle}].units",
                fix="Enter the result from the battle's own sheet (every unit it lists).",
            )
        total = min(max(entry.hits, spec.hits), limit)  # never down, at most destroyed (§1.2)
        if entry.status == "destroyed":
            total = limit  # destroyed is at the limit (the sheet's check asks for both)
        boxes[side] += limit - spec.hits
        lost[side] += total - spec.hits
        if entry.status == "routed":  # §7.1: a routed unit's boxes left count as lost
            lost[side] += limit - total
        outcomes.append(
            UnitOutcome(
                spec.id,
                side,
                spec.kind,
                spec.grade,
                spec.formation or "",
                entry.status,
                spec.hits,
                total - spec.hits,
                total,
                False,
            )
        )
    outcomes.sort(key=lambda u: (u.side, u.id))
    draw = table.winner is None
    return BattleResult(
        names=names,
        attacker=attacker,
        winner=None if draw else SIDES.index(table.winner or ""),
        reason="nightfall" if draw and table.bounds >= max_bounds else TABLE_REASON,
        bounds=table.bounds,
        turns=0,  # not recorded at the table
        minutes=table.bounds * bound_minutes,
        cards_left=(0, 0),
        cards_lost=(0, 0),
        casualty_percent=(
            100.0 * lost[0] / boxes[0] if boxes[0] else 0.0,
            100.0 * lost[1] / boxes[1] if boxes[1] else 0.0,
        ),
        recorded_units=tuple(outcomes),
    )


def _battle_units(battle: Battle) -> list[tuple[int, UnitSpec]]:
    """``(side index, unit)`` of everyone in ``battle``: its forces, then its late arrivals."""
    units = [(i, u) for i in (0, 1) for u in battle.forces[i].units]
    for d, _ in battle.joins:
        units += [(SIDES.index(d.side), u) for u in d.units]
    return units


def _look_ahead(battle: Battle) -> TableResult:
    """A draw lasting every bound of daylight left, no hits: what announces the late
    arrivals before the battle is fought (see the module docstring)."""
    units = [TableUnit(u.id, SIDES[i], u.hits, "in") for i, u in _battle_units(battle)]
    return TableResult(battle.number, None, battle.max_bounds, tuple(units))


class TableDesk:
    """A campaign's battles fought on the table: their results and the stop before one."""

    def __init__(self, camp: Campaign, results: Sequence[TableResult]) -> None:
        self.camp = camp
        #: battle number -> its result entered by hand
        self.results: dict[int, TableResult] = check_table_results(results)
        #: stop before the first battle without a result that this accepts (None: never)
        self.rule: Callable[[BattleStart], bool] | None = None
        #: the battle fought as a look-ahead after the stop (None: none)
        self.ahead: int | None = None
        self._state: CampaignState | None = None
        #: set when the campaign stopped before a battle
        self.reached: BattleReached | None = None

    def check_stop(
        self, number: int, where: Meeting, divisions: list[Division], start: float
    ) -> None:
        """Called as battle ``number`` is about to begin: if the stop rule accepts it and it
        has no result, take the campaign's state now and fight it as a look-ahead."""
        rule = self.rule
        if rule is None or number in self.results:
            return
        units = {s: sum(len(d.units) for d in divisions if d.side == s) for s in SIDES}
        if rule(BattleStart(number, where.junction, where.road, start, units)):
            self.rule = None
            self.ahead = number
            self._state = self.camp.state()

    def outcome(self, battle: Battle) -> BattleResult | None:
        """The result of ``battle`` from the table (or the look-ahead's), or None when the
        abstract battle is to be fought."""
        table = self.results.get(battle.number)
        if table is None and battle.number == self.ahead:
            table = _look_ahead(battle)
        if table is None:
            return None
        camp = self.camp
        return table_battle_result(
            table,
            (battle.forces[0].name, battle.forces[1].name),
            SIDES.index(battle.attacker),
            _battle_units(battle),
            battle.max_bounds,
            camp.rules.battle.bound_minutes,
            camp.destroyed_at,
        )

    def may_join(self, battle: Battle, division: Division) -> bool:
        """Whether ``division`` may join ``battle`` as a late arrival: always, unless the
        battle is fought on the table and its result does not list the division's units
        (see the module docstring)."""
        table = self.results.get(battle.number)
        return table is None or all(table.unit(u.id) is not None for u in division.units)

    def ends_look_ahead(self, battle: Battle) -> bool:
        """At ``battle``'s end: if it is the look-ahead, record where the campaign stopped,
        stop SimPy, and return True (nothing of it is applied)."""
        if battle.number != self.ahead or self._state is None:
            return False
        camp = self.camp
        members = sorted(battle.members(), key=lambda d: d.id)
        by_side = {s: [d for d in members if d.side == s] for s in SIDES}
        joined = [(d, k, tuple(u.id for u in d.units)) for d, k in battle.joins]
        event = fought_event(camp, battle, by_side, joined)
        self.reached = BattleReached(battle.number, self._state, event)
        self.ahead = None
        camp.stopped = True  # spent: run_until and finish do nothing more
        halt = camp.env.event()
        halt.callbacks.append(StopSimulation.callback)
        halt.succeed()
        return True
