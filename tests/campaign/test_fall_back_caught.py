"""RULES.md §8.4: opposing divisions at one junction fight, a beaten division falling back
through it included (issue 10: "every division at the junction fights")."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from campaign.battles import _may_fight
from campaign.config import load_rules
from campaign.engine import Campaign
from campaign.events import BattleFought, CampaignEvent, FallBackCaught, FellBack, MarchBegun
from campaign.maps import load_map


class _Watching(Campaign):
    """A campaign that notes every arrival at a junction an enemy stands on, in daylight
    with at least a bound left, where no battle begins within the minute."""

    missed: list[tuple[int, str, str]]

    def arrived(self, div, junction):  # type: ignore[no-untyped-def]
        super().arrived(div, junction)
        now = self.env.now
        bound = self.rules.battle.bound_minutes
        if not self.clock.is_daylight(now) or self.clock.nightfall(now) - now < bound:
            return
        enemies = [
            d
            for d in self.divisions
            if d.alive
            and d.side != div.side
            and d.location == junction
            and _may_fight(d)
            and d.busy_until < now  # not one whose battle ends this very minute
        ]
        if not enemies:
            return
        started = self.desk.started

        def later():  # type: ignore[no-untyped-def]
            yield self.env.timeout(0.5)
            quiet = junction not in self.desk.fighting and junction not in self.desk.dawn
            if not self.over and self.desk.started == started and quiet:
                self.missed.append((int(now), div.id, junction))

        self.env.process(later())


@pytest.mark.plain_python
@pytest.mark.slow
@pytest.mark.parametrize("map_name", [None, "waterloo-1815"])
def test_no_division_reaches_an_enemy_held_junction_in_daylight_without_a_battle(map_name):
    """Over 30 seeds each, before the fix 28 of 40 default and 37 of 40 Waterloo seeds had
    such an arrival (a fall back marching on through the enemy); now none may."""
    cmap, rules = load_map(map_name), load_rules()
    missed = []
    for seed in range(30):
        camp = _Watching(cmap, rules, seed, None)
        camp.missed = []
        camp.run()
        missed += [(seed, *m) for m in camp.missed]
    assert missed == []


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


@pytest.mark.plain_python
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
        camp = _Watching(cmap, rules, seed, None)
        camp.missed = []
        result = camp.run()
        missed += [(seed, *m) for m in camp.missed]
        cases += [(seed, *c) for c in _caught_on_the_way(result.events)]
        if cases:
            break
    assert missed == []
    assert cases, f"no fall back caught on its way in seeds {SEEDS}"
