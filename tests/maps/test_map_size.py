"""A map too big to play is refused as soon as its junctions and roads are counted, before it
is validated or built, and the fix suggests ``--contract`` only where it would be accepted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campaign.cli import main
from campaign.errors import MapError
from campaign.maps import MapOptions, load_map, loader, schema
from campaign.maps.yaml_io import count_list_items


def _chain_text(n: int, broken: bool = False) -> str:
    """A chain of ``n`` junctions as YAML text, written fast (no YAML dumper)."""
    lines = ["name: chain", "junctions:"]
    lines += [f"- {{id: j{i}, pos: [{i}, 0]}}" for i in range(n)]
    lines.append("roads:")
    lines += [f"- [j{i}, j{i + 1}]" for i in range(n - 1)]
    if broken:  # a mistake that validation would report, were the map read that far
        lines.append("- [j0, nowhere]")
    return "\n".join(lines) + "\n"


@pytest.fixture
def small_limits(monkeypatch):
    """Bounds lowered so that the maps of these tests stay small and quick."""
    monkeypatch.setattr(loader, "MAX_JUNCTIONS", 40)
    monkeypatch.setattr(loader, "MAX_JUNCTIONS_TO_CONTRACT", 100)
    monkeypatch.setattr(loader, "MAX_ROADS", 60)
    monkeypatch.setattr(loader, "MAX_ROADS_TO_CONTRACT", 150)


def test_counting_reads_only_the_top_level_lists():
    text = (
        "name: x\njunctions: [{id: a, pos: [1, 2]}, {id: b, tags: [p, q, r]}]\n"
        "roads:\n- [a, b]\n- [b, a]\n- [a, b, {hours: 3}]\n"
        "sides: {red: {start: [a, b, a, b]}}\n"
    )
    assert count_list_items(text, ("junctions", "roads"), 10) == {"junctions": 2, "roads": 3}
    assert count_list_items("- a\n- b\n", ("junctions",), 10) == {}  # not a mapping
    assert count_list_items(_chain_text(50), ("junctions",), 20) == {"junctions": 21}  # capped


def test_the_real_bound_refuses_1001_junctions_before_validation(tmp_path, monkeypatch):
    path = tmp_path / "chain.yaml"
    path.write_text(_chain_text(1_001, broken=True), encoding="utf-8")

    def never(*_args: object) -> None:
        raise AssertionError("the map was validated before its size was checked")

    monkeypatch.setattr(schema, "parse_map_document", never)
    with pytest.raises(MapError) as info:
        load_map(path)
    assert info.value.message == (
        f"{path}: junctions: 1,001 junctions, more than the 1,000 a campaign map may have. "
        "Merge the chains of plain junctions with --contract (it reads maps of up to 50,000 "
        "junctions and 150,000 roads; every command that reads a map has it), or draw the "
        "map with fewer junctions."
    )


def test_contract_is_not_suggested_where_it_would_refuse(tmp_path, small_limits):
    path = tmp_path / "chain.yaml"
    path.write_text(_chain_text(101), encoding="utf-8")
    with pytest.raises(MapError) as info:
        load_map(path)
    message = info.value.message
    assert "101 junctions, more than the 40 a campaign map may have" in message
    assert "Merge the chains" not in message
    assert "--contract reads at most 100 junctions and 150 roads, so it cannot help" in message
    with pytest.raises(MapError) as info:
        load_map(path, MapOptions(contract=True))
    assert info.value.message == (
        f"{path}: junctions: 101 junctions, more than the 100 a map may have for --contract "
        "to merge. Draw the map with fewer junctions, or cut it to the theatre that matters."
    )


def test_too_many_roads_are_refused_by_their_count(tmp_path, small_limits):
    path = tmp_path / "dense.yaml"
    lines = ["junctions:"] + [f"- {{id: j{i}}}" for i in range(30)] + ["roads:"]
    lines += [f"- [j{i}, j{k}]" for i in range(30) for k in range(i + 1, 30)][:61]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(MapError) as info:
        load_map(path)
    assert info.value.key == "roads"
    assert "61 roads, more than the 60 a campaign map may have" in info.value.message
    assert "--contract" in info.value.message  # 61 roads are within what --contract reads


def test_a_node_link_json_map_is_counted_before_it_is_built(tmp_path, small_limits):
    nodes = [{"id": f"n{i}"} for i in range(41)]
    edges = [{"source": f"n{i}", "target": f"n{i + 1}"} for i in range(40)]
    path = tmp_path / "net.json"
    path.write_text(json.dumps({"nodes": nodes, "edges": edges}), encoding="utf-8")
    with pytest.raises(MapError) as info:
        load_map(path)
    assert info.value.message.startswith(
        f"{path}: junctions: 41 junctions, more than the 40 a campaign map may have. Merge"
    )


def test_map_info_with_contract_shows_a_map_too_big_without_it(capsys, tmp_path, small_limits):
    path = tmp_path / "chain.yaml"
    path.write_text(_chain_text(60), encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["map", "info", str(path)])
    assert exc.value.code == 2
    assert "Merge the chains of plain junctions with --contract" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["map", "info", str(path), "--contract"])
    out, err = capsys.readouterr()
    assert exc.value.code in (0, None), err
    assert "60 junctions, 59 roads →" in " ".join(out.split())


def test_aliases_cannot_hide_junctions_from_the_bound(tmp_path, small_limits):
    # the count before reading sees one alias; the count after reading sees every junction
    body = "junctions: &all\n" + "".join(f"- {{id: j{i}}}\n" for i in range(41))
    path: Path = tmp_path / "alias.yaml"
    path.write_text("base: " + body.replace("junctions: ", "", 1) + "junctions: *all\n")
    with pytest.raises(MapError, match="41 junctions, more than the 40"):
        load_map(path)


def test_a_map_at_the_real_bound_loads(tmp_path):
    path = tmp_path / "chain.yaml"
    path.write_text(_chain_text(1_000), encoding="utf-8")
    assert load_map(path).graph.number_of_nodes() == 1_000


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "MAP", "--seed", "1"],
        ["map", "info", "MAP"],
        ["map", "convert", "MAP", "-o", "OUT"],
    ],
)
def test_the_cli_refuses_a_map_past_the_bound_with_exit_2(tmp_path, capsys, argv):
    path = tmp_path / "chain.yaml"
    path.write_text(_chain_text(1_001), encoding="utf-8")
    out = str(tmp_path / "out.yaml")
    argv = [str(path) if a == "MAP" else out if a == "OUT" else a for a in argv]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert "Traceback" not in err
    assert f"error: {path}: junctions: 1,001 junctions, more than the 1,000" in err
    assert "--contract" in err
    assert not (tmp_path / "out.yaml").exists()
