"""``campaign run --until --save``, ``campaign resume`` and ``campaign fork`` end to end, in
this process (issue 28, item 3): round trips give the straight run's log; bad saves exit 2
and nothing is written."""

from __future__ import annotations

import json

import pytest

from campaign.cli import main
from campaign.config import load_rules


def _run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    done = capsys.readouterr()
    return (0 if exc.value.code is None else int(exc.value.code)), done.out, done.err


@pytest.fixture(scope="module")
def straight():
    """The log of ``campaign run --seed 5`` (format jsonl and text)."""
    import io
    from contextlib import redirect_stdout

    logs = {}
    for fmt in ("text", "jsonl"):
        out = io.StringIO()
        with redirect_stdout(out), pytest.raises(SystemExit):
            main(["run", "--seed", "5", "--format", fmt])
        logs[fmt] = out.getvalue()
    return logs


def test_run_until_save_then_resume_gives_the_straight_log(capsys, tmp_path, straight):
    save = tmp_path / "s.yaml"
    code, out, err = _run(
        capsys, "run", "--seed", "5", "--until", "day 2 06:00", "--save", str(save)
    )
    assert code == 0, err
    assert "campaign resume" in err and save.is_file()
    assert out and straight["text"].startswith(out.split("\n== Day 2")[0][:200])
    code, out, err = _run(capsys, "resume", str(save))
    assert code == 0, err
    assert out == straight["text"]


def test_resume_until_save_next_and_on(capsys, tmp_path, straight):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert (
        _run(capsys, "run", "--seed", "5", "--until", "day 1 12:00", "--save", str(first))[0] == 0
    )
    code, _, err = _run(
        capsys, "resume", str(first), "--until", "day 2 09:30", "--save", str(second)
    )
    assert code == 0, err
    assert json.loads(second.read_text())["stop"]["at"] == "Day 2 09:30"
    code, out, err = _run(capsys, "resume", str(second), "--format", "jsonl")
    assert code == 0, err
    assert out == straight["jsonl"]


def test_fork_with_no_change_and_with_a_rule(capsys, tmp_path, straight):
    save, same, other = tmp_path / "s.json", tmp_path / "same.json", tmp_path / "other.json"
    assert _run(capsys, "run", "--seed", "5", "--until", "day 2 18:00", "--save", str(save))[0] == 0
    code, _, err = _run(capsys, "fork", str(save), "--at", "day 1 12:00", "--save", str(same))
    assert code == 0, err
    assert _run(capsys, "resume", str(same))[1] == straight["text"]
    code, _, err = _run(
        capsys,
        "fork",
        str(save),
        "--at",
        "day 1 12:00",
        "--save",
        str(other),
        "--set",
        "campaign.rough_road_pass=30",
        "--red-doctrine",
        "aggressive",
    )
    assert code == 0, err
    data = json.loads(other.read_text())
    fork = data["inputs"]["forks"][0]
    assert fork["rules"]["overrides"] == {"campaign.rough_road_pass": 30}
    assert fork["doctrines"]["red"] == "aggressive" and fork["future_seed"] is None
    out = _run(capsys, "resume", str(other))[1]
    assert out != straight["text"]
    # the past before the fork minute is the same, event for event (the text log folds a
    # day's rough-road tries into one line, so its morning may tell of the afternoon's tries)
    events = _run(capsys, "resume", str(other), "--format", "jsonl")[1].splitlines()
    assert events != straight["jsonl"].splitlines()

    def before(lines: list[str]) -> list[str]:
        return [line for line in lines if json.loads(line)["t"] < fork["minute"]]

    assert before(events) == before(straight["jsonl"].splitlines())
    assert len(before(events)) > 10


BAD = [
    ("not json or yaml", "{: [", "neither JSON nor YAML"),
    ("a state, not a save", '{"format": "campaign-state", "version": 1}', "format"),
    ("a later version", '{"format": "campaign-save", "version": 9}', "version"),
]


