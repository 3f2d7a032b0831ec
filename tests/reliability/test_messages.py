"""Every remaining crash is a clear message with the right exit code (issue 12)."""

from __future__ import annotations

import contextlib
import errno
import json
import subprocess
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from campaign.cli import _is_interrupt
from campaign.maps import load_map
from campaign.maps.routes import weighted_diameter

from .conftest import LINE_MAP, PROJECT, one_error_line, run_cli

# ---------------------------------------------------------------- maps


def test_a_bare_null_id_is_refused_with_the_advice_to_quote_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(LINE_MAP.replace("{id: b,", "{id: null,"), encoding="utf-8")
    code, _, err = run_cli(["map", "info", str(path)], capsys)
    line = one_error_line(err)
    assert code == 2 and "junctions[1].id" in line and 'write it in quotes (e.g. "null"' in line


@pytest.mark.parametrize("ident", ["null", "~", "a~b", "no", "010", "城 ~ x", " spaced "])
def test_any_quoted_text_is_a_junction_id(ident: str, tmp_path: Path) -> None:
    text = LINE_MAP.replace("{id: b,", f"{{id: {json.dumps(ident)},").replace(
        "[a, b,", f"[a, {json.dumps(ident)},"
    )
    text = text.replace("[b, c,", f"[{json.dumps(ident)}, c,")
    path = tmp_path / "m.yaml"
    path.write_text(text, encoding="utf-8")
    assert ident in load_map(path).graph


def test_hours_true_is_not_a_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(LINE_MAP.replace("[a, b, {hours: 2}]", "[a, b, {hours: true}]"), "utf-8")
    code, _, err = run_cli(["map", "info", str(path)], capsys)
    assert code == 2 and "roads[0].hours: expected a number, not true/false" in err


def _impassable_graph(tmp_path: Path, fmt: str) -> nx.Graph:
    g = nx.Graph()
    g.add_edge("a", "b", kind="normal", hours=2)
    g.add_edge("b", "c", kind="normal", hours=2)
    g.add_edge("a", "c", kind="impassable", hours=1)
    if fmt == "yaml":
        path = tmp_path / "m.yaml"
        road = "  - [a, c, {kind: impassable, hours: 1}]\n"
        text = LINE_MAP.replace("  - [b, c, {hours: 2}]\n", "  - [b, c, {hours: 2}]\n" + road)
        path.write_text(text, "utf-8")
    elif fmt == "graphml":
        path = tmp_path / "m.graphml"
        nx.write_graphml(g, path)
    else:
        path = tmp_path / "m.json"
        path.write_text(json.dumps(nx.node_link_data(g, edges="links")), "utf-8")
    return load_map(path).graph


@pytest.mark.parametrize("fmt", ["yaml", "graphml", "json"])
def test_an_impassable_road_is_left_out_in_every_format(tmp_path: Path, fmt: str) -> None:
    graph = _impassable_graph(tmp_path, fmt)
    assert not graph.has_edge("a", "c")
    assert nx.shortest_path(graph, "a", "c", weight="hours") == ["a", "b", "c"]


