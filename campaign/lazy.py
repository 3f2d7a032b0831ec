"""Package attributes imported when first used (PEP 562), for packages with heavy modules.

``campaign.batch`` and ``campaign.report`` name their public API in ``__init__`` but import
a module (DuckDB, matplotlib, Jinja2) only when one of its names is first asked for:
``__getattr__ = lazy_getattr(__name__, {"name": "module", ...})``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_getattr"]


def lazy_getattr(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package``: a name in ``where`` is imported from the
    module ``where[name]`` (absolute, or relative to ``package`` with a leading dot) when
    first asked for; any other name raises :class:`AttributeError`."""

    def __getattr__(name: str) -> Any:
        if name in where:
            return getattr(importlib.import_module(where[name], package), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
