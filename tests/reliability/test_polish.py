"""Loose ends a fresh user found: folders, stream maps, plain wording, plural side names."""

from __future__ import annotations

from pathlib import Path

import pytest

from battle.errors import ForceError
from battle.forces import load_forces_yaml

from .conftest import LINE_MAP, one_error_line, run_cli


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["run", "--seed", "1", "-o", "{out}"], "--output"),
        (["battle", "--seed", "1", "--events", "{out}"], "--events"),
        (["batch", "run", "--runs", "2", "--workers", "1", "-o", "{out}"], None),
    ],
)
def test_a_missing_output_folder_is_named_with_the_command_that_makes_it(
    argv: list[str], flag: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "not-made" / "out.file"
    code, _, err = run_cli([a.replace("{out}", str(out)) for a in argv], capsys)
    line = one_error_line(err)
    assert code == 2
    if flag == "--events":  # its own wording: the folder must exist
        assert "directory that exists" in line
    else:
        assert "does not exist" in line and f"mkdir -p {out.parent}" in line
    assert not out.parent.exists(), "nothing is created by a refused command"


def test_a_stream_names_its_map_relative_to_where_it_was_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`report` finds a relative map beside the stream when run from another folder."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "line.yaml").write_text(LINE_MAP, encoding="utf-8")
    monkeypatch.chdir(work)
    code, _, _ = run_cli(
        ["run", "line.yaml", "--seed", "3", "--format", "jsonl", "-o", "s.jsonl"], capsys
    )
    assert code == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, _, err = run_cli(["report", str(work / "s.jsonl"), "-o", "diary.md"], capsys)
    assert code == 0, err
    assert (elsewhere / "diary.md").read_text(encoding="utf-8").startswith("#")


def test_a_start_on_the_enemy_base_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["run", "--seed", "1", "--red-start", "steinbruck"], capsys)
    line = one_error_line(err)
    assert code == 2 and "--red-start" in line and "enemy's base" in line


def test_pydantic_wording_is_never_shown(tmp_path: Path) -> None:
    path = tmp_path / "forces.yaml"
    path.write_text(
        "red: {name: Red, units: 2i, extra: 1}\nblue: {name: Blue, units: [{type: infantry, "
        "count: lots}]}\n",
        encoding="utf-8",
    )
    with pytest.raises(ForceError) as info:
        load_forces_yaml(path)
    text = str(info.value)
    assert "Input should" not in text and "Extra inputs" not in text
    assert "unknown key" in text and "expected a whole number" in text


def test_plural_side_names_agree_with_their_verbs(capsys: pytest.CaptureFixture[str]) -> None:
    """Waterloo's 'Allies' read 'Allies were down to their last card', never 'Allies was'."""
    texts = []
    for seed in range(1, 7):
        code, out, _ = run_cli(["run", "waterloo-1815", "--seed", str(seed)], capsys)
        assert code == 0
        texts.append(out)
    text = "\n".join(texts)
    assert "Allies was" not in text and "Allies withdraws" not in text
    assert "Allies fights" not in text and "Allies won a fight it wins" not in text
    assert "Allies were down to their last" in text or "Allies won a fight they win" in text


def test_a_batch_from_flags_only_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.duckdb"
    code, stdout, err = run_cli(
        ["batch", "run", "--runs", "2", "--workers", "1", "-o", str(out)], capsys
    )
    assert code == 0, err
    assert "no spec file given" in stdout + err and "maps: default" in stdout + err


def test_waterloo_plural_phrases(capsys: pytest.CaptureFixture[str]) -> None:
    """'Allies raise', 'Allied scouts see' (the map's adjective, issue 29), '(1 hour's
    march)': never 'Allies raises'."""
    code, out, _ = run_cli(["run", "waterloo-1815", "--seed", "5"], capsys)
    assert code == 0
    assert "Allies raises" not in out and "Allies scouts" not in out and "hour' march" not in out
    assert "Allies raise division" in out and "Allied scouts see" in out
    assert "French scouts see" in out
