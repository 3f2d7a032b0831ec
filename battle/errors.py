"""Named exceptions for the simulator.

Every error a user can cause (a bad config key, a bad dice expression, an unknown unit type,
a broken map) is a :class:`SimulatorError`. Its message is one paragraph naming *where* (file
and key path), *what* was expected and *how to fix it*. The command line turns these into a
plain message and exit code 2; nothing else in the engine swallows exceptions.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "ConfigError",
    "DiceExpressionError",
    "ForceError",
    "SimulatorError",
    "plain_message",
    "unknown_name",
]


class SimulatorError(Exception):
    """Base class of every user-facing error (exit code 2 at the command line)."""

    exit_code = 2

    def __init__(
        self,
        what: str,
        *,
        source: str | None = None,
        key: str | None = None,
        fix: str | None = None,
    ) -> None:
        self.what = what
        self.source = source
        self.key = key
        self.fix = fix
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The one-paragraph message: ``source: key: what. fix``."""
        where = ": ".join(part for part in (self.source, self.key) if part)
        text = f"{where}: {self.what}" if where else self.what
        if self.fix:
            text = f"{text.rstrip('.')}. {self.fix}"
        return text


class ConfigError(SimulatorError):
    """A rules/variant/doctrine config file or override is invalid."""


class DiceExpressionError(ConfigError):
    """A dice expression (RULES.md §0.5) cannot be parsed or rolled."""


class ForceError(SimulatorError):
    """A force description (YAML file or compact flag) is invalid."""


def unknown_name(
    what: str,
    name: str,
    choices: Sequence[str],
    *,
    key: str,
    note: str = "",
    suggest: bool = False,
) -> ConfigError:
    """The error for a ``name`` that is not one of ``choices`` (a doctrine, a variant, an
    engine): what it is, where it was given (``key``: a flag or a config key), and the names
    there are, in the order given, with ``note`` after them; with ``suggest``, the closest
    choice too. The caller raises it.

    >>> print(unknown_name("battle engine", "fast", ("kernel", "reference"), key="--engine"))
    --engine: no battle engine named 'fast'. Choose one of: kernel, reference.
    >>> print(unknown_name("variant", "ful", ["full"], key="--variant", suggest=True))
    --variant: no variant named 'ful'. Choose one of: full. Did you mean 'full'?
    """
    close = difflib.get_close_matches(name, choices, n=1) if suggest else []
    hint = f" Did you mean '{close[0]}'?" if close else ""
    return ConfigError(
        f"no {what} named {name!r}",
        key=key,
        fix=f"Choose one of: {', '.join(choices)}{note}.{hint}",
    )


#: pydantic error types whose own wording a player should not see, in plain words
_PLAIN = {
    "extra_forbidden": "unknown key (a typo?)",
    "missing": "missing (it is required)",
    "int_parsing": "expected a whole number",
    "int_type": "expected a whole number",
    "int_from_float": "expected a whole number",
    "float_parsing": "expected a number",
    "float_type": "expected a number",
    "bool_parsing": "expected true or false",
    "bool_type": "expected true or false",
    "string_type": "expected text (a string)",
    "list_type": "expected a list",
    "model_type": "expected a mapping of keys",
    "model_attributes_type": "expected a mapping of keys",
    "dict_type": "expected a mapping of keys",
}
_BOUNDS = {
    "greater_than_equal": ("ge", "expected at least {}"),
    "greater_than": ("gt", "expected more than {}"),
    "less_than_equal": ("le", "expected at most {}"),
    "less_than": ("lt", "expected less than {}"),
}


_NUMBERS = {1: "one", 2: "two", 3: "three"}


def _count(n: Any, item: str) -> str:
    """``one junction``, ``2 junctions``; a plain ``item`` keeps the digit (``1 item``)."""
    word = n if item in ("item", "entry") else _NUMBERS.get(n, n)
    plural = "entries" if item == "entry" else f"{item}s"
    return f"{word} {item if n == 1 else plural}"


def plain_message(err: Mapping[str, Any], *, item: str = "item", found: bool = False) -> str:
    """One pydantic error (an item of ``ValidationError.errors()``) in a player's words.

    The single place that rewords pydantic for every loader (config, forces, maps, specs)
    and for the command line's flags (``--seed abc``).

    Parameters
    ----------
    err : Mapping
        The error: ``type``, ``msg``, optional ``ctx`` and ``input``.
    item : str
        What a list holds, for list lengths (``"junction"``: "give at least one junction").
    found : bool
        Append the value found, `` (found 'abc')``, when the error carries one.

    >>> plain_message({"type": "int_parsing", "msg": "Input should be a valid integer"})
    'expected a whole number'
    >>> plain_message({"type": "greater_than_equal", "msg": "...", "ctx": {"ge": 1}})
    'expected at least 1'
    >>> plain_message({"type": "literal_error", "msg": "Input should be 'a' or 'b'"})
    "expected 'a' or 'b'"
    >>> plain_message({"type": "int_parsing", "msg": "...", "input": "abc"}, found=True)
    "expected a whole number (found 'abc')"
    >>> plain_message({"type": "too_short", "msg": "...", "ctx": {"min_length": 1}},
    ...               item="junction")
    'give at least one junction'
    """
    text = _plain(err, item)
    shown = repr(err.get("input"))
    if found and "input" in err and err.get("type") != "missing" and shown not in text:
        text = f"{text.rstrip('.')} (found {shown})"
    return text


def _plain(err: Mapping[str, Any], item: str) -> str:
    kind = str(err.get("type", ""))
    if kind in _PLAIN:
        return _PLAIN[kind]
    ctx = err.get("ctx") or {}
    if kind in _BOUNDS and _BOUNDS[kind][0] in ctx:
        name, text = _BOUNDS[kind]
        return text.format(ctx[name])
    if item == "item" and isinstance(err.get("input"), Mapping):
        item = "entry"  # a mapping holds entries
    if kind == "too_short" and "min_length" in ctx:
        return f"give at least {_count(ctx['min_length'], item)}"
    if kind == "too_long" and "max_length" in ctx:
        return f"give at most {_count(ctx['max_length'], item)}"
    msg = str(err.get("msg", "")).removeprefix("Value error, ")
    if msg.startswith("Input should be "):
        return "expected " + msg.removeprefix("Input should be ")
    return msg
