"""Raising divisions: both armies at their starts when the campaign begins (RULES.md §2.1),
and reinforcements (§8.9), divisions a map brings in at a junction on a given day and hour,
checked when the campaign is set up and raised when they enter."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import simpy

from campaign.army import raise_division
from campaign.errors import MapError
from campaign.events import SIDES, DivisionRaised, RaisedUnit, Reinforced
from campaign.schedule import Routine, now_of
from campaign.sightings import enemies_seeing, update_sightings

if TYPE_CHECKING:
    from campaign.army import Division
    from campaign.config import CampaignRules
    from campaign.engine import Campaign
    from campaign.maps import CampaignMap, Reinforcement

__all__ = [
    "check_reinforcements",
    "entering",
    "entry_minute",
    "raise_armies",
    "reinforce",
    "schedule_entries",
]


def raise_armies(camp: Campaign) -> None:
    """Raise every division of both sides at its start (RULES.md §2.1: a d100 on the raise
    table each), logged at minute 0, and list them in the campaign's side order (each side's
    in the order raised); then the endgame records each army's casualty base and who
    controls what (:meth:`Endgame.start <campaign.endgame.Endgame.start>`)."""
    for side in SIDES:
        setup = camp.map.sides[side]
        for i in range(camp.cr.divisions_per_side):
            junction = setup.starts[i % len(setup.starts)]
            div, roll = raise_division(side, i + 1, junction, camp.rules, camp.forces_dice)
            camp.divisions.append(div)
            if not camp.event_wanted():
                continue
            camp.emit(
                DivisionRaised(
                    0,
                    side,
                    div.id,
                    roll,
                    tuple(RaisedUnit(u.id, u.kind) for u in div.units),
                    junction,
                    seen_by=(side,),
                )
            )
    camp.divisions.sort(key=lambda d: camp.side_order.index(d.side))  # stable
    camp.endgame.start()


def entry_minute(camp: Campaign, r: Reinforcement) -> float:
    """Campaign minute of a reinforcement's entry (minutes since day 1's dawn)."""
    return _minute(r, camp.cr.day_start_minutes)


def _minute(r: Reinforcement, day_start_minutes: int) -> float:
    """:func:`entry_minute` for a campaign whose day 1 dawns at ``day_start_minutes``."""
    return (r.day - 1) * 1440 + r.hour * 60 - day_start_minutes


def check_reinforcements(cmap: CampaignMap, cr: CampaignRules, time_limit_days: int) -> None:
    """Each reinforcement of ``cmap`` enters within the campaign's ``time_limit_days``
    (RULES.md §8.9), else MapError (checked once per map and rules: the campaign's setting,
    :mod:`campaign.engine`)."""
    for r in cmap.reinforcements:
        t = _minute(r, cr.day_start_minutes)
        if not 0 <= t < time_limit_days * 1440:
            raise MapError(
                f"reinforcements enter on day {r.day} at {r.hour:g}h, outside the campaign "
                f"(day 1 from {cr.day_start_minutes // 60:02d}:00 to the end of day "
                f"{time_limit_days}, the time limit)",
                source=cmap.source,
                key=f"{r.key}.day",
                fix="Bring them in before the time limit (or raise the map's time_limit_days).",
            )


def entering(camp: Campaign, r: Reinforcement) -> Callable[[simpy.Event], None]:
    """A callback for the event of a reinforcement's entry: :func:`reinforce` when it runs."""
    return lambda _: reinforce(camp, r)


def reinforce(camp: Campaign, r: Reinforcement) -> None:
    """Raise a reinforcement's divisions at its junction as it enters (RULES.md §8.9): run by
    the event of its entry minute (:meth:`campaign.engine.Campaign.run` schedules it where a
    process started after the initial contact check would have had its timeout: the same
    minute and order, without the process and its start, issue 15)."""
    if camp.over:
        return
    env = camp.env
    number = 0
    for d in camp.divisions:  # (loops here, not generators or sets: compiled, each is an object)
        if d.side == r.side:
            number += 1
    raised: list[tuple[Division, int]] = []
    for _ in r.divisions:
        number += 1
        div, roll = raise_division(r.side, number, r.junction, camp.rules, camp.forces_dice)
        raised.append((div, roll))
    now = int(now_of(env))
    seen = (r.side, *enemies_seeing(camp, r.side, r.junction)) if camp.record else ()  # §8.6
    if camp.event_wanted():
        ids = tuple(d.id for d, _ in raised)
        camp.emit(Reinforced(now, r.side, r.junction, r.divisions, ids, seen_by=seen))
    for div, roll in raised:
        camp.divisions.append(div)
        camp.ledger.begin_army(r.side, div.boxes)  # their boxes join the casualty base
        if camp.event_wanted():
            units = tuple(RaisedUnit(u.id, u.kind) for u in div.units)
            camp.emit(DivisionRaised(now, r.side, div.id, roll, units, r.junction, seen_by=seen))
        div.arrived_at = now_of(env)
        # its first decision after everything else this minute (a battle ending now settled:
        # it never names a division destroyed in it, RULES.md §8.8 *(house)*)
        camp._after_this_minute(_starting(camp, div))
    update_sightings(camp)
    camp.endgame.occupy(r.junction)
    camp._after_this_minute(lambda: camp.desk.check_contact(r.junction, arriving=raised[-1][0]))
    red = blue = False
    for d in camp.divisions:
        if d.alive:
            if d.side == "red":
                red = True
            else:
                blue = True
    if not (red and blue):
        # only a side with no division standing ends the campaign here (§8.7): a division
        # lost later this minute is lost in a battle's settlement, which checks at once
        camp._after_this_minute(camp.endgame.check_immediate)


def _starting(camp: Campaign, div: Division) -> Callable[[], None]:
    """An action that starts ``div``'s process (its decisions, RULES.md §8.8)."""

    def start() -> None:
        div.process = Routine(camp.env, camp.division_process(div))

    return start


def schedule_entries(camp: Campaign) -> None:
    """Schedule the initial contact check (a zero-delay event) and each reinforcement's
    entry (RULES.md §8.9), in the side order: run by an urgent event of minute 0 queued
    after the divisions' and the evenings' process starts, it creates their events in
    the same minutes and order as the processes it replaces did as they started (one
    process a reinforcement and one for the check, each a start and a generator)."""
    env = camp.env
    env.timeout(0).callbacks.append(lambda _: initial_contacts(camp))
    rank = camp.side_order.index
    for reinforcement in sorted(camp.map.reinforcements, key=lambda r: rank(r.side)):
        entry = env.timeout(entry_minute(camp, reinforcement))
        entry.callbacks.append(entering(camp, reinforcement))


def initial_contacts(camp: Campaign) -> None:
    """Opposing divisions that start at one junction fight there at once (§8.4)."""
    for junction in sorted({d.location for d in camp.divisions if d.location}):
        camp.desk.check_contact(junction, arriving=None)
