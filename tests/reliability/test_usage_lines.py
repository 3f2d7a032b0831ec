"""Usage lines read like ordinary command-line usage, and ``map info`` in plain counts.

Typer 0.29 wrote a required argument in braces (``campaign batch report [OPTIONS]
{RESULTS}``) and ``map info``'s as ``{map_file}``; ``map info`` said "road kind normal →
normal: 34" and "prunes 0 dead-end spur junctions", and the ``map`` group offered to
"check" maps with no such command.
"""

from __future__ import annotations

import re

import pytest

from .conftest import PROJECT, run_cli

USAGE = {
    ("run",): "campaign run [OPTIONS] [MAP]",
    ("report",): "campaign report [OPTIONS] EVENTS.jsonl",
    ("sensitivity",): "campaign sensitivity [OPTIONS] SPEC",
    ("map", "info"): "campaign map info [OPTIONS] MAP",
    ("map", "convert"): "campaign map convert [OPTIONS] MAP",
    ("batch", "run"): "campaign batch run [OPTIONS] [SPEC]",
    ("batch", "report"): "campaign batch report [OPTIONS] RESULTS",
    ("batch", "export"): "campaign batch export [OPTIONS] RESULTS",
}


@pytest.mark.parametrize("command", list(USAGE))
def test_usage_lines_have_no_braces(
    command: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli([*command, "--help"], capsys)
    assert code == 0
    first = out.splitlines()[0]
    assert first == f"Usage: {USAGE[command]}"
    assert not re.search(r"[{}]", first)


def test_a_missing_map_is_named_as_the_usage_line_names_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run_cli(["map", "info"], capsys)
    assert code == 2 and "Missing argument 'MAP'" in err and "map_file" not in err


def test_the_map_group_offers_only_its_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["--help"], capsys)
    assert code == 0
    line = next(line for line in out.splitlines() if line.strip().startswith("map "))
    assert "check" not in line and "Inspect and convert campaign maps." in line


def _info(map_name: str, capsys: pytest.CaptureFixture[str]) -> str:
    code, out, err = run_cli(["map", "info", map_name], capsys)
    assert code == 0, err
    return " ".join(out.replace("│", " ").split())  # the table's cells, as one text


def test_map_info_counts_in_plain_words(capsys: pytest.CaptureFixture[str]) -> None:
    waterloo = _info("waterloo-1815", capsys)
    assert "road kind normal: 34" in waterloo and "road kind rough: 10" in waterloo
    assert "→ normal" not in waterloo and " 0 " not in waterloo
    assert (
        "27 junctions, 44 roads → 25 junctions, 42 roads: prunes no dead-end spur, then "
        "merges 2 pass-through junctions (two roads) into longer roads" in waterloo
    )
    default = _info("default", capsys)
    assert "prunes no dead-end spur, then merges no pass-through junction;" in default


def test_a_mapped_road_kind_says_what_it_is_read_as(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = PROJECT.parent / "shared" / "maps" / "waterloo_campaign_1815.yaml"
    if not path.exists():
        pytest.skip(f"{path} is absent (a foreign map read from ../shared/maps)")
    text = _info(str(path), capsys)
    assert re.search(r"road kind road \(as normal\): \d+", text), text
