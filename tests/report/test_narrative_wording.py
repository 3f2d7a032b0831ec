"""Sentences of the campaign log that once misled a reader.

* A division beaten on a road walks back along it to the junction it had left (RULES.md
  §8.4) before it falls back further: the log said "falls back from Mont Fère" although the
  division had not reached Mont Fère yet (it "reaches Mont Fère" half an hour later).
* The odds before a battle are worked out from both forces as they stand: the umpire's
  knowledge. A side's own log (``--view red``) must not give them away.
"""

from __future__ import annotations

import re

import pytest

from campaign.events import BattleFought, FellBack
from campaign.printers.battle_story import faced_overnight
from campaign.printers.narrative import Narrator
from campaign.report.view import side_view

NAMES = {"m": "Mont Fère", "k": "Kressheim", "g": "Glotz"}


def _said(e: FellBack, view: str = "umpire") -> str:
    entry = Narrator(NAMES, view=view).one(e, 1)
    assert entry is not None
    return entry.text


@pytest.mark.parametrize(
    ("path", "onto_base", "from_road", "view", "text"),
    [
        (("m", "k"), False, True, "umpire", "road toward Mont Fère, then toward Kressheim"),
        (("m", "k", "g"), True, True, "blue", "then through Kressheim toward Glotz, its base"),
        (("m",), False, True, "umpire", "falls back along the road toward Mont Fère"),
        (("m",), False, True, "red", "falls back along the road toward Mont Fère, out of sight"),
        (("m", "k"), False, False, "umpire", "falls back from Mont Fère toward Kressheim"),
        (("m", "k", "g"), False, False, "blue", "from Mont Fère through Kressheim toward Glotz"),
        (("m",), False, False, "umpire", "falls back toward Mont Fère"),
        (("m",), False, False, "red", "falls back from Mont Fère, out of sight"),
        ((), False, False, "umpire", "falls back where it stands"),
    ],
)  # fmt: skip
def test_fall_back_sentences(path, onto_base, from_road, view, text) -> None:
    """Toward, not to (issue 31): a fall back may be caught on its way (its own line)."""
    said = _said(FellBack(1140, "blue", "B2", path, onto_base, from_road), view)
    assert said.startswith("B2 falls back") and said.endswith(text)


def test_a_road_loser_is_never_said_to_leave_a_junction_it_has_not_reached(campaign_run) -> None:
    _, cmap, events = campaign_run
    names = {n: d["name"] for n, d in cmap.graph.nodes(data=True)}
    road_losses = [e for e in events if isinstance(e, FellBack) and e.from_road]
    # the fixed campaign must keep a road battle, or this test would check nothing
    assert road_losses, "the fixed campaign has no battle lost on a road any more"
    narrator = Narrator(names)
    for e in road_losses:
        entry = narrator.one(e, 1)
        assert entry is not None
        text = entry.text
        assert f"along the road toward {names[e.path[0]]}" in text
        assert f"from {names[e.path[0]]}" not in text


class _Odds:
    """Stands in for the odds book: even odds for every battle."""

    n = 200

    def __call__(self, e: BattleFought) -> _Odds:
        return self

    def chance(self, side: str | None) -> float:
        return 0.5 if side else 0.0


def test_only_the_umpire_sees_the_odds(campaign_run) -> None:
    _, cmap, events = campaign_run
    names = {n: d["name"] for n, d in cmap.graph.nodes(data=True)}
    shown = {}
    for view in ("umpire", "red", "blue"):
        narrator = Narrator(names, view=view, odds=_Odds())  # type: ignore[arg-type]
        text = "\n".join(
            line
            for entry in narrator.entries(side_view(events, view), False)
            for line in (entry.text, *entry.details)
        )
        shown[view] = len(re.findall(r"Before the battle: .* would win", text))
    assert shown["umpire"] > 0
    assert shown["red"] == shown["blue"] == 0


def test_odds_say_what_they_knew_of_the_battle_daylight_left_and_late_arrivals() -> None:
    # "Red would win 0%, Blue 0%, 100% drawn" reads as nonsense unless the reader knows the
    # battle had two bounds of daylight: the odds are simulated in the same daylight (§8.3)
    from campaign.maps import load_map

    cmap = load_map()
    names = {n: d["name"] for n, d in cmap.graph.nodes(data=True)}
    seen = {"nightfall": 0, "late": 0, "other": 0}
    # seed 42 alone held every case until issue 31's generals' plans (it has no late arrival
    # now): the next seeds are read until each case is met
    for seed in range(42, 52):
        _check_odds_lines(cmap, names, seed, seen)
        if min(seen.values()) >= 1:
            break
    assert seen["nightfall"] >= 1 and seen["late"] >= 1 and seen["other"] >= 1, seen


def _check_odds_lines(cmap, names, seed, seen) -> None:  # type: ignore[no-untyped-def]
    from campaign.config import load_rules
    from campaign.engine import run_campaign

    events = run_campaign(cmap, load_rules(), seed, record_events=True).events
    narrator = Narrator(names, odds=_Odds())  # type: ignore[arg-type]
    # likewise late arrivals: the simulated fights bring them in at the bounds they came,
    # which nobody knew before the battle, so the line says it counts them
    late = "counting the late arrivals at the bounds they came"
    for entry in narrator.entries(events):
        e = entry.event
        if not isinstance(e, BattleFought):
            continue
        if faced_overnight(e):  # a draw certain from the start: no odds line (issue 29)
            assert not [line for line in entry.details if line.startswith("Before the battle")]
            continue
        odds_line = next(line for line in entry.details if line.startswith("Before the battle"))
        given = []
        if e.reason == "nightfall":
            seen["nightfall"] += 1
            given.append(f"with {e.bounds} bounds of daylight left")
        if e.joined:
            seen["late"] += 1
            given.append(late)
        if not given:
            seen["other"] += 1
        expected = "Before the battle" + (f", {' and '.join(given)}" if given else "")
        assert odds_line.startswith(expected + ": "), odds_line
        assert (late in odds_line) == bool(e.joined), odds_line


def test_a_sides_cover_gives_an_enemys_learned_strength_once(campaign_run) -> None:
    # it read "strength learned Day 1 17:30: 5 units, 40 boxes; 40 boxes"
    from campaign.config import load_rules
    from campaign.report.html import render_html

    _, cmap, events = campaign_run
    page = render_html(events, cmap, "red", None, load_rules().rules)
    found = re.findall(r"strength learned in the battle of [^<]*?boxes\.", page)
    assert found, "the fixed campaign has a battle: red learns some Blue strength"
    for text in found:
        assert text.count("boxes") == 1 and "units after it; " in text, text


def test_a_division_opens_the_campaign_once(campaign_run) -> None:
    # a division's opening plan is told again when it sets off on it later (a rough road
    # tried, a wait): it "keeps to its opening plan", it does not open the campaign twice
    _, cmap, events = campaign_run
    names = {n: d["name"] for n, d in cmap.graph.nodes(data=True)}
    opened: dict[str, int] = {}
    for entry in Narrator(names).entries(events):
        if " opens the campaign " in entry.text:
            division = entry.text.split(" ", 1)[0]
            opened[division] = opened.get(division, 0) + 1
    assert opened and set(opened.values()) == {1}, opened
