"""The compiled battle kernel (RULES.md §3–§7): the battle as arrays, the rules as small
numba-compiled functions over them. :func:`battle.engine.fight` is its public entry.

numba compiles the kernel when it is first imported and caches the machine code on disk
(``__pycache__`` beside the modules, or ``NUMBA_CACHE_DIR``); later runs load it in a fraction
of a second. A first run (a fresh install, or changed kernel sources) says so on stderr, since
it takes a few tens of seconds; stdout is untouched.

numba checks a cached function against its own module only, not against the constants it
read from :mod:`battle.kernel.layout` or the functions it called from other modules: so the
cache is stamped with a hash of every kernel source, and a stale cache is removed before it
can be loaded.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

__all__ = ["COLD", "COMPILE_SECONDS", "cache_is_warm", "prepare_cache"]

#: about how long the first compilation takes on a 2-core machine (seconds)
COMPILE_SECONDS = 15
_HERE = Path(__file__).resolve().parent
#: every source the compiled code depends on (the modules with compiled functions first)
_COMPILED = tuple(
    [
        _HERE / f"{m}.py"
        for m in ("runtime", "jit", "draw", "rows", "core", "phases", "orders", "start", "bound")
    ]
    + [_HERE.parent / f"{m}.py" for m in ("fire", "formation", "withdrawal")]
)
_SOURCES = (*_COMPILED, _HERE / "layout.py")
_STAMP = "battle-kernel.stamp"


def _cache_dirs() -> list[Path]:
    """Where numba keeps the compiled code of the kernel's modules: ``NUMBA_CACHE_DIR``, else
    ``__pycache__`` beside them, else (a read-only install) numba's user-wide cache."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        return [Path(given)]
    beside = sorted({p.parent / "__pycache__" for p in _COMPILED})
    if all(os.access(d if d.exists() else d.parent, os.W_OK) for d in beside):
        return beside
    from battle.kernel.runtime import numba_user_cache_dir

    return [Path(numba_user_cache_dir())]


def _stamp() -> str:
    """A hash of the kernel's sources, numba's version and Python's."""
    import numba

    digest = hashlib.sha256(f"{numba.__version__} {sys.version}".encode())
    for source in _SOURCES:
        digest.update(source.read_bytes())
    return digest.hexdigest()


def cache_is_warm() -> bool:
    """Whether the compiled kernel in the cache is that of the current sources."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return True  # nothing is compiled
    stamp = _cache_dirs()[0] / _STAMP
    return stamp.is_file() and stamp.read_text() == _stamp()


def prepare_cache() -> None:
    """Before the kernel compiles: if its cache is not that of the current sources, say on
    stderr that it compiles, remove the stale compiled code, and stamp the cache."""
    if cache_is_warm():
        return
    print(
        f"compiling the battle kernel (first run only, about {COMPILE_SECONDS} s)…",
        file=sys.stderr,
        flush=True,
    )
    stems = {p.stem for p in _COMPILED}
    for place in _cache_dirs():
        if not place.is_dir():
            continue
        for made in list(place.rglob("*.nb[ic]")):
            if made.name.split(".", 1)[0] in stems:
                made.unlink(missing_ok=True)
    try:
        place = _cache_dirs()[0]
        place.mkdir(parents=True, exist_ok=True)
        (place / _STAMP).write_text(_stamp())
    except OSError:  # a read-only install: numba then caches elsewhere, or not at all
        pass


#: the compiled kernel is not in the cache: every rule function is compiled (and cached) as
#: it is imported; when it is, only the battle's entry point is loaded from the cache (its
#: compiled code holds every rule it calls) and the others load when first called
COLD = not cache_is_warm()
prepare_cache()
