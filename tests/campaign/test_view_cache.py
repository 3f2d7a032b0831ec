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


@pytest.mark.plain_python
@pytest.mark.parametrize("doctrines", [None, {"red": "balanced", "blue": "cautious"}])
def test_every_view_of_a_campaign_equals_a_view_built_afresh(
    rules, default_map, monkeypatch, doctrines
):
    """At every decision of 40 campaigns the view the campaign builds (sharing unchanged
    OwnDivision objects) equals one built with nothing shared, field by field; shared ones
    do occur, and changed divisions get new objects. The one-pass view of a decision
    (:func:`sightings.decision_view`) is None exactly when a living enemy without orders
    stands at the junction (the contact check first, RULES.md §8.4), as it was asked
    before the view was built; that happens too. The campaigns come out as unpatched."""
    real = sightings.decision_view
    checked = shared = contested = 0

    def checked_view(camp: Campaign, side: str, at: str) -> SideView | None:
        nonlocal checked, shared, contested
        before = {d.id: d.own_view for d in camp.divisions}
        enemy_here = any(
            d.location == at and d.side != side and d.alive and not d.orders for d in camp.divisions
        )
        view = real(camp, side, at)
        assert (view is None) == enemy_here
        if view is None:
            contested += 1
            return None
        kept = [d.own_view for d in camp.divisions]
        for d in camp.divisions:
            d.own_view = None
        try:
            fresh = sightings.side_view(camp, side)  # nothing to share: built anew
        finally:
            for d, shown in zip(camp.divisions, kept, strict=True):
                d.own_view = shown
        assert _fields(view) == _fields(fresh)
        for d in view.own:
            if before.get(d.id) is d:
                shared += 1
            else:  # built anew: something of it differs from its previous view
                old = before.get(d.id)
                assert old is None or old != d
        checked += 1
        return view

    seeds = range(20)
    unpatched = [
        campaign.engine.run_campaign(default_map, rules, s, doctrines, record_events=False)
        for s in seeds
    ]
    monkeypatch.setattr(campaign.engine, "decision_view", checked_view)
    patched = [
        campaign.engine.run_campaign(default_map, rules, s, doctrines, record_events=False)
        for s in seeds
    ]
    assert patched == unpatched
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
