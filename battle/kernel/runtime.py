"""numba's internals, in this one module: everything the battle kernel needs from numba
beyond its public API (``njit``, ``numba.types``, ``carray``, ``config``).

- :class:`Battle` and :class:`Rules`: one battle's arrays and the rules as numba structures
  (``numba.experimental.structref``), made in compiled code by :func:`new_battle` and
  :func:`new_rules`;
- :class:`StructView`: such a structure passed as the bare address of its fields, without
  its reference count (``numba.core`` lowering; see the class);
- intrinsics (llvmlite IR): :func:`rules_at`, :func:`next_double`, :func:`unmanaged`'s data
  pointer;
- :func:`compile_lazily`: a dispatcher compiled for one fixed signature when first called;
- :func:`lean_cache_loads`: loading cached machine code without refreshing numba's compiler
  registries (a pool worker's start-up), and :func:`numba_user_cache_dir`.

A numba release that changes any of these breaks this module only; its tests
(tests/battle/test_kernel_runtime.py and the kernel's) say so. Everything else in
:mod:`battle.kernel` uses numba's public API.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from llvmlite import ir
from numba import carray, njit
from numba import types as nt
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed
from numba.core.typeconv import Conversion
from numba.core.typing.templates import AttributeTemplate
from numba.experimental import structref
from numba.extending import (
    NativeValue,
    infer_getattr,
    intrinsic,
    lower_cast,
    lower_getattr_generic,
    models,
    register_model,
    unbox,
)
from numpy.typing import NDArray

__all__ = [
    "A1B",
    "A1F",
    "A1I",
    "A2B",
    "A2F",
    "A2I",
    "ANNOTATED",
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
    "compile_lazily",
    "fields_address",
    "lean_cache_loads",
    "lean_loads",
    "new_battle",
    "new_rules",
    "next_double",
    "numba_user_cache_dir",
    "rules_at",
    "unmanaged",
]

I8, F8, B1, VOID = nt.int64, nt.float64, nt.boolean, nt.void
#: the kernel's arrays as mypy sees them (numba's types above say their dimensions)
IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
A1I = nt.Array(nt.int64, 1, "C")
A2I = nt.Array(nt.int64, 2, "C")
A1F = nt.Array(nt.float64, 1, "C")
A2F = nt.Array(nt.float64, 2, "C")
A1B = nt.Array(nt.boolean, 1, "C")
A2B = nt.Array(nt.boolean, 2, "C")
#: one battle: U, P, S, DK, DL, DB, E, OA, OG, AB, AS, WK, WB, CH, CG (battle.kernel.layout)
ST = nt.Tuple((A2I, A2F, A1I, A2I, A2I, A1F, A2F, A2I, A1F, A1I, A1I, A2I, A2B, A2I, A1F))
#: a battle before its first bound (battle.kernel.lineup.Layout.arrays): TB (every unit row laid
#: out so far, battle.kernel.pack.UnitRows; read, never written), RX (the code of each of the
#: battle's n units in listing order, each side's units as given, side 0's first: its id's rank
#: and its row of TB, battle.kernel.start.index_order), and each late arrival's bound AB and
#: side AS (read by the battle, never written); the rest is laid out by
#: battle.kernel.start.lay_out
LAY = nt.Tuple((A2I, A1I, A1I, A1I))
#: ST and LAY as mypy sees them
BattleArrays = tuple[
    IntArray,
    FloatArray,
    IntArray,
    IntArray,
    IntArray,
    FloatArray,
    FloatArray,
    IntArray,
    FloatArray,
    IntArray,
    IntArray,
    IntArray,
    BoolArray,
    IntArray,
    FloatArray,
]
LayoutArrays = tuple[IntArray, IntArray, IntArray, IntArray]
#: the rules: RI, RF, FI, FF, TI, CT, MNF, HD, LS, XD, then the doctrines DI, DF, DR, DFF, DAF
RL = nt.Tuple((A1I, A1F, A2I, A2F, A2I, A2I, A2I, A2I, A2F, A2I, A2I, A2F, A2I, A2I, A2I))
#: RL as mypy sees it: the rules' own arrays RI ... XD (battle.kernel.pack.Packed.arrays),
#: then the two doctrines' DI, DF, DR, DFF, DAF
TableArrays = tuple[
    IntArray,
    FloatArray,
    IntArray,
    FloatArray,
    IntArray,
    IntArray,
    IntArray,
    IntArray,
    FloatArray,
    IntArray,
]
RuleArrays = tuple[*TableArrays, IntArray, FloatArray, IntArray, IntArray, IntArray]

#: the fields of a Battle: ST's arrays, then RL's
FIELDS = (
    *("U", "P", "S", "DK", "DL", "DB", "E", "OA", "OG", "AB", "AS", "WK", "WB", "CH", "CG"),
    *("RI", "RF", "FI", "FF", "TI", "CT", "MNF", "HD", "LS", "XD"),
    *("DI", "DF", "DR", "DFF", "DAF"),
)


@structref.register
class BattleType(nt.StructRef):  # type: ignore[misc]
    """The numba type of a :class:`Battle`."""


class _RuleFields:
    """The fields of RL as mypy sees them (numba's types: ``RL``; their columns:
    :mod:`battle.kernel.layout`); annotations only, read by nothing at run time."""

    RI: IntArray
    RF: FloatArray
    FI: IntArray
    FF: FloatArray
    TI: IntArray
    CT: IntArray
    MNF: IntArray
    HD: IntArray
    LS: FloatArray
    XD: IntArray
    DI: IntArray
    DF: FloatArray
    DR: IntArray
    DFF: IntArray
    DAF: IntArray


class Rules(_RuleFields, structref.StructRefProxy):  # type: ignore[misc]
    """The rules and two doctrines (the arrays of ``RL``) as one numba structure: a battle's
    call passes one reference, not fifteen arrays (each costs its own unboxing)."""


class Battle(_RuleFields, structref.StructRefProxy):  # type: ignore[misc]
    """One battle in the kernel: the arrays of ``ST`` and ``RL`` as fields (``b.U``, ``b.RI``)."""

    # the fields of ST, as mypy sees them (numba's types: ST; columns: battle.kernel.layout)
    U: IntArray
    P: FloatArray
    S: IntArray
    DK: IntArray
    DL: IntArray
    DB: FloatArray
    E: FloatArray
    OA: IntArray
    OG: FloatArray
    AB: IntArray
    AS: IntArray
    WK: IntArray
    WB: BoolArray
    CH: IntArray
    CG: FloatArray


structref.define_proxy(Battle, BattleType, list(FIELDS))
#: one battle as a numba structure (reference-counted: what a battle's entry point makes)
BS = BattleType(list(zip(FIELDS, (*ST.types, *RL.types), strict=True)))


class StructView(nt.Type):  # type: ignore[misc]
    """The numba type of a structure (a :class:`Battle` or :class:`Rules`) as the address of
    its fields, without the structure's reference count: how every rule function takes the
    battle (``BT``), and a battle's entry point its rules.

    A structure passed to a compiled function is counted up on entry and down on exit, with
    atomic operations; the rules are many small functions of one battle, and the counting
    cost a good part of a battle's time. The view is a bare address: whoever holds the
    structure (the battle's entry point, :func:`battle.kernel.bound.fight_arrays`, its
    caller, or a test holding a :class:`Battle`) keeps it alive while the view is used. A
    structure converts to its view wherever a compiled function taking the view is called
    with it, from compiled code or from Python.
    """

    def __init__(self, struct: Any) -> None:
        self.struct = struct
        super().__init__(name=f"StructView({struct.name})")

    @property
    def field_dict(self) -> dict[str, Any]:
        """The fields of the structure viewed, by name."""
        return self.struct.field_dict  # type: ignore[no-any-return]

    def can_convert_from(self, typingctx: Any, other: Any) -> Any:
        return Conversion.safe if other == self.struct else None


register_model(StructView)(models.OpaqueModel)


@infer_getattr
class _ViewFields(AttributeTemplate):  # type: ignore[misc]
    key = StructView

    def generic_resolve(self, typ: Any, attr: str) -> Any:
        return typ.field_dict.get(attr)


@lower_getattr_generic(StructView)  # type: ignore[untyped-decorator]
def _view_field(context: Any, builder: Any, typ: Any, val: Any, attr: str) -> Any:
    """A field of the viewed structure, as the structure's own getter gives it."""
    data = typ.struct.get_data_type()
    payload = builder.bitcast(val, context.get_value_type(data).as_pointer())
    field = getattr(cgutils.create_struct_proxy(data)(context, builder, ref=payload), attr)
    return impl_ret_borrowed(context, builder, typ.field_dict[attr], field)


