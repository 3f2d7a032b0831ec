"""The replay in a real browser: Selenium drives Debian's headless Chromium over the file.

The tests move the scrubber, press the buttons and keys, switch views and open deep links,
then read the page's DOM: each division marker's ``data-where`` (``at:JUNCTION`` or
``road:A:B``) must be where the event stream puts the division at that minute, worked out
here from the raw events by :func:`stream_positions`, independently of the page's data.
``REPLAY_SWEEP=1`` runs the issue's whole sweep (default seeds 0-49, Waterloo 0-19, every
event's minute); without it a subset runs.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from campaign.events import (
    BattleFought,
    CampaignEvent,
    DivisionRaised,
    MarchArrived,
    MarchBegun,
    Surrendered,
)
from campaign.replay import write_replay
from campaign.report.view import side_view

from .conftest import WATERLOO, browser_missing, open_replay, play
from .grid import grid_map

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing())),
]

SWEEP = os.environ.get("REPLAY_SWEEP") == "1"
DEFAULT_SEEDS = range(50) if SWEEP else (0, 9, 30)
WATERLOO_SEEDS = range(20) if SWEEP else (0, 5)

#: The scrubber moved to each minute in turn; the visible markers read after each move.
_SCRUB_AND_READ = """
const minutes = arguments[0], out = [];
const sc = document.getElementById('scrubber');
for (const m of minutes) {
  sc.value = m;
  sc.dispatchEvent(new Event('input', {bubbles: true}));
  out.push([...document.querySelectorAll('#divisions .div:not(.hidden)')]
    .map(g => [g.dataset.div, g.dataset.where, g.querySelector('text').textContent]));
}
return out;
"""


def _key(where: str) -> str:
    """``road:A:B`` and ``road:B:A`` are the same road."""
    parts = where.split(":")
    return "road:" + ":".join(sorted(parts[1:])) if parts[0] == "road" else where


def stream_positions(events: Sequence[CampaignEvent], minute: int) -> dict[str, str]:
    """Where each living division stands after every event up to ``minute``, from the raw
    events: raised at a junction, on its road from a march's start to its arrival, on the
    road of a road battle, gone once all its units are destroyed or it surrendered."""
    where: dict[str, str] = {}
    units: dict[str, set[str]] = {}
    gone: set[str] = set()
    for e in sorted(events, key=lambda e: e.t):
        if e.t > minute:
            break
        if isinstance(e, DivisionRaised):
            where[e.division] = f"at:{e.junction}"
            units[e.division] = {u.id for u in e.units}
        elif isinstance(e, MarchBegun):
            where[e.division] = _key(f"road:{e.origin}:{e.destination}")
        elif isinstance(e, MarchArrived):
            where[e.division] = f"at:{e.junction}"
        elif isinstance(e, BattleFought):
            fought = [d for ids in e.divisions.values() for d in ids]
            for d in fought:
                if e.road is None:
                    where[d] = f"at:{e.place}"
                elif not where.get(d, "").startswith("road:"):
                    where[d] = _key(f"road:{e.road[0]}:{e.road[1]}")
            for u in e.units:
                if u.state == "destroyed":
                    units.get(u.id.split("-")[0], set()).discard(u.id)
            gone.update(d for d in fought if not units.get(d))
        elif isinstance(e, Surrendered):
            gone.add(e.division)
    return {d: w for d, w in where.items() if d not in gone}


def _check_markers(browser, path: Path, events: Sequence[CampaignEvent], label: str) -> int:
    minutes = sorted({int(e.t) for e in events})
    open_replay(browser, path)
    seen = browser.execute_script(_SCRUB_AND_READ, minutes)
    for minute, markers in zip(minutes, seen, strict=True):
        got = {d: _key(w) for d, w, _ in markers}
        assert len(got) == len(markers), f"{label} minute {minute}: a division drawn twice"
        assert got == stream_positions(events, minute), f"{label} at minute {minute}"
    return len(minutes)


@pytest.mark.parametrize(
    ("map_name", "seed"),
    [("default", s) for s in DEFAULT_SEEDS] + [("waterloo", s) for s in WATERLOO_SEEDS],
)
def test_every_marker_stands_where_the_stream_says_at_each_events_minute(
    browser, tmp_path, map_name, seed
):
    cmap, events, rules = play(WATERLOO if map_name == "waterloo" else None, seed)
    path = write_replay(events, cmap, tmp_path / "r.html", ["umpire", "red", "blue"], rules=rules)
    assert _check_markers(browser, path, events, f"{map_name} seed {seed}") >= 5


#: The log rows shown: the first ``data-shown`` rows of the current view's log.
_READ_LOG = """
const v = document.querySelector('#log .logview');
return [...v.children].slice(0, Number(v.dataset.shown))
  .filter(r => getComputedStyle(r).display !== 'none').map(r => r.textContent);
