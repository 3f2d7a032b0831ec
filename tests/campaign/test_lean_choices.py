"""Cheaper decisions (issue 15), the eighth pass: the attack target is the nearest attackable
group found in one pass (the groups within reach are sorted only to concentrate), the rally
points read the enemy groups' junctions, concentration sums the boxes it gathers without a
dict, and no sightings share one empty set of groups and of stronger enemies. At every
question of many campaigns each answers what the plain definition (the code before) answers
(RULES.md §8.8)."""

from __future__ import annotations

import pytest

import campaign.engine
from campaign import sightings
from campaign.reinforcements import raise_armies
from campaign.strategy import EnemyGroup, Order, SideView, Strategist
from campaign.strategy.knowledge import GUARD_CODES, Memory, rally_places
from campaign.strategy.plan import not_fought_today
from campaign.strategy.targets import attack_target
from tests.campaign.stepping import stepped

DOCTRINES = [
    None,
    {"red": "balanced", "blue": "cautious"},
    {"red": "aggressive", "blue": "aggressive"},
    {"red": "raider", "blue": "cautious"},
]
SEEDS = range(25)


def _runs(default_map, rules, doctrines):
    return [
        campaign.engine.run_campaign(default_map, rules, s, doctrines, record_events=False)
        for s in SEEDS
    ]


def _plain_rally_places(
    memory: dict[str, Memory], view: SideView
) -> tuple[dict[str, tuple[str, int, str | None]], list[str]]:
    """The rally points as defined before: enemy-held junctions from the sightings (an
    enemy division known to have no boxes left holds nothing: as good as destroyed)."""
    enemy_held = {j for e, j in view.enemy_positions.items() if view.enemy_boxes.get(e, 1) > 0}
    able: dict[str, tuple[str, int, str | None]] = {}
    free_places: set[str] = set()
    for d in view.own:
        p = d.at or d.heading
        if not p:
            continue
        mem = memory.get(d.id)
        if mem is not None and mem.order is not None and mem.order[0] in GUARD_CODES:
            continue
        able[d.id] = (p, d.boxes, d.at)
        if p not in enemy_held:
            free_places.add(p)
    return able, sorted(free_places)


def _plain_concentrate(
    s: Strategist,
    div: str,
    at: str,
    view: SideView,
    enemy: EnemyGroup,
    stronger: set[str],
    able: dict[str, tuple[str, int, str | None]],
    places: list[str],
) -> Order | None:
    """Concentration as defined before: the gathered divisions as a dict (RULES.md §8.8)."""
    priced = s.priced
    if not places:
        return None
    base = view.own_base
    rally = min(places, key=lambda p: (priced.cost(p, enemy.junction), priced.cost(p, base), p))
    kept = s.plan.rendezvous.get(enemy.junction)  # one rendezvous per group, kept (§8.8)
    if kept is not None and kept[1] not in s.plan.gone and kept[0] in places:  # (its chooser
        # not gone)
        rally = kept[0]
    within = s.doctrine.concentrate_hours
    gather = {
        d: (p, boxes, now_at)
        for d, (p, boxes, now_at) in able.items()
        if d == div or priced.cost(p, rally) <= within
    }
    if sum(boxes for _, boxes, _ in gather.values()) < s.doctrine.attack_ratio * enemy.boxes:
        return None
    if rally != at:
        with_them = tuple(sorted(d for d, (p, _, _) in gather.items() if p == rally))
        return s._go("concentrate", at, rally, stronger, friends=with_them, enemy_at=enemy.junction)
    coming = tuple(sorted(d for d, (_, _, now_at) in gather.items() if now_at != at))
    if not coming:
        return None
    return Order("wait", None, None, enemy_at=enemy.junction, friends=coming)


