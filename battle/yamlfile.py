"""Read one YAML file safely and within bounds, with one-paragraph errors of a chosen class.

Shared by the rules loader, the forces file, the batch spec, ``--set`` values and (through
:func:`bounded_loader`) the map reader, so that a missing, unreadable, binary, malformed or
oversized file is reported the same way everywhere: the file, the line and column, what is
wrong and how to fix it.

Bounds (checked before the document is built into Python objects):

- a file is at most :data:`MAX_YAML_BYTES` bytes;
- a document expands to at most :data:`MAX_YAML_NODES` nodes, counting every use of an
  alias (``*name``) as a full copy of its anchor: an 800-byte "billion laughs" alias bomb
  is refused instead of being expanded by whatever walks it next. Ordinary anchors and
  merge keys (``<<: *defaults``) stay allowed.

Values stay as written: numbers, strings, true/false, null, lists and mappings only. A date
(``2001-01-01``) reads as the string it is (PyYAML's implicit timestamp is dropped), and an
explicit tag other than the core ones (``!!timestamp``, ``!!binary``, ``!!set``, ``!foo``)
is refused with its key path (:class:`YamlTagRefused`) before any value is built.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import yaml

from battle.errors import ConfigError, SimulatorError

__all__ = [
    "MAX_YAML_BYTES",
    "MAX_YAML_NODES",
    "READ_FIX",
    "TAG_FIX",
    "BoundedSafeLoader",
    "YamlTagRefused",
    "YamlTooLarge",
    "bounded_loader",
    "check_file_size",
    "file_error",
    "parse_yaml_text",
    "read_text_file",
    "read_yaml_file",
    "safe_load_text",
]

#: Largest YAML file read (bytes): 20 MiB, ten times the 408-junction Waterloo road net.
MAX_YAML_BYTES = 20 * 2**20
#: Most nodes a YAML document may expand to, every alias counted as a copy of its anchor.
MAX_YAML_NODES = 2_000_000


class YamlTooLarge(yaml.YAMLError):
    """A YAML document whose aliases expand past :data:`MAX_YAML_NODES` nodes."""


class YamlTagRefused(yaml.YAMLError):
    """A YAML value with a tag that would make it something other than a plain value.

    ``path`` is its key path (``campaign.day_start_minutes``, ``roads[3].hours``; empty at
    the top level), ``tag`` the tag as written (``!!timestamp``).
    """

    def __init__(self, path: str, tag: str, mark: Any = None) -> None:
        self.path = path
        self.tag = tag
        self.problem_mark = mark
        where = f" at {path}" if path else ""
        super().__init__(
            f"the YAML tag {tag}{where} is not allowed: values are numbers, strings, "
            "true/false, lists and mappings"
        )


_CORE = "tag:yaml.org,2002:"
#: Tags a document may hold (resolved implicitly or written out): the plain values.
ALLOWED_TAGS = frozenset(
    _CORE + name for name in ("str", "int", "float", "bool", "null", "seq", "map", "merge")
)


def _shown_tag(tag: str) -> str:
    return "!!" + tag.removeprefix(_CORE) if tag.startswith(_CORE) else tag


def check_tags(root: yaml.Node) -> None:
    """Refuse any node of ``root`` whose tag is not a plain value's (:data:`ALLOWED_TAGS`).

    Raises
    ------
    YamlTagRefused
        Naming the first such node's key path and tag.
    """
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, str]] = [(root, "")]
    while stack:
        node, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.tag not in ALLOWED_TAGS:
            raise YamlTagRefused(path, _shown_tag(node.tag), node.start_mark)
        if isinstance(node, yaml.SequenceNode):
            stack.extend((kid, f"{path}[{i}]") for i, kid in reversed(list(enumerate(node.value))))
        elif isinstance(node, yaml.MappingNode):
            for key, value in reversed(node.value):
                name = key.value if isinstance(key, yaml.ScalarNode) else "?"
                stack.append((value, f"{path}.{name}" if path else str(name)))
                stack.append((key, path))


def _expanded_nodes(root: yaml.Node, limit: int) -> int:
    """Nodes of ``root`` with every alias expanded; stops early past ``limit``.

    Iterative (no recursion limit) and memoised by node identity (an anchor is sized once).
    """
    sizes: dict[int, int] = {}
    open_: set[int] = set()  # nodes whose children are being sized: met again = a cycle
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        if not children_done and id(node) in open_:
            return limit + 1  # an alias inside its own anchor expands without end
        if isinstance(node, yaml.ScalarNode):
            sizes[id(node)] = 1
            continue
        kids: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            kids = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            kids = [part for pair in node.value for part in pair]
        if children_done:
            total = 1 + sum(sizes.get(id(k), 0) for k in kids)
            if total > limit:
                return total
            sizes[id(node)] = total
        else:
            open_.add(id(node))
            stack.append((node, True))
            stack.extend((k, False) for k in kids if id(k) not in sizes)
    return sizes.get(id(root), 0)


def bounded_loader(base: type[Any], limit: int = MAX_YAML_NODES) -> type[Any]:
    """A subclass of the PyYAML loader ``base`` that keeps values as written and bounded.

    Dates are not turned into ``datetime.date`` (no implicit timestamp).

    Raises
    ------
    YamlTooLarge
        From ``yaml.load``, before any Python object is built, when the document's aliases
        expand to more than ``limit`` nodes.
    YamlTagRefused
        Likewise, when a value carries a tag other than a plain value's (``!!timestamp``).
    """

    class Bounded(base):  # type: ignore[misc]
        #: the base's implicit types without the timestamp: a date stays the text written
        yaml_implicit_resolvers: ClassVar[dict[str, list[tuple[str, Any]]]] = {
            first: [(tag, rx) for tag, rx in resolvers if tag != _CORE + "timestamp"]
            for first, resolvers in base.yaml_implicit_resolvers.items()
        }

        def get_single_node(self) -> Any:
            node = super().get_single_node()
            if node is not None:
                size = _expanded_nodes(node, limit)
                if size > limit:
                    raise YamlTooLarge(f"its aliases (*name) expand to more than {limit:,} values")
                check_tags(node)
            return node

    Bounded.__name__ = Bounded.__qualname__ = f"Bounded{base.__name__}"
    return Bounded


#: ``yaml.SafeLoader`` (libyaml's parser when present) with the alias-expansion bound.
BoundedSafeLoader = bounded_loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def safe_load_text(text: str) -> Any:
    """``yaml.safe_load`` with the alias-expansion bound.

    Raises
    ------
    yaml.YAMLError
        Not valid YAML, :class:`YamlTooLarge` or :class:`YamlTagRefused`.
    """
    return yaml.load(text, Loader=BoundedSafeLoader)


#: How to fix a refused tag (every reader says the same).
TAG_FIX = "Write the value without the tag (a date as a quoted string, '2001-01-01')."


def _where(exc: yaml.YAMLError) -> str | None:
    mark = getattr(exc, "problem_mark", None)
    return f"line {mark.line + 1}, column {mark.column + 1}" if mark else None


def _size(n: int) -> str:
    return f"{n / 2**20:.1f} MiB" if n >= 2**20 else f"{n:,} bytes"


def check_file_size(
    path: Path, error: type[SimulatorError], limit: int = MAX_YAML_BYTES, what: str = "file"
) -> None:
    """Refuse a file larger than ``limit`` bytes before reading it.

    Raises
    ------
    SimulatorError
        (of class ``error``) naming the size, the limit and the fix.
    """
    try:
        size = path.stat().st_size
    except OSError:
        return  # missing or unreadable: the read that follows says so
    if size > limit:
        raise error(
            f"the {what} is {_size(size)}, more than the limit of {_size(limit)}",
            source=str(path),
            fix="Give a smaller file (split it, or drop what the simulator does not use).",
        )


#: the fix of a file that exists but cannot be read
READ_FIX = "Check the path and its permissions."


def file_error(
    error: type[SimulatorError],
    doing: str,
    path: str | Path,
    exc: OSError,
    fix: str,
    key: str | None = None,
) -> SimulatorError:
    """``cannot DOING (why)`` of class ``error``, for a file the system would not open, read
    or write (``why``: ``exc``'s text, e.g. "Permission denied"), naming ``path``, ``key`` (the
    option) and ``fix``."""
    return error(f"cannot {doing} ({exc.strerror or exc})", source=str(path), key=key, fix=fix)


def read_text_file(
    path: Path,
    error: type[SimulatorError],
    *,
    not_found: str = "file not found",
    not_found_fix: str = "Check the path.",
    what: str = "file",
) -> str:
    """The UTF-8 text of ``path``.

    Raises
    ------
    SimulatorError
        (of class ``error``) If the file is missing (``not_found``, ``not_found_fix``), not
        UTF-8 text (a binary file, or another encoding such as UTF-16), or unreadable;
        ``what`` names the file in the messages ("map file").
    """
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(not_found, source=str(path), fix=not_found_fix) from None
    except UnicodeDecodeError:
        raise error(
            f"not a text file: the {what} is not UTF-8 (a binary file, or another encoding "
            "such as UTF-16)",
            source=str(path),
            fix=f"Save the {what} as UTF-8 text, or give the {what} itself.",
        ) from None
    except OSError as exc:
        raise file_error(error, f"read the {what}", path, exc, READ_FIX) from None


def read_yaml_file(
    path: str | Path,
    error: type[SimulatorError] = ConfigError,
    *,
    not_found: str = "file not found",
) -> Any:
    """Read and parse one YAML file.

    Parameters
    ----------
    path
        The file.
    error
        The :class:`SimulatorError` subclass to raise (ConfigError, ForceError, ...).
    not_found
        The message when the file does not exist.

    Raises
    ------
    SimulatorError
        (of class ``error``) If the file is missing, unreadable, not UTF-8 text, larger
        than :data:`MAX_YAML_BYTES`, not valid YAML (the message gives line and column, on
        one line), or its aliases expand past :data:`MAX_YAML_NODES` nodes.
    """
    path = Path(path)
    check_file_size(path, error)
    text = read_text_file(path, error, not_found=not_found)
    return parse_yaml_text(text, path, error)


def parse_yaml_text(
    text: str,
    path: Path,
    error: type[SimulatorError] = ConfigError,
    load: Callable[[str], Any] = safe_load_text,
) -> Any:
    """Parse ``text``, the contents of the YAML file ``path``, with ``load`` (by default
    :func:`safe_load_text`; the map reader passes its own loader, built with
    :func:`bounded_loader`).

    Raises
    ------
    SimulatorError
        (of class ``error``, naming ``path``) If the text is not valid YAML (the message
        gives line and column, on one line, and says when a tab is the trouble), has a tag
        other than the core ones, or its aliases expand past :data:`MAX_YAML_NODES` nodes.
    """
    try:
        return load(text)
    except YamlTooLarge as exc:
        raise error(
            str(exc),
            source=str(path),
            fix="Write the values out, or use fewer nested aliases (*name).",
        ) from None
    except YamlTagRefused as exc:
        raise error(str(exc), source=str(path), key=_where(exc), fix=TAG_FIX) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or " ".join(str(exc).split())
        fix = "Fix the YAML syntax at that place."
        lines = text.splitlines()
        if mark and mark.line < len(lines) and "\t" in lines[mark.line][: mark.column + 1]:
            # YAML forbids tabs in indentation; PyYAML's own words do not say so
            problem = f"{problem}: a tab"
            fix = "Indent with spaces, not tabs (YAML does not allow tabs there)."
        raise error(
            f"not valid YAML ({problem})",
            source=str(path),
            key=_where(exc),
            fix=fix,
        ) from None
