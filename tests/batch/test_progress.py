"""Plain progress lines of a batch off a terminal (``campaign.batch.progress``)."""

from __future__ import annotations

import io

from rich.console import Console

from campaign.batch.progress import BatchProgress


def test_plain_lines_never_print_nan_before_the_first_run() -> None:
    out = io.StringIO()
    bar = BatchProgress(6, Console(file=out, width=100), every_seconds=0.0)
    with bar:
        bar.advance(0)  # the workers are still starting: no rate yet
        bar.advance(3)
        bar.advance(3)
    lines = out.getvalue().splitlines()
    assert lines[0] == "batch: 0/6 runs, 0.0 runs/s, starting"
    assert all("nan" not in line for line in lines)
    assert lines[1].startswith("batch: 3/6 runs, ") and lines[1].endswith(" s")
    assert " ETA " in lines[1] and lines[-1].startswith("batch: 6/6 runs, ")
    assert lines[-1].endswith("ETA 0 s")
