"""Reading and writing map YAML with YAML-1.2-like scalars (ids such as ``No`` stay strings).

PyYAML's ``safe_load`` follows YAML 1.1: ``No``, ``Yes``, ``On`` and ``off`` become booleans,
``010`` becomes the octal 8 and ``1_000`` an int. A junction called ``No`` must stay ``"No"``,
so maps are read with :class:`MapYamlLoader`, whose implicit resolvers only make:

- ``true`` / ``false`` booleans,
- ``null``, ``~`` and empty values None,
- decimal ints without leading zeros (``0``, ``12``, ``-3``),
- decimal floats with a point (``2.5``, ``-0.5``, ``1.0e-05``).

Everything else (``No``, ``010``, ``1e3``, ``0x1F``, ``+5``) is a string exactly as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import yaml

from battle.yamlfile import (
    MAX_YAML_BYTES,
    bounded_loader,
    check_file_size,
    parse_yaml_text,
    read_text_file,
)
from campaign.errors import MapError

__all__ = ["MapYamlLoader", "count_list_items", "dump_map_yaml", "read_map_yaml"]


# libyaml's parser when present; aliases may expand to at most MAX_YAML_NODES values
_SafeBase = bounded_loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader))


#: Items of a list counted before a map is read; past it a map is too big in any case.
COUNT_CAP = 200_000


class MapYamlLoader(_SafeBase):  # type: ignore[misc, valid-type]
    """A safe loader with YAML-1.2-like implicit types (see the module docstring).

    Built on ``yaml.CSafeLoader`` (libyaml's parser, the Python safe constructor and
    resolver) when PyYAML has libyaml, else on ``yaml.SafeLoader``.
    """

    #: Filled below; an own dict so that yaml.SafeLoader keeps its YAML 1.1 resolvers.
    yaml_implicit_resolvers: ClassVar[dict[str, list[tuple[str, re.Pattern[str]]]]] = {}


MapYamlLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|false)$"), list("tf")
)
MapYamlLoader.add_implicit_resolver(
    "tag:yaml.org,2002:null", re.compile(r"^(?:~|null|)$"), ["~", "n", ""]
)
MapYamlLoader.add_implicit_resolver(
    "tag:yaml.org,2002:int", re.compile(r"^-?(?:0|[1-9][0-9]*)$"), list("-0123456789")
)
MapYamlLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^-?(?:0|[1-9][0-9]*)\.[0-9]*(?:[eE][-+]?[0-9]+)?$"),
    list("-0123456789"),
)
# The merge key ``<<`` keeps working (it is resolved by tag, not as a value).
MapYamlLoader.add_implicit_resolver("tag:yaml.org,2002:merge", re.compile(r"^(?:<<)$"), ["<"])


_NODE_STARTS = (yaml.ScalarEvent, yaml.AliasEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)


def count_list_items(text: str, keys: tuple[str, ...], cap: int) -> dict[str, int]:
    """How many items each top-level list ``keys`` holds, from libyaml's event stream.

    Counting the parser's events builds no Python value, so it costs a tenth of reading the
    document: a map too big to play is refused before the expensive read. The count stops
    at ``cap + 1`` items of any key (the answer is then "more than ``cap``").

    Returns
    -------
    dict
        ``{key: items}`` for each of ``keys`` that is a top-level list; empty when the text
        is not a YAML mapping (the full read then says what is wrong with it).
    """
    loader = yaml.CSafeLoader(text) if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader(text)
    counts: dict[str, int] = {}
    depth, is_key, key, counting = 0, True, "", ""
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
                counting = counting if depth >= 2 else ""
                continue
            if not isinstance(event, _NODE_STARTS):
                continue
            if depth == 0 and not isinstance(event, yaml.MappingStartEvent):
                return {}
            if depth == 1:
                if is_key:
                    key = str(getattr(event, "value", ""))
                elif key in keys and isinstance(event, yaml.SequenceStartEvent):
                    counting, counts[key] = key, 0
                is_key = not is_key
            elif depth == 2 and counting:
                counts[counting] += 1
                if counts[counting] > cap:
                    return counts
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
    except yaml.YAMLError:
        return counts  # the full read names the line and column
    finally:
        loader.dispose()
    return counts


def read_map_yaml(
    path: Path, check_size: Callable[[dict[str, int]], None] | None = None, cap: int = COUNT_CAP
) -> Any:
    """Parse a map file with :class:`MapYamlLoader`.

    Parameters
    ----------
    path : Path
        The YAML file.
    check_size : callable or None
        Called with the items of the top-level ``junctions`` and ``roads`` lists
        (:func:`count_list_items`) before the document is read; it raises to refuse a map
        too big to play.

    Returns
    -------
    Any
        The parsed document (normally a mapping).

    Raises
    ------
    MapError
        If the file is missing, unreadable, larger than ``MAX_YAML_BYTES``
        (battle.yamlfile), not valid YAML (line and column named), or its aliases expand
        past ``MAX_YAML_NODES`` values.
    """
    check_file_size(Path(path), MapError, MAX_YAML_BYTES, "map file")
    text = read_text_file(
        Path(path),
        MapError,
        not_found="map file not found",
        not_found_fix="Check the path or name a shipped map.",
        what="map file",
    )
    if check_size is not None:
        check_size(count_list_items(text, ("junctions", "roads"), cap))
    return parse_yaml_text(text, Path(path), MapError, _load_map)


def _load_map(text: str) -> Any:
    return yaml.load(text, Loader=MapYamlLoader)


class _MapDumper(yaml.SafeDumper):
    """A safe dumper that writes short lists (positions, roads) in flow style."""


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flow = all(not isinstance(item, list) for item in data) and len(data) <= 3
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_MapDumper.add_representer(list, _represent_list)


def dump_map_yaml(document: dict[str, Any]) -> str:
    """Write a map document as YAML text that :func:`read_map_yaml` reads back identically.

    Strings that a YAML 1.1 reader would take for something else (``No``, ``010``) are
    quoted by PyYAML's safe dumper, so the file also reads back right with ``safe_load``.
    """
    return yaml.dump(document, Dumper=_MapDumper, sort_keys=False, allow_unicode=True, width=100)
