"""Bad maps give one clear MapError naming the file and key path; the CLI exits 2."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest

from campaign.errors import MapError
from campaign.maps import MapOptions, load_map

CAMPAIGN = Path(sys.executable).parent / "campaign"

GOOD = {
    "name": "good",
    "junctions": [
        {"id": "a", "name": "A", "pos": [0, 0]},
        {"id": "b", "name": "B", "pos": [1, 0]},
        {"id": "c", "name": "C", "pos": [2, 0]},
        {"id": "d", "name": "D", "pos": [3, 0]},
    ],
    "roads": [["a", "b", {"hours": 3}], ["b", "c"], ["c", "d", {"kind": "rough"}]],
    "sides": {
        "red": {"name": "R", "base": "a", "start": ["a", "b"]},
        "blue": {"name": "B", "base": "d", "start": ["d"]},
    },
}


def _edit(change) -> dict:
    doc = copy.deepcopy(GOOD)
    change(doc)
    return doc


BAD = {
    "unknown junction in a road": (
        lambda d: d["roads"].append(["a", "foo"]),
        "roads[3]: unknown junction 'foo'",
    ),
    "duplicate id": (
        lambda d: d["junctions"].append({"id": "b", "pos": [5, 5]}),
        "junctions[4].id: duplicate junction id 'b'",
    ),
    "self-loop": (lambda d: d["roads"].append(["c", "c"]), "roads[3]: a road from 'c' to itself"),
    "second road between the same junctions": (
        lambda d: d["roads"].append(["b", "a"]),
        "roads[3]: a second road between",
    ),
    "missing base": (lambda d: d["sides"]["red"].pop("base"), "sides.red.base: missing"),
    "unknown base": (
        lambda d: d["sides"]["blue"].update(base="zz"),
        "sides.blue.base: unknown junction 'zz'",
    ),
    "unknown start": (
        lambda d: d["sides"]["blue"].update(start=["d", "q"]),
        "sides.blue.start[1]: unknown junction 'q'",
    ),
    "zero hours": (lambda d: d["roads"][0][2].update(hours=0), "roads[0].hours"),
    "negative hours": (lambda d: d["roads"][0][2].update(hours=-2), "roads[0].hours"),
    "a side with no start": (
        lambda d: d["sides"]["red"].update(start=[]),
        "sides.red.start: give at least one junction (found [])",
    ),
    "unknown side name": (
        lambda d: d["sides"].update(green={"base": "a", "start": ["a"]}),
        "sides: unknown key 'green'",
    ),
    "missing side": (lambda d: d["sides"].pop("blue"), "sides.blue: missing"),
    "typo in a junction key": (
        lambda d: d["junctions"][1].update(objectve=True),
        "junctions[1]: unknown key 'objectve'",
    ),
    "x and y instead of pos": (
        lambda d: d["junctions"][1].update(x=3, y=4),
        "junctions[1]: unknown keys 'x', 'y' (a position is pos: [x, y])",
    ),
    "a hinted key beside a typo": (
        lambda d: d["junctions"][2].update(label="C", colr=1),
        "junctions[2]: unknown keys 'label', 'colr' (a junction's display name is name:; a typo?)",
    ),
    "road with one end": (lambda d: d["roads"].append(["a"]), "roads[3]"),
    "road kind not a string": (lambda d: d["roads"][1].append({"kind": []}), "roads[1].kind"),
    "equal bases": (lambda d: d["sides"]["blue"].update(base="a"), "both sides have the base 'a'"),
    "bases in different parts": (
        lambda d: d.update(roads=[["a", "b"], ["c", "d"]]),
        "different parts of the map",
    ),
    "no roads": (lambda d: d.update(roads=[]), "0 usable road(s)"),
    "one junction": (
        lambda d: d.update(
            junctions=d["junctions"][:1],
            roads=[],
            sides={s: {"base": "a", "start": ["a"]} for s in ("red", "blue")},
        ),
        "1 junction(s)",
    ),
    "primary road that is not a road": (
        lambda d: d["sides"]["red"].update(primary_road=["a", "d"]),
        "sides.red.primary_road: no road between 'a' and 'd'",
    ),
    "start that cannot reach its base": (
        lambda d: (
            d["junctions"].append({"id": "e", "pos": [9, 9]}),
            d["sides"]["red"].update(start=["e"]),
        ),
        "sides.red.start[0]: start 'e' has no road path",
    ),
    # without 'sides' a map reads as a neutral one (extra keys kept as facts): a misspelt
    # 'sides' must not silently turn the key checks off and choose the bases itself
    "sides misspelt": (
        lambda d: d.update(side=d.pop("sides")),
        "side: unknown key 'side' (did you mean 'sides'?)",
    ),
    "reinforcements without sides": (
        lambda d: (d.pop("sides"), d.update(reinforcements=[])),
        "reinforcements: 'reinforcements' needs a 'sides' block",
    ),
    "id written as a float": (
        lambda d: d["junctions"][0].update(id=1.5),
        "junctions[0].id: this reads as a number",
    ),
}


@pytest.mark.parametrize("problem", sorted(BAD))
def test_bad_map_raises_map_error_naming_file_and_key(problem: str, write_map) -> None:
    change, expected = BAD[problem]
    path = write_map(_edit(change))
    with pytest.raises(MapError) as info:
        load_map(path)
    message = info.value.message
    assert expected in message
    assert str(path) in message
    assert "\n" not in message


def test_all_pydantic_problems_are_reported_together(write_map) -> None:
    def change(d):
        d["roads"][0][2].update(hours=-1)
        d["sides"]["red"].pop("base")

    with pytest.raises(MapError) as info:
        load_map(write_map(_edit(change)))
    message = info.value.message
    assert "roads[0].hours" in message and "sides.red.base: missing" in message


def test_missing_file_and_bad_yaml(tmp_path: Path, write_map) -> None:
    with pytest.raises(MapError, match="not found"):
        load_map(tmp_path / "nope.yaml")
    with pytest.raises(MapError, match=r"line \d+, column \d+: not valid YAML"):
        load_map(write_map("junctions: [a, b\n"))
    with pytest.raises(MapError, match="must be a mapping"):
        load_map(write_map("- just\n- a list\n"))
    with pytest.raises(MapError, match="unknown map file type"):
        load_map(write_map("x", name="map.txt"))


def test_bad_options_are_map_errors(write_map) -> None:
    path = write_map(GOOD)
    with pytest.raises(MapError, match="--red-base: unknown junction 'zz'"):
        load_map(path, MapOptions(red_base="zz"))
    with pytest.raises(MapError, match="--road-kind"):
        load_map(path, MapOptions(road_kinds={"rough": "fast"}))
    with pytest.raises(MapError, match="more than the 5 hours"):
        load_map(path, MapOptions(max_march_hours=5))


@pytest.mark.parametrize("command", ["info", "convert"])
def test_cli_exits_2_with_a_message_and_no_traceback(
    command: str, write_map, tmp_path: Path
) -> None:
    path = write_map(_edit(BAD["unknown junction in a road"][0]))
    args = [str(CAMPAIGN), "map", command, str(path)]
    if command == "convert":
        args += ["-o", str(tmp_path / "out.yaml")]
    result = subprocess.run(args, capture_output=True, text=True, check=False, timeout=60)
    assert result.returncode == 2
    assert "roads[3]: unknown junction 'foo'" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_a_road_kind_override_the_map_never_uses_is_refused() -> None:
    from campaign.errors import MapError
    from campaign.maps import MapOptions, load_map

    with pytest.raises(MapError) as err:
        load_map(None, MapOptions(road_kinds={"nosuch": "normal"}))
    text = str(err.value)
    assert "nosuch" in text and "normal, rough" in text and "--road-kind" in text
    assert load_map(None, MapOptions(road_kinds={"ROUGH": "normal"})).graph  # case-blind


def test_no_pair_near_enough_for_bases_names_only_flags_that_exist(write_map, capsys) -> None:
    # the fix once offered "--max-march-hours", which no command has
    import re

    from campaign.cli import main

    doc = {
        "name": "far",
        "junctions": [
            {"id": "a", "name": "A", "pos": [0, 0]},
            {"id": "b", "name": "B", "pos": [1, 0]},
        ],
        "roads": [["a", "b", {"hours": 1e308}]],
    }
    path = write_map(doc)
    with pytest.raises(MapError, match="no junction pair found within") as info:
        load_map(path)
    flags = set(re.findall(r"--[a-z-]+", info.value.message))
    assert flags == {"--red-base", "--blue-base", "--hours-per-length"}
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    helptext = capsys.readouterr().out
    assert all(flag in helptext for flag in flags)


def test_a_map_too_big_to_play_in_reasonable_time_is_refused_before_any_work(
    write_map, monkeypatch
) -> None:
    # a chain of 20,000 junctions ran for minutes; the bound is lowered here to keep it quick
    from campaign.maps import loader

    monkeypatch.setattr(loader, "MAX_JUNCTIONS", 40)
    monkeypatch.setattr(loader, "MAX_JUNCTIONS_TO_CONTRACT", 100)

    def chain(n: int) -> dict:
        junctions = [{"id": f"j{i}", "name": f"J{i}", "pos": [i, 0]} for i in range(n)]
        roads = [[f"j{i}", f"j{i + 1}"] for i in range(n - 1)]
        return {"name": "chain", "junctions": junctions, "roads": roads}

    path = write_map(chain(60))
    with pytest.raises(MapError, match="60 junctions, more than the 40") as info:
        load_map(path)
    assert "--contract" in info.value.message and str(path) in info.value.message
    contracted = load_map(path, MapOptions(contract=True))  # a chain merges into a few
    assert contracted.graph.number_of_nodes() <= 40
    with pytest.raises(MapError, match="101 junctions, more than the 100"):
        load_map(write_map(chain(101)), MapOptions(contract=True))
    assert load_map(write_map(chain(40))).graph.number_of_nodes() == 40
    ring = chain(50)  # each junction joined to the next three: nothing to merge
    ring["roads"] = [[f"j{i}", f"j{(i + k) % 50}"] for i in range(50) for k in (1, 2, 3)]
    with pytest.raises(MapError, match="50 junctions after --contract, more than the 40"):
        load_map(write_map(ring), MapOptions(contract=True))


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "this is a folder, not a map file"),
        (b"", "not an empty file"),
        (b"\xa2\x00\xff\x10binary", "not a text file: the map file is not UTF-8"),
        ("junctions: []\n".encode("utf-16"), "not a text file: the map file is not UTF-8"),
        (b"- a\n- b\n", "not a list"),
    ],
)
def test_files_that_are_not_maps_say_what_they_are(tmp_path: Path, content, words) -> None:
    path = tmp_path / ("folder" if content is None else "map.yaml")
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    with pytest.raises(MapError) as info:
        load_map(path)
    message = info.value.message
    assert words in message and str(path) in message and "codec" not in message
    assert info.value.fix, message