@pytest.mark.parametrize(("name", "text", "word"), BAD, ids=[b[0] for b in BAD])
def test_bad_saves_exit_2_and_write_nothing(capsys, tmp_path, name, text, word):
    bad, nxt = tmp_path / "bad.json", tmp_path / "next.json"
    bad.write_text(text)
    for args in (["resume", str(bad), "--save", str(nxt)], ["fork", str(bad), "--save", str(nxt)]):
        code, _, err = _run(capsys, *args)
        assert code == 2, err
        assert word in err and "Traceback" not in err
        assert bad.read_text() == text and not nxt.exists()


def test_an_edited_save_is_refused_and_left_as_it_was(capsys, tmp_path):
    save, nxt = tmp_path / "s.json", tmp_path / "n.json"
    assert _run(capsys, "run", "--seed", "3", "--until", "day 1 18:00", "--save", str(save))[0] == 0
    data = json.loads(save.read_text())
    data["state"]["divisions"][1]["units"][0]["hits"] += 2
    text = json.dumps(data)
    save.write_text(text)
    code, out, err = _run(capsys, "resume", str(save), "--save", str(nxt))
    assert code == 2 and "state.divisions[" in err and "edited" in err
    assert not out and save.read_text() == text and not nxt.exists()


@pytest.mark.parametrize(
    ("until", "word"),
    [
        ("day 0 10:00", "day 1.."),
        ("battle:0", "out of range"),
        ("tuesday", "cannot read"),
        ("day 1 06:00", "first minute"),
    ],
)
def test_bad_until_is_refused(capsys, tmp_path, until, word):
    save = tmp_path / "s.json"
    code, _, err = _run(capsys, "run", "--seed", "3", "--until", until, "--save", str(save))
    assert code == 2 and word in err and "--until" in err
    assert not save.exists()


def test_resume_until_before_the_stop_is_refused(capsys, tmp_path):
    save = tmp_path / "s.json"
    assert _run(capsys, "run", "--seed", "3", "--until", "day 1 18:00", "--save", str(save))[0] == 0
    code, _, err = _run(capsys, "resume", str(save), "--until", "day 1 10:00")
    assert code == 2 and "campaign fork" in err


def test_batch_from_a_save_plays_every_cell_from_the_same_past(capsys, tmp_path):
    import duckdb

    save, spec, out = tmp_path / "s.json", tmp_path / "spec.yaml", tmp_path / "r.duckdb"
    assert (
        _run(capsys, "run", "--seed", "42", "--until", "day 2 06:00", "--save", str(save))[0] == 0
    )
    spec.write_text("set:\n  campaign.rough_road_pass: [70, 40]\nruns: 4\nseed: 1\n")
    code, _, err = _run(
        capsys, "batch", "run", str(spec), "--from", str(save), "-o", str(out), "--workers", "0"
    )
    assert code == 0, err
    with duckdb.connect(str(out), read_only=True) as db:
        rows = db.execute(
            "select cell, run, seed, end_minutes from runs order by cell, run"
        ).fetchall()
    assert len(rows) == 8
    assert [r[2] for r in rows[:4]] == [r[2] for r in rows[4:]]  # run i: the same dice
    assert all(r[3] >= 1440 for r in rows)  # every future begins at the save's stop point
    # a spec naming another map is refused before anything runs
    spec.write_text("maps: [waterloo-1815]\nruns: 2\n")
    code, _, err = _run(capsys, "batch", "run", str(spec), "--from", str(save), "-o", str(out))
    assert code == 2 and "the save's map" in err


# ---------------------------------------------------------------------------- the table
def _table_stop(capsys, tmp_path, seed="5"):
    save = tmp_path / "t.yaml"
    code, out, err = _run(capsys, "run", "--seed", seed, "--tabletop", "all", "--save", str(save))
    assert code == 0, err
    return save, out, err


def test_tabletop_all_stops_before_battle_1_with_its_papers(capsys, tmp_path):
    save, out, err = _table_stop(capsys, tmp_path)
    data = json.loads(save.read_text())
    assert data["stop"]["battle"] == 1 and data["stop"]["tabletop"] == "all"
    html, sheet = tmp_path / "t-battle1.html", tmp_path / "t-battle1.yaml"
    assert "<html" in html.read_text().lower() and "winner:" in sheet.read_text()
    assert f"campaign resume {save} --result {sheet}" in err
    assert "Battle" not in out.split("\n")[-2]  # the log stops before the battle's record


