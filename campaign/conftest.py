"""pytest's doctests of the package (``--doctest-modules``) with compiled modules in use.

A module compiled by mypyc (:mod:`campaign.native`) is imported from its extension, not its
``.py`` file, which pytest's doctest collection refuses ("import file mismatch"), and its
functions and classes keep no docstrings. While the compiled modules are in use, the
examples of such a module are read from its source instead and run in the compiled
module's namespace: they test what ships (issue 26, item 8). Not imported by the package.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import io
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

from campaign import native

_COMPILED = {native.source_path(m).resolve(): m for m in native.MODULES}


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(
    file_path: Path, parent: pytest.Collector
) -> Generator[None, list[pytest.Collector], list[pytest.Collector]]:
    """A compiled module's file, while the compiled modules are in use: its doctests run on
    the compiled module (:class:`CompiledDoctests`) instead of pytest's, which import the
    ``.py`` file."""
    collected: list[pytest.Collector] = yield
    module = _COMPILED.get(file_path.resolve())
    if module is None or native.status() != "compiled":
        return collected
    return [CompiledDoctests.from_parent(parent, path=file_path, module=module)]


def _docstrings(tree: ast.Module, prefix: str) -> Iterator[tuple[str, str, int]]:
    """``(name, docstring, line)`` of the module and of every function and class in it, at
    any depth (a class's methods included), named as :class:`doctest.DocTestFinder` names
    them (``module.Class.method``)."""
    doc = ast.get_docstring(tree, clean=False)
    if doc is not None:
        yield prefix, doc, 1

    def walk(body: list[ast.stmt], outer: str) -> Iterator[tuple[str, str, int]]:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{outer}.{node.name}"
                doc = ast.get_docstring(node, clean=False)
                if doc is not None:
                    yield name, doc, node.body[0].lineno
                if isinstance(node, ast.ClassDef):
                    yield from walk(node.body, name)

    yield from walk(tree.body, prefix)


class CompiledDoctests(pytest.File):
    """The doctests of one compiled module: parsed from its source file, run with the
    compiled module's globals (as ``DocTestFinder`` would give them)."""

    def __init__(self, *, module: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.module = module

    def collect(self) -> Iterator[CompiledDoctest]:
        compiled = importlib.import_module(self.module)
        parser = doctest.DocTestParser()
        tree = ast.parse(self.path.read_text(encoding="utf-8"))
        for name, doc, line in _docstrings(tree, self.module):
            test = parser.get_doctest(doc, dict(compiled.__dict__), name, str(self.path), line)
            if test.examples:
                yield CompiledDoctest.from_parent(self, name=name, test=test)


class CompiledDoctest(pytest.Item):
    """One docstring's examples, run by :class:`doctest.DocTestRunner` (pytest's default
    option ``ELLIPSIS``); a failure shows the runner's report."""

    def __init__(self, *, test: doctest.DocTest, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.test = test

    def runtest(self) -> None:
        report = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        if runner.run(self.test, out=report.write).failed:
            raise CompiledDoctestFailed(report.getvalue())

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> str:  # type: ignore[override]
        if isinstance(excinfo.value, CompiledDoctestFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, self.test.lineno, f"[doctest] {self.name}"


class CompiledDoctestFailed(Exception):
    """The examples of a compiled module's docstring did not give what they show."""