def test_an_unknown_road_kind_is_refused_in_the_project_format(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(LINE_MAP.replace("[a, b, {hours: 2}]", "[a, b, {kind: swamp}]"), "utf-8")
    with pytest.raises(Exception, match=r"roads\[0\]\.kind"):
        load_map(path)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"\xff\xfe\x00{", "not UTF-8"),
        (b"[1, 2]", "the top level is a list"),
        (b'{"nodes": 3}', "'nodes' must be a list"),
        (b'{"nodes": [{"name": "x"}], "links": []}', "nodes[0] must be an object with id"),
        (b'{"nodes": [{"id": "a"}], "links": [{"source": "a"}]}', "links[0] must be"),
        (b'{"nodes": [{"id": [1]}], "links": []}', "an id must be a string or a number"),
        (b"[" * 100_000, "node-link JSON"),
    ],
)
def test_bad_node_link_json_is_one_message(
    content: bytes, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.json"
    path.write_bytes(content)
    code, _, err = run_cli(["map", "info", str(path)], capsys)
    assert code == 2 and expected in one_error_line(err)


def test_a_road_shorter_than_a_minute_takes_a_minute(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(LINE_MAP.replace("[a, b, {hours: 2}]", "[a, b, {hours: 0.000001}]"), "utf-8")
    cmap = load_map(path)
    assert cmap.graph.edges["a", "b"]["hours"] == pytest.approx(1 / 60)
    assert any("shorter than a minute" in note for note in cmap.notes)


def test_a_large_map_without_positions_is_laid_out_without_scipy(tmp_path: Path) -> None:
    g = nx.grid_2d_graph(25, 24)  # 600 junctions, no positions
    h = nx.Graph()
    h.add_edges_from((f"{a}", f"{b}", {"hours": 1.5}) for a, b in g.edges)
    path = tmp_path / "big.json"
    path.write_text(json.dumps(nx.node_link_data(h, edges="links")), "utf-8")
    code = (
        "import sys, builtins\n"
        "real = builtins.__import__\n"
        "def no_scipy(name, *a, **k):\n"
        "    if name.split('.')[0] == 'scipy': raise ImportError('no scipy here')\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = no_scipy\n"
        "from campaign.maps.build import build_graph, _place\n"
        "import networkx as nx, json\n"
        f"g = nx.node_link_graph(json.load(open({str(path)!r})), edges='links')\n"
        "nx.set_node_attributes(g, None, 'pos')\n"
        "notes = []\n"
        "_place(g, 1, notes)\n"
        "assert all(g.nodes[n]['pos'] is not None for n in g), 'unplaced'\n"
        "print(notes[0])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "bfs_layout" in done.stdout


def test_weighted_diameter_equals_all_pairs_and_ends() -> None:
    rng = np.random.default_rng(12)
    for k in range(200):
        n = int(rng.integers(2, 14))
        g = nx.gnm_random_graph(n, int(rng.integers(n - 1, 2 * n)), seed=k)
        if not nx.is_connected(g):
            continue
        for a, b in g.edges:
            g.edges[a, b]["hours"] = float(rng.choice([1e-6, 1e6, rng.random() * 9, 0.1]))
        exact = max(
            max(d.values()) for _, d in nx.all_pairs_dijkstra_path_length(g, weight="hours")
        )
        assert weighted_diameter(g) == pytest.approx(exact, rel=1e-12)


def test_weighted_diameter_refuses_a_disconnected_graph() -> None:
    g = nx.Graph()
    g.add_edge(1, 2, hours=1.0)
    g.add_node(3)
    with pytest.raises(nx.NetworkXError, match="not connected"):
        weighted_diameter(g)


# ---------------------------------------------------------------- rules


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ("battle.max_turns=true", "battle.max_turns: expected a number, not true/false"),
        ("campaign.rough_road_pass=false", "campaign.rough_road_pass: expected a number"),
        ("campaign.day_start_minutes=1300", "must be before day_end_minutes"),
        ("campaign.division_infantry_table=[]", "the table is empty"),
        (
            "campaign.division_infantry_table=[{max_roll: 50, infantry: 4}]",
            "end the table with max_roll: 100",
        ),
        (
            "campaign.division_infantry_table=[{max_roll: 60, infantry: 4}, "
            "{max_roll: 50, infantry: 4}, {max_roll: 100, infantry: 4}]",
            "must rise",
        ),
        ("campaign.division_cavalry=99999999999", "campaign.division_cavalry"),
        ("campaign.battle_doctrine=nope", "campaign.battle_doctrine: no tactical doctrine"),
    ],
)
def test_rules_are_validated_strictly(
    item: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(["run", "--seed", "1", "--set", item], capsys)
    line = one_error_line(err)
    assert code == 2 and expected in line
    assert "--doctrine" not in line


# ---------------------------------------------------------------- event streams


@pytest.mark.slow
def test_a_wrongly_typed_event_field_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stream = tmp_path / "e.jsonl"
    assert run_cli(["run", "--seed", "4", "--format", "jsonl", "-o", str(stream)], capsys)[0] == 0
    lines = stream.read_text("utf-8").splitlines()
    event = json.loads(lines[3])
    event["t"] = "noon"
    lines[3] = json.dumps(event)
    stream.write_text("\n".join(lines) + "\n", "utf-8")
    code, _, err = run_cli(["report", str(stream), "-o", str(tmp_path / "d.md")], capsys)
    line = one_error_line(err)
    assert code == 2 and "line 4" in line and "field 't'" in line
    assert not (tmp_path / "d.md").exists()


# ---------------------------------------------------------------- the command line


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["run", "--seed", "abc"], "Invalid value for '--seed'"),
        (["run", "--format", "xml"], "'xml'"),
        (["bogus"], "No such command 'bogus'"),
        (["battle", "--nope"], "No such option"),
    ],
)
def test_usage_errors_are_one_error_line(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(argv, capsys)
    assert code == 2 and expected in one_error_line(err)


def test_stdout_on_a_full_disk_is_one_line_and_exit_1() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "campaign", "run", "--seed", "1"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=PROJECT,
            check=False,
        )
    assert done.returncode == 1
    assert one_error_line(done.stderr).endswith("then run the same command again.")
    assert "No space left on device" in done.stderr


