"""Cheaper strategy decisions (issue 15) answer exactly what the plain definitions answer."""

from __future__ import annotations

import dataclasses
import math

import networkx as nx
import numpy as np
import pytest

from campaign.batch.reasons import run_reason_code
from campaign.config import load_rules
from campaign.engine import Campaign, run_campaign
from campaign.events import BattleFought, StrengthLearned
from campaign.maps import load_map
from campaign.strategy.routing import PricedRoutes
from tests.campaign.stepping import stepped


@pytest.mark.parametrize("map_name", [None, "waterloo-1815"])
@pytest.mark.parametrize(("weight", "slack"), [(1.0, 3.0), (0.5, 6.0), (1.5, 0.0)])
def test_opening_waypoints_equal_the_plain_definition(map_name, weight, slack):
    """RULES.md §8.8 (house): a waypoint lies 30-70% of the way to the enemy base by expected
    hours, on a route at most ``slack`` hours longer than the best, and is neither base nor
    the start; the cached table gives exactly that set, sorted, for every start."""
    graph = load_map(map_name).graph
    priced = PricedRoutes.of(graph, 70, 60, weight)
    hours = dict(nx.all_pairs_dijkstra_path_length(priced.graph, weight="hours"))
    bases = sorted(graph.nodes)[:1] + sorted(graph.nodes)[-1:]
    found_any = False
    for own_base, enemy_base in (bases, bases[::-1]):
        for at in sorted(graph.nodes):
            best = hours[at].get(enemy_base, math.inf)
            expected = (
                sorted(
                    j
                    for j in graph.nodes
                    if j not in (at, own_base, enemy_base)
                    and 0.3 * best <= hours[at][j] <= 0.7 * best
                    and hours[at][j] + hours[j][enemy_base] <= best + slack
                )
                if 0 < best < math.inf
                else []
            )
            got = priced.waypoints(at, own_base, enemy_base, 0.3, 0.7, slack)
            assert list(got) == expected
            assert priced.waypoints(at, own_base, enemy_base, 0.3, 0.7, slack) is got
            found_any |= bool(got)
    assert found_any  # the question is not empty on these maps


def test_costs_from_is_the_row_of_cost(default_map):
    priced = PricedRoutes.of(default_map.graph, 70, 60, 1.0)
    for a in sorted(default_map.graph.nodes):
        row = priced.costs_from(a)
        for b in sorted(default_map.graph.nodes):
            assert row.get(b, math.inf) == priced.cost(a, b)
    with pytest.raises(nx.NodeNotFound):
        priced.costs_from("nowhere")


#: seeds of the samples below whose campaign ends with a side wiped out (§8.7), the case the
#: end check exists for: with issue 31's generals a wipe-out is rarer (none in seeds 0-23 of
#: either map), so the sample names one each (those of test_the_end_check_case_is_met below)
_WIPED_OUT = {
    ("waterloo-1815", str({"red": "aggressive", "blue": "aggressive"})): (171,),
    (None, str(None)): (39,),
}


@pytest.mark.parametrize(
    ("map_name", "doctrines"),
    [
        (None, None),
        (None, {"red": "aggressive", "blue": "raider"}),
        ("waterloo-1815", {"red": "aggressive", "blue": "aggressive"}),
    ],
)
def test_end_check_skipped_while_both_sides_stand_changes_nothing(map_name, doctrines):
    """The end check (RULES.md §8.7) is run after an arrival only when a side has no
    division standing: run before every event of the campaign instead (a campaign that
    missed a side's end would end earlier), it gives the same campaign, event for event.
    With no evening withdrawal (threshold 100%) some campaigns end with a side wiped out,
    the case the check exists for."""
    rules = load_rules(None, {"campaign.withdrawal_threshold_percent": 100})
    cmap = load_map(map_name)
    wiped = 0
    for seed in [*range(22), *_WIPED_OUT.get((map_name, str(doctrines)), ())]:
        lean = Campaign(cmap, rules, seed, doctrines).run()
        checked = Campaign(cmap, rules, seed, doctrines)
        for _ in stepped(checked):
            checked.endgame.check_immediate()
        assert checked.finish() == lean, seed
        wiped += run_reason_code(lean.reason) == "no-divisions"
    assert wiped or (map_name, str(doctrines)) not in _WIPED_OUT


