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
numba's internals come from :mod:`battle.kernel.runtime` (re-exported here).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from numba import config, njit
from numba import types as nt

from battle.kernel import COLD
from battle.kernel.runtime import (
    A1B,
    A1F,
    A1I,
    A2B,
    A2F,
    A2I,
    B1,
    BS,
    BT,
    F8,
    FIELDS,
    I8,
    LAY,
    RL,
    RT,
    RULE_FIELDS,
    RV,
    ST,
    VOID,
    Battle,
    BattleArrays,
    BoolArray,
    FloatArray,
    IntArray,
    LayoutArrays,
    RuleArrays,
    Rules,
    StructView,
    TableArrays,
    compile_lazily,
    fields_address,
    new_battle,
    new_rules,
    next_double,
    rules_at,
    unmanaged,
)

__all__ = [
    "A1B",
    "A1F",
    "A1I",
    "A2B",
    "A2F",
    "A2I",
    "B1",
    "BS",
    "BT",
    "F8",
    "FIELDS",
    "I8",
    "LAY",
    "RL",
    "RT",
    "RULE_FIELDS",
    "RV",
    "ST",
    "VOID",
    "Battle",
    "BattleArrays",
    "BoolArray",
    "FloatArray",
    "IntArray",
    "LayoutArrays",
    "RuleArrays",
    "Rules",
    "StructView",
    "TableArrays",
    "entry",
    "fields_address",
    "new_battle",
    "new_rules",
    "next_double",
    "rule",
    "rules_at",
    "unmanaged",
]

F = TypeVar("F", bound=Callable[..., Any])


#: what each annotation of a rule function may stand for (checked against its signature)
_ANNOTATED = {
    "int": (I8,),
    "float": (F8,),
    "bool": (B1,),
    "None": (VOID,),
    "Battle": (BT,),
    "IntArray": (A1I, A2I),
    "FloatArray": (A1F, A2F),
    "BoolArray": (A1B, A2B),
    "NDArray[np.int64]": (A1I, A2I),
    "NDArray[np.float64]": (A1F, A2F),
    "NDArray[np.bool_]": (A1B, A2B),
    "BattleArrays": (ST,),
    "LayoutArrays": (LAY,),
    "RuleArrays": (RL,),
    "Rules": (RT,),
}


def check_annotations(fn: Callable[..., Any], signature: Any) -> None:
    """Raise ``TypeError`` unless the annotations of ``fn`` (what mypy checks) say the
    numba ``signature`` it is compiled for (what numba checks): ``int`` for int64, ``float``
    for float64, ``bool``, ``None`` for void, ``Battle`` for the battle, ``IntArray`` for
    an int64 array of any dimension, and so on (:data:`_ANNOTATED`); a tuple type (an
    order, say) must be annotated with a name that is not one of those."""
    hints = dict(getattr(fn, "__annotations__", {}))
    names = [p for p in fn.__code__.co_varnames[: fn.__code__.co_argcount]]
    wanted = [*zip(names, signature.args, strict=True), ("return", signature.return_type)]
    for name, numba_type in wanted:
        hint = hints.get(name)
        allowed = _ANNOTATED.get(str(hint))
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
