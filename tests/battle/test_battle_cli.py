"""``campaign battle``: output, determinism and bad input (exit code 2).

Determinism and a few bad inputs run in real subprocesses (the console script's own exit
path); the other cases call :func:`campaign.cli.main` in-process, the same code path,
because each fresh process spends seconds importing.
"""

from __future__ import annotations

import io
import json

import pytest
from battle_helpers import run_cli

from battle.engine import fight
from battle.forces import parse_force_flag
from campaign.cli import main
from campaign.cli.battle_cmd import (
    battle_generator,
    odds_summary,
    run_odds,
    wilson_interval,
    write_events,
)
from campaign.config import load_rules


@pytest.mark.slow
def test_json_is_byte_identical_across_processes_and_hash_seeds() -> None:
    one = run_cli("battle", "--seed", "7", "--json", hash_seed="1")
    two = run_cli("battle", "--seed", "7", "--json", hash_seed="2")
    assert one.returncode == 0, one.stderr
    assert one.stdout == two.stdout
    data = json.loads(one.stdout)
    assert data["seed"] == 7
    assert data["events"] and data["units"]
    assert data["bounds"] * 15 == data["minutes"]


def _run(capsys, *args: str) -> tuple[int, str, str]:
    """``campaign ARGS`` in this process: (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    done = capsys.readouterr()
    code = exc.value.code
    return (0 if code is None else int(code)), done.out, done.err


def test_log_and_result_table() -> None:
    done = run_cli("battle", "--seed", "3", "--blue", "4i1c1a:veteran")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("seed 3 ")
    assert "Turn 1, bound 1: Red draws a" in out
    assert "d100=" in out and " vs " in out
    assert "Result" in out and "B-I1" in out and "veteran" in out
    assert "bounds (" in out and "minutes of battle" in out
    assert "cards left" in out and "casualties" in out
    assert "\x1b[" not in out  # no colour when piped


def test_quiet_prints_only_the_result(capsys) -> None:
    code, out, _ = _run(capsys, "battle", "--seed", "3", "--quiet")
    assert code == 0
    assert "Turn 1, bound 1" not in out and "Result" in out and "R-I6" in out


def test_forces_file_variant_and_doctrines(tmp_path, capsys) -> None:
    spec = tmp_path / "forces.yaml"
    spec.write_text(
        "red:\n  name: French\n  units:\n    - {type: infantry, count: 3, grade: elite}\n"
        "    - {type: artillery, hits: 4}\nblue:\n  units: 2i1c\n"
    )
    code, out, err = _run(
        capsys, "battle", "--forces", str(spec), "--seed", "5", "--variant", "first-outing",
        "--red-doctrine", "bold", "--attacker", "blue", "--set", "battle.max_turns=4", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["names"] == ["French", "Blue"]
    assert data["attacker"] == 1
    assert data["rules"].startswith("first-outing")
    assert data["turns"] <= 4
    assert {u["id"] for u in data["units"]} == {
        "R-I1",
        "R-I2",
        "R-I3",
        "R-A1",
        "B-I1",
        "B-I2",
        "B-C1",
    }


def test_odds_text_and_json(capsys) -> None:
    code, out, _ = _run(capsys, "battle", "--seed", "1", "--odds", "200")
    assert code == 0
    assert "Odds over 200 battles" in out
    assert "length: mean" in out and "how they ended" in out
    code, out, _ = _run(capsys, "battle", "--seed", "1", "--odds", "200", "--json")
    data = json.loads(out)
    assert data["battles"] == 200 and data["seed"] == 1
    for side in data["sides"]:
        total = side["wins"]["percent"] + side["draws"]["percent"] + side["losses"]["percent"]
        assert total == pytest.approx(100, abs=0.01)
        assert side["wins"]["low"] <= side["wins"]["percent"] <= side["wins"]["high"]
    assert sum(data["reasons"].values()) == pytest.approx(100, abs=0.01)
    assert data["minutes"]["mean"] == pytest.approx(15 * data["bounds"]["mean"])


def test_each_odds_battle_replays_alone_on_its_stream(capsys) -> None:
    # battle i of `--odds N --seed S` is fought on stream BATTLE + i of S (campaign/streams.py),
    # so fighting it alone on battle_generator(S, i) gives the same events, whatever the
    # battles before it drew; and one battle alone (no --odds) is battle 0
    rules = load_rules().rules.battle
    units, top = rules.units, rules.max_units_per_force
    forces = (
        parse_force_flag("6i1c1a", "Red", "R", units, top),
        parse_force_flag("4i1c1a", "Blue", "B", units, top),
    )
    docs = ("steady", "steady")
    many = io.StringIO()
    run_odds(forces, rules, 42, 5, 0, docs, progress=False, events=many)
    by_battle: dict[int, list[str]] = {}
    for line in many.getvalue().splitlines():
        by_battle.setdefault(json.loads(line)["battle"], []).append(line)
    assert sorted(by_battle) == [0, 1, 2, 3, 4]
    for i in (4, 0, 2):  # out of order: nothing depends on the battles fought before
        alone = io.StringIO()
        write_events(alone, i, fight(*forces, rules, battle_generator(42, i), doctrines=docs))
        assert alone.getvalue().splitlines() == by_battle[i]
    assert by_battle[1] != [line.replace('"battle":0', '"battle":1') for line in by_battle[0]]
    code, out, _ = _run(capsys, "battle", "--seed", "42", "--json")
    assert code == 0
    single = fight(*forces, rules, battle_generator(42, 0), doctrines=docs).to_dict()
    assert json.loads(out)["events"] == json.loads(json.dumps(single["events"]))


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and 0.27 < hi < 0.31
    lo, hi = wilson_interval(10, 10)
    assert hi == pytest.approx(1.0) and 0.69 < lo < 0.73
    lo, hi = wilson_interval(680, 1000)
    assert lo < 0.68 < hi and hi - lo == pytest.approx(0.0577, abs=0.001)


def test_odds_summary_counts() -> None:
    rows = [(0, "cards", 8, 10, 20), (1, "withdrawal", 10, 30, 5), (None, "turn-limit", 30, 1, 1)]
    s = odds_summary(rows, ("Red", "Blue"), 15)
    red, blue = s["sides"]
    assert red["wins"]["percent"] == blue["losses"]["percent"] == pytest.approx(100 / 3, abs=1e-3)
    assert red["draws"]["percent"] == pytest.approx(100 / 3, abs=1e-3)
    assert red["mean_hits_taken"] == pytest.approx(41 / 3, abs=1e-3)
    assert s["bounds"]["median"] == 10 and s["minutes"]["max"] == 450


BAD = [
    (["--set", "battle.hit_dice=3d0"], ["battle.hit_dice", "3d0", "faces"]),
    (["--set", "battle.hit_dice=d-5"], ["battle.hit_dice", "d-5"]),
    (["--set", "battle.hit_dice=2*"], ["battle.hit_dice", "2*"]),
    (["--set", "battle.hit_dice=abc"], ["battle.hit_dice", "abc"]),
    (["--red", "0i"], ["--red", "no units"]),
    (["--blue", "0i0c0a"], ["--blue", "no units"]),
    (["--red", "6x"], ["--red", "unknown unit letter 'x'"]),
    (["--red", "-3i"], ["--red", "negative"]),
    (["--red", "4i:heroic"], ["--red", "grade"]),
    (["--set", "battle.hit_dise=3d10"], ["battle.hit_dise", "did you mean 'battle.hit_dice'"]),
    (["--set", "battle.deck.lose_at=2"], ["did you mean 'battle.deck.lose_at_cards'"]),
    (["--set", "battle.max_turns=-1"], ["battle.max_turns"]),
    (["--set", "nonsense"], ["--set", "KEY=VALUE"]),
    (["--variant", "nope"], ["--variant", "no variant named 'nope'", "first-outing"]),
    (["--variant", "two-dise"], ["did you mean 'two-dice'"]),
    (["--doctrine", "bld"], ["--doctrine", "'bld'", "did you mean 'bold'"]),
    (["--blue-doctrine", "timid"], ["--blue-doctrine", "'timid'", "steady"]),
    (["--attacker", "green"], ["--attacker", "red or blue"]),
    (["--odds", "0"], ["--odds"]),
    (["--forces", "no/such/file.yaml"], ["no/such/file.yaml", "not found"]),
]


def _one_paragraph(code: int, out: str, err: str, words: list[str]) -> None:
    assert code == 2, (out, err)
    err = err.strip()
    assert "Traceback" not in err
    assert err.startswith("error: ")
    assert "\n" not in err  # one paragraph, one line
    for word in words:
        assert word.lower() in err.lower(), err
    assert out == ""


@pytest.mark.parametrize(("args", "words"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_is_one_paragraph_and_exit_2(capsys, args: list[str], words: list[str]):
    _one_paragraph(*_run(capsys, "battle", "--seed", "1", *args), words)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "words"),
    [BAD[0], BAD[4], BAD[6], BAD[7], BAD[9], BAD[13], BAD[15]],
    ids=lambda v: " ".join(v) if isinstance(v, list) and v[0].startswith("--") else None,
)
def test_bad_input_in_a_real_process(args: list[str], words: list[str]) -> None:
    done = run_cli("battle", "--seed", "1", *args)
    _one_paragraph(done.returncode, done.stdout, done.stderr, words)


def test_bad_forces_file_names_file_and_key(tmp_path, capsys) -> None:
    spec = tmp_path / "forces.yaml"
    spec.write_text("red:\n  units:\n    - {type: dragoons}\nblue:\n  units: 2i\n")
    _one_paragraph(*_run(capsys, "battle", "--forces", str(spec)), [str(spec), "red.units.0.type"])


def test_events_file_of_one_battle(tmp_path) -> None:
    """``--events FILE`` without --odds writes the one battle's events, index 0, JSON lines."""
    import json

    out = tmp_path / "events.jsonl"
    done = run_cli("battle", "--seed", "3", "--quiet", "--events", str(out))
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in out.read_text().splitlines()]
    assert {e["battle"] for e in events} == {0}
    assert events[0]["type"] == "BattleStarted" and events[-1]["type"] == "BattleEnded"