def test_the_end_check_case_is_met():
    """The sample above meets campaigns that end with a side wiped out.

    (Seeds change with the campaign's rules and random streams: since the Philox streams of
    issue 15, Waterloo's seed 9 and the default map's seed 8, both cases of the sample, do;
    since issue 31's rule fixes, the default map's seed 11; since issue 29's Waterloo set-up,
    its seed 17; since issue 31's generals, Waterloo's seed 27 and the default map's 53; since
    their plans' house rules and the road victor's rally, Waterloo's seed 171 (the first from
    0 whose French are wiped out) and the default map's 39.)"""
    rules = load_rules(None, {"campaign.withdrawal_threshold_percent": 100})
    ends = [
        Campaign(load_map(m), rules, seed, d).run().reason
        for m, d, seed in [
            ("waterloo-1815", {"red": "aggressive", "blue": "aggressive"}, 171),
            (None, None, 39),
        ]
    ]
    assert [run_reason_code(reason) for reason in ends] == ["no-divisions"] * 2
    assert ends[0] == "French has no divisions left"


def test_end_sentences_agree_with_a_plural_side_name():
    """'Allies hold the enemy base' (RULES.md §8.7), not 'Allies holds': the verb agrees
    with a side's name read as a plural, as every sentence of the log does."""
    end = run_campaign(load_map("waterloo-1815"), load_rules(), 0, record_events=False)
    assert end.reason == "Allies hold the enemy base, Charleroi, at nightfall"
    assert run_reason_code(end.reason) == "base-taken"


def _summary(result):
    fields = dataclasses.asdict(result)
    fields.pop("events")
    return fields


def _cut_records(events) -> int:
    """The battles whose record (``BattleFought``, then a ``StrengthLearned`` for each division
    in it) the event cap cut short: the cap fell inside it."""
    cut = 0
    for i, e in enumerate(events):
        if isinstance(e, BattleFought):
            n = len(e.divisions["red"]) + len(e.divisions["blue"])
            learned = events[i + 1 : i + 1 + n]
            cut += not all(isinstance(x, StrengthLearned) and x.t == e.t for x in learned) or (
                len(learned) < n
            )
    return cut


def test_events_off_ends_at_the_same_event_wherever_the_cap_falls(default_map):
    """Events off, a battle's record (BattleFought, StrengthLearned) is counted, not built:
    the event cap (``campaign.max_events``) still ends the campaign at the same event,
    wherever the cap falls (inside battle records included), with the same result."""
    inside_a_record = 0
    for cap in range(100, 460, 7):
        capped = load_rules(None, {"campaign.max_events": cap})
        for seed in range(2):
            full = run_campaign(default_map, capped, seed)
            lean = run_campaign(default_map, capped, seed, record_events=False)
            assert _summary(lean) == _summary(full)
            inside_a_record += _cut_records(full.events)
    assert inside_a_record  # the cap fell inside a battle's record at least once


@pytest.mark.parametrize("map_name", [None, "waterloo-1815"])
def test_detours_equal_searches_of_the_map_without_the_blocked_junctions(map_name):
    """path_avoiding hides the roads into blocked junctions; route and hours are exactly
    those of a search on the map with the blocked junctions taken out (RULES.md §8.8),
    including no route at all when they cut the way."""
    graph = load_map(map_name).graph
    junctions = sorted(graph.nodes)
    rng = np.random.default_rng(15)
    cut = 0
    for _ in range(150):
        a, b = (str(j) for j in rng.choice(junctions, 2, replace=False))
        many = int(rng.integers(1, len(junctions) // 2))
        avoid = {str(j) for j in rng.choice(junctions, many, replace=False)}
        priced = PricedRoutes(graph, 70, 60, float(rng.choice([0.5, 1.0, 1.5])))
        blocked = avoid - {a, b}
        kept = priced.graph.subgraph(n for n in priced.graph.nodes if n not in blocked)
        try:
            hours, path = nx.single_source_dijkstra(kept, a, b, weight="hours")
            expected = (list(path), float(hours))
        except nx.NetworkXNoPath:
            expected = ([], math.inf)
            cut += 1
        assert priced.path_avoiding(a, b, avoid) == expected
    assert cut  # some questions have no way round