def test_resume_with_a_result_goes_on_to_the_next_table_battle(capsys, tmp_path):
    save, _, _ = _table_stop(capsys, tmp_path)
    quick = "winner=blue,red_losses=30%,blue_losses=10%"
    code, out, err = _run(capsys, "resume", str(save), "--result", quick)
    assert code == 0, err
    data = json.loads(save.read_text())  # the save moved on, keeping battle 1's result
    assert data["stop"]["battle"] == 2
    assert [r["battle"] for r in data["inputs"]["table_results"]] == [1]
    assert data["inputs"]["table_results"][0]["winner"] == "blue"
    assert (tmp_path / "t-battle2.html").is_file()
    # to the end without the table: the result of battle 1 stays in the campaign
    code, out, err = _run(capsys, "resume", str(save), "--tabletop", "off")
    assert code == 0 and "the campaign is over" in err and "End:" in out


BAD_RESULTS = [
    ("winner=green,red_losses=20%,blue_losses=45%", "winner"),
    ("winner=red,red_losses=120%,blue_losses=45%", "red_losses"),
    ("winner=red,red_losses=20%", "blue_losses"),
    ("nonsense", "result"),
]


@pytest.mark.parametrize(("quick", "word"), BAD_RESULTS)
def test_a_bad_result_is_refused_and_the_save_kept(capsys, tmp_path, quick, word):
    save, _, _ = _table_stop(capsys, tmp_path)
    before = save.read_text()
    code, out, err = _run(capsys, "resume", str(save), "--result", quick)
    assert code == 2 and word in err and "Traceback" not in err
    assert not out and save.read_text() == before
    assert not (tmp_path / "t-battle2.html").exists()


def test_a_bad_result_sheet_is_refused_and_the_save_kept(capsys, tmp_path):
    import yaml

    save, _, _ = _table_stop(capsys, tmp_path)
    before = save.read_text()
    sheet = tmp_path / "t-battle1.yaml"
    data = yaml.safe_load(sheet.read_text())
    unit = next(iter(data["units"]))
    data["units"][unit]["hits"] = 11
    sheet.write_text(yaml.safe_dump(data))
    code, _, err = _run(capsys, "resume", str(save), "--result", str(sheet))
    assert code == 2 and f"units.{unit}" in err
    assert save.read_text() == before


def test_tabletop_refusals(capsys, tmp_path):
    save = tmp_path / "s.yaml"
    code, _, err = _run(capsys, "run", "--seed", "5", "--tabletop", "ask", "--save", str(save))
    assert code == 2 and "terminal" in err and not save.exists()
    code, _, err = _run(capsys, "run", "--seed", "5", "--tabletop", "all")
    assert code == 2 and "--save" in err
    code, _, err = _run(
        capsys,
        "run",
        "--seed",
        "5",
        "--tabletop",
        "all",
        "--until",
        "day 2 06:00",
        "--save",
        str(save),
    )
    assert code == 2 and "--until" in err and not save.exists()
    code, _, err = _run(capsys, "run", "--seed", "5", "--tabletop", "some", "--save", str(save))
    assert code == 2 and "--tabletop" in err and not save.exists()
    assert _run(capsys, "run", "--seed", "5", "--until", "day 1 09:00", "--save", str(save))[0] == 0
    code, _, err = _run(capsys, "resume", str(save), "--result", "winner=red")
    assert code == 2 and "not before a battle" in err


def test_until_a_battle_then_resume_gives_the_straight_log(capsys, tmp_path, straight):
    save = tmp_path / "b.json"
    code, out, err = _run(capsys, "run", "--seed", "5", "--until", "battle:3", "--save", str(save))
    assert code == 0, err
    assert json.loads(save.read_text())["stop"] == {
        "at": "before battle 3",
        "minute": None,
        "battle": 3,
        "tabletop": None,
    }
    code, out, err = _run(capsys, "resume", str(save))
    assert code == 0 and "the engine fights battle 3" in err
    assert out == straight["text"]


