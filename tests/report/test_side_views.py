"""A side's view holds only what that side learned, in every format (RULES.md §8.6, issue 13).

From the umpire's stream the test lists the facts Red never learned: events whose
``seen_by`` leaves Red out (Blue's own marches out of sight, its rough-road rolls, its
reasons to hold, the d100 rolls that raised it), Blue's loss % and dice at the evening
check, Blue's true strength at nightfall, where Blue's beaten divisions fell back to, and
where Blue's divisions stood at the end. Then it checks that none of them is printed in
Red's text log, Markdown log, JSON lines and HTML diary.
"""

from __future__ import annotations

import html
import io
import json
import re

import pytest

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import (
    BattleFought,
    CampaignEnded,
    CampaignStarted,
    DayEnded,
    FellBack,
    MeetingOnRoad,
    StrengthLearned,
    WithdrawalCheck,
    event_from_dict,
)
from campaign.maps import load_map
from campaign.paths import MAPS_DIR
from campaign.printers.narrative import Narrator
from campaign.printers.registry import FORMATS, PrintOptions
from campaign.report import render_html
from campaign.report.view import REDACTORS, side_view

VIEW, ENEMY = "red", "blue"

CASES = [(None, 42), (None, 5), (MAPS_DIR / "waterloo-1815.yaml", 1815)]


@pytest.fixture(scope="module", params=CASES, ids=["default-42", "default-5", "waterloo-1815"])
def run(request):
    path, seed = request.param
    cmap = load_map(path)
    result = run_campaign(cmap, load_rules(), seed, None, record_events=True)
    names = {n: d["name"] for n, d in cmap.graph.nodes(data=True)}
    return cmap, result.events, names


def _hidden_lines(events, names) -> set[tuple[str, str]]:
    """``(time, sentence)`` of every event Red never saw, as the umpire's diary words it."""
    narrator = Narrator(names, view="umpire")
    narrator.start(next(e for e in events if isinstance(e, CampaignStarted)))
    out = set()
    for e in events:
        if type(e) in (DayEnded, WithdrawalCheck, CampaignEnded, FellBack):
            continue  # redacted rather than hidden: checked below
        entry = narrator.one(e, 1)  # every event: the narrator remembers (who is beaten)
        if entry is not None and VIEW not in e.seen_by:
            out.add((entry.time, entry.text))
    return out


def _lines(fmt: str, text: str) -> set[tuple[str, str]]:
    if fmt == "text":
        found = re.findall(r"^(\d\d:\d\d)  (.*)$", text, re.M)
    elif fmt == "markdown":
        found = re.findall(r"^- `(\d\d:\d\d)` (?:\*\*)?(.*?)(?:\*\*)?$", text, re.M)
    else:  # html
        found = [
            (t, html.unescape(re.sub(r"<[^>]+>", "", body)))
            for t, body in re.findall(r'<span class="time">(\d\d:\d\d)</span>(.*?)</li>', text)
        ]
    return set(found)


def _red_outputs(events, names, cmap) -> dict[str, str]:
    out = {}
    for name, fmt in FORMATS.items():
        buf = io.StringIO()
        fmt.write(events, buf, PrintOptions(VIEW, names))
        out[name] = buf.getvalue()
    out["html"] = render_html(events, cmap, VIEW)
    # --battles full: every event its own line (the default folds repeated ones, issue 29)
    full = io.StringIO()
    FORMATS["text"].write(events, full, PrintOptions(VIEW, names, battle_logs=True))
    out["text-full"] = full.getvalue()
    return out


def test_no_event_red_never_saw_is_printed(run):
    cmap, events, names = run
    hidden = _hidden_lines(events, names)
    assert len(hidden) > 5, "the fixed campaigns must have events Red did not see"
    outputs = _red_outputs(events, names, cmap)
    umpire = io.StringIO()  # every event its own line (unfolded), as the hidden lines are
    FORMATS["text"].write(events, umpire, PrintOptions("umpire", names, battle_logs=True))
    assert hidden <= _lines("text", umpire.getvalue())  # the check can see them when shown
    for fmt in ("text", "text-full", "markdown", "html"):
        leaked = hidden & _lines(fmt.removesuffix("-full"), outputs[fmt])
        assert not leaked, f"{fmt}: {sorted(leaked)[:3]}"
    rows = [event_from_dict(json.loads(line)) for line in outputs["jsonl"].splitlines()]
    assert all(VIEW in e.seen_by for e in rows)
    assert len(rows) < len(events)


def _known_enemy(events) -> dict[str, StrengthLearned]:
    known: dict[str, StrengthLearned] = {}
    for e in events:
        if isinstance(e, StrengthLearned) and e.side == VIEW:
            known[e.enemy] = e
    return known


