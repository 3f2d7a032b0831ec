"""A graph map's node whose id is blank (white space or a line break only) is refused, as the
project's own format refuses it: `map convert` wrote such ids and its file did not read back
(found by `make fuzz`, issue 32: 39 cases)."""

from __future__ import annotations

import json

import pytest

from campaign.cli import main
from campaign.maps import load_map


def _write(tmp_path, first: str, name_b: str = "b"):
    nodes = [{"id": first}, {"id": "b", "name": name_b}, {"id": "c"}]
    edges = [{"source": first, "target": "b"}, {"source": "b", "target": "c"}]
    path = tmp_path / "net.json"
    path.write_text(json.dumps({"nodes": nodes, "edges": edges}), encoding="utf-8")
    return path


@pytest.mark.parametrize("blank", ["\x85", "\r", "\n", "\u2028", " "])
def test_convert_refuses_a_blank_node_id(tmp_path, capsys, blank):
    out = tmp_path / "out.yaml"
    with pytest.raises(SystemExit) as exc:
        main(["map", "convert", str(_write(tmp_path, blank)), "-o", str(out)])
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert "a junction id must not be empty" in err and "Traceback" not in err
    assert not out.exists()


def test_a_blank_name_reads_as_the_id_and_the_converted_map_reads_back(tmp_path, capsys):
    out = tmp_path / "out.yaml"
    with pytest.raises(SystemExit) as exc:
        main(["map", "convert", str(_write(tmp_path, "a", name_b="\u2028")), "-o", str(out)])
    assert exc.value.code in (0, None), capsys.readouterr().err
    names = dict(load_map(out).graph.nodes(data="name"))
    assert names["b"] == "b"
