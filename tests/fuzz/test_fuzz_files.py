"""Fuzzed event streams, results files and batch specs through the real CLI (issue 32 item
8): every case ends with exit 0 or a clean exit 2, within the harness's time and memory."""

from __future__ import annotations

import json
import shutil
import tempfile
from functools import cache
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from .conftest import fuzz_settings
from .harness import check, run_cli_timed

_HOME = Path(tempfile.mkdtemp(prefix="fuzz-files-"))

HOSTILE: list[object] = [
    -(2**70),
    2**70,
    2**63,
    -1,
    0,
    10**9,
    1.5,
    float("nan"),
    float("inf"),
    "x",
    "",
    None,
    True,
    [],
    {},
    [1, 2],
    {"a": 1},
]


@cache
def _stream() -> tuple[str, ...]:
    path = _HOME / "events.jsonl"
    outcome = run_cli_timed(["run", "--seed", "5", "--format", "jsonl", "-o", str(path)], 60)
    assert outcome.code == 0, outcome.err
    return tuple(path.read_text(encoding="utf-8").splitlines())


@cache
def _results() -> bytes:
    path = _HOME / "results.duckdb"
    argv = ["batch", "--runs", "20", "--seed", "3", "--workers", "0", "-q", "-o", str(path)]
    outcome = run_cli_timed(argv, 120)
    assert outcome.code == 0, outcome.err
    return path.read_bytes()


@fuzz_settings(0.3)
@given(data=st.data())
def test_fuzzed_event_streams_end_cleanly(data: st.DataObject) -> None:
    lines = list(_stream())
    k = data.draw(st.integers(0, len(lines) - 1), label="line")
    event = json.loads(lines[k])
    action = data.draw(st.sampled_from(["field", "drop", "swap", "garbage"]), label="action")
    if action == "field":
        key = data.draw(st.sampled_from(sorted(event)), label="field")
        event[key] = data.draw(st.sampled_from(HOSTILE), label="value")
        lines[k] = json.dumps(event)
    elif action == "drop":
        key = data.draw(st.sampled_from(sorted(event)), label="field")
        del event[key]
        lines[k] = json.dumps(event)
    elif action == "swap" and k + 1 < len(lines):
        lines[k], lines[k + 1] = lines[k + 1], lines[k]
    else:
        lines[k] = data.draw(st.text(max_size=40), label="garbage")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "events.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        check("stream", run_cli_timed(["report", str(path), "-o", str(Path(folder) / "d.html")]))


@fuzz_settings(0.3)
@given(offset=st.integers(0, 10**7), size=st.integers(1, 512), byte=st.integers(0, 255))
def test_fuzzed_results_files_end_cleanly(offset: int, size: int, byte: int) -> None:
    blob = bytearray(_results())
    at = offset % len(blob)
    blob[at : at + size] = bytes([byte]) * len(blob[at : at + size])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "results.duckdb"
        path.write_bytes(bytes(blob))
        check("results", run_cli_timed(["batch", "report", str(path), "--json"]))


SPEC_VALUES = st.sampled_from([*HOSTILE, 1, 2, 3, "default", "balanced:cautious"])
SPEC_KEYS = st.sampled_from(["runs", "seed", "workers", "chunk_size", "maps", "doctrines", "set"])


@fuzz_settings(0.3)
@given(spec=st.dictionaries(SPEC_KEYS, SPEC_VALUES, max_size=4))
def test_fuzzed_batch_specs_end_cleanly(spec: dict[str, object]) -> None:
    spec.setdefault("runs", 1)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "spec.yaml"
        path.write_text(json.dumps(spec), encoding="utf-8")  # JSON is YAML
        out = Path(folder) / "r.duckdb"
        argv = ["batch", str(path), "--workers", "0", "-q", "-o", str(out)]
        check("spec", run_cli_timed(argv))


def teardown_module() -> None:
    shutil.rmtree(_HOME, ignore_errors=True)