def test_a_fork_drops_the_results_of_battles_after_it(capsys, tmp_path):
    save, _, _ = _table_stop(capsys, tmp_path, seed="42")
    for _ in range(2):  # results for battles 1 and 2; the save stops before battle 3
        quick = "winner=red,red_losses=10%,blue_losses=30%"
        assert _run(capsys, "resume", str(save), "--result", quick)[0] == 0
    data = json.loads(save.read_text())
    assert data["stop"]["battle"] == 3
    assert [r["battle"] for r in data["inputs"]["table_results"]] == [1, 2]
    # a minute after dawn of day 1 no battle has begun: both results are the future's
    forked = tmp_path / "f.json"
    code, _, err = _run(capsys, "fork", str(save), "--at", "day 1 06:01", "--save", str(forked))
    assert code == 0, err
    assert json.loads(forked.read_text())["inputs"]["table_results"] == []
    # at the battle-3 stop's minute both results are the past's and are kept
    minute = data["state"]["time"]
    from campaign.clock import default_clock

    at = default_clock().label(minute).replace("Day", "day")
    code, _, err = _run(capsys, "fork", str(save), "--at", at, "--save", str(forked))
    assert code == 0, err
    kept = json.loads(forked.read_text())["inputs"]["table_results"]
    assert [r["battle"] for r in kept] == [1, 2]


def _block(lines: list[str], header: str) -> tuple[int, int]:
    """Where the battle whose first line starts with ``header`` is in ``lines``: its first
    line and the line after its indented block."""
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    end = start + 1
    while end < len(lines) and lines[end].startswith("         "):
        end += 1
    return start, end


def test_the_engines_own_result_entered_gives_the_straight_log(capsys, tmp_path, straight):
    """The issue's key check, on the command line: run --tabletop all stops before battle 1;
    its engine result entered as a sheet gives the straight run's log apart from that
    battle's lines saying it was fought on the table."""
    import yaml

    from campaign.events import BattleFought
    from campaign.printers.jsonl import read_jsonl
    from campaign.tabletop.stop import engine_result

    log = tmp_path / "log.jsonl"
    log.write_text(straight["jsonl"])
    first = next(e for e in read_jsonl(log) if isinstance(e, BattleFought))
    save, _, _ = _table_stop(capsys, tmp_path)
    from campaign.cli.save_table import battle_setup
    from campaign.save.format import read_save
    from campaign.save.replay import replay

    result = engine_result(first, battle_setup(replay(read_save(save), "t")))
    sheet = tmp_path / "sheet.yaml"
    sheet.write_text(
        yaml.safe_dump(
            {
                "battle": 1,
                "winner": result.winner or "draw",
                "bounds": result.bounds,
                "units": {u.id: {"hits": u.hits, "status": u.status} for u in result.units},
            }
        )
    )
    code, out, err = _run(capsys, "resume", str(save), "--result", str(sheet), "--tabletop", "off")
    assert code == 0, err
    mine, theirs = out.splitlines(), straight["text"].splitlines()
    header = next(line for line in theirs if " Battle at " in line)
    a, b = _block(mine, header)
    c, d = _block(theirs, header)
    assert mine[:a] == theirs[:c] and mine[b:] == theirs[d:]
    assert any("Fought on the table" in line for line in mine[a:b])
    assert mine[a : a + 2] == theirs[c : c + 2]  # the battle's header and its odds line


def test_a_save_of_the_ended_campaign_resumes_to_the_same_log(capsys, tmp_path, straight):
    save, again = tmp_path / "end.json", tmp_path / "again.json"
    code, out, err = _run(capsys, "run", "--seed", "5", "--save", str(save))
    assert code == 0 and "the campaign is over" in err and out == straight["text"]
    assert json.loads(save.read_text())["state"]["over"] is True
    code, out, err = _run(capsys, "resume", str(save), "--save", str(again))
    assert code == 0, err
    assert out == straight["text"]
    assert json.loads(again.read_text())["state"] == json.loads(save.read_text())["state"]


