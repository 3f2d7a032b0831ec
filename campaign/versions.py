"""Package versions recorded in every log header and results file (RULES.md §0.6)."""

from __future__ import annotations

import platform
from functools import cache
from importlib.metadata import PackageNotFoundError, version

__all__ = ["versions"]


@cache
def versions() -> dict[str, str]:
    """Versions of the project, Python and the packages that shape results."""
    out = {"python": platform.python_version()}
    for name, dist in (("solo-campaign", "solo-campaign"), ("numpy", "numpy"),
                       ("networkx", "networkx"), ("simpy", "simpy")):
        try:
            out[name] = version(dist)
        except PackageNotFoundError:  # running from a source tree without install
            out[name] = "unknown"
    return out
