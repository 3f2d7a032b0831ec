"""Shared by the referee tests: without numba, the tests of the compiled kernel's own
code are not collected (issue 27)."""

from __future__ import annotations

import importlib.util


def _numba_available() -> bool:
    """Whether numba can be imported (missing, or hidden by ``tests/without_numba.py``, the
    tests of the compiled kernel itself are not collected: issue 27)."""
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):  # hidden by an import hook, or half-installed
        return False


#: test files of this folder that exercise the compiled kernel's own code
KERNEL_TESTS = [
    "test_drills.py",
    "test_settled_cases.py",
]
collect_ignore = [] if _numba_available() else KERNEL_TESTS
