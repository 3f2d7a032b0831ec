"""The kernel's compiling decorator for the few rules that :mod:`battle.fire`,
:mod:`battle.formation` and :mod:`battle.withdrawal` share with the compiled kernel (RULES.md
§4.2, §5.2, §7.2–§7.4), or no decorator at all when numba is missing or broken.

Those modules are also the reference engine's and the campaign's: they must import, and give
the same numbers, without numba (:mod:`battle.engine` then fights on the reference engine).
Under ``BATTLE_ENGINE=reference`` (``--engine reference``) numba is not imported at all.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["A2F", "B1", "F8", "I8", "pair_of", "rule"]

F = TypeVar("F", bound=Callable[..., Any])

_rule: Callable[..., Callable[[F], F]] | None
try:
    if os.environ.get("BATTLE_ENGINE") == "reference":  # battles need no numba at all
        raise ImportError("BATTLE_ENGINE=reference")
    from numba import types as _nt

    from battle.kernel.jit import A2F, B1, F8, I8
    from battle.kernel.jit import rule as _rule
except Exception:  # numba missing or failing to import, or not wanted: plain Python
    A2F = B1 = F8 = I8 = None
    _nt = None
    _rule = None


def pair_of(kind: Any) -> Any:
    """numba's type of a pair of ``kind`` (None without numba)."""
    return None if _nt is None else _nt.UniTuple(kind, 2)


def rule(*signature: Any, **options: Any) -> Callable[[F], F]:
    """:func:`battle.kernel.jit.rule` (compiled with this ``signature``), or the function
    itself when numba is unavailable or fails to compile it (the kernel then fails to load
    too, and battles run on the reference engine)."""

    def decorate(function: F) -> F:
        if _rule is None:
            return function
        try:
            return _rule(*signature, **options)(function)
        except Exception:  # numba failing to compile: the plain function, same numbers
            return function

    return decorate
