"""Whether numba can be imported: without it (missing, or hidden by ``tests/without_numba.py``)
the tests of the compiled kernel's own code are not collected (issue 27); each kernel-test
folder's conftest.py lists its own."""

from __future__ import annotations

import importlib.util

__all__ = ["numba_available"]


def numba_available() -> bool:
    """True when ``import numba`` would find it."""
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):  # hidden by an import hook, or half-installed
        return False
