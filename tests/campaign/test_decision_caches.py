"""Cheaper decisions (issue 15), the seventh pass: the nearest threat to the base and the
junctions of stronger enemies are kept with the enemy groups they were worked out from, and
sightings are updated in one pass over the divisions. Each answers exactly what the plain
definition answers, whatever changed since the last question (RULES.md §8.6, §8.8)."""

from __future__ import annotations

import copy
import sys

import networkx as nx
import numpy as np
import pytest

import campaign.engine
from campaign import sightings
from campaign.config import load_rules
from campaign.engine import Campaign
from campaign.events import Sighted
from campaign.strategy import EnemyGroup, OwnDivision, SideView, Strategist
from tests.campaign.stepping import stepped

DOCTRINES = [
    None,
    {"red": "balanced", "blue": "cautious"},
    {"red": "aggressive", "blue": "aggressive"},
]


def _line() -> nx.Graph:
    """a - b - c - d - e - f, three hours a road."""
    g = nx.Graph()
    for x, y in (("a", "b"), ("b", "c"), ("c", "d"), ("d", "e"), ("e", "f")):
        g.add_edge(x, y, hours=3.0, kind="normal")
    return g


def _strategist(graph: nx.Graph, doctrine: str = "aggressive") -> Strategist:
    cr = load_rules().rules.campaign
    return Strategist("red", cr.doctrines[doctrine], graph, cr, np.random.default_rng(0))


def _plain_threat(strategist: Strategist, groups: dict[str, EnemyGroup], base: str) -> str | None:
    """The nearest enemy group to ``base`` within ``guard_hours``, by (hours, id)."""
    priced = strategist.priced  # (no rough roads on the line: the hours of the roads)
    near = [
        (priced.cost(j, base), j)
        for j in groups
        if priced.cost(j, base) <= strategist.doctrine.guard_hours
    ]
    return min(near)[1] if near else None


def _plain_stronger(strategist: Strategist, groups: dict[str, EnemyGroup], here: int) -> set[str]:
    return {j for j, g in groups.items() if here < strategist.doctrine.attack_ratio * g.boxes}


def test_threat_and_stronger_follow_every_change_of_groups_base_and_boxes():
    """Asked again with the same groups, the kept answers come back; other groups (new
    sightings), another base or other own boxes get answers worked out afresh, equal to the
    plain definitions (a fresh strategist's)."""
    graph = _line()
    s = _strategist(graph, "cautious")
    assert s.doctrine.guard_hours > 0
    far = {"f": EnemyGroup("f", ("b1",), 60)}
    near = {"c": EnemyGroup("c", ("b1",), 60), "f": EnemyGroup("f", ("b2",), 60)}
    both_near = {"b": EnemyGroup("b", ("b2",), 200), "c": EnemyGroup("c", ("b1",), 60)}
    cases = [(far, "a"), (far, "a"), (near, "a"), (near, "a"), (near, "f"), (both_near, "a")]
    answers = []
    for groups, base in cases:
        got = s._threat(groups, base)
        assert got == _plain_threat(s, groups, base)
        assert got == _strategist(graph, "cautious")._threat(groups, base)
        answers.append(got)
    assert answers[0] is None and answers[2] == "c" and answers[4] == "f" and answers[5] == "b"
    for groups in (far, near, both_near):
        for here in (30, 30, 60, 120, 240, 60):
            got = s._stronger(groups, here)
            assert got == _plain_stronger(s, groups, here)
            assert got == _strategist(graph, "cautious")._stronger(groups, here)
    # a group's strength changed: new groups (as _enemy_groups builds them), a new answer
    weaker = {"c": EnemyGroup("c", ("b1",), 10), "f": EnemyGroup("f", ("b2",), 60)}
    assert s._stronger(near, 60) == {"c", "f"}
    assert s._stronger(weaker, 60) == {"f"} == _plain_stronger(s, weaker, 60)
    assert s._stronger(near, 60) == {"c", "f"}


def _two_pass_sightings(camp: Campaign, last_seen: dict[str, dict[str, str]]) -> None:
    """The definition of RULES.md §8.6 as it was written before (three passes): red sees
    first, then blue, each over every division in the campaign's order."""
    standing: dict[str, list[str]] = {"red": [], "blue": []}
    for d in camp.divisions:
        if d.alive:
            here = sightings._stand(d)
            if here is not None:
                standing["red" if d.side == "red" else "blue"].append(here)
    for side in ("red", "blue"):
        seen = last_seen[side]
        for d in camp.divisions:
            if d.side == side or not d.alive:
                continue
            if d.location is None:
                was = seen.get(d.id)
                if was is not None and camp.neighbourhood[was] & set(standing[side]):
                    del seen[d.id]
                continue
            if seen.get(d.id) != d.location and camp.neighbourhood[d.location] & set(
                standing[side]
            ):
                seen[d.id] = d.location


def _sightings_after_update(camp: Campaign) -> tuple[dict[str, dict[str, str]], list[object]]:
    """What :func:`sightings.update_sightings` (the campaign's own, compiled when it ships)
    makes of a copy of the campaign's sightings now, and the events it tells: the campaign
    itself is left as it was (its sightings, its events and their count; no event cap met)."""
    kept, n_events, cap, told = camp.last_seen, camp.n_events, camp.max_events, len(camp.events)
    camp.last_seen = copy.deepcopy(kept)
    camp.max_events = sys.maxsize
    try:
        sightings.update_sightings(camp)
        return camp.last_seen, camp.events[told:]
    finally:
        camp.last_seen, camp.n_events, camp.max_events = kept, n_events, cap
        del camp.events[told:]