def test_events_file_that_cannot_be_written_is_exit_2(tmp_path) -> None:
    done = run_cli("battle", "--odds", "3", "--events", str(tmp_path / "no" / "such" / "x.jsonl"))
    assert done.returncode == 2
    assert "--events" in done.stderr and "cannot write" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_header_names_grades_other_than_regular(capsys) -> None:
    code, out, _ = _run(
        capsys, "battle", "--seed", "3", "--red", "6i1c1a", "--blue", "4i1c1a:veteran"
    )
    assert code == 0
    assert "Red: 6 infantry, 1 cavalry, 1 artillery;" in out
    assert "Blue: 4 veteran infantry, 1 veteran cavalry, 1 veteran artillery;" in out


@pytest.mark.parametrize(
    ("total", "rolls", "shown"),
    [
        (-2, (), "= -2 dice: nothing to roll vs 12+: holds"),
        (0, (), "= 0 dice: nothing to roll vs 12+: holds"),
        (3, (6, 4, 5), "= 3d6: 6+4+5 = 15 vs 12+: WITHDRAWS"),
    ],
)
def test_a_withdrawal_check_line_reads_right_whatever_its_dice(total, rolls, shown) -> None:
    # with no die to roll it once read "= -2d6: no dice = 0 vs 12+"
    from battle.events import Factor, WithdrawalChecked
    from battle.log import format_event

    e = WithdrawalChecked(
        3, 6, 0, 30.0, (Factor("flags lost", 1),), total, rolls, sum(rolls) >= 12, 6, 12
    )
    line = format_event(e, ("Red", "Blue"))
    assert line is not None and line.endswith(shown), line
