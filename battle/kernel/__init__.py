"""The compiled battle kernel (RULES.md §3–§7): the battle as arrays, the rules as small
numba-compiled functions over them. :func:`battle.engine.fight` is its public entry.

numba compiles the kernel when it is first imported and caches the machine code on disk
(``__pycache__`` beside the modules, or ``NUMBA_CACHE_DIR``); later runs load it in a fraction
of a second. A first run (a fresh install, or kernel sources newer than the cache) says so on
stderr, since it takes a few tens of seconds; stdout is untouched.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["COMPILE_SECONDS", "cache_is_warm"]

#: about how long the first compilation takes on a 2-core machine (seconds)
COMPILE_SECONDS = 15
_HERE = Path(__file__).resolve().parent
#: the modules whose compiled code is cached, and the last function compiled on import
_SOURCES = (*_HERE.glob("*.py"), _HERE.parent / "fire.py", _HERE.parent / "formation.py")
_LAST = "bound.fight_arrays-*.nbi"


def cache_is_warm() -> bool:
    """Whether the kernel's compiled code is on disk and newer than its sources."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return True  # nothing is compiled
    given = os.environ.get("NUMBA_CACHE_DIR")
    places = [Path(given)] if given else [_HERE / "__pycache__"]
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    found = [p for place in places if place.is_dir() for p in place.rglob(_LAST) if tag in p.name]
    if not found:
        return False
    newest_source = max(p.stat().st_mtime for p in _SOURCES if p.exists())
    return max(p.stat().st_mtime for p in found) >= newest_source


if not cache_is_warm():
    print(
        f"compiling the battle kernel (first run only, about {COMPILE_SECONDS} s)…",
        file=sys.stderr,
        flush=True,
    )