@pytest.mark.parametrize("doctrines", DOCTRINES)
def test_one_pass_sightings_equal_the_plain_definition(rules, default_map, doctrines):
    """Before every event of 20 campaigns the sightings after the one-pass update equal those
    of the plain definition worked out on a copy of the sightings before it, order of
    insertion included, and the update tells each enemy newly seen (``Sighted``); some
    updates do change them. The campaigns come out as unwatched."""
    checked = changed = 0
    for seed in range(20):
        camp = Campaign(default_map, rules, seed, doctrines)
        for _ in stepped(camp):
            before = copy.deepcopy(camp.last_seen)
            expected = copy.deepcopy(camp.last_seen)
            _two_pass_sightings(camp, expected)
            got, told = _sightings_after_update(camp)
            for side in ("red", "blue"):
                assert list(got[side].items()) == list(expected[side].items())
            assert camp.last_seen == before
            new = {
                (side, d, j)
                for side in ("red", "blue")
                for d, j in got[side].items()
                if before[side].get(d) != j
            }
            assert {(e.side, e.division, e.junction) for e in told} == new  # type: ignore[attr-defined]
            assert all(isinstance(e, Sighted) for e in told)
            checked += 1
            changed += got != before
        watched = camp.finish()
        assert watched == campaign.engine.run_campaign(default_map, rules, seed, doctrines)
    assert checked > 500 and changed > 50


@pytest.mark.parametrize("doctrines", DOCTRINES)
def test_kept_threats_and_stronger_sets_equal_fresh_ones_in_campaigns(
    rules, default_map, doctrines
):
    """Before every event of 20 campaigns each side's strategist, asked for the nearest
    threat to its base and the stronger enemies of its enemy groups then (for the boxes of
    each of its divisions), answers the plain definitions worked out afresh; kept answers
    are given (and new ones worked out); the campaigns come out as unwatched."""
    counts = {"threat": 0, "threat kept": 0, "stronger": 0, "stronger kept": 0}
    for seed in range(20):
        camp = Campaign(default_map, rules, seed, doctrines, record_events=False)
        for _ in stepped(camp):
            for side in ("red", "blue"):
                s = camp.strategists[side]
                view = sightings.side_view(camp, side)
                groups = s._enemy_groups(view)
                base = view.own_base
                kept = groups is s._threat_groups and base == s._threat_base
                got = s._threat(groups, base)
                to_base = {j: s.priced.cost(j, base) for j in groups}
                near = [(h, j) for j, h in to_base.items() if h <= s.doctrine.guard_hours]
                assert got == (min(near)[1] if near else None)
                counts["threat"] += 1
                counts["threat kept"] += kept
                for here in sorted({d.boxes for d in view.own}):
                    kept = groups is s._stronger_groups and here in s._stronger_by_here
                    got_stronger = s._stronger(groups, here)
                    ratio = s.doctrine.attack_ratio
                    assert got_stronger == {j for j, g in groups.items() if here < ratio * g.boxes}
                    counts["stronger"] += 1
                    counts["stronger kept"] += kept
        watched = camp.finish()
        unwatched = campaign.engine.run_campaign(
            default_map, rules, seed, doctrines, record_events=False
        )
        assert watched == unwatched
    assert 0 < counts["stronger kept"] < counts["stronger"]
    assert 0 < counts["threat kept"] < counts["threat"]


def _guard_view() -> SideView:
    """Red's r1 alone at b of the line, an enemy seen at d: 9 hours from the base a."""
    own = (OwnDivision("r1", "b", None, 60, True),)
    return SideView("red", 600.0, own, {"b1": "d"}, {}, "a", "f", {}, {}, 70)


def test_no_turn_back_only_for_the_road_just_taken_for_the_same_reason():
    """A division that would march back along the road it just came by, for the order it
    came with, holds instead (``no_turn_back``, aimed at the goal), and remembers that
    order but not the road; for another reason, or another road, it marches, and both
    memories hold the new order (RULES.md §8.8)."""
    graph = _line()
    cases = [
        (("a", "b"), ("guard", "a"), "no_turn_back"),  # came from a to guard a: back again
        (("a", "b"), ("advance", "f"), "guard"),  # came from a for another reason
        (("c", "b"), ("guard", "a"), "guard"),  # came by another road
        (None, None, "guard"),
    ]
    for came, came_order, code in cases:
        s = _strategist(graph, "cautious")
        m = s._mem("r1")
        m.planned = True
        m.came, m.came_order = came, came_order
        order = s.decide("r1", "b", _guard_view())
        assert order.code == code
        if code == "no_turn_back":
            assert (order.goal, order.step, order.aim) == (None, None, "a")
            assert m.came == came and m.came_order == came_order
        else:
            assert (order.goal, order.step) == ("a", "a")
            assert m.came == ("b", "a") and m.came_order == ("guard", "a")
        assert m.order == (order.code, order.goal)
