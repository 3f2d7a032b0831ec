"""Issue 29, item 7: the after-action report's losses by arm in men and guns, commanders'
fates, and each side's luck against the pre-battle odds (an exact Poisson-binomial tail)."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest

from campaign.errors import SimulatorError
from campaign.events import BattleFought
from campaign.printers.narrative import Narrator
from campaign.report import build_diary
from campaign.report.aar import (
    _ratios,
    commander_fates,
    losses_by_arm,
    luck,
    poisson_binomial,
)
from campaign.report.history import losses_table


def _narrator(diary, cmap):
    narrator = Narrator(
        {n: d.get("name", n) for n, d in cmap.graph.nodes(data=True)}, diary.clock, diary.view
    )
    narrator.start(diary.header)
    return narrator


def test_the_poisson_binomial_is_exact_against_enumeration():
    rng = np.random.default_rng(29)
    chances = [float(p) for p in rng.uniform(0, 1, 7)]
    dist = poisson_binomial(chances)
    brute = [0.0] * 8
    for outcome in itertools.product((0, 1), repeat=7):
        brute[sum(outcome)] += math.prod(
            p if o else 1 - p for p, o in zip(chances, outcome, strict=True)
        )
    assert dist == pytest.approx(brute, abs=1e-12)
    assert sum(dist) == pytest.approx(1.0, abs=1e-12)
    assert poisson_binomial([0.5, 0.5]) == [0.25, 0.5, 0.25]


def test_losses_by_arm_add_up_to_the_boxes_lost_and_the_ratios(campaign_run):
    _, cmap, events = campaign_run
    diary = build_diary(events, "umpire", destroyed_at=10)
    men, guns = _ratios()
    rows = losses_by_arm(diary)
    table = losses_table(diary, _narrator(diary, cmap))
    for side in ("red", "blue"):
        name = diary.side_name(side)
        mine = [r for r in rows if r["side"] == name and not r["total"]]
        total = next(r for r in rows if r["side"] == name and r["total"])
        # every box lost in the campaign was lost in a battle (RULES.md §1.2, §4)
        lost = next(r for r in table if r["total"] and r["side"] == name)["lost"]
        assert total["boxes"] == int(lost) == sum(r["boxes"] for r in mine)
        for r in mine:
            assert r["men"] == r["boxes"] * men[r["arm"].replace(" ", "_")]
            assert r["guns"] == (r["destroyed"] * guns if r["arm"] == "artillery" else 0)
        destroyed = sum(
            u.state == "destroyed"
            for e in events
            if isinstance(e, BattleFought)
            for u in e.units
            if u.side == side
        )
        assert total["destroyed"] == destroyed


def test_commanders_fates_follow_the_view(campaign_run):
    _, cmap, events = campaign_run
    for view in ("umpire", "red"):
        diary = build_diary(events, view, destroyed_at=10)
        fates = commander_fates(diary, _narrator(diary, cmap))
        divisions = [f["division"] for f in fates]
        own = [row.division for row in diary.end.divisions if view in ("umpire", row.side)]
        assert sorted(divisions) == sorted(own)
        for f in fates:
            assert re.fullmatch(
                r"(no battle|\d+ battles?: won \d+, lost \d+, drew \d+)", f["battles"]
            )


def test_the_luck_line_counts_wins_against_the_odds(campaign_run, odds):
    _, _, events = campaign_run
    diary = build_diary(events, "umpire", destroyed_at=10)
    lines = luck(diary, odds)
    assert len(lines) == 2
    battles = [b for b in diary.battles if odds(b) is not None]
    for side, line in zip(("red", "blue"), lines, strict=True):
        won = sum(b.winner == side for b in battles)
        expected = sum(odds(b).chance(side) for b in battles)
        assert f"won {won} of {len(battles)} " in line
        assert f"against {expected:.1f} expected" in line
        dist = poisson_binomial([odds(b).chance(side) for b in battles])
        tail = sum(dist[won:]) if won >= expected else sum(dist[: won + 1])
        assert f"come {tail:.0%} of the time" in line
    assert luck(build_diary(events, "red", destroyed_at=10), odds) == []  # the umpire's odds


def test_a_bad_ratio_file_names_the_key(tmp_path):
    bad = tmp_path / "diary.yaml"
    bad.write_text("men_per_box: {infantry: -5}\nguns_per_battery: 6\n", encoding="utf-8")
    with pytest.raises(SimulatorError) as info:
        _ratios(bad)
    assert "men_per_box.infantry" in str(info.value.key) and "config/diary.yaml" in info.value.fix
    bad.write_text("guns_per_battery: 6\n", encoding="utf-8")
    with pytest.raises(SimulatorError, match="cannot read the diary's men and guns ratios"):
        _ratios(bad)


def test_each_battle_has_a_small_map_with_where_the_beaten_went(campaign_run, diaries):
    from campaign.events import FellBack
    from campaign.report.battle_maps import falls_of

    _, cmap, events = campaign_run
    html = diaries["umpire"]
    diary = build_diary(events, "umpire", destroyed_at=10)
    assert html.count('<figure class="battle-map">') == len(diary.battles) > 0
    told = 0
    for n, b in enumerate(diary.battles, start=1):
        caption = re.search(rf"<figcaption>#{n} [^<]*</figcaption>", html)
        assert caption, n
        for f in falls_of(diary, b):
            assert f.side != b.winner and b.t <= f.t <= b.t + b.minutes
            name = cmap.graph.nodes[f.path[-1]].get("name", f.path[-1])
            assert f"{f.division} fell back toward {name}" in caption.group(0).replace("&#39;", "'")
            told += 1
    falls = [e for e in events if isinstance(e, FellBack)]
    assert told == len(falls)  # every fall back in the stream follows one of the battles
