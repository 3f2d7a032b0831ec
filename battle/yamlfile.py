"""Read one YAML file (``yaml.safe_load``) with one-paragraph errors of a chosen class.

Shared by the rules loader, the forces file and the batch spec so that a missing, unreadable,
binary or malformed file is reported the same way everywhere: the file, the line and column,
what is wrong and how to fix it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from battle.errors import ConfigError, SimulatorError

__all__ = ["read_yaml_file"]


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
        (of class ``error``) If the file is missing, unreadable, not UTF-8 text, or not
        valid YAML (the message gives line and column, on one line).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(not_found, source=str(path), fix="Check the path.") from None
    except UnicodeDecodeError:
        raise error(
            "not a text file (it is not UTF-8)",
            source=str(path),
            fix="Give a YAML text file.",
        ) from None
    except OSError as exc:
        raise error(
            f"cannot read the file ({exc.strerror or exc})",
            source=str(path),
            fix="Check the path and its permissions.",
        ) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        problem = getattr(exc, "problem", None) or " ".join(str(exc).split())
        raise error(
            f"not valid YAML ({problem})",
            source=str(path),
            key=where,
            fix="Fix the YAML syntax at that place.",
        ) from None
