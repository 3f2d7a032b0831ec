"""Package versions recorded in every log header and results file (RULES.md §0.6)."""

from __future__ import annotations

import hashlib
import platform
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

__all__ = ["versions"]


@cache
def versions() -> dict[str, str]:
    """Versions of the project, Python and the packages that shape results."""
    out = {"python": platform.python_version()}
    for name, dist in (
        ("solo-campaign", "solo-campaign"),
        ("numpy", "numpy"),
        ("networkx", "networkx"),
        ("simpy", "simpy"),
    ):
        try:
            out[name] = version(dist)
        except PackageNotFoundError:  # running from a source tree without install
            out[name] = "unknown"
    out["code"] = code_hash()
    return out


@cache
def code_hash() -> str:
    """A short hash of the simulator's own source (battle/ and campaign/ Python files).

    The package version changes rarely; this changes with every edit of the engine, so batch
    results and logs from different code are never mixed up.
    """
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for package in ("battle", "campaign"):
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
