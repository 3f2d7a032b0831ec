"""Bad input to ``campaign run``: one-paragraph errors naming the flag or file, exit code 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from campaign.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _error(capsys, *args: str) -> str:
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    err = capsys.readouterr().err
    assert exc.value.code == 2, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if not line.startswith("seed ")]
    assert len(lines) == 1 and lines[0].startswith("error: "), err  # one paragraph
    return lines[0]


def test_negative_seed(capsys):
    err = _error(capsys, "run", "--seed", "-1")
    assert "--seed" in err and "negative" in err


def test_output_is_a_directory(capsys, tmp_path):
    err = _error(capsys, "run", "--seed", "1", "--output", str(tmp_path))
    assert "--output" in err and str(tmp_path) in err and "folder" in err


def test_output_in_a_missing_place(capsys, tmp_path):
    target = tmp_path / "no" / "such" / "log.txt"
    err = _error(capsys, "run", "--seed", "1", "--output", str(target))
    assert "--output" in err and str(target) in err


def test_report_in_a_missing_place(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    err = _error(capsys, "run", "--seed", "1", "--report", str(blocker / "diary.html"))
    assert "diary.html" in err


def test_road_kind_fix_shows_a_road_kind_example(capsys):
    err = _error(capsys, "run", "--seed", "1", "--road-kind", "muddy")
    assert "--road-kind river=rough" in err and "hit_dice" not in err


def test_missing_map_lists_the_shipped_maps(capsys):
    err = _error(capsys, "run", "nosuchmap", "--seed", "1")
    assert "nosuchmap: map file not found" in err
    assert "default" in err and "waterloo-1815" in err and "file type" not in err


def test_negative_seed_in_a_fresh_process():
    done = subprocess.run(
        [sys.executable, "-m", "campaign", "run", "--seed", "-1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "--seed" in done.stderr


def test_unknown_base_names_the_closest_ids_and_map_info_lists_every_id(capsys):
    from campaign.paths import DEFAULT_MAP

    err = _error(capsys, "run", "--seed", "1", "--red-base", "Glotz")
    assert err == (
        f"error: {DEFAULT_MAP}: --red-base: unknown junction 'Glotz'. Did you mean 'glotz'? "
        f"Give a junction id of the map (`campaign map info {DEFAULT_MAP}` lists all 23 "
        "junction ids)."
    )
    err = _error(capsys, "run", "--seed", "1", "--blue-start", "nosuch")
    assert "unknown junction 'nosuch'. Give a junction id of the map: altdorf, aubigny," in err
    with pytest.raises(SystemExit) as exc:  # the place the fix points to lists them
        main(["map", "info", str(DEFAULT_MAP)])
    assert exc.value.code in (0, None)
    listed = " ".join(capsys.readouterr().out.split())
    assert "junction ids" in listed
    for ident in ("altdorf", "glotz", "haubourg", "wendelin"):
        assert f" {ident}" in listed


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["run", "--seed", "abc"], "--seed"),
        (["batch", "run", "--workers", "abc"], "--workers"),
        (["battle", "--odds", "abc"], "--odds"),
    ],
)
def test_a_flag_that_is_not_a_whole_number_is_said_plainly(capsys, argv, flag):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2
    command = "campaign " + " ".join(a for a in argv if not a.startswith("-") and a != "abc")
    assert err == (
        f"error: {command}: Invalid value for '{flag}': expected a whole number (found 'abc') "
        f"(see '{command} --help')\n"
    )