def test_a_forked_campaigns_log_gives_each_battle_the_odds_of_its_own_rules(capsys, tmp_path):
    # seed 42 fights on day 1; forked at day 2 06:00 under another variant, the log of the
    # resumed campaign must still quote the day-1 battles' odds under the rules they were
    # fought under (found by a new user's trial: 72% where the unforked log says 71%)
    save, forked = tmp_path / "d2.yaml", tmp_path / "f.yaml"
    code, _, err = _run(
        capsys, "run", "--seed", "42", "--until", "day 2 06:00", "--save", str(save)
    )
    assert code == 0, err
    code, _, err = _run(capsys, "fork", str(save), "--save", str(forked), "--variant", "pursuit")
    assert code == 0, err
    whole = _run(capsys, "run", "--seed", "42")[1]
    resumed = _run(capsys, "resume", str(forked))[1]

    def day_one_odds(log: str) -> list[str]:
        day_one = log.split("\n== Day 2", maxsplit=1)[0]
        return [line for line in day_one.splitlines() if "Before the battle" in line]

    assert len(day_one_odds(whole)) >= 2
    assert day_one_odds(resumed) == day_one_odds(whole)
    # the log says where it forked, first thing in its minute (before the reinforcements)
    day_two = resumed.split("\n== Day 2 ==\n", maxsplit=1)[1].splitlines()
    fork_line = next(k for k, line in enumerate(day_two) if "forks here" in line)
    assert day_two[fork_line] == (
        "06:00  The campaign forks here (campaign fork): from now on rules pursuit, "
        "Red balanced, Blue balanced, the same dice"
    )
    assert all(not line.startswith("06:00") for line in day_two[:fork_line])
    assert "forks here" not in whole

    # its event stream carries the fork: a diary made from it gives each battle the odds of
    # the rules it was fought under
    from campaign.events import BattleFought, Forked
    from campaign.printers.jsonl import read_jsonl
    from campaign.printers.odds import OddsBook, RulesOverTime, odds_of_stream

    stream_file = tmp_path / "f.jsonl"
    stream_file.write_text(_run(capsys, "resume", str(forked), "--format", "jsonl")[1])
    stream = read_jsonl(stream_file)
    forks = [e for e in stream if isinstance(e, Forked)]
    assert [(f.t, f.rules, f.reseeded) for f in forks] == [(1440, "pursuit", False)]
    odds = odds_of_stream(stream)
    assert isinstance(odds, RulesOverTime)
    battles = [e for e in stream if isinstance(e, BattleFought)]
    before = [b for b in battles if b.t < 1440]
    after = [b for b in battles if b.t >= 1440]
    assert before and after
    whole_odds = odds_of_stream(
        read_jsonl_text(tmp_path, _run(capsys, "run", "--seed", "42", "--format", "jsonl")[1])
    )
    assert isinstance(whole_odds, OddsBook)
    assert [odds(b) for b in before] == [whole_odds(b) for b in before]
    pursuit = OddsBook(load_rules(["pursuit"]).rules, 42)
    assert [odds(b) for b in after] == [pursuit(b) for b in after]


def test_rules_over_time_picks_the_book_of_the_battles_start() -> None:
    from campaign.printers.odds import Odds, RulesOverTime

    def book(name: str):
        return lambda b: Odds(1, {"red": 1, "blue": 0}, 0) if name == "a" else None

    class Battle:
        def __init__(self, t: int) -> None:
            self.t = t

    over = RulesOverTime([(0.0, book("a")), (1800.0, book("b"))])
    assert over(Battle(1799)) is not None
    assert over(Battle(1800)) is None  # begun at the fork's minute: the fork's rules
    with pytest.raises(ValueError, match="start at minute 0"):
        RulesOverTime([(60.0, book("a"))])
    with pytest.raises(ValueError, match="ascend"):
        RulesOverTime([(0.0, book("a")), (90.0, book("b")), (30.0, book("a"))])


def read_jsonl_text(folder, text: str):
    """The events of JSON lines ``text`` (written to a file in ``folder`` and read back)."""
    from campaign.printers.jsonl import read_jsonl

    path = folder / "whole.jsonl"
    path.write_text(text)
    return read_jsonl(path)
