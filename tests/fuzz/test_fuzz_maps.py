"""Fuzzed maps through the real loaders and engine: exit 0 or a clean exit 2, never a hang.

Every case writes a random road net (ids from all of Unicode, YAML 1.1 words, ``~``;
decimal and extreme hours; sides or none) in one of the four map formats and runs
``campaign run``, ``campaign map info`` or ``campaign map convert`` on it in this process,
stopped after ``CASE_LIMIT`` seconds (tests/fuzz/harness.py).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from .conftest import fuzz_settings
from .harness import check, run_cli_timed
from .strategies import MapCase, map_cases, write_map_case


def _run_map_case(case: MapCase, command: str, seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = write_map_case(case, Path(folder))
        if command == "run":
            argv = ["run", str(path), "--seed", str(seed)]
        elif command == "info":
            argv = ["map", "info", str(path), "--seed", str(seed)]
        else:
            argv = ["map", "convert", str(path), "-o", str(Path(folder) / "out.yaml")]
        outcome = run_cli_timed(argv)
        keep = os.environ.get("FUZZ_KEEP")  # a folder: keep the maps that crash or hang
        if keep and outcome.verdict in ("crash", "hang"):
            Path(keep).mkdir(parents=True, exist_ok=True)
            name = f"{outcome.verdict}-{len(os.listdir(keep))}{path.suffix}"
            shutil.copy(path, Path(keep) / name)
        check("map", outcome)
        if command == "convert" and outcome.code == 0:
            # a converted map reads back: the same command on it also ends cleanly
            again = run_cli_timed(["map", "info", str(Path(folder) / "out.yaml")])
            check("map", again, must_succeed=True)


COMMANDS = st.sampled_from(["run", "info", "convert"])


@fuzz_settings(1.0)
@given(case=map_cases(tilde=False), command=COMMANDS, seed=st.integers(0, 9))
def test_fuzzed_maps_end_cleanly(case: MapCase, command: str, seed: int) -> None:
    _run_map_case(case, command, seed)


@fuzz_settings(1.0)
@given(case=map_cases(tilde=True), command=COMMANDS, seed=st.integers(0, 9))
def test_fuzzed_maps_with_tilde_ids_end_cleanly(case: MapCase, command: str, seed: int) -> None:
    _run_map_case(case, command, seed)
