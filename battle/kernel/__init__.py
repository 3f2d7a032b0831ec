"""The compiled battle kernel (RULES.md §3–§7): the battle as arrays, the rules as small
numba-compiled functions over them. :func:`battle.engine.fight` is its public entry.

numba compiles the kernel when it is first imported and caches the machine code on disk
(``__pycache__`` beside the modules, or ``NUMBA_CACHE_DIR``); later runs load it in a fraction
of a second. A first run (a fresh install: no compiled kernel in the cache) says so on stderr,
since it takes a few tens of seconds; stdout is untouched.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["COMPILE_SECONDS", "cache_is_warm"]

#: about how long the first compilation takes on a 2-core machine (seconds)
COMPILE_SECONDS = 15
_HERE = Path(__file__).resolve().parent
#: the modules with compiled functions (numba caches each function beside its module and
#: compiles it again when its module changes)
_SOURCES = tuple(
    [_HERE / f"{m}.py" for m in ("core", "phases", "orders", "bound")]
    + [_HERE.parent / "fire.py", _HERE.parent / "formation.py"]
)


def cache_is_warm() -> bool:
    """Whether the kernel's compiled code is on disk (numba's index of each module's compiled
    functions; numba itself checks that they match the sources)."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return True  # nothing is compiled
    given = os.environ.get("NUMBA_CACHE_DIR")
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    for source in _SOURCES:
        place = Path(given) if given else source.parent / "__pycache__"
        found = list(place.rglob(f"{source.stem}.*.{tag}.nbi")) if place.is_dir() else []
        if not found:
            return False
    return True


if not cache_is_warm():
    print(
        f"compiling the battle kernel (first run only, about {COMPILE_SECONDS} s)…",
        file=sys.stderr,
        flush=True,
    )