def test_a_log_file_on_a_full_disk_leaves_nothing_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from campaign import outfile

    real_open = Path.open

    class FullDisk:
        def __init__(self, handle):  # type: ignore[no-untyped-def]
            self.handle = handle

        def write(self, text: str) -> int:
            self.handle.write(text[:10])
            raise OSError(errno.ENOSPC, "No space left on device")

        def __enter__(self):  # type: ignore[no-untyped-def]
            return self

        def __exit__(self, *exc):  # type: ignore[no-untyped-def]
            self.handle.close()

    def full_open(self: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
        handle = real_open(self, *args, **kwargs)
        return FullDisk(handle) if ".partial-" in self.name else handle

    monkeypatch.setattr(outfile.Path, "open", full_open)
    log = tmp_path / "log.txt"
    code, _, err = run_cli(["run", "--seed", "1", "-o", str(log)], capsys)
    assert code == 1 and "No space left on device" in one_error_line(err)
    assert list(tmp_path.iterdir()) == []  # no log, no partial file


def test_a_log_file_is_written_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "log.txt"
    assert run_cli(["run", "--seed", "1", "-o", str(log)], capsys)[0] == 0
    assert log.read_text("utf-8").startswith("Campaign log")
    assert [p.name for p in tmp_path.iterdir()] == ["log.txt"]


def test_duckdb_query_interrupted_counts_as_ctrl_c() -> None:
    import duckdb

    assert _is_interrupt(duckdb.InterruptException("Query interrupted"))
    assert _is_interrupt(KeyboardInterrupt())
    assert not _is_interrupt(duckdb.IOException("disk"))


def test_duckdb_interrupt_anywhere_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import duckdb

    import campaign.maps

    def interrupted(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise duckdb.InterruptException("INTERRUPT Error: Query interrupted")

    monkeypatch.setattr(campaign.maps, "load_map", interrupted)
    code, _, err = run_cli(["run", "--seed", "1"], capsys)
    assert code == 130 and "interrupted" in err and "Traceback" not in err


def test_ctrl_c_while_the_commands_import_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C in the first half-second, while numba and llvmlite load: one line, 130."""
    import campaign.cli

    def interrupted(names: object = None) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(campaign.cli, "_register", interrupted)
    code, _, err = run_cli(["run", "--seed", "1"], capsys)
    assert code == 130 and err.strip().startswith("interrupted while campaign run was starting")


def test_a_diary_suffix_is_refused_before_the_campaign_is_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # (.pdf is a diary format since issue 29: the printed diary, campaign/report/pdf.py)
    code, out, err = run_cli(["run", "--seed", "1", "--report", str(tmp_path / "d.docx")], capsys)
    assert code == 2 and "'.docx'" in one_error_line(err) and ".html" in err
    assert out == ""  # no log printed: nothing was played
    assert list(tmp_path.iterdir()) == []


def test_a_scheduler_address_that_is_not_a_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["batch", "--runs", "1", "--scheduler", "not a url", "-o", str(tmp_path / "r.db")]
    code, _, err = run_cli(argv, capsys)
    assert code == 2 and "tcp://HOST:8786" in one_error_line(err)


@pytest.mark.slow
def test_a_scheduler_nobody_listens_at(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["batch", "--runs", "1", "-q", "--scheduler", "tcp://127.0.0.1:9", "-o"]
    code, _, err = run_cli([*argv, str(tmp_path / "r.db")], capsys)
    assert code == 1 and "cannot reach the Dask scheduler" in one_error_line(err)


def test_duckdb_runtime_query_interrupted_is_ctrl_c() -> None:
    from campaign.batch.store import query_interrupted

    assert _is_interrupt(RuntimeError("Query interrupted"))
    assert query_interrupted(RuntimeError("Query interrupted"))
    assert not query_interrupted(RuntimeError("something else"))


def test_a_diary_on_a_full_disk_is_exit_1_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from campaign import outfile
    from campaign.errors import EnvironmentFailure

    @contextlib.contextmanager
    def full(path, flag=None):  # type: ignore[no-untyped-def]
        raise OSError(errno.ENOSPC, "No space left on device")
        yield

    monkeypatch.setattr(outfile, "atomic_text_file", full)
    with pytest.raises(EnvironmentFailure) as caught:
        outfile.write_text_whole(tmp_path / "d.html", "<html>")
    assert caught.value.exit_code == 1 and "nothing was written" in caught.value.message
    assert list(tmp_path.iterdir()) == []
