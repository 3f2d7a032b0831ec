"""The printers and the diary import one way (issue 29; DESIGN.md "No cycles"): among the
modules of campaign/printers and campaign/report, counting imports inside functions and
under TYPE_CHECKING as import-linter does, no module imports itself back."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("campaign/printers", "campaign/report")


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> nx.DiGraph:
    files = [p for pkg in PACKAGES for p in sorted((ROOT / pkg).glob("*.py"))]
    ours = {_module(p) for p in files}
    graph = nx.DiGraph()
    graph.add_nodes_from(ours)
    for path in files:
        here = _module(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                if name in ours and name != here and not (here.startswith(name + ".")):
                    graph.add_edge(here, name)
    return graph


def test_the_printers_and_the_diary_have_no_import_cycle():
    graph = _graph()
    assert graph.number_of_edges() > 20  # the graph was read
    cycles = list(nx.simple_cycles(graph))
    assert cycles == [], cycles[:3]
