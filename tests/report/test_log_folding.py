"""Issue 29: the text log's summary folds repeated lines as the diary does, through the one
shared folding function (campaign/printers/folding.py): a division's rough-road tries on one
road in one day in one line, a plan repeated at each try once, and a march through four
legs or more with nothing else happening to it in one line at its arrival."""

from __future__ import annotations

import io
import itertools
import re
from functools import cache

import pytest

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import MarchArrived, MarchBegun, RoughRoadTest
from campaign.maps import load_map
from campaign.paths import SHARED_MAPS_DIR
from campaign.printers.narrative import Narrator, narrate
from campaign.printers.registry import FORMATS, PrintOptions
from campaign.printers.text import text_lines
from campaign.report.context import _narrative
from campaign.report.days import Day

NAMES = {"a": "Pernau", "b": "Fellin", "c": "Dorpat", "d": "Leal", "e": "Wesenberg", "f": "Reval"}


def _rough(t: int, origin: str, dest: str, passed: bool, roll: int = 50) -> RoughRoadTest:
    return RoughRoadTest(t, "red", "R2", origin, dest, roll, 40.0, passed)


def _legs(stops: str, t0: int = 60, hours: int = 1) -> list:
    events: list = []
    t = t0
    for a, b in itertools.pairwise(stops):
        events.append(MarchBegun(t, "red", "R1", a, b, "normal", hours))
        t += 60 * hours
        events.append(MarchArrived(t, "red", "R1", b))
    return events


def _texts(events, fold: bool) -> list[tuple[str, str]]:
    return [(e.time, e.text) for e in narrate(events, NAMES, fold=fold) if e.kind == "event"]


def test_the_text_log_folds_rough_road_tries_with_the_diarys_own_line():
    events = [
        _rough(60, "a", "b", False),
        _rough(120, "a", "b", False),
        _rough(180, "a", "b", True),
    ]
    folded = _texts(events, fold=True)
    line = "R2 tries the rough road from Pernau to Fellin three times and gets through at 09:00"
    assert folded == [("09:00", line)]
    diary = _narrative(Narrator(NAMES), Day(1, events=list(events)), {})
    assert [r["text"] for r in diary] == [line]  # the same function writes both
    assert len(_texts(events, fold=False)) == 3  # --battles full tells every try


def test_a_run_never_crosses_the_night():
    # 19:00 on day 1 and 07:00 on day 2 (a 06:00-20:00 day: 840 minutes from 06:00)
    events = [_rough(780, "a", "b", False), _rough(24 * 60 + 60, "a", "b", False)]
    assert len(_texts(events, fold=True)) == 2


def test_a_long_march_folds_into_one_line_at_its_arrival():
    events = _legs("abcdef")  # five legs, Pernau to Reval
    folded = _texts(events, fold=True)
    assert folded == [
        ("12:00", "R1 marches from Pernau by way of Leal to Reval (set out at 07:00)")
    ]
    assert len(_texts(events, fold=False)) == 10
    landmarks = narrate(events, NAMES, fold=True, landmarks=frozenset({"b", "e"}))
    assert landmarks[-1].text == (
        "R1 marches from Pernau by way of Fellin and Wesenberg to Reval (set out at 07:00)"
    )


def test_a_short_march_or_a_broken_chain_is_told_leg_by_leg():
    assert len(_texts(_legs("abcd"), fold=True)) == 6  # three legs: not folded
    tried = RoughRoadTest(200, "red", "R1", "c", "d", 12, 40.0, True)  # R1's own rough road
    broken = [*_legs("abc"), tried, *_legs("cdef", t0=240)]
    lines = _texts(broken, fold=True)
    assert not any("marches from" in text for _, text in lines)
    assert len(lines) == 4 + 1 + 6


@cache
def _shared_log(fold: bool) -> tuple[str, list]:
    """Wilderness War, seed 12: rough roads tried three times or more and a march of four
    legs. (Nevsky seed 0, the issue's four tries in three hours, had both until the sides
    took home bases in their own countries; no Nevsky seed of 0-29 has a long march now.)"""
    path = SHARED_MAPS_DIR / "wilderness_war.yaml"
    if not path.exists():
        pytest.skip(f"{path} is absent (maps by other people live in ../shared/maps)")
    cmap = load_map(path)
    events = run_campaign(cmap, load_rules(), 12, None, record_events=True).events
    names = {j: d["name"] for j, d in cmap.graph.nodes(data=True)}
    out = io.StringIO()
    FORMATS["text"].write(events, out, PrintOptions(junction_names=names, naming=cmap.naming))
    if not fold:  # every event, one line each (as --battles full, without the dice logs)
        entries = narrate(events, names, naming=cmap.naming)
        return "\n".join(line for line, _ in text_lines(entries)), list(events)
    return out.getvalue(), list(events)


def test_the_folded_log_tells_every_try_and_every_leg():
    """A shared map's campaign (see _shared_log): every rough-road try and every
    march leg of the stream is told once, in its own line or in a folded one."""
    folded, events = _shared_log(True)
    plain, _ = _shared_log(False)
    assert len(folded.splitlines()) < len(plain.splitlines())
    times = {"once": 1, "twice": 2}
    tries = 0
    for m in re.finditer(r"tries the rough road .*?(?:: rolls| (twice|\w+ times) and)", folded):
        word = m.group(1)
        tries += 1 if word is None else times.get(word, 0) or _number(word.split()[0])
    assert tries == sum(isinstance(e, RoughRoadTest) for e in events)
    assert re.search(r"tries the rough road from \w+ to \w+ (three|four|five) times", folded)
    chains = re.findall(r"marches from (.*?) \(set out at", folded)
    assert chains and all(" by way of " in c for c in chains), "seed 12 has long marches"
    # every other line of the folded log is a line of the unfolded one
    rest = [
        line
        for line in folded.splitlines()
        if re.match(r"\d\d:\d\d  ", line) and not re.search(r"marches from|tries the rough", line)
    ]
    plain_lines = set(plain.splitlines())
    assert [line for line in rest if line not in plain_lines] == []


def _number(word: str) -> int:
    return ["three", "four", "five", "six", "seven", "eight", "nine", "ten"].index(word) + 3
