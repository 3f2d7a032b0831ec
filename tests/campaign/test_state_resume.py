"""The campaign's state as plain data, its file format, and stop / resume (issue 26, items 1
and 3): a campaign stopped at any instant, its state written to a file and read back, and
resumed from that state, goes to the same end, event for event, as one never stopped."""

from __future__ import annotations

import copy
import dataclasses
import json

import numpy as np
import pytest

from campaign import state as st
from campaign.engine import Campaign
from campaign.events import event_to_dict
from campaign.maps import load_map
from campaign.resume import StateMismatch, resume, stop_at

PAIRS = (
    None,
    {"red": "aggressive", "blue": "cautious"},
    {"red": "raider", "blue": "balanced"},
    {"red": "cautious", "blue": "raider"},
)


def _log(camp: Campaign) -> list[str]:
    return [json.dumps(event_to_dict(e), sort_keys=True, default=str) for e in camp.events]


def _leaves(value: object) -> list[object]:
    if dataclasses.is_dataclass(value):
        return _leaves([getattr(value, f.name) for f in dataclasses.fields(value)])
    if isinstance(value, dict):
        return _leaves(list(value.keys())) + _leaves(list(value.values()))
    if isinstance(value, list | tuple):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def _stop_and_resume(cmap, rules, seed, doctrines, minute, tmp_path=None):
    """(log never stopped, log stopped at ``minute`` and resumed from its state's file)."""
    whole = Campaign(cmap, rules, seed, doctrines)
    whole_result = whole.run()
    stopped = Campaign(cmap, rules, seed, doctrines)
    stopped.start()
    stopped.run_until(minute)
    saved = stopped.state()
    text = st.dumps(saved)
    back = st.loads(text)
    assert back == saved
    assert st.dumps(back) == text
    # the stopped campaign runs on unchanged by the stop, and so does one resumed from the file
    # (its log so far is no prefix of the whole: a battle's record goes in at its start when
    # the battle ends)
    stopped.finish()
    resumed = resume(back, cmap, rules)
    resumed_result = resumed.finish()
    assert resumed_result.winner == whole_result.winner
    return _log(whole), _log(stopped), _log(resumed)


def _cases(n_seeds: int, stops: int, maps: tuple[str | None, ...], rng_seed: int):
    rng = np.random.default_rng(rng_seed)
    cases = []
    for seed in range(n_seeds):
        map_name = maps[seed % len(maps)]
        pair = PAIRS[seed % len(PAIRS)]
        for _ in range(stops):
            # whole minutes and instants between them (marches end between whole minutes)
            minute = float(rng.integers(1, 4 * 1440))
            if rng.random() < 0.5:
                minute += float(rng.random())
            cases.append((map_name, seed, pair, minute))
    return cases


def _check_cases(rules, cases):
    maps = {}
    for map_name, seed, pair, minute in cases:
        cmap = maps.setdefault(map_name, load_map(map_name))
        whole, stopped, resumed = _stop_and_resume(cmap, rules, seed, pair, minute)
        assert stopped == whole, (map_name, seed, pair, minute)
        assert resumed == whole, (map_name, seed, pair, minute)


def test_stop_and_resume_200_seeds(rules):
    """200 seeds (default map and Waterloo, four doctrine pairs) each stopped at a random
    instant: the stopped campaign and the one resumed from its file end as the whole one."""
    _check_cases(rules, _cases(200, 1, (None, None, None, "waterloo-1815"), rng_seed=26))


@pytest.mark.slow
def test_stop_and_resume_many_stops(rules):
    """The longer variant: 300 more seeds, three random stops each."""
    cases = _cases(300, 3, (None, "waterloo-1815"), rng_seed=2026)
    _check_cases(rules, [(m, seed + 1000, p, t) for m, seed, p, t in cases])


def test_state_is_plain_data(rules, default_map):
    saved = stop_at(default_map, rules, seed=7, minute=1900)
    for leaf in _leaves(saved):
        assert leaf is None or isinstance(leaf, str | int | float | bool), type(leaf)
    twin = copy.deepcopy(saved)
    assert twin == saved and twin is not saved
    changed = dataclasses.replace(saved, time=saved.time + 1)
    assert changed != saved
    assert saved.division("R1").side == "red"
    with pytest.raises(KeyError):
        saved.division("X9")


