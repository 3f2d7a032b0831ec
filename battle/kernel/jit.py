"""The one decorator of the battle kernel: numba's ``njit`` with a fixed signature and an
on-disk cache.

Every rule function is compiled once, for the kernel's own types: ``BT``, one battle (its
arrays, :mod:`battle.kernel.layout`, with the rules and the two doctrines as arrays,
:func:`battle.kernel.pack.doctrine_arrays`, in one numba structure: a call passes one
reference, not two dozen arrays), 64-bit integers and floats. Fixed signatures keep
numba from compiling a copy per literal argument, and make the first (cold) compilation a
one-off of a few tens of seconds; later runs load the compiled code from ``__pycache__``.
``NUMBA_DISABLE_JIT=1`` runs the kernel as plain Python (slow, for debugging).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from llvmlite import ir
from numba import carray, config, njit
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

from battle.kernel import COLD

__all__ = [
    "A1B",
    "A1F",
    "A1I",
    "A2B",
    "A2I",
    "B1",
    "BS",
    "BT",
    "F8",
    "I8",
    "LAY",
    "RL",
    "RT",
    "RULE_FIELDS",
    "RV",
    "ST",
    "VOID",
    "Battle",
    "Rules",
    "StructView",
    "fields_address",
    "next_double",
    "rule",
    "rules_at",
    "unmanaged",
]

F = TypeVar("F", bound=Callable[..., Any])

I8, F8, B1, VOID = nt.int64, nt.float64, nt.boolean, nt.void
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
#: the rules: RI, RF, FI, FF, TI, CT, MNF, HD, LS, XD, then the doctrines DI, DF, DR, DFF, DAF
RL = nt.Tuple((A1I, A1F, A2I, A2F, A2I, A2I, A2I, A2I, A2F, A2I, A2I, A2F, A2I, A2I, A2I))

#: the fields of a Battle: ST's arrays, then RL's
FIELDS = (
    *("U", "P", "S", "DK", "DL", "DB", "E", "OA", "OG", "AB", "AS", "WK", "WB", "CH", "CG"),
    *("RI", "RF", "FI", "FF", "TI", "CT", "MNF", "HD", "LS", "XD"),
    *("DI", "DF", "DR", "DFF", "DAF"),
)


@structref.register
class BattleType(nt.StructRef):  # type: ignore[misc]
    """The numba type of a :class:`Battle`."""


class Battle(structref.StructRefProxy):  # type: ignore[misc]
    """One battle in the kernel: the arrays of ``ST`` and ``RL`` as fields (``b.U``, ``b.RI``)."""


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


class Rules(structref.StructRefProxy):  # type: ignore[misc]
    """The rules and two doctrines (the arrays of ``RL``) as one numba structure: a battle's
    call passes one reference, not fifteen arrays (each costs its own unboxing)."""


structref.define_proxy(Rules, RulesType, list(RULE_FIELDS))
RT = RulesType(list(zip(RULE_FIELDS, RL.types, strict=True)))
lower_cast(RulesType, StructView)(_to_view)
#: the rules as a battle's entry point reads them (see :class:`StructView`)
RV = StructView(RT)


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
        if COLD or config.DISABLE_JIT:
            compiled: F = njit(signature, cache=True, inline=how)(fn)
            return compiled
        lazy = njit(cache=True, inline=how)(fn)
        typed = lazy.get_call_template

        def get_call_template(_args: Any, kws: Any) -> Any:
            # a compiled caller calls it with the fixed signature, whatever its literal
            # arguments (numba casts them), as when it was compiled up front
            lazy.compile(signature)
            return typed(signature.args, kws)

        def compile_for_args(*_args: Any, **_kws: Any) -> Any:
            return lazy.compile(signature)  # a call from Python: the same, from the cache

        lazy.get_call_template = get_call_template
        lazy._compile_for_args = compile_for_args
        return lazy  # type: ignore[no-any-return]

    return wrap


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