@lower_cast(BattleType, StructView)  # type: ignore[untyped-decorator]
def _to_view(context: Any, builder: Any, fromty: Any, toty: Any, val: Any) -> Any:
    """A structure's view: the address of its fields."""
    meminfo = cgutils.create_struct_proxy(fromty)(context, builder, value=val).meminfo
    return context.nrt.meminfo_data(builder, meminfo)


@unbox(StructView)  # type: ignore[untyped-decorator]
def _unbox_view(typ: Any, obj: Any, c: Any) -> Any:
    """A structure passed from Python to a compiled function taking its view: the address
    of its fields (the caller holds the structure meanwhile)."""
    info = c.pyapi.object_getattr_string(obj, "_meminfo")
    meminfo = c.unbox(nt.MemInfoPointer(nt.voidptr), info).value
    data = c.context.nrt.meminfo_data(c.builder, meminfo)
    c.pyapi.decref(info)
    return NativeValue(data)


#: one battle as the rules take it (see :class:`StructView`)
BT = StructView(BS)
#: the fields of a Rules: RL's
RULE_FIELDS = FIELDS[len(ST.types) :]


@structref.register
class RulesType(nt.StructRef):  # type: ignore[misc]
    """The numba type of a :class:`Rules`."""


structref.define_proxy(Rules, RulesType, list(RULE_FIELDS))
RT = RulesType(list(zip(RULE_FIELDS, RL.types, strict=True)))
lower_cast(RulesType, StructView)(_to_view)
#: the rules as a battle's entry point reads them (see :class:`StructView`)
RV = StructView(RT)


