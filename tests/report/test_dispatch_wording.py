"""The day's dispatch (the diary's paragraph a day) calls a division destroyed only when it
was: a battle won because the loser had no unit left on the field (RULES.md §6.8 (c): routed
or off the table counts, not only destroyed) "clears the field of" the loser, whose division
lives on and falls back (found on Waterloo seed 1815: "the French destroy B3 (Pirch)", with
B3 at 8 boxes falling back)."""

from __future__ import annotations

import re

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import BattleFought, DivisionDestroyed
from campaign.maps import load_map
from campaign.report.context import diary_context
from campaign.report.days import build_diary


def _dispatches(map_name: str | None, seed: int) -> tuple[list[str], list]:
    cmap = load_map(map_name)
    events = run_campaign(cmap, load_rules(), seed, record_events=True).events
    diary = build_diary(events, "umpire", destroyed_at=10)
    return [day["dispatch"] for day in diary_context(diary, cmap)["days"]], list(events)


def test_a_field_cleared_is_not_a_division_destroyed() -> None:
    """Waterloo seed 8 (seed 1815 until issue 31's generals' plans changed it): R2 loses its
    battle at Fleurus with no unit left on the field and lives on."""
    dispatches, events = _dispatches("waterloo-1815", 8)
    text = " ".join(dispatches)
    assert any(isinstance(e, BattleFought) and e.reason == "no-units" for e in events)
    assert re.search(r"the Allies clear the field of R2 \(d'Erlon\)", text), text
    cleared = next(e for e in events if isinstance(e, BattleFought) and e.reason == "no-units")
    end = cleared.t + 15 * cleared.bounds
    # R2 lives on after the field is cleared of it (destroyed, if ever, in a later battle)
    assert all(e.t > end for e in events if isinstance(e, DivisionDestroyed) and e.division == "R2")


def test_every_division_called_destroyed_was() -> None:
    seen_no_units = 0
    for map_name, seeds in ((None, range(12)), ("waterloo-1815", range(27))):
        for seed in seeds:
            dispatches, events = _dispatches(map_name, seed)
            destroyed = {e.division for e in events if isinstance(e, DivisionDestroyed)}
            seen_no_units += sum(
                isinstance(e, BattleFought) and e.reason == "no-units" for e in events
            )
            for text in dispatches:
                for named in re.findall(
                    r"\b([RB]\d+) \([^)]*\)(?:,? (?:and )?[RB]\d+ \([^)]*\))* is destroyed", text
                ):
                    assert named in destroyed, (map_name, seed, text)
                assert not re.search(r"\bdestroys?\b", text), (map_name, seed, text)
    assert seen_no_units >= 3  # the case is met (Waterloo seeds 8, 22 and 26)


def test_a_people_named_mid_sentence_keeps_its_small_the() -> None:
    """Two sides' gatherings in one sentence: "… at Charleroi and the Allies have B1 …", not
    "and The Allies" (Waterloo seed 1815, day 1; the sentence's first word is capitalised)."""
    dispatches, _ = _dispatches("waterloo-1815", 1815)
    text = " ".join(dispatches)
    assert re.search(r"together at [^.]* and the (French|Allies) ha", text), text
    assert not re.search(r"\w (and|,) The (French|Allies)\b", text), text
