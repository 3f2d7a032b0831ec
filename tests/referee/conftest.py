"""Shared by the referee tests: without numba, the tests of the compiled kernel's own
code are not collected (issue 27)."""

from __future__ import annotations

from tests.numba_check import numba_available

#: test files of this folder that exercise the compiled kernel's own code
KERNEL_TESTS = [
    "test_drills.py",
    "test_settled_cases.py",
]
collect_ignore = [] if numba_available() else KERNEL_TESTS