#: what each annotation of a rule function may stand for: the numba types above as mypy sees
#: them (battle.kernel.jit.check_annotations checks each rule's against its signature)
ANNOTATED = {
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


def fields_address(struct: Any) -> int:
    """The address of the fields of ``struct`` (a :class:`Battle` or :class:`Rules`): what
    :func:`rules_at` takes (the caller keeps ``struct`` alive while it is used)."""
    return int(struct._meminfo.data)


@intrinsic  # type: ignore[untyped-decorator]
def rules_at(typingctx: Any, address: Any) -> Any:
    """The :class:`Rules` whose fields are at ``address`` (int64, :func:`fields_address`),
    as their view ``RV`` (compiled code only): a call from Python passes a number, which
    numba types at once, not the structure, which it types the slow way."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.inttoptr(args[0], ir.IntType(8).as_pointer())

    return RV(nt.int64), codegen


def compile_lazily(dispatcher: Any, signature: Any) -> Any:
    """``dispatcher`` (``njit`` without a signature, cached on disk) compiled, or loaded from
    the cache, for ``signature`` only, and only when first called: from compiled code (the
    caller is typed against the fixed signature, whatever its literal arguments: numba casts
    them, as when it was compiled up front) or from Python (the same, from the cache).
    Returns ``dispatcher``, changed in place."""
    typed = dispatcher.get_call_template

    def get_call_template(_args: Any, kws: Any) -> Any:
        dispatcher.compile(signature)
        return typed(signature.args, kws)

    def compile_for_args(*_args: Any, **_kws: Any) -> Any:
        return dispatcher.compile(signature)

    dispatcher.get_call_template = get_call_template
    dispatcher._compile_for_args = compile_for_args
    return dispatcher


@njit(cache=True, inline="always")  # type: ignore[untyped-decorator]
def new_battle() -> Any:
    """A new, empty :class:`Battle` (compiled code only; its fields are then set one by
    one)."""
    return structref.new(BS)


@njit(cache=True, inline="always")  # type: ignore[untyped-decorator]
def new_rules() -> Any:
    """A new, empty :class:`Rules` (compiled code only; its fields are then set one by
    one)."""
    return structref.new(RT)


@intrinsic  # type: ignore[untyped-decorator]
def _data(typingctx: Any, array: Any) -> Any:
    """The data pointer of ``array`` (compiled code only)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return nt.CPointer(array.dtype)(array), codegen


@intrinsic  # type: ignore[untyped-decorator]
def next_double(typingctx: Any, bitgen: Any) -> Any:
    """The next uniform in [0, 1) of the numpy bit generator whose ``bitgen_t`` (numpy's C
    interface of every bit generator: its state, then ``next_uint64``, ``next_uint32``,
    ``next_double`` and ``next_raw``, all pointers) is at address ``bitgen`` (int64): its
    ``next_double(state)``, which ``Generator.random`` calls for each uniform (compiled code
    only; the generator must stay alive meanwhile)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        byte_ptr = ir.IntType(8).as_pointer()
        fields = builder.inttoptr(args[0], byte_ptr.as_pointer())
        state = builder.load(fields)
        draw = builder.load(builder.gep(fields, [ir.Constant(ir.IntType(32), 3)]))
        fn = builder.bitcast(draw, ir.FunctionType(ir.DoubleType(), [byte_ptr]).as_pointer())
        return builder.call(fn, [state])

    return nt.float64(nt.int64), codegen


@njit(cache=True, inline="always")  # type: ignore[untyped-decorator]
def unmanaged(array: Any) -> Any:
    """A view of ``array`` that compiled code does not reference-count.

    Every array a compiled function receives, or reads from a structure, is reference-counted
    with atomic operations, and the battle's rules are many small functions over a few
    arrays: counting them cost most of a battle's time. A view over the same data without a
    reference count costs nothing to pass; the caller (:func:`battle.engine.fight`) keeps the
    arrays alive while the battle runs.
    """
    return carray(_data(array), array.shape)


def numba_user_cache_dir() -> str:
    """numba's user-wide cache directory (where it caches compiled code of a read-only
    install)."""
    from numba.misc.appdirs import AppDirs

    return str(AppDirs(appname="numba", appauthor=False).user_cache_dir)


#: how many cached functions were loaded the lean way in this process (tests read it)
lean_loads = {"count": 0}


def install_lean_loads() -> Callable[..., Any] | None:
    """Make numba's ``Cache.load_overload`` lean (:func:`lean_cache_loads`) from now on;
    returns the method it replaced (None: this numba's cache has no such methods, nothing
    was changed)."""
    from numba.core import caching
    from numba.core.runtime import rtsys

    original: Callable[..., Any] | None = getattr(caching.Cache, "load_overload", None)
    guard = getattr(caching.Cache, "_guard_against_spurious_io_errors", None)
    if original is None or guard is None or not hasattr(caching.Cache, "_load_overload"):
        return None

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        rtsys.initialize(target_context)  # what the compiled code calls: set up once
        with self._guard_against_spurious_io_errors():
            data = self._load_overload(sig, target_context)
            if data is not None:
                lean_loads["count"] += 1
            return data
        return None  # the guard swallowed a spurious I/O error: numba compiles instead

    caching.Cache.load_overload = load_overload
    return original


@contextlib.contextmanager
def lean_cache_loads() -> Iterator[None]:
    """While in the block, numba loads cached compiled functions after setting up only its
    runtime (NRT, the reference-counted memory the compiled code allocates), not after
    refreshing every compiler registry (``Cache.load_overload`` otherwise calls
    ``target_context.refresh()`` first: about 250 registries, 0.12 s of CPU, although
    loading machine code from the cache types and lowers nothing).

    Restored on leaving the block, whatever happens. A function that is not in the cache is
    compiled as usual: numba's compiler refreshes the context in full itself. With a numba
    whose cache has no such method, nothing is changed.
    """
    from numba.core import caching

    original = install_lean_loads()
    try:
        yield
    finally:
        if original is not None:
            caching.Cache.load_overload = original
