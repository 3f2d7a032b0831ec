"""SimPy through its public API only (issue 26, item 3): no product module (``campaign/``,
``battle/``, ``maps/``) reads or writes a private attribute of a SimPy object, nor imports a
private name of SimPy. The campaign's clock (``campaign/schedule.py``) is an environment of
its own, with attributes of its own (its processes are its own routines: SimPy's Process
would set a private attribute of it); nor does any product file name ``_active_proc``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import campaign

#: attribute names private to SimPy's Environment, Event and Process (simpy 4.1)
PRIVATE = frozenset(
    {
        "_now",
        "_queue",
        "_eid",
        "_active_proc",
        "_target",
        "_resume",
        "_ok",
        "_value",
        "_defused",
        "_generator",
        "_delay",
        "_interrupt",
    }
)
PROJECT = Path(campaign.__file__).resolve().parent.parent
#: the product's packages (``maps/`` holds data only today: scanned should code appear)
PRODUCT = ("campaign", "battle", "maps")


def private_uses(source: str, name: str = "<source>") -> list[str]:
    """Each use of a private SimPy name in Python ``source``, as ``name:line: text``: an
    attribute of :data:`PRIVATE` read or written on anything but ``self``, a name starting
    with ``_`` imported from ``simpy`` or any of its modules, or a private SimPy module."""
    found = []
    lines = source.splitlines()

    def note(node: ast.AST) -> None:
        line = getattr(node, "lineno", 0)
        found.append(f"{name}:{line}: {lines[line - 1].strip() if line else ''}")

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute):
            on_self = isinstance(node.value, ast.Name) and node.value.id == "self"
            if node.attr in PRIVATE and not on_self:
                note(node)
            elif node.attr.startswith("_") and _is_simpy(node.value):
                note(node)  # simpy.core._private
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "simpy":
            if any(part.startswith("_") for part in (node.module or "").split(".")) or any(
                alias.name.startswith("_") for alias in node.names
            ):
                note(node)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "simpy" and any(p.startswith("_") for p in parts):
                    note(node)
    return found


def _is_simpy(node: ast.expr) -> bool:
    """Whether ``node`` is ``simpy`` or one of its modules (``simpy.core``, ...)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "simpy"


def _product_files() -> list[Path]:
    return sorted(p for package in PRODUCT for p in (PROJECT / package).rglob("*.py"))


def test_no_simpy_private_attribute_in_the_product():
    files = _product_files()
    assert PROJECT / "campaign" / "schedule.py" in files
    found = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        found += private_uses(text, str(path.relative_to(PROJECT)))
        found += [f"{path.relative_to(PROJECT)}: _active_proc"] * ("_active_proc" in text)
    assert found == []


#: lines of campaign/schedule.py as it was at 8745f73 (each reached past SimPy's API)
_BEFORE = """
def now_of(env):
    return env._now

def may_wake(env, process):
    return process._value is PENDING and process is not env._active_proc

def ring(env, event):
    event._ok, event._value = True, None
    env.schedule(event, URGENT)

def resume(_):
    target = process._target
    target.callbacks.remove(process._resume)
"""


@pytest.mark.parametrize(
    ("source", "uses"),
    [
        (_BEFORE, 7),
        ("from simpy.events import PENDING, _describe_frame\n", 1),
        ("import simpy._private\n", 1),
        ("x = simpy.core._secret\n", 1),
        ("from simpy.core import EmptySchedule, StopSimulation\n", 0),
        ("class Clock:\n    def f(self):\n        return self._active_proc\n", 0),
        ("now = env.now\nvalue = ledger.objective_value(side)\n", 0),
    ],
)
def test_the_scan_finds_what_it_looks_for(source, uses):
    """The scan fails on the scheduler as it was before its clock (issue 26) and passes
    public use."""
    assert len(private_uses(source)) == uses
