"""Hypothesis strategies for fuzzing the loaders and the engine: maps, overrides, forces.

Maps are written to a temporary file in one of the four supported formats (the project's
YAML with ``sides:``, neutral YAML without, node-link JSON, GraphML), sometimes as a person
would type them (ids unquoted) rather than as a YAML library dumps them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx
import yaml
from hypothesis import strategies as st

__all__ = [
    "FORCE_FLAGS",
    "MapCase",
    "idents",
    "map_cases",
    "override_items",
    "write_map_case",
]

#: Strings that YAML 1.1 (PyYAML's safe_load) reads as something other than a string, the
#: log's own road separator, and ids with spaces, markup and YAML syntax.
SPECIAL_IDS = [
    "no",
    "No",
    "NO",
    "yes",
    "Yes",
    "on",
    "On",
    "off",
    "OFF",
    "y",
    "n",
    "true",
    "false",
    "null",
    "Null",
    "~",
    "010",
    "0o7",
    "0x1F",
    "1e3",
    "1_000",
    "+5",
    "-3",
    "12",
    "0",
    "2.5",
    ".inf",
    ".nan",
    "<<",
    "=",
    "a~b",
    "~a",
    "b~",
    "~~",
    "A B",
    " lead",
    "trail ",
    "- a",
    "a: b",
    "#x",
    "[x]",
    "{x}",
    "*x",
    "&x",
    "!x",
    "%x",
    "@x",
    "`x",
    "|",
    ">",
    "x\ny",
    "é",
    "ü~ß",
    "城",
    "🙂",
    "[bold]x[/]",
    "$(x)",
    "a,b",
    "a;b",
]

idents = st.one_of(
    st.sampled_from(SPECIAL_IDS),
    st.text(min_size=1, max_size=8),  # all of Unicode but surrogates, control characters too
    st.text(alphabet="ab~ -_.:", min_size=1, max_size=5),
)
#: The same without the "~" that road places still use as their separator (see
#: tests/fuzz/test_fuzz_maps.py: tilde ids are fuzzed by a test of their own).
idents_without_tilde = idents.filter(lambda ident: "~" not in ident)

good_hours = st.one_of(
    st.integers(1, 12),
    st.floats(min_value=0.01, max_value=30, allow_nan=False).map(lambda h: round(h, 3)),
    st.sampled_from([0.1, 0.25, 1e-6, 1e-300, 1e6, 1e300, 7.333333333, 0.001, 500.0]),
)
bad_hours = st.sampled_from([0, -1, -0.5, True, False, "abc", "", None, "3", [1], {"a": 1}])
kinds = st.one_of(
    st.sampled_from(["normal", "normal", "normal", "rough", "impassable", "road", "sea", "trail"]),
    st.text(min_size=1, max_size=6),
)


@dataclass
class MapCase:
    """A fuzzed map: its document, the format to write it in and how to write YAML."""

    ids: list[str]
    roads: list[tuple[int, int, dict[str, Any]]]
    positions: dict[int, tuple[float, float]]
    objectives: dict[int, Any]
    sides: dict[str, Any] | None
    fmt: str
    hand_written: bool
    extra: dict[str, Any] = field(default_factory=dict)


@st.composite
def map_cases(draw: st.DrawFn, max_junctions: int = 9, tilde: bool = True) -> MapCase:
    """A random road net: a spanning tree plus extra roads, odd ids, odd hours, maybe sides.

    ``tilde=False`` draws ids without ``~``.
    """
    n = draw(st.integers(2, max_junctions))
    pool = idents if tilde else idents_without_tilde
    ids = draw(st.lists(pool, min_size=n, max_size=n, unique=True))
    bad = draw(st.booleans()) and draw(st.booleans())  # a quarter of the maps break a rule
    roads: list[tuple[int, int, dict[str, Any]]] = []

    def attrs() -> dict[str, Any]:
        out: dict[str, Any] = {}
        if draw(st.integers(0, 9)) > 0:
            out["kind"] = draw(kinds)
        if draw(st.integers(0, 5)) > 0:
            out["hours"] = draw(bad_hours if bad and draw(st.booleans()) else good_hours)
        return out

    for i in range(1, n):
        roads.append((draw(st.integers(0, i - 1)), i, attrs()))
    for _ in range(draw(st.integers(0, n))):
        a, b = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        if a != b or bad:
            roads.append((a, b, attrs()))
    placed = draw(st.sampled_from(["all", "none", "some"]))
    positions = {
        i: (draw(st.floats(-1e3, 1e3)), draw(st.floats(-1e3, 1e3)))
        for i in range(n)
        if placed == "all" or (placed == "some" and draw(st.booleans()))
    }
    objectives = {
        i: draw(st.sampled_from([True, 1, 2, 5])) for i in range(n) if draw(st.integers(0, 3)) == 0
    }
    fmt = draw(st.sampled_from(["project", "neutral", "json", "graphml"]))
    sides = None
    if fmt == "project":
        red, blue = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2, unique=True))
        sides = {
            "red": {"base": ids[red], "start": [ids[red]]},
            "blue": {"base": ids[blue], "start": [ids[blue]]},
        }
        if bad and draw(st.booleans()):
            sides["blue"]["base"] = draw(st.sampled_from([None, ids[red], "nowhere", 5]))
    return MapCase(ids, roads, positions, objectives, sides, fmt, draw(st.booleans()))


_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_ .-]*")


def _scalar(value: Any, hand_written: bool) -> str:
    """A YAML scalar: as a person types it (unquoted where it looks plain) or dumped."""
    if hand_written and isinstance(value, str) and _PLAIN.fullmatch(value):
        return value
    return json.dumps(value, ensure_ascii=False)  # JSON is YAML: always read back as written


def _yaml_text(case: MapCase) -> str:
    s = lambda v: _scalar(v, case.hand_written)  # noqa: E731
    lines = ["name: fuzzed map", "junctions:"]
    for i, ident in enumerate(case.ids):
        parts = [f"id: {s(ident)}"]
        if i in case.positions:
            x, y = case.positions[i]
            parts.append(f"pos: [{x!r}, {y!r}]")
        if i in case.objectives:
            parts += ["objective: true", f"value: {int(case.objectives[i])}"]
        lines.append("  - {" + ", ".join(parts) + "}")
    lines.append("roads:")
    for a, b, attrs in case.roads:
        attr_text = ", ".join(f"{k}: {s(v)}" for k, v in attrs.items())
        lines.append(f"  - [{s(case.ids[a])}, {s(case.ids[b])}, {{{attr_text}}}]")
    if case.sides is not None:
        lines.append("sides:")
        for side, setup in case.sides.items():
            starts = ", ".join(s(x) for x in setup["start"])
            lines += [f"  {side}:", f"    base: {s(setup['base'])}", f"    start: [{starts}]"]
    return "\n".join(lines) + "\n"


def _graph(case: MapCase) -> nx.Graph:
    graph = nx.MultiGraph() if len({(a, b) for a, b, _ in case.roads}) < len(case.roads) else None
    graph = graph if graph is not None else nx.Graph()
    for i, ident in enumerate(case.ids):
        node: dict[str, Any] = {}
        if i in case.positions:
            node["x"], node["y"] = case.positions[i]
        if i in case.objectives:
            node["value"] = int(case.objectives[i])
        graph.add_node(ident, **node)
    for a, b, attrs in case.roads:
        clean = {k: v for k, v in attrs.items() if isinstance(v, str | int | float)}
        graph.add_edge(case.ids[a], case.ids[b], **clean)
    return graph


def write_map_case(case: MapCase, folder: Path) -> Path:
    """Write ``case`` to a file in its format; return the path."""
    if case.fmt in ("project", "neutral"):
        path = folder / "map.yaml"
        path.write_text(_yaml_text(case), encoding="utf-8")
    elif case.fmt == "json":
        path = folder / "map.json"
        data = nx.node_link_data(_graph(case), edges="links")
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    else:
        path = folder / "map.graphml"
        try:
            nx.write_graphml(_graph(case), path)
        except (ValueError, KeyError):  # ids XML cannot hold: write them as the user might
            path.write_text("<graphml><graph></graph></graphml>", encoding="utf-8")
    return path


def _rules_keys() -> list[str]:
    root = Path(__file__).resolve().parents[2] / "config" / "rules.yaml"
    document = yaml.safe_load(root.read_text(encoding="utf-8"))
    keys: list[str] = []

    def walk(node: Any, prefix: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, f"{prefix}.{k}" if prefix else str(k))
        else:
            keys.append(prefix)

    walk(document, "")
    return keys


RULES_KEYS = _rules_keys()

override_values = st.one_of(
    st.sampled_from(
        [
            "true",
            "false",
            "null",
            "~",
            "0",
            "-1",
            "1",
            "2",
            "3",
            "15",
            "100",
            "101",
            "1e400",
            "10000000000000000000000",
            "2.5",
            "-0.5",
            "abc",
            "2d6",
            "3d10",
            "d100",
            "[]",
            "[1, 2]",
            "{}",
            "{a: 1}",
            "''",
            "on",
            "no",
            "010",
            ".inf",
            "&a [*a]",
            "!!python/int 1",
            "1440",
            "0.0",
            "[{max_roll: 100, infantry: 4}]",
            "[{max_roll: 10, infantry: 4}]",
        ]
    ),
    st.integers(-5, 400).map(str),
    st.text(max_size=6),
)
override_keys = st.one_of(
    st.sampled_from(RULES_KEYS),
    st.sampled_from(
        [
            "battle",
            "campaign",
            "nope",
            "battle.nope",
            "campaign.doctrines.bold",
            "campaign.doctrines.balanced.attack_ratio",
            "battle.max_turns",
        ]
    ),
)
override_items = st.lists(
    st.tuples(override_keys, override_values).map(lambda kv: f"{kv[0]}={kv[1]}"),
    min_size=1,
    max_size=3,
)

#: Force flags: small real forces, typos, and sizes far past the unit cap.
FORCE_FLAGS = st.one_of(
    st.builds(
        lambda i, c, a, g: f"{i}i{c}c{a}a{g}",
        st.integers(0, 8),
        st.integers(0, 2),
        st.integers(0, 2),
        st.sampled_from(["", ":veteran", ":raw", ":elite", ":regular", ":bad", ":"]),
    ),
    st.builds(
        lambda n, letter: f"{n}{letter}",
        st.sampled_from([201, 10**6, 99999999999, 10**30, 10**400]),
        st.sampled_from(["i", "c", "a"]),
    ),
    st.text(alphabet=st.characters(exclude_characters="\x00"), max_size=8),  # argv has no NUL
)