def _plain_attack_target(s: Strategist, div: str, at: str, view: SideView) -> str | None:
    """The group the attack step picks as defined before: the groups within ``seek_hours``
    sorted by (hours, hours to the own base, id), the first the boxes here can attack; a
    group of only the enemies the division fought today is not attacked again that day."""
    groups = view.enemy_groups()
    day, fought = s.memory[div].fought if div in s.memory else (-1, frozenset())
    if day == int(view.now // 1440):
        groups = {j: g for j, g in groups.items() if not fought.issuperset(g.divisions)}
    here = view.strength_at(at, free_only=True, also=div)
    near = sorted(
        (s.priced.cost(at, j), s.priced.cost(j, view.own_base), j)
        for j in groups
        if j != at and s.priced.cost(at, j) <= s.doctrine.seek_hours
    )
    for _, _, j in near:
        if here >= s.doctrine.attack_ratio * groups[j].boxes:
            return j
    return None


def _free_at_junctions(view: SideView) -> list[tuple[str, str]]:
    """``(division, junction)`` of each free division of the view standing at a junction:
    the divisions that may decide now."""
    return [(d.id, d.at) for d in view.own if d.free and d.at is not None]


def _lean_concentrate(
    s: Strategist,
    div: str,
    at: str,
    view: SideView,
    enemy: EnemyGroup,
    stronger: set[str],
    able: dict[str, tuple[str, int, str | None]],
    places: list[str],
) -> Order | None:
    """The strategist's own concentration (compiled when it ships), its plan's rendezvous
    put back as they were after (asking chooses one: only the campaign's own questions may)."""
    rendezvous = s.plan.rendezvous
    kept = dict(rendezvous)
    try:
        return s._concentrate(div, at, view, enemy, stronger, able, places)
    finally:
        rendezvous.clear()
        rendezvous.update(kept)


@pytest.mark.parametrize("doctrines", DOCTRINES)
def test_choices_equal_the_plain_definitions_in_campaigns(rules, default_map, doctrines):
    """Before every event of 100 campaigns, for each free division at a junction, the lean
    attack target (:func:`campaign.strategy.targets.attack_target`, asked as the strategist
    asks it), the rally points and each concentration against a group within reach when
    there is nothing to attack equal the plain answers; the campaigns come out as
    unwatched; each path is taken."""
    counts = {"attack": 0, "after": 0, "rally": 0, "concentrate": 0, "gathered": 0}
    for seed in SEEDS:
        camp = campaign.engine.Campaign(default_map, rules, seed, doctrines, record_events=False)
        for _ in stepped(camp):
            for side in ("red", "blue"):
                s = camp.strategists[side]
                view = sightings.side_view(camp, side)
                seen = s._enemy_groups(view)
                if not seen:
                    continue
                able, places = rally_places(s.memory, view, seen)
                assert (able, places) == _plain_rally_places(s.memory, view)
                counts["rally"] += 1
                base = view.own_base
                for div, at in _free_at_junctions(view):
                    m = s.memory.get(div)
                    groups = seen if m is None else not_fought_today(m, seen, view.now)
                    here = s._here(div, at, view)[0]
                    target, within_reach = attack_target(
                        s.priced, s.priced.costs_from(at), s._base_hours(base), at, base,
                        groups, s._doc_seek_hours, here, s._doc_attack_ratio,
                    )  # fmt: skip
                    expected = _plain_attack_target(s, div, at, view)
                    assert (None if target is None else target.junction) == expected
                    seek = s.doctrine.seek_hours
                    near = [j for j in groups if j != at and s.priced.cost(at, j) <= seek]
                    assert within_reach == bool(near)
                    if target is not None:
                        counts["attack"] += 1
                        continue
                    counts["after"] += 1
                    if not (s._doc_concentrate and places):
                        continue
                    stronger = s._stronger(groups, here)
                    for j in near:
                        enemy = groups[j]
                        got = _lean_concentrate(s, div, at, view, enemy, stronger, able, places)
                        plain = _plain_concentrate(s, div, at, view, enemy, stronger, able, places)
                        assert got == plain
                        counts["concentrate"] += 1
                        counts["gathered"] += got is not None
        watched = camp.finish()
        unwatched = campaign.engine.run_campaign(
            default_map, rules, seed, doctrines, record_events=False
        )
        assert watched == unwatched
    assert counts["attack"] > 50 and counts["after"] > 50, counts
    if doctrines is None or "aggressive" not in doctrines.values():  # aggressive never does
        assert counts["rally"] > 20 and 0 < counts["gathered"] < counts["concentrate"], counts


@pytest.mark.parametrize("doctrines", DOCTRINES[:2])
def test_no_sightings_share_one_empty_answer(rules, default_map, doctrines):
    """With nothing seen, the groups and the stronger enemies are the strategist's own
    empty containers, the same at every question and never filled (read-only); the
    answers for sightings are never those containers. Asked before every event of 25
    campaigns, for the boxes of each own division; the campaigns come out as unwatched."""
    empty = 0
    for seed in SEEDS:
        camp = campaign.engine.Campaign(default_map, rules, seed, doctrines, record_events=False)
        for _ in stepped(camp):
            for side in ("red", "blue"):
                s = camp.strategists[side]
                view = sightings.side_view(camp, side)
                groups = s._enemy_groups(view)
                assert (groups is s._no_groups) == (not view.enemy_positions)
                assert not s._no_groups
                empty += not view.enemy_positions
                ratio = s.doctrine.attack_ratio
                for here in sorted({d.boxes for d in view.own}):
                    got = s._stronger(groups, here)
                    assert (got is s._no_stronger) == (not groups)
                    assert not s._no_stronger
                    assert got == {j for j, g in groups.items() if here < ratio * g.boxes}
        watched = camp.finish()
        unwatched = campaign.engine.run_campaign(
            default_map, rules, seed, doctrines, record_events=False
        )
        assert watched == unwatched
    assert empty > 100


def test_priced_routes_of_alternating_and_vanished_graphs():
    """``PricedRoutes.of`` looks at the map it was last asked for first: asked in turn and
    twice running it hands out each graph's own routes (one per graph and pricing), and a
    new graph made after the last one is gone (even at the same address) gets its own."""
    import gc

    import networkx as nx

    from campaign.strategy import PricedRoutes

    def line(hours: float) -> nx.Graph:
        g = nx.Graph()
        g.add_edge("a", "b", hours=hours, kind="normal")
        g.add_edge("b", "c", hours=1.0, kind="rough")
        return g

    g, h = line(2.0), line(5.0)
    first = {id(x): PricedRoutes.of(x, 50, 60, 1.0) for x in (g, h)}
    for graph, hours in [(g, 2.0), (g, 2.0), (h, 5.0), (g, 2.0), (h, 5.0), (h, 5.0)]:
        priced = PricedRoutes.of(graph, 50, 60, 1.0)
        assert priced is first[id(graph)]
        assert priced.cost("a", "b") == hours
        assert priced.cost("b", "c") == 2.0  # 1 hour + (1/0.5 - 1) x 60 minutes
        other = PricedRoutes.of(graph, 50, 60, 2.0)  # another pricing: its own routes
        assert other is not priced and other.cost("b", "c") == 3.0
    for hours in (1.0, 3.0, 4.0):
        k = line(hours)
        assert PricedRoutes.of(k, 50, 60, 1.0).cost("a", "b") == hours
        del k
        gc.collect()


def test_roads_from_holds_every_road_of_the_tables(default_map):
    """``roads_from[a][b]`` is ``roads[a, b]`` for every road both ways, and nothing else;
    every junction has its table (RULES.md §8.1)."""
    from campaign.lookups import map_tables

    tables = map_tables(default_map.graph)
    flat = {(a, b): road for a, out in tables.roads_from.items() for b, road in out.items()}
    assert flat == tables.roads
    assert set(tables.roads_from) == set(default_map.graph.nodes)
    assert len(flat) == 2 * default_map.graph.number_of_edges()


def test_a_side_with_none_standing_sees_nothing_and_nothing_gone(rules, default_map):
    """Sightings (RULES.md §8.6) of a side none of whose divisions stands anywhere stay as
    they were: no enemy newly seen, none seen gone; the other side still sees."""
    from campaign import sightings
    from campaign.engine import Campaign

    camp = Campaign(default_map, rules, 3, record_events=False)
    raise_armies(camp)
    reds = [d for d in camp.divisions if d.side == "red"]
    blues = [d for d in camp.divisions if d.side == "blue"]
    near = reds[0].location
    assert near is not None
    blues[0].location = near  # in plain sight of red's first division
    blues[1].location = None  # marching: gone from where red last saw it
    camp.last_seen["red"] = {blues[1].id: near, "gone": near}
    camp.last_seen["blue"] = {}
    for d in reds:
        d.alive = False
    before = dict(camp.last_seen["red"])
    sightings.update_sightings(camp)
    assert camp.last_seen["red"] == before
    for d in reds:
        d.alive = True
    sightings.update_sightings(camp)
    assert camp.last_seen["red"][blues[0].id] == near
    assert blues[1].id not in camp.last_seen["red"]
    assert reds[0].id in camp.last_seen["blue"]


def test_enemy_groups_equal_the_plain_grouping_of_sightings():
    """For 500 drawn sightings (fixed seed) the groups are the plain definition: one per
    junction seen, by junction id, its divisions sorted by id, its boxes those known or the
    estimate (RULES.md §8.6, §8.8); dict order included."""
    import numpy as np

    rng = np.random.default_rng(15)
    junctions = [f"j{i}" for i in range(6)]
    for _ in range(500):
        n = int(rng.integers(0, 9))
        ids = [f"d{int(i)}" for i in rng.permutation(12)[:n]]
        positions = {d: junctions[int(rng.integers(6))] for d in ids}
        boxes = {d: int(rng.integers(10, 90)) for d in ids if rng.random() < 0.5}
        view = SideView("red", 0.0, (), positions, boxes, "a", "f", {}, {}, 60)
        plain = {
            j: EnemyGroup(
                j,
                tuple(sorted(d for d in positions if positions[d] == j)),
                sum(boxes.get(d, 60) for d in positions if positions[d] == j),
            )
            for j in sorted(set(positions.values()))
        }
        got = view.enemy_groups()
        assert list(got.items()) == list(plain.items())