def test_the_evening_checks_and_tallies_hide_the_enemys_figures(run):
    cmap, events, names = run
    red = side_view(events, VIEW)
    blue_checks = [e for e in events if isinstance(e, WithdrawalCheck) and e.side == ENEMY]
    for e in red:
        if isinstance(e, WithdrawalCheck) and e.side == ENEMY:
            assert (e.casualty_percent, e.factors, e.rolls) == (None, (), ())
        if isinstance(e, DayEnded):
            assert all(d.startswith("R") for d in e.positions)
            night = next(
                i for i, x in enumerate(events) if isinstance(x, DayEnded) and x.day == e.day
            )
            before = events[:night]
            learned = {  # learned before nightfall in stream order (a battle may end at 20:00)
                s.enemy: s.boxes
                for s in before
                if isinstance(s, StrengthLearned) and s.side == VIEW
            }
            alive = [b for b in learned.values() if b > 0]
            assert e.strength[ENEMY] == (sum(alive) if alive else None)
    outputs = _red_outputs(events, names, cmap)
    blue = next(e for e in events if isinstance(e, CampaignStarted)).side_names[ENEMY]
    for e in blue_checks:  # Blue's loss % and dice at the evening check: never in Red's view
        for fmt, text in outputs.items():
            assert f"Evening withdrawal check for {blue}," not in text, fmt
            if len(e.rolls) >= 3:
                assert "+".join(map(str, e.rolls)) not in text, fmt


def _seen_enemy(events) -> set[str]:
    """Enemy division ids named by any event Red saw."""
    out: set[str] = set()
    for e in events:
        if VIEW not in e.seen_by:
            continue
        if isinstance(e, BattleFought):
            out.update(e.divisions.get(ENEMY, ()))
        elif isinstance(e, MeetingOnRoad):
            out.update(d for d in e.divisions if d.startswith("B"))
        elif getattr(e, "side", None) == ENEMY and hasattr(e, "division"):
            out.add(e.division)  # type: ignore[attr-defined]
        elif getattr(e, "side", None) == VIEW and hasattr(e, "enemy"):
            out.add(e.enemy)  # type: ignore[attr-defined]
    return out


def test_the_end_table_shows_enemy_divisions_only_as_last_seen(run):
    _, events, _ = run
    end = next(e for e in events if isinstance(e, CampaignEnded))
    red_end = next(e for e in side_view(events, VIEW) if isinstance(e, CampaignEnded))
    known = _known_enemy(events)
    for row in red_end.divisions:
        if row.side == VIEW:
            assert row in end.divisions
            continue
        assert row.state == "known lost" or row.state.startswith("last seen")
        s = known.get(row.division)
        assert (row.units, row.boxes) == ((s.units, s.boxes) if s else (None, None))
    shown = {row.division for row in red_end.divisions if row.side == ENEMY}
    assert shown <= _seen_enemy(events)
    assert red_end.divisions_left[ENEMY] is None


def test_an_enemy_falling_back_is_seen_leaving_not_arriving(run):
    _, events, _ = run
    for e in side_view(events, VIEW):
        if isinstance(e, FellBack) and e.side == ENEMY:
            assert len(e.path) == 1 and not e.onto_base


def test_the_side_filter_is_idempotent_and_complete(run):
    _, events, _ = run
    red = side_view(events, VIEW)
    assert side_view(red, VIEW) == red
    assert side_view(events, "umpire") == list(events)
    assert set(REDACTORS) >= {type(e) for e in events}


def test_red_jsonl_from_the_command_line_is_reds_stream(tmp_path):
    from campaign.cli import main

    out = tmp_path / "red.jsonl"
    try:
        main(["run", "--seed", "42", "--format", "jsonl", "--view", "red", "-o", str(out)])
    except SystemExit as exc:
        assert not exc.code
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    cmap = load_map(None)
    events = run_campaign(cmap, load_rules(), 42, None, record_events=True).events
    assert [event_from_dict(r) for r in rows] == side_view(events, "red")


def test_a_side_names_only_its_own_commanders(run):
    from campaign.printers.commanders import Commanders

    cmap, events, names = run
    header = next(e for e in events if isinstance(e, CampaignStarted))
    generals = Commanders(header.seed, header.side_names)
    blue_ids = {
        e.division for e in events if getattr(e, "side", "") == ENEMY and hasattr(e, "division")
    }
    red_ids = {
        e.division for e in events if getattr(e, "side", "") == VIEW and hasattr(e, "division")
    }
    theirs = {generals.surname(d) for d in blue_ids} - {generals.surname(d) for d in red_ids}
    assert theirs
    for fmt, text in _red_outputs(events, names, cmap).items():
        if fmt == "jsonl":
            continue  # the stream holds ids, not names
        for name in theirs:
            assert not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text), (fmt, name)
