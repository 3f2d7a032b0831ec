"""pytest's doctests of the package (``--doctest-modules``) with compiled modules in use.

A module compiled by mypyc (:mod:`campaign.native`) is imported from its extension, not its
``.py`` file, which pytest's doctest collection refuses ("import file mismatch"). Its doctests
are collected only when the plain modules run: ``make test``'s plain-Python pass
(``CAMPAIGN_NATIVE=0 pytest -m plain_python``) runs them there. Not imported by the package.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _pytest.doctest import DoctestItem

from campaign import native

_ROOT = Path(__file__).resolve().parent.parent
_COMPILED = {native.source_path(m).resolve() for m in native.MODULES}


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave out a compiled module's file while the compiled modules are in use."""
    if native.status() == "compiled" and collection_path.resolve() in _COMPILED:
        return True
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the doctests of compiled modules ``plain_python``: the plain pass runs them."""
    for item in items:
        if isinstance(item, DoctestItem) and item.path.resolve() in _COMPILED:
            item.add_marker(pytest.mark.plain_python)
