"""Saves, resume and fork (issue 28, item 3): a campaign stopped at any minute, saved to a
file, read back and replayed from its inputs goes on to the log of a campaign never
stopped; a fork with no change plays the original future exactly, one with other rules or
dice changes only the future; a save that cannot be replayed is refused."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from campaign.config import load_rules
from campaign.engine import Campaign
from campaign.events import event_to_dict
from campaign.maps import MapOptions, load_map
from campaign.save import format as fmt
from campaign.save.format import Fork, SaveError, SaveInputs
from campaign.save.replay import build, map_input, replay, rules_input, run_to, save_of
from campaign.save.when import Stop

BALANCED = {"red": "balanced", "blue": "balanced"}


def _log(camp: Campaign) -> list[str]:
    return [json.dumps(event_to_dict(e), sort_keys=True, default=str) for e in camp.events]


def _inputs(cmap, rules, seed, forks=()):
    return SaveInputs(
        seed, map_input(cmap, MapOptions()), rules_input(rules), dict(BALANCED), (), forks
    )


def _saved(cmap, rules, seed, minute, forks=()):
    """The save text of campaign ``seed`` stopped at ``minute`` (with ``forks``)."""
    inputs = _inputs(cmap, rules, seed, forks)
    camp = build(inputs, cmap, rules)
    run_to(camp, Stop(minute=minute), forks)
    return fmt.dumps(save_of(camp, inputs, Stop(minute=minute), "x")), camp


def _stop_resume(cmap, rules, seeds, points=3):
    rng = np.random.default_rng(2028)
    for seed in seeds:
        whole = Campaign(cmap, rules, seed)
        whole.run()
        straight = _log(whole)
        end = whole.env.now
        for minute in sorted(rng.uniform(1, end, size=points).round(1)):
            text, _ = _saved(cmap, rules, seed, float(minute))
            back = fmt.loads(text)
            assert fmt.dumps(back) == text  # read back whole
            camp = replay(back, "test")
            camp.finish()
            assert _log(camp) == straight, (seed, minute)


def test_stop_and_resume_at_random_points(rules, default_map):
    _stop_resume(default_map, rules, range(60))


@pytest.mark.slow
def test_stop_and_resume_at_random_points_200_seeds(rules, default_map):
    _stop_resume(default_map, rules, range(60, 260))


@pytest.mark.slow
def test_stop_and_resume_on_waterloo(rules):
    _stop_resume(load_map("waterloo-1815"), rules, range(20))


def _fork(rules_obj, minute, doctrines=None, future_seed=None):
    return Fork(minute, "x", rules_input(rules_obj), dict(doctrines or BALANCED), future_seed)


def _past(camp: Campaign, minute: float) -> list[str]:
    return [line for line, e in zip(_log(camp), camp.events, strict=True) if e.t < minute]


@pytest.mark.parametrize("seed", range(8))
def test_a_fork_with_no_change_plays_the_original_future(rules, default_map, seed):
    whole = Campaign(default_map, rules, seed)
    whole.run()
    minute = 1440.0  # day 2 06:00
    _, camp = _saved(default_map, rules, seed, minute, (_fork(rules, minute),))
    camp.finish()
    assert _log(camp) == _log(whole)


def test_a_fork_with_set_changes_only_the_future(rules, default_map):
    harder = load_rules([], {"campaign.rough_road_pass": 20})
    minute, changed = 720.0, 0
    for seed in range(12):
        whole = Campaign(default_map, rules, seed)
        whole.run()
        at_fork = Campaign(default_map, rules, seed)
        at_fork.start()
        at_fork.run_until(minute)
        _, camp = _saved(default_map, rules, seed, minute, (_fork(harder, minute),))
        # the state at the fork minute is the original's but for the rules it plays under
        state = camp.state()
        assert dataclasses.replace(state, inputs=at_fork.state().inputs) == at_fork.state()
        assert state.inputs.rules_hash == harder.hash
        camp.finish()
        assert _past(camp, minute) == _past(whole, minute)
        changed += _log(camp) != _log(whole)
        # every rough-road test after the fork needs 20 or less
        assert all(
            e.target == 20
            for e in camp.events
            if type(e).__name__ == "RoughRoadTest" and e.t >= minute
        )
    assert changed >= 6  # a rule most campaigns test changes most futures


def test_a_fork_with_battle_rules_fights_its_future_under_them(rules, default_map):
    """A fork's battle rules reach every battle and evening check after it: the battle desk
    and the evening checks read the rules again at the fork (they keep them between
    battles), and nothing before the fork changes (RULES.md §7.3, §7.6)."""
    easier = load_rules([], {"battle.withdrawal_success_total": 10})
    minute, after = 720.0, {"battle": 0, "evening": 0}
    for seed in range(6):
        _, camp = _saved(default_map, rules, seed, minute, (_fork(easier, minute),))
        camp.finish()
        for e in camp.events:
            name = type(e).__name__
            if name == "BattleFought":
                want = 10 if e.t >= minute else 12
                assert all(c.success_total == want for c in e.withdrawal_checks), (seed, e.t)
                after["battle"] += e.t >= minute and bool(e.withdrawal_checks)
            elif name == "WithdrawalCheck":
                assert e.success_total == (10 if e.t >= minute else 12), (seed, e.t)
                after["evening"] += e.t >= minute
    assert after["battle"] > 0 and after["evening"] > 0  # both were made after the fork


def test_reseeded_forks_differ_and_repeat(rules, default_map):
    minute = 1440.0
    logs = []
    for future in (11, 12, 11):
        _, camp = _saved(default_map, rules, 7, minute, (_fork(rules, minute, None, future),))
        camp.finish()
        logs.append(_log(camp))
    assert logs[0] == logs[2]
    assert logs[0] != logs[1]


def test_a_doctrine_fork_is_replayed_from_its_save(rules, default_map):
    minute = 900.0
    fork = _fork(rules, minute, {"red": "aggressive", "blue": "cautious"})
    text, camp = _saved(default_map, rules, 3, minute, (fork,))
    camp.finish()
    again = replay(fmt.loads(text), "test")
    again.finish()
    assert _log(again) == _log(camp)
    assert again.doctrines == {"red": "aggressive", "blue": "cautious"}


# ---------------------------------------------------------------------------- refusals
def _edit(text: str, change) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data)


EDITS = [
    (lambda d: d.update(format="campaign-state"), "format"),
    (lambda d: d.update(version=2), "version"),
    (lambda d: d.pop("written_by"), "written_by"),
    (lambda d: d["inputs"].update(seed="five"), "inputs.seed"),
    (lambda d: d["inputs"].update(seed=-1), "inputs.seed"),
    (lambda d: d["inputs"]["doctrines"].pop("red"), "inputs.doctrines"),
    (lambda d: d["inputs"]["rules"].update(variants="x"), "inputs.rules.variants"),
    (lambda d: d["inputs"].update(table_results=[3]), "inputs.table_results[0]"),
    (lambda d: d["inputs"].update(forks=[{"minute": 3}]), "inputs.forks[0].at"),
    (lambda d: d["stop"].update(battle=2), "stop"),
    (lambda d: d["stop"].update(minute=None), "stop"),
    (lambda d: d["state"].pop("divisions"), "state.divisions"),
]


@pytest.mark.parametrize(("edit", "key"), EDITS)
def test_misshapen_saves_are_refused_with_the_key(rules, default_map, edit, key):
    text, _ = _saved(default_map, rules, 1, 600.0)
    with pytest.raises(SaveError) as caught:
        fmt.loads(_edit(text, edit), "s.json")
    assert caught.value.key == key
    assert caught.value.exit_code == 2


def _hits(d):
    unit = d["state"]["divisions"][0]["units"][0]
    unit["hits"] += 1


REPLAY_EDITS = [
    (_hits, "state.divisions[", "edited"),
    (lambda d: d["inputs"].update(seed=2), "state.", "edited"),
    (lambda d: d["inputs"]["map"].update(sha256="0" * 64), "inputs.map.sha256", "changed"),
    (lambda d: d["inputs"]["rules"].update(hash="abc"), "inputs.rules.hash", "rules"),
    (lambda d: d["inputs"]["map"].update(source="nowhere.yaml"), "inputs.map.source", "not"),
]


@pytest.mark.parametrize(("edit", "key", "word"), REPLAY_EDITS)
def test_saves_that_do_not_replay_are_refused(rules, default_map, edit, key, word):
    text, _ = _saved(default_map, rules, 1, 600.0)
    with pytest.raises(SaveError) as caught:
        replay(fmt.loads(_edit(text, edit)), "s.json")
    assert (caught.value.key or "").startswith(key)
    assert word in caught.value.message


def test_other_code_that_replays_the_same_is_let_through(rules, default_map):
    text, camp = _saved(default_map, rules, 4, 1500.0)
    other = _edit(text, lambda d: d["written_by"].update(code="000000000000"))
    assert replay(fmt.loads(other), "s.json").state() == camp.state()


def test_other_code_that_replays_differently_names_its_commit(rules, default_map):
    def change(d):
        d["written_by"].update(code="000000000000", commit="abc1234")
        _hits(d)

    text, _ = _saved(default_map, rules, 4, 1500.0)
    with pytest.raises(SaveError) as caught:
        replay(fmt.loads(_edit(text, change)), "s.json")
    assert "abc1234" in caught.value.message
    assert "git worktree add" in (caught.value.fix or "")


def test_a_save_reads_as_yaml_too(rules, default_map):
    import yaml

    text, _ = _saved(default_map, rules, 2, 800.0)
    as_yaml = yaml.safe_dump(json.loads(text), sort_keys=False)
    assert fmt.loads(as_yaml) == fmt.loads(text)


# ---------------------------------------------------------------------------- batch --from
def test_a_batch_future_is_the_reseeded_fork_of_the_save(rules, default_map):
    from campaign.save.batch import play_future

    minute = 1440.0
    text, _ = _saved(default_map, rules, 42, minute)
    harder = load_rules([], {"campaign.rough_road_pass": 40})
    for seed in (3, 99):
        future = play_future(text, harder, BALANCED, seed)
        _, camp = _saved(default_map, rules, 42, minute, (_fork(harder, minute, None, seed),))
        result = camp.finish()
        assert (future.winner, future.end_minutes, future.battles) == (
            result.winner,
            result.end_minutes,
            result.battles,
        )


# ---------------------------------------------------------------------------- the table
@pytest.mark.parametrize("map_name", [None, "waterloo-1815"])
def test_a_table_stop_saved_and_resumed_with_the_engines_result(rules, map_name):
    """Stop before battle 1, save, read back, enter the engine's own result for it, go on:
    the log is the straight run's but for battle 1's record (fought on the table)."""
    from campaign.cli.save_table import battle_setup
    from campaign.events import BattleFought
    from campaign.save.replay import continue_from, run_until_policy
    from campaign.tabletop.stop import engine_result

    cmap = load_map(map_name)
    for seed in range(8):
        whole = Campaign(cmap, rules, seed)
        whole.run()
        inputs = _inputs(cmap, rules, seed)
        camp = build(inputs, cmap, rules)
        stop = run_until_policy(camp, lambda b: True)
        assert stop == Stop(battle=1)
        saved = fmt.loads(fmt.dumps(save_of(camp, inputs, stop, "x", "all")))
        assert saved.policy == "all"
        first = next(e for e in whole.events if isinstance(e, BattleFought))
        result = engine_result(first, battle_setup(replay(saved, "test")))
        resumed, _ = continue_from(saved, (result,))
        resumed.finish()
        a, b = _log(resumed), _log(whole)
        assert len(a) == len(b)
        differ = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        # only battle 1's record differs (fought on the table: no cards, no bound log)
        assert len(differ) == 1
        on_table = resumed.events[differ[0]]
        assert isinstance(on_table, BattleFought) and on_table.t == first.t
        assert on_table.place == first.place
        assert (on_table.winner, on_table.bounds, on_table.hits) == (
            first.winner,
            first.bounds,
            first.hits,
        )


def test_ask_stops_at_the_battle_answered_table(rules, default_map, monkeypatch, capsys):
    """``--tabletop ask``: the engine fights the battles answered ``e``; the campaign stops
    before the first answered ``t`` (an unreadable answer is asked again)."""
    import typer

    from campaign.cli.save_table import policy_rule
    from campaign.save.replay import run_until_policy

    answers = iter(["e", "what?", "t"])
    monkeypatch.setattr(typer, "prompt", lambda *a, **k: next(answers))
    camp = build(_inputs(default_map, rules, 5), default_map, rules)
    rule = policy_rule("ask", camp, interactive=True)
    assert rule is not None
    assert run_until_policy(camp, rule) == Stop(battle=2)
    err = capsys.readouterr().err
    assert "Battle 1 at" in err and "Battle 2 at" in err and "Answer t" in err