"""


@pytest.mark.parametrize("side", ["red", "blue"])
def test_a_sides_view_shows_only_what_it_knew(browser, default_campaign, replay_files, side):
    """The umpire file switched to a side draws and logs exactly what the side's own file
    does at every event's minute, and every enemy marker is one the side had learned of by
    then, with a strength it had learned or ``?``."""
    _, events, _ = default_campaign
    own = side_view(events, side)
    enemy = "B" if side == "red" else "R"
    minutes = sorted({int(e.t) for e in events})
    open_replay(browser, replay_files[side])
    own_markers = browser.execute_script(_SCRUB_AND_READ, minutes)
    logs = {}
    for m in (minutes[len(minutes) // 3], minutes[-1]):
        browser.execute_script("window.replay.seek(arguments[0])", m)
        logs[m] = browser.execute_script(_READ_LOG)
    open_replay(browser, replay_files["umpire"])
    browser.find_element("css selector", f'#views button[data-view="{side}"]').click()
    assert browser.execute_script("return window.replay.state().view") == side
    switched = browser.execute_script(_SCRUB_AND_READ, minutes)
    assert switched == own_markers
    for m, rows in logs.items():
        browser.execute_script("window.replay.seek(arguments[0])", m)
        assert browser.execute_script(_READ_LOG) == rows
    assert 0 < len(logs[minutes[len(minutes) // 3]]) < len(logs[minutes[-1]])
    enemies_shown = 0
    for minute, markers in zip(minutes, switched, strict=True):
        so_far = [e for e in own if e.t <= minute]
        known = {getattr(e, "enemy", None) for e in so_far}
        known |= {getattr(e, "division", None) for e in so_far}
        known |= {
            d
            for e in so_far
            if isinstance(e, BattleFought)
            for ids in e.divisions.values()
            for d in ids
        }
        strengths = {
            f"{e.enemy} {e.boxes}" for e in so_far if type(e).__name__ == "StrengthLearned"
        }
        for division, _where, text in markers:
            if division.startswith(enemy):
                enemies_shown += 1
                assert division in known, f"{division} shown to {side} at {minute} before seen"
                assert text == f"{division} ?" or text in strengths, (minute, text)
    assert enemies_shown > 0
    # the umpire's own view shows enemy divisions the side did not know at the start
    browser.find_element("css selector", '#views button[data-view="umpire"]').click()
    first = browser.execute_script(_SCRUB_AND_READ, [0])[0]
    assert any(d.startswith(enemy) for d, _, _ in first)
    assert not any(d.startswith(enemy) for d, _, _ in own_markers[0])


def test_buttons_keys_and_log_move_the_moment(browser, replay_files):
    from selenium.webdriver.common.keys import Keys

    open_replay(browser, replay_files["umpire"])
    js = browser.execute_script
    end = js("return window.replay.end")
    times = sorted(
        set(js("return [...document.querySelectorAll('#log .row')].map(r => Number(r.dataset.t))"))
    )

    def t() -> float:
        return js("return window.replay.state().t")

    click = lambda name: browser.find_element("id", name).click()  # noqa: E731
    click("last")
    assert t() == end
    assert js("return document.getElementById('scrubber').value") == str(end)
    click("first")
    assert t() == 0
    click("next")
    assert t() == min(x for x in times if x > 0)
    click("next")
    second = t()
    click("prev")
    assert 0 < t() < second
    body = browser.find_element("tag name", "body")
    body.send_keys(Keys.END)
    assert t() == end
    body.send_keys(Keys.HOME)
    assert t() == 0
    body.send_keys(Keys.ARROW_RIGHT)
    assert t() == min(x for x in times if x > 0)
    body.send_keys(Keys.ARROW_DOWN)  # the next dawn
    assert t() == 1440
    # the clock label follows (dawn is 06:00 of day 2)
    assert browser.find_element("id", "clock").text == "Day 2 06:00"
    # play runs the clock forward at the chosen speed, pause stops it
    js("window.replay.seek(0)")
    browser.find_element("css selector", "#speed option[value='10']").click()
    click("play")
    time.sleep(1.0)
    click("play")
    stopped = t()
    assert 60 < stopped < end  # 10x is ten campaign hours a second
    time.sleep(0.4)
    assert t() == stopped
    body.send_keys(Keys.SPACE)
    time.sleep(0.3)
    body.send_keys(Keys.SPACE)
    assert t() > stopped
    # a log row moves the scrubber to its moment and is highlighted
    js("window.replay.seek(arguments[0])", end)
    rows = browser.find_elements("css selector", "#log .row.event")
    row = rows[len(rows) // 2]
    browser.execute_script("arguments[0].scrollIntoView()", row)
    row.click()
    assert t() == int(row.get_attribute("data-t"))
    assert "current" in row.get_attribute("class")
    assert browser.find_elements("css selector", "#log .row.current") == [row]
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == []  # nothing the page did wrote an error on the console


def test_a_battle_marker_opens_its_account(browser, replay_files, default_campaign):
    _, events, _ = default_campaign
    first = next(e for e in events if isinstance(e, BattleFought))
    open_replay(browser, replay_files["umpire"])
    browser.execute_script("window.replay.seek(arguments[0])", first.t)
    marker = browser.find_element("css selector", '#battles .battle[data-battle="0"]')
    assert "hidden" not in marker.get_attribute("class")
    browser.execute_script("window.replay.seek(arguments[0])", first.t - 1)
    assert "hidden" in marker.get_attribute("class")  # not before it was fought
    browser.execute_script("window.replay.seek(arguments[0])", first.t)
    browser.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", marker
    )
    panel = browser.find_element("id", "battle-panel")
    assert panel.is_displayed()
    assert first.place_name in panel.text
    assert "Bound 1" in panel.text or "bound 1" in panel.text  # the bound-by-bound log
    browser.find_element("id", "battle-close").click()
    assert not panel.is_displayed()


def test_a_deep_link_opens_at_its_moment_and_view(browser, replay_files, default_campaign):
    _, events, _ = default_campaign
    minutes = sorted({int(e.t) for e in events})
    minute = minutes[min(40, len(minutes) // 2)]  # a moment within the campaign
    open_replay(browser, replay_files["umpire"], f"#t={minute}&view=red")
    state = browser.execute_script("return window.replay.state()")
    assert state["t"] == minute and state["view"] == "red"
    pressed = browser.find_element("css selector", '#views button[aria-pressed="true"]')
    assert pressed.get_attribute("data-view") == "red"
    markers = browser.execute_script(_SCRUB_AND_READ, [minute])[0]
    open_replay(browser, replay_files["red"])
    assert browser.execute_script(_SCRUB_AND_READ, [minute])[0] == markers
    # moving writes the moment back into the address, so the link can be shared
    open_replay(browser, replay_files["umpire"])
    browser.execute_script("window.replay.seek(300)")
    browser.find_element("css selector", '#views button[data-view="blue"]').click()
    time.sleep(0.6)
    assert browser.execute_script("return location.hash") == "#t=300&view=blue"


def test_a_500_junction_map_scrubs_each_move_under_100_ms(browser, tmp_path):
    """Each scrubber move (the handler and the layout it causes) timed with performance.now()
    in headless Chromium after a warm-up of 20 moves. The typical (median) move must take
    under 100 ms; the 90th percentile is allowed 200 ms, as a loaded 2-core machine stalls a
    few moves whatever the page does (idle, all of them take well under 100 ms)."""
    from campaign.config import load_rules
    from campaign.engine import run_campaign
    from campaign.maps import load_map

    cmap = load_map(grid_map(tmp_path))
    assert cmap.graph.number_of_nodes() == 500
    loaded = load_rules()
    events = run_campaign(cmap, loaded, 1, None, record_events=True, battle_logs=True).events
    path = write_replay(
        events, cmap, tmp_path / "grid.html", ["umpire", "red", "blue"], rules=loaded.rules
    )
    assert path.stat().st_size < 15_000_000
    open_replay(browser, path)
    timings = browser.execute_script(
        """
        const sc = document.getElementById('scrubber'), end = window.replay.end, out = [];
        for (let i = -20; i < 120; i++) {
          const m = Math.floor(((i * 7919) % 1000) / 1000 * end);  // spread over the campaign
          const t0 = performance.now();
          sc.value = m;
          sc.dispatchEvent(new Event('input', {bubbles: true}));
          document.getElementById('map').getBoundingClientRect();  // force the layout
          document.getElementById('log').scrollTop;
          if (i >= 0) out.push(performance.now() - t0);
        }
        return out;
        """
    )
    timings.sort()
    median, p90, worst = statistics.median(timings), timings[int(0.9 * len(timings))], timings[-1]
    print(f"500-junction scrub: median {median:.1f} ms, 90% {p90:.1f} ms, worst {worst:.1f} ms")
    assert median < 100 and p90 < 200, (median, p90, worst)


def test_a_marching_division_moves_along_its_road_between_events(
    browser, default_campaign, replay_files
):
    """Halfway through a march (no event of the division in between), its marker stands
    halfway along the road; a quarter of the way, a quarter (the map's own positions)."""
    cmap, events, _ = default_campaign
    march = next(e for e in events if isinstance(e, MarchBegun) and e.hours >= 2)
    minutes = round(march.hours * 60)
    (ax, ay), (bx, by) = (cmap.graph.nodes[j]["pos"] for j in (march.origin, march.destination))
    open_replay(browser, replay_files["umpire"])
    for fraction in (0.25, 0.5, 0.75):
        browser.execute_script("window.replay.seek(arguments[0])", march.t + fraction * minutes)
        marker = browser.find_element(
            "css selector", f'#divisions .div[data-div="{march.division}"]'
        )
        assert _key(marker.get_attribute("data-where")) == _key(
            f"road:{march.origin}:{march.destination}"
        )
        x, y = map(float, marker.get_attribute("transform")[10:-1].split(","))
        assert x == pytest.approx(ax + (bx - ax) * fraction, abs=0.01)
        assert y == pytest.approx(-(ay + (by - ay) * fraction), abs=0.01)  # SVG's y is down
