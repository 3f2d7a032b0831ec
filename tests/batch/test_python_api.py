"""The README's Python example of a batch, run as a user would: a script in a fresh process.

The example is cut out of README.md (the python block after "From Python"), so the README
cannot drift from what runs; its printed output must match the README's text block.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _example() -> tuple[str, str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    part = readme[readme.index("From Python, the same batch") :]
    code = re.search(r"```python\n(.*?)```", part, re.S)
    text = re.search(r"```text\n(.*?)```", part, re.S)
    assert code and text
    return code.group(1), text.group(1)


@pytest.mark.slow
def test_the_readme_python_batch_example_runs_and_prints_what_the_readme_says(tmp_path):
    code, expected = _example()
    script = tmp_path / "api.py"
    script.write_text(code, encoding="utf-8")

    def run() -> subprocess.CompletedProcess[str]:
        argv = [sys.executable, str(script)]
        return subprocess.run(
            argv, check=False, cwd=tmp_path, capture_output=True, text=True, timeout=300
        )

    done = run()
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected
    again = run()  # the same script again: everything is already stored
    assert again.stdout.splitlines()[0] == "0 campaigns run, 400 already stored"
    assert again.stdout.splitlines()[1:] == expected.splitlines()[1:]


def test_a_results_store_closes_at_the_end_of_a_with_block(tmp_path):
    import duckdb

    from campaign.batch import BatchSpec, open_results, plan_batch, run_batch

    out = tmp_path / "r.duckdb"
    run_batch(plan_batch(BatchSpec(runs=2, seed=1)), out, workers=0, progress=False)
    with open_results(out) as store:
        assert store.con.execute("SELECT count(*) FROM runs").fetchone() == (2,)
    with pytest.raises(duckdb.ConnectionException):
        store.con.execute("SELECT 1")
