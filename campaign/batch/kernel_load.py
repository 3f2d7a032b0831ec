"""Import the battle engine in a pool worker with only what its compiled kernel needs.

Two things numba does while it loads the battle kernel from its on-disk cache serve its
compiler, which a warm worker never runs (measured in a fresh process, 2026-12-01):

- numba's array functions import ``scipy.linalg`` only to learn whether compiled code may
  call BLAS and LAPACK (0.1 to 0.17 s of CPU and 15 MB): :data:`NOT_FOR_THE_KERNEL`;
- before it loads any cached function, numba refreshes its target context: it imports and
  installs every typing and lowering registry of the compiler (arrays, typed containers,
  random generators, polynomials, unicode: about 250 registries, 0.12 s of CPU a worker),
  although loading machine code from the cache types and lowers nothing. Only numba's
  runtime (NRT, the reference-counted memory the compiled code allocates) must be set up
  first: :func:`lean_cache_loads` loads with that alone.

Neither changes the machine code: the same cached kernel is loaded either way, so every
battle comes out the same. Whatever numba compiles later still refreshes in full first
(its compiler does so itself), and a kernel missing from the cache is compiled as usual.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

__all__ = ["NOT_FOR_THE_KERNEL", "import_battle_engine", "lean_cache_loads"]

#: What numba imports with its array functions only to learn whether compiled code may call
#: BLAS and LAPACK (``numba.np.arraymath`` -> ``scipy.linalg``: 0.1 to 0.17 s of CPU and
#: 15 MB in every worker, measured). The battle kernel does no linear algebra, so a pool
#: worker imports the battle engine without them (:func:`import_battle_engine`).
NOT_FOR_THE_KERNEL = ("scipy.linalg.cython_blas", "scipy.linalg.cython_lapack")


def lean_cache_loads() -> contextlib.AbstractContextManager[None]:
    """While in the block, numba loads cached compiled functions after setting up only its
    runtime (:func:`battle.kernel.runtime.lean_cache_loads`, where numba's internals are)."""
    from battle.kernel.runtime import lean_cache_loads as lean

    return lean()


def __getattr__(name: str) -> Any:
    """``lean_loads``: how many cached functions were loaded the lean way in this process
    (:data:`battle.kernel.runtime.lean_loads`; tests read it)."""
    if name == "lean_loads":
        from battle.kernel.runtime import lean_loads

        return lean_loads
    raise AttributeError(name)


def import_battle_engine(*, lean_for_good: bool = False) -> None:
    """Import the compiled battle engine, :mod:`battle.kernel_engine` (and numba), with
    :data:`NOT_FOR_THE_KERNEL` held back, and its compiled kernel loaded from the cache the
    lean way (:func:`lean_cache_loads`).

    Holding a module back is the import system's own mechanism: ``None`` in ``sys.modules``
    makes its import raise ``ImportError``, which numba takes as "no BLAS" (compiled code
    then cannot call ``np.dot`` or ``np.linalg``; the kernel calls neither). The entries are
    removed again at once, so anything imported later may still use ``scipy.linalg``. When
    numba is already imported there is nothing to hold back; when the kernel is not in the
    cache yet (:data:`battle.kernel.COLD`) it is compiled as usual. Nothing is imported under
    ``BATTLE_ENGINE=reference``; a kernel that fails to import or compile is left for
    :func:`battle.engine.load_engine` to report (once) when the first battle is fought.

    ``lean_for_good`` (a pool worker, which never compiles): every later load from the cache
    in this process is lean too, not only the entry point's at import. The campaign calls a
    few kernel functions from Python (the withdrawal tables' steps), loaded on their first
    call; loaded the usual way, the first of them would refresh numba's registries in the
    middle of the first chunk (0.3 s of CPU, measured), after the worker's start-up.
    """
    if "battle.kernel_engine" in sys.modules:
        return
    if os.environ.get("BATTLE_ENGINE") == "reference":  # no kernel to load (battle.engine)
        return
    held = [] if "numba" in sys.modules else [n for n in NOT_FOR_THE_KERNEL if n not in sys.modules]
    for name in held:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        _import_kernel(lean_for_good)
    except Exception:  # no numba, or a kernel that fails to compile: battle.engine says so
        return
    finally:
        for name in held:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]


def _import_kernel(lean_for_good: bool) -> None:
    """Import :mod:`battle.kernel_engine` the lean way (see :func:`import_battle_engine`)."""
    import battle.kernel  # numba, and whether the compiled kernel is in the cache

    if battle.kernel.COLD:
        import battle.kernel_engine
    elif lean_for_good:
        from battle.kernel.runtime import install_lean_loads

        install_lean_loads()
        import battle.kernel_engine
    else:
        with lean_cache_loads():
            import battle.kernel_engine
