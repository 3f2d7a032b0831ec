"""SimPy through its public API only (issue 26, item 3): outside campaign/schedule.py, the
one module that schedules with priorities SimPy's API does not offer (its docstring lists
each private use and why), no campaign module reads or writes a private SimPy attribute."""

from __future__ import annotations

import re
from pathlib import Path

import campaign

#: attribute names private to SimPy's Environment, Event and Process (simpy 4.1)
PRIVATE = re.compile(
    r"\.(_now|_queue|_eid|_active_proc|_target|_resume|_ok|_value|_defused|_generator)\b"
)
ROOT = Path(campaign.__file__).parent


def test_no_simpy_private_attribute_outside_the_scheduler():
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        if path == ROOT / "schedule.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if PRIVATE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_the_pattern_finds_what_it_looks_for():
    assert PRIVATE.search("now = env._now")
    assert PRIVATE.search("p._target is check")
    assert not PRIVATE.search("ledger.objective_value(side)")
    assert not PRIVATE.search("env.now")
