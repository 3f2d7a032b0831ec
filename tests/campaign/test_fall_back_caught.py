"""RULES.md §8.4: opposing divisions at one junction fight, a beaten division falling back
through it included (issue 10: "every division at the junction fights")."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from campaign.config import load_rules
from campaign.engine import Campaign
from campaign.events import (
    BattleFought,
    CampaignEvent,
    FallBackCaught,
    FellBack,
    MarchArrived,
    MarchBegun,
)
from campaign.maps import load_map
from campaign.meetings import may_fight
from tests.campaign.stepping import stepped


def _missed(camp: Campaign) -> tuple[list[tuple[int, str, str]], int]:
    """Run ``camp`` (events on) to its end and return each ``(minute, division, junction)``
    where a division arrived (``MarchArrived``) at a junction an enemy stands on that may
    fight there, in daylight with at least a bound left, and no battle began within the
    minute (none begun anywhere since, none fought or waiting for dawn there); and the
    number of such arrivals (with or without a battle)."""
    missed: list[tuple[int, str, str]] = []
    waiting: list[tuple[float, str, str, int]] = []  # (minute, division, junction, started)
    told: set[int] = set()
    told_arrivals: list[MarchArrived] = []
    bound = camp.rules.battle.bound_minutes

    def look() -> None:
        now = camp.env.now
        for e in camp.events:
            if not isinstance(e, MarchArrived) or id(e) in told:
                continue
            told.add(id(e))
            if not camp.clock.is_daylight(now) or camp.clock.nightfall(now) - now < bound:
                continue
            enemies = [
                d
                for d in camp.divisions
                if d.alive
                and d.side != e.side
                and d.location == e.junction
                and may_fight(d)
                and d.busy_until < now  # not one whose battle ends this very minute
            ]
            if enemies:
                waiting.append((now, e.division, e.junction, camp.desk.started))
                told_arrivals.append(e)

    def half_a_minute_on(ended: bool) -> None:
        desk = camp.desk
        for w in list(waiting):
            now, division, junction, started = w
            if ended or camp.env.now >= now + 0.5:
                waiting.remove(w)
                quiet = junction not in desk.fighting and junction not in desk.dawn
                if not camp.over and desk.started == started and quiet:
                    missed.append((int(now), division, junction))

    for _ in stepped(camp):
        half_a_minute_on(False)
        look()
    half_a_minute_on(True)
    return missed, len(told_arrivals)


@pytest.mark.slow
@pytest.mark.parametrize("map_name", [None, "waterloo-1815"])
def test_no_division_reaches_an_enemy_held_junction_in_daylight_without_a_battle(map_name):
    """Over 30 seeds each, before the fix 28 of 40 default and 37 of 40 Waterloo seeds had
    such an arrival (a fall back marching on through the enemy); now none may."""
    cmap, rules = load_map(map_name), load_rules()
    missed, met = [], 0
    for seed in range(30):
        found, arrivals = _missed(Campaign(cmap, rules, seed, None))
        missed += [(seed, *m) for m in found]
        met += arrivals
    assert missed == []
    assert met > 10  # such arrivals do happen: each was met by a battle


def _caught_on_the_way(events: Sequence[CampaignEvent]) -> list[tuple[int, str, str]]:
    """Each ``(minute, division, junction)`` where a division beaten at a junction, falling
    back through a next junction toward a farther one (RULES.md §8.5), is caught at the next
    one by the enemy standing there: told caught there toward the farther one, and in the
    battle that begins there at once (§8.4), before it could set off for the farther one,
    the only division of its side there (its own arrival brought the battle on)."""
    found = []
    fell: dict[str, FellBack] = {}
    for i, e in enumerate(events):
        if isinstance(e, FellBack):
            fell[e.division] = e
        elif isinstance(e, MarchBegun) and e.division in fell:
            f = fell[e.division]
            if len(f.path) < 3 or (e.origin, e.destination) != (f.path[0], f.path[1]):
                del fell[e.division]  # on past its next junction, or off on new orders
        elif isinstance(e, FallBackCaught) and e.division in fell:
            f = fell.pop(e.division)
            if len(f.path) < 3 or (e.junction, e.toward) != (f.path[1], f.path[-1]):
                continue
            battle = next(b for b in events[i:] if isinstance(b, BattleFought))
            if battle.t == e.t and battle.place == e.junction:
                joined = {j.division for j in battle.joined}
                mine = set(battle.divisions[e.side]) - joined
                theirs = set(battle.divisions[_enemy(e.side)])
                # alone there on its side (no friend standing there brought the battle on),
                # against the enemy that stood there (late arrivals may join either side)
                if mine == {e.division} and e.by and set(e.by) <= theirs:
                    found.append((e.t, e.division, e.junction))
    return found


def _enemy(side: str) -> str:
    return "blue" if side == "red" else "red"


#: the seeds searched (default map, balanced against balanced): the plans of issue 31 changed
#: every campaign, so the case is looked for, not pinned to one seed; seed 32 is the first to
#: show it now (R1, beaten at Mont Fère, falls back through Glotz toward Fontenay and is caught
#: at Glotz by B3 at 17:00 of day 2)
SEEDS = range(40)


def test_a_fall_back_is_caught_where_the_enemy_stands() -> None:
    """A beaten division falling back through a junction where the enemy stands is caught
    there: a battle is fought there with it (before the fix of 6d7c198 it marched on). Found
    in at least one of :data:`SEEDS`, and in none of the campaigns searched is a junction
    held by the enemy reached in daylight without a battle. (Seed 6 until issue 31's plans
    changed its campaign: B1 through Kressheim as R2 and R3 reached it; seed 3 before the
    Philox streams of issue 15.)"""
    cmap, rules = load_map(None), load_rules()
    cases, missed = [], []
    for seed in SEEDS:
        camp = Campaign(cmap, rules, seed, None)
        found, _ = _missed(camp)
        missed += [(seed, *m) for m in found]
        result = camp.finish()
        cases += [(seed, *c) for c in _caught_on_the_way(result.events)]
        if cases:
            break
    assert missed == []
    assert cases, f"no fall back caught on its way in seeds {SEEDS}"
