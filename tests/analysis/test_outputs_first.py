"""``tournament`` and ``sensitivity`` check their results file and charts folder before
anything is printed or run: a bad ``-o`` or ``--plot`` costs no campaign."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.batch.conftest import only_error as _only_error

Cli = Callable[[list[str]], tuple[int, str, str]]

SENSITIVITY = Path(__file__).resolve().parents[2] / "config" / "sensitivity" / "rules-morris.yaml"

COMMANDS = {
    "tournament": ["tournament", "--doctrines", "aggressive,cautious", "--runs", "2"],
    "sensitivity": ["sensitivity", str(SENSITIVITY), "--runs", "1"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_plot_file_is_refused_before_any_run(command: str, tmp_path: Path, cli: Cli) -> None:
    plot = tmp_path / "b1.duckdb"
    plot.write_bytes(b"")
    out = tmp_path / "r.duckdb"
    line = _only_error(*cli([*COMMANDS[command], "-o", str(out), "--plot", str(plot)]))
    assert line.startswith(f"error: {plot}: --plot: ") and "Give a folder" in line
    assert not out.exists()


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("folder", [False, True])
def test_a_bad_output_is_refused_before_the_header(
    command: str, folder: bool, tmp_path: Path, cli: Cli
) -> None:
    out = tmp_path if folder else tmp_path / "nope" / "r.duckdb"
    line = _only_error(*cli([*COMMANDS[command], "-o", str(out)]))
    assert line.startswith(f"error: {out}: --output: ")
    assert ("it is a folder, not a file" if folder else "does not exist") in line