def test_state_holds_what_the_campaign_is(rules, default_map):
    """The state's facts agree with the campaign's log up to its minute: divisions' losses,
    control of the bases, the events counted."""
    camp = Campaign(default_map, rules, 9)  # a campaign still on at day 3's dawn
    camp.start()
    camp.run_until(2 * 1440)
    saved = camp.state()
    assert saved.time == 2 * 1440
    assert saved.events == len(camp.events)
    bases = {s: default_map.sides[s].base for s in ("red", "blue")}
    for side, base in bases.items():
        assert saved.control.get(base) in (side, None, "red", "blue")
    hits = {d.id: sum(u.hits for u in d.units) for d in saved.divisions}
    for d in camp.divisions:
        assert hits[d.id] == sum(u.hits for u in d.units)
    boxes = {d.id: d.boxes for d in camp.divisions}
    for d in saved.divisions:
        assert 10 * len(d.units) - sum(u.hits for u in d.units) == boxes[d.id]


def test_state_does_not_share_the_campaigns_objects(rules, default_map):
    camp = Campaign(default_map, rules, 5)
    camp.start()
    camp.run_until(1500)
    saved = camp.state()
    again = st.loads(st.dumps(saved))
    camp.finish()
    assert saved == again  # the campaign ran on; the state taken stayed as it was


def test_state_at_the_end(rules, default_map):
    saved = stop_at(default_map, rules, seed=4, minute=30 * 1440)
    assert saved.over and saved.reason
    assert st.loads(st.dumps(saved)) == saved


def test_file_round_trip(tmp_path, rules, default_map):
    saved = stop_at(default_map, rules, seed=12, minute=2222.5)
    path = tmp_path / "day2.json"
    st.write(saved, path)
    assert st.read(path) == saved
    data = json.loads(path.read_text())
    assert data["format"] == "campaign-state" and data["version"] == st.STATE_VERSION


@pytest.mark.parametrize(
    ("edit", "key"),
    [
        (lambda d: d.update(format="something-else"), "format"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d["divisions"][0].pop("units"), "divisions[0].units"),
        (lambda d: d["divisions"][1].update(orders=[["march"]]), "divisions[1].orders[0]"),
        (lambda d: d["sides"]["red"].pop("memory"), "sides.red.memory"),
    ],
)
def test_bad_state_files_are_refused_with_the_key(rules, default_map, edit, key):
    saved = stop_at(default_map, rules, seed=3, minute=1500)
    data = st.to_dict(saved)
    if key == "divisions[1].orders[0]":
        data["divisions"][1]["orders"] = [["march"]]
    else:
        edit(data)
    with pytest.raises(st.StateFormatError) as caught:
        st.from_dict(data, "day.json")
    assert caught.value.key == key
    assert caught.value.fix
    assert "day.json" in caught.value.message


def test_not_json_is_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(st.StateFormatError, match="not JSON"):
        st.read(path)


def test_resume_refuses_other_rules_or_an_edited_state(rules, default_map):
    saved = stop_at(default_map, rules, seed=3, minute=1500)
    other = dataclasses.replace(
        saved, inputs=dataclasses.replace(saved.inputs, rules_hash="000000000000")
    )
    with pytest.raises(StateMismatch) as caught:
        resume(other, default_map, rules)
    assert caught.value.key == "inputs.rules_hash"
    first = saved.divisions[0]
    units = (dataclasses.replace(first.units[0], hits=first.units[0].hits + 1), *first.units[1:])
    edited = dataclasses.replace(
        saved, divisions=(dataclasses.replace(first, units=units), *saved.divisions[1:])
    )
    with pytest.raises(StateMismatch) as caught:
        resume(edited, default_map, rules)
    assert caught.value.key == f"divisions[{first.id}]"


def test_run_until_twice_and_past_the_end(rules, default_map):
    whole = Campaign(default_map, rules, 9)
    whole.run()
    camp = Campaign(default_map, rules, 9)
    camp.start()
    assert camp.run_until(600)
    assert camp.run_until(1200.5)
    assert not camp.run_until(60 * 1440)  # it ended first
    assert not camp.run_until(61 * 1440)
    camp.finish()
    assert _log(camp) == _log(whole)


def test_a_battle_being_fought_is_in_the_state(rules, default_map):
    """Stopped while a battle is fought, the state lists it (RULES.md §8.4): its place,
    start and divisions, each of them marked in battle; and it round-trips."""
    for seed in range(40):
        camp = Campaign(default_map, rules, seed)
        camp.start()
        minute = 6 * 60
        while camp.run_until(minute) and not camp.desk.pending:
            minute += 15
        if not camp.desk.pending:
            continue
        saved = camp.state()
        assert saved.battles
        for battle in saved.battles:
            assert battle.start <= saved.time
            assert (battle.junction is None) != (battle.road is None)
            for division_id in battle.divisions:
                assert saved.division(division_id).in_battle
        assert st.loads(st.dumps(saved)) == saved
        return
    pytest.fail("no battle being fought at any stop of 40 campaigns")
