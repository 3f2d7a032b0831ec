"""The one decorator of the battle kernel: numba's ``njit`` with a fixed signature and an
on-disk cache.

Every rule function is compiled once, for the kernel's own types: ``BT``, one battle (its
arrays, :mod:`battle.kernel.layout`, with the rules and the two doctrines as arrays,
:func:`battle.kernel.pack.doctrine_arrays`, in one numba structure: a call passes one
reference, not two dozen arrays), 64-bit integers and floats. Fixed signatures keep
numba from compiling a copy per literal argument, and make the first (cold) compilation a
one-off of a few tens of seconds; later runs load the compiled code from ``__pycache__``.
``NUMBA_DISABLE_JIT=1`` runs the kernel as plain Python (slow, for debugging).

This module uses numba's public API only; the kernel's types and the few things that need
numba's internals come from :mod:`battle.kernel.runtime` (all of its ``__all__`` re-exported
here).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from numba import config, njit
from numba import types as nt

from battle.kernel import COLD, runtime
from battle.kernel.runtime import *  # noqa: F403  (runtime.__all__, re-exported below)
from battle.kernel.runtime import ANNOTATED, compile_lazily

__all__ = ["entry", "rule"]
__all__ += runtime.__all__

F = TypeVar("F", bound=Callable[..., Any])


def check_annotations(fn: Callable[..., Any], signature: Any) -> None:
    """Raise ``TypeError`` unless the annotations of ``fn`` (what mypy checks) say the
    numba ``signature`` it is compiled for (what numba checks): ``int`` for int64, ``float``
    for float64, ``bool``, ``None`` for void, ``Battle`` for the battle, ``IntArray`` for
    an int64 array of any dimension, and so on (:data:`ANNOTATED`); a tuple type (an
    order, say) must be annotated with a name that is not one of those."""
    hints = dict(getattr(fn, "__annotations__", {}))
    names = [p for p in fn.__code__.co_varnames[: fn.__code__.co_argcount]]
    wanted = [*zip(names, signature.args, strict=True), ("return", signature.return_type)]
    for name, numba_type in wanted:
        hint = hints.get(name)
        allowed = ANNOTATED.get(str(hint))
        if hint is None or (allowed is None and not isinstance(numba_type, nt.BaseTuple)):
            raise TypeError(f"{fn.__qualname__}: {name} is annotated {hint!r}, not {numba_type}")
        if allowed is not None and numba_type not in allowed:
            raise TypeError(f"{fn.__qualname__}: {name} is annotated {hint}, not {numba_type}")


def entry(signature: Any) -> Callable[[F], F]:
    """Compile the decorated function for ``signature`` now (nopython, cached on disk): a
    battle's entry point, called from Python (its annotations checked as :func:`rule`'s)."""

    def wrap(fn: F) -> F:
        check_annotations(fn, signature)
        compiled: F = njit(signature, cache=True)(fn)
        return compiled

    return wrap


def rule(ret: Any, *args: Any, inline: bool = False) -> Callable[[F], F]:
    """Compile the decorated function for ``ret(*args)`` (nopython, cached on disk);
    ``inline``: a small step inlined where it is called (no call overhead).

    With the kernel already in the cache (:data:`battle.kernel.COLD` false) the function is
    compiled, or loaded from the cache, only when first called: a battle's entry point holds
    the compiled code of every rule it calls, so a warm start loads one function, not sixty.
    """
    how = "always" if inline else "never"

    def wrap(fn: F) -> F:
        signature = ret(*args)
        check_annotations(fn, signature)
        if COLD or config.DISABLE_JIT:
            compiled: F = njit(signature, cache=True, inline=how)(fn)
            return compiled
        lazy: F = compile_lazily(njit(cache=True, inline=how)(fn), signature)
        return lazy

    return wrap
