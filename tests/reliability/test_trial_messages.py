"""What a new user's trial of the command line found: errors that listed too few choices,
named a flag twice or leaked a metavar, help that said too little, and input taken silently.
Each refusal is one ``error:`` line naming the flag or file, exit code 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import one_error_line, run_cli


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """``campaign ARGV --help``, its words joined by single spaces (as wrapped on no width)."""
    code, out, _ = run_cli([*argv, "--help"], capsys)
    assert code == 0
    return " ".join(out.split())


@pytest.fixture(scope="module")
def day2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A save of ``campaign run --seed 42 --until "day 2 06:00"``."""
    from campaign.cli import main

    save = tmp_path_factory.mktemp("save") / "day2.yaml"
    with pytest.raises(SystemExit) as exc:
        main(["run", "--seed", "42", "--until", "day 2 06:00", "--save", str(save)])
    assert not exc.value.code
    return save


# ---------------------------------------------------------------- 1. --tabletop's choices


@pytest.mark.parametrize("policy", ["sometimes", "off"])
def test_run_tabletop_lists_exactly_runs_policies(
    policy: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "s.yaml"
    code, _, err = run_cli(
        ["run", "--seed", "1", "--tabletop", policy, "--save", str(save)], capsys
    )
    line = one_error_line(err)
    assert code == 2 and not save.exists()
    assert (
        f"--tabletop: expected all, units>=N, at=JUNCTION[,JUNCTION] or ask (found '{policy}')"
        in line
    )
    helped = _help(["run"], capsys)
    assert "all, 'units>=N', at=JUNCTION[,JUNCTION] or ask (asks at each battle" in helped


def test_resume_tabletop_lists_off_too(day2: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["resume", str(day2), "--tabletop", "sometimes"], capsys)
    line = one_error_line(err)
    assert code == 2
    assert "expected all, units>=N, at=JUNCTION[,JUNCTION], ask or off (found 'sometimes')" in line
    helped = _help(["resume"], capsys)
    assert "at=JUNCTION[,JUNCTION], ask (asks at each battle, on a terminal) or off" in helped


# ---------------------------------------------------------------- 2. each prefix once


@pytest.mark.parametrize(
    ("argv", "start"),
    [
        (["run", "--seed", "1", "--tabletop", "all"], "error: --tabletop: stops before a battle"),
        (["battle", "--battle", "2"], "error: --battle: names a battle of a logged campaign"),
        (["resume", "nosuch.yaml"], "error: nosuch.yaml: cannot read the save"),
        (["fork", "nosuch.yaml", "--save", "new.yaml"], "error: nosuch.yaml: cannot read the save"),
    ],
)
def test_errors_name_the_flag_or_file_once(
    argv: list[str],
    start: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(argv, capsys)
    line = one_error_line(err)
    assert code == 2 and line.startswith(start), line
    named = start.split()[1].rstrip(":")
    assert f"{named}: {named}" not in line and "FILE:" not in line


def test_batch_from_a_save_refuses_map_naming_the_flag(
    day2: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.duckdb"
    argv = ["batch", "run", "--from", str(day2), "--map", "waterloo-1815", "-o", str(out)]
    code, _, err = run_cli([*argv, "--workers", "0"], capsys)
    line = one_error_line(err)
    assert code == 2 and not out.exists()
    assert line.startswith("error: --map: a batch --from a save plays the save's map")
    assert "Leave --map out with --from" in line and "flags" not in line and "spec" not in line


# ---------------------------------------------------------------- 3. help


def test_fork_says_required_once(capsys: pytest.CaptureFixture[str]) -> None:
    helped = _help(["fork"], capsys)
    assert "--save NEW The new save. [required]" in helped


def test_battle_help_shows_battle_keys_and_tactical_doctrines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from campaign.cli.battle_cmd import TACTICAL_DOCTRINES
    from campaign.cli.common import STRATEGY_DOCTRINES
    from campaign.config import load_rules

    rules = load_rules().rules
    assert set(TACTICAL_DOCTRINES) == set(rules.battle.doctrines)  # the help's names are the rules'
    assert set(STRATEGY_DOCTRINES) == set(rules.campaign.doctrines)
    helped = _help(["battle"], capsys)
    assert "e.g. battle.hit_dice=3d10" in helped and "campaign." not in helped
    for side in ("Red", "Blue"):
        assert f"{side}'s tactical doctrine: steady, bold (§6.7)" in helped


def test_batch_run_help_gives_a_sweep_the_doctrines_and_the_results_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    helped = _help(["batch", "run"], capsys)
    assert "'campaign.rough_road_pass=[40,70]'" in helped
    assert "strategy doctrines (aggressive, cautious, balanced, raider" in helped
    assert "[default: the spec's output:, else results.duckdb]" in helped


def test_resume_help_lists_runs_formats(capsys: pytest.CaptureFixture[str]) -> None:
    from campaign.printers.registry import FORMATS

    formats = "--format " + "|".join(FORMATS)
    assert formats in _help(["run"], capsys) and formats in _help(["resume"], capsys)


# ---------------------------------------------------------------- 4. input taken silently


def test_tournament_joins_repeated_doctrines(capsys: pytest.CaptureFixture[str]) -> None:
    # joined: the second list's cautious repeats the first's (before, only the last counted)
    argv = ["tournament", "--doctrines", "aggressive,cautious", "--doctrines", "cautious"]
    code, _, err = run_cli(argv, capsys)
    assert code == 2 and "--doctrines: a doctrine is named twice" in one_error_line(err)
    # two lists of one doctrine each make a field of two (refused next for --runs 0 only)
    argv = ["tournament", "--doctrines", "aggressive", "--doctrines", "cautious", "--runs", "0"]
    code, _, err = run_cli([*argv, "--workers", "0"], capsys)
    assert code == 2 and one_error_line(err).startswith("error: --runs:")
    assert "given again, the lists are joined" in _help(["tournament"], capsys)


@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--doctrines", "aggressive,,cautious"),
        ("--doctrines", "aggressive,"),
        ("--maps", ",default"),
    ],
)
def test_tournament_refuses_an_empty_name(
    flag: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tournament", "--doctrines", "aggressive,cautious", flag, value]
    code, _, err = run_cli(argv, capsys)
    line = one_error_line(err)
    assert code == 2 and line.startswith(f"error: {flag}: an empty name in {value!r}")


def test_battle_refuses_a_campaign_key(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["battle", "--set", "campaign.rough_road_pass=60"], capsys)
    line = one_error_line(err)
    assert code == 2
    assert line.startswith("error: --set: 'campaign.rough_road_pass' is not a battle rule")
    assert "battle.hit_dice=3d10" in line


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--seed", "1"],
        ["battle", "--seed", "1"],
        ["batch", "run", "--runs", "2", "--workers", "0"],
    ],
)
def test_a_set_key_given_twice_with_two_values_is_refused(argv, tmp_path, capsys) -> None:
    key = "battle.max_turns"
    if argv[0] == "batch":
        argv = [*argv, "-o", str(tmp_path / "r.duckdb")]
    code, _, err = run_cli([*argv, "--set", f"{key}=20", "--set", f"{key}=30"], capsys)
    assert code == 2 and "Traceback" not in err
    line = one_error_line(err)
    assert line.startswith(f"error: --set: {key} is given twice"), line
    assert not (tmp_path / "r.duckdb").exists()
    # the same value twice is no question: it is taken
    if argv[0] != "batch":
        code, _, err = run_cli([*argv, "--set", f"{key}=20", "--set", f"{key}=20"], capsys)
        assert code == 0, err
