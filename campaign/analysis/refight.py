"""Re-fight a battle of a logged campaign (issue 28 item 4): its exact set-up, and its luck.

A :class:`~campaign.events.BattleFought` of an umpire's event stream holds all a battle needs
to be fought again: each unit with the actual hits it carried in (RULES.md §1.2), the attacker
(§6.2), the late arrivals with the bound each joined (§8.4), the battle's start (so the
bounds of daylight left, §8.3) and its random stream under the campaign seed (§0.6). So

- :func:`refight` fights it again from that stream and gives the logged battle back, event for
  event (the campaign fights every battle from its own stream's start, late arrivals added);
- :func:`refight_odds` fights it ``n`` times from the odds' own stream (never the campaign's
  dice) and says where the logged result fell among them.

Campaign units are regular, in their default formation (RULES.md §2.1); the battle doctrine
of both sides is the rules' ``campaign.battle_doctrine``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from battle.arrivals import Arrival
from battle.engine import fight
from battle.result import BattleResult
from battle.units import Force, UnitSpec
from campaign.clock import Clock
from campaign.config import Rules
from campaign.errors import SimulatorError
from campaign.events import SIDES, BattleFought, CampaignEvent, CampaignStarted
from campaign.streams import Streams, odds_stream
from campaign.terrain import stiffen

__all__ = [
    "BattleSetup",
    "RefightOdds",
    "fight_setup",
    "logged_battles",
    "refight",
    "refight_odds",
    "same_outcome",
    "setup_of",
    "setup_on",
]

#: the most re-fights one call makes (the same bound as ``campaign battle --odds``)
MAX_REFIGHTS = 1_000_000


@dataclass(frozen=True)
class BattleSetup:
    """One logged battle, ready to be fought again.

    Attributes
    ----------
    number
        1-based, in the order the log lists its battles.
    event
        The logged battle.
    forces
        (Red, Blue), each unit with the hits it carried in (the defender's with the grades the
        ground gave it, house rule ``terrain``); the late arrivals are not in them.
    arrivals
        The late arrivals, each at the bound it joined (RULES.md §8.4).
    attacker
        0 (Red) or 1 (Blue).
    max_bounds
        The bounds of daylight left at its start (RULES.md §8.3).
    stream
        The battle's random stream under the campaign seed (RULES.md §0.6).
    doctrine
        The tactical doctrine of both sides (RULES.md §6.7).
    """

    number: int
    event: BattleFought
    forces: tuple[Force, Force]
    arrivals: tuple[Arrival, ...]
    attacker: int
    max_bounds: int
    stream: int
    doctrine: str


def logged_battles(events: Sequence[CampaignEvent]) -> list[BattleFought]:
    """The battles of a stream, in the order the log lists them (battle 1 first)."""
    return [e for e in events if isinstance(e, BattleFought)]


def setup_of(
    event: BattleFought,
    number: int,
    rules: Rules,
    header: CampaignStarted,
) -> BattleSetup:
    """The set-up of a logged battle (see :class:`BattleSetup`), under the clock and side
    names of the log's ``header`` (:func:`setup_on`).
    """
    return setup_on(
        event, number, rules, Clock(header.day_start, header.day_end), header.side_names
    )


def setup_on(
    event: BattleFought,
    number: int,
    rules: Rules,
    clock: Clock,
    side_names: Mapping[str, str],
) -> BattleSetup:
    """The set-up of a logged battle (see :class:`BattleSetup`) on the campaign ``clock``
    (the bounds of daylight left, RULES.md §8.3), its forces named by ``side_names``.

    Raises
    ------
    SimulatorError
        If the battle cannot be fought again exactly: its stream is of a file written before
        issue 15's streams, or a side brought no unit that could fight.
    """
    limit = rules.battle.destroyed_at_hits
    if len(event.battle_seed) != 1:
        raise SimulatorError(
            f"battle {number} was logged before battles had their own numbered stream",
            fix="Run the campaign again with this version and re-fight from the new log.",
        )
    late = {uid: j.division for j in event.joined for uid in j.units}
    brought: dict[str, list[UnitSpec]] = {}
    forces = []
    for side in SIDES:
        units = []
        for u in event.units:
            if u.side != side or u.hits_before >= limit:
                continue
            spec = UnitSpec(u.id, u.kind, hits=u.hits_before)
            if u.id in late:
                brought.setdefault(late[u.id], []).append(spec)
            else:
                units.append(spec)
        if not units:
            raise SimulatorError(
                f"battle {number}: {side_names.get(side, side)} brought no unit that "
                "could fight, so there is no battle to fight again",
                fix="Choose another battle (campaign battle --from LOG lists them).",
            )
        if event.defender_grade_steps and side != event.attacker:  # house rule `terrain`
            units = stiffen(units, event.defender_grade_steps)
        forces.append(Force(side_names.get(side, side.title()), tuple(units)))
    side_of = {div: SIDES.index(s) for s in SIDES for div in event.divisions[s]}
    arrivals = tuple(
        Arrival(j.bound, side_of[j.division], tuple(brought[j.division]))
        for j in event.joined
        if j.division in brought
    )
    bound = rules.battle.bound_minutes
    return BattleSetup(
        number=number,
        event=event,
        forces=(forces[0], forces[1]),
        arrivals=arrivals,
        attacker=SIDES.index(event.attacker),
        max_bounds=int((clock.nightfall(event.t) - event.t) // bound),
        stream=event.battle_seed[0],
        doctrine=rules.campaign.battle_doctrine,
    )


def fight_setup(
    setup: BattleSetup, rules: Rules, rng: np.random.Generator, record_events: bool = False
) -> BattleResult:
    """Fight ``setup`` once with ``rng`` (any generator: the campaign's stream of it is
    :func:`refight`'s)."""
    return fight(
        setup.forces[0],
        setup.forces[1],
        rules.battle,
        rng,
        attacker=setup.attacker,
        doctrines=(setup.doctrine, setup.doctrine),
        max_bounds=setup.max_bounds,
        record_events=record_events,
        arrivals=setup.arrivals,
    )


def refight(setup: BattleSetup, rules: Rules, seed: int) -> BattleResult:
    """Fight the logged battle again from its own stream under the campaign ``seed``: the
    same battle, event for event, as the campaign fought (see :func:`same_outcome`)."""
    return fight_setup(setup, rules, Streams(seed).generator(setup.stream), record_events=True)


def same_outcome(result: BattleResult, event: BattleFought) -> bool:
    """Whether ``result`` is the logged battle: winner, reason, bounds and every unit's
    state and hits."""
    winner = None if result.winner is None else SIDES[result.winner]
    mine = sorted((u.id, u.state, u.hits_before, u.total_hits) for u in result.units)
    logged = sorted(
        (u.id, u.state, u.hits_before, u.total_hits)
        for u in event.units
        if any(u.id == m[0] for m in mine)
    )
    return (winner, result.reason, result.bounds) == (
        event.winner,
        event.reason,
        event.bounds,
    ) and mine == logged


@dataclass(frozen=True)
class RefightOdds:
    """Outcomes of ``n`` re-fights, and where the logged battle fell among them.

    ``wins`` per side (``"red"``, ``"blue"``) and ``draws`` count the re-fights;
    ``hits_at_least`` is, per side, the number of re-fights in which that side took at least
    the hits it took in the logged battle.
    """

    n: int
    wins: dict[str, int]
    draws: int
    hits_at_least: dict[str, int]

    def chance(self, side: str | None) -> float:
        """Fraction (0-1) of re-fights with this winner (None: a draw)."""
        return (self.draws if side is None else self.wins[side]) / self.n


def refight_odds(setup: BattleSetup, rules: Rules, seed: int, n: int) -> RefightOdds:
    """Fight the logged battle ``n`` times (1 to :data:`MAX_REFIGHTS`) from the odds' own
    stream of it (``campaign.streams.odds_stream``: never the campaign's dice).

    Raises
    ------
    ValueError
        If ``n`` is out of range.
    """
    if not 1 <= n <= MAX_REFIGHTS:
        raise ValueError(f"re-fights must be 1 to {MAX_REFIGHTS:,}, not {n}")
    rng = Streams(seed).generator(odds_stream(setup.event.battle_seed))
    logged = {s: setup.event.hits[s] for s in SIDES}
    wins = dict.fromkeys(SIDES, 0)
    at_least = dict.fromkeys(SIDES, 0)
    draws = 0
    for _ in range(n):
        r = fight_setup(setup, rules, rng, record_events=False)
        if r.winner is None:
            draws += 1
        else:
            wins[SIDES[r.winner]] += 1
        taken = [0, 0]
        for u in r.units:
            taken[u.side] += u.hits_taken
        for i, side in enumerate(SIDES):
            at_least[side] += taken[i] >= logged[side]
    return RefightOdds(n, wins, draws, at_least)
