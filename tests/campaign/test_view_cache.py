"""A side's view shares each own division's :class:`OwnDivision` with the previous view while
nothing of it changed (issue 15: fewer objects built per decision); the views are those built
afresh (RULES.md §8.6, §8.8)."""

from __future__ import annotations

import pytest

import campaign.engine
from campaign import sightings
from campaign.engine import Campaign
from campaign.reinforcements import raise_armies
from campaign.strategy import SideView
from tests.campaign.stepping import stepped


def _fields(view: SideView) -> tuple[object, ...]:
    return (
        view.side,
        view.now,
        view.own,
        dict(view.enemy_positions),
        dict(view.enemy_boxes),
        view.own_base,
        view.enemy_base,
        dict(view.objectives),
        dict(view.owner),
        view.estimate_boxes,
        view.engaged,
    )


def _fresh_view(camp: Campaign, side: str) -> SideView:
    """The side's view built with nothing shared: every OwnDivision anew (each division's
    ``own_view`` put back after)."""
    kept = [d.own_view for d in camp.divisions]
    for d in camp.divisions:
        d.own_view = None
    try:
        return sightings.side_view(camp, side)
    finally:
        for d, shown in zip(camp.divisions, kept, strict=True):
            d.own_view = shown


@pytest.mark.parametrize("doctrines", [None, {"red": "balanced", "blue": "cautious"}])
def test_every_view_of_a_campaign_equals_a_view_built_afresh(rules, default_map, doctrines):
    """Before every event of 20 campaigns, each side's view (sharing unchanged OwnDivision
    objects with its previous one) equals one built with nothing shared, field by field;
    shared ones do occur, and changed divisions get new objects. The one-pass view of a
    decision (:func:`sightings.decision_view`) at each junction a free division of the side
    stands on is None exactly when a living enemy without orders stands there (the contact
    check first, RULES.md §8.4), and is otherwise that same view; that happens too. The
    campaigns come out as unwatched."""
    checked = shared = contested = 0
    for seed in range(20):
        camp = Campaign(default_map, rules, seed, doctrines, record_events=False)
        for _ in stepped(camp):
            for side in ("red", "blue"):
                before = {d.id: d.own_view for d in camp.divisions}
                view = sightings.side_view(camp, side)
                fresh = _fresh_view(camp, side)
                assert _fields(view) == _fields(fresh)
                for d in view.own:
                    if before.get(d.id) is d:
                        shared += 1
                    else:  # built anew: something of it differs from its previous view
                        old = before.get(d.id)
                        assert old is None or old != d
                checked += 1
                for at in sorted({d.at for d in view.own if d.free and d.at is not None}):
                    enemy_here = any(
                        d.location == at and d.side != side and d.alive and not d.orders
                        for d in camp.divisions
                    )
                    asked = sightings.decision_view(camp, side, at)
                    assert (asked is None) == enemy_here
                    if asked is None:
                        contested += 1
                    else:
                        assert _fields(asked) == _fields(view)
                        assert all(a is b for a, b in zip(asked.own, view.own, strict=True))
        watched = camp.finish()
        unwatched = campaign.engine.run_campaign(
            default_map, rules, seed, doctrines, record_events=False
        )
        assert watched == unwatched
    assert checked > 500 and 0 < shared < checked * 8
    assert contested > 0


def test_a_view_follows_each_change_of_a_division(rules, default_map):
    """Whatever changes of a division — where it is, where it is bound, its boxes, whether
    it is free — the next view shows it (a new OwnDivision); an unchanged division keeps
    its object."""
    camp = Campaign(default_map, rules, 7, record_events=False)
    raise_armies(camp)
    first = sightings.side_view(camp, "red")
    again = sightings.side_view(camp, "red")
    assert again.own == first.own
    assert all(a is b for a, b in zip(again.own, first.own, strict=True))

    reds = [d for d in camp.divisions if d.side == "red"]
    mover, other = reds[0], reds[1]
    start = mover.location
    road = next(iter(default_map.graph[start]))
    mover.location = None
    mover.road = (start, road, 0.0, 90.0)  # marching: not at a junction, bound for ``road``
    view = sightings.side_view(camp, "red")
    moved = view.division(mover.id)
    assert moved is not None and (moved.at, moved.heading, moved.free) == (None, road, False)
    assert view.division(other.id) is first.division(other.id)

    other.busy_until = 10_000.0  # held (a battle): not free
    view = sightings.side_view(camp, "red")
    held = view.division(other.id)
    assert held is not None and not held.free and held is not first.division(other.id)

    unit = other.units[0]
    other.apply_hits({unit.id: unit.hits + 3}, other.destroyed_at)
    view = sightings.side_view(camp, "red")
    hit = view.division(other.id)
    assert hit is not None and hit.boxes == held.boxes - 3

    other.busy_until = -1.0
    other.orders = [("march", road)]  # a fall back ordered: bound there, not free
    view = sightings.side_view(camp, "red")
    ordered = view.division(other.id)
    assert ordered is not None and (ordered.heading, ordered.free) == (road, False)

    other.alive = False  # gone: not in the view
    assert sightings.side_view(camp, "red").division(other.id) is None
