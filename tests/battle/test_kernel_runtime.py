"""numba's internals in one module (issue 27 item 4): battle/kernel/runtime.py is the only
source of the product that imports numba.core, numba.experimental (structref), numba.misc,
llvmlite or numba's intrinsics; and the kernel's annotations, which mypy checks, must say
the numba signature each rule function is compiled for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from battle.kernel.jit import A1I, A2I, B1, BT, F8, I8, VOID, IntArray, check_annotations

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ROOT / "battle" / "kernel" / "runtime.py"
#: what only the runtime may use: numba's internals, its code generator, its intrinsics
INTERNAL = re.compile(
    r"^\s*(from|import)\s+(numba\.(core|experimental|misc|np|cpython|typed)|llvmlite)\b"
    r"|\bstructref\b|\bintrinsic\b|\._compile_for_args\b|\bget_call_template\b",
    re.MULTILINE,
)


def test_only_the_runtime_uses_numbas_internals() -> None:
    sources = sorted(
        [*ROOT.joinpath("battle").rglob("*.py"), *ROOT.joinpath("campaign").rglob("*.py")]
    )
    assert len(sources) > 100
    users = sorted(
        str(p.relative_to(ROOT)) for p in sources if INTERNAL.search(p.read_text("utf-8"))
    )
    assert users == ["battle/kernel/runtime.py"]


def test_the_pattern_finds_an_internal_import() -> None:
    assert INTERNAL.search("from numba.core import cgutils\n")
    assert INTERNAL.search("    from numba.experimental import structref\n")
    assert INTERNAL.search("from llvmlite import ir\n")
    assert not INTERNAL.search("from numba import njit\nfrom numba import types as nt\n")


def _in_state(U: IntArray, DI: IntArray, side: int, e: int) -> bool:
    return bool(U[e, 0] == DI[side, 0])


def test_annotations_that_say_the_signature_pass() -> None:
    check_annotations(_in_state, B1(A2I, A2I, I8, I8))
    check_annotations(_in_state, B1(A2I, A1I, I8, I8))  # an IntArray of one dimension too


@pytest.mark.parametrize(
    "signature",
    [
        I8(A2I, A2I, I8, I8),  # returns an int, annotated bool
        B1(A2I, A2I, F8, I8),  # a float side, annotated int
        B1(BT, A2I, I8, I8),  # the battle, annotated an array
    ],
)
def test_annotations_that_do_not_say_the_signature_are_refused(signature: object) -> None:
    with pytest.raises(TypeError, match="_in_state"):
        check_annotations(_in_state, signature)


def test_an_unannotated_rule_is_refused() -> None:
    def bare(b, u):  # type: ignore[no-untyped-def]
        return None

    with pytest.raises(TypeError, match="bare"):
        check_annotations(bare, VOID(BT, I8))
