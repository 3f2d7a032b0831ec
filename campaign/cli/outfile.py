"""Output files written whole or not at all (a full disk leaves no half-written log)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from campaign.errors import write_error

__all__ = ["atomic_text_file"]


@contextlib.contextmanager
def atomic_text_file(path: Path, flag: str | None = None) -> Iterator[TextIO]:
    """Open ``path`` for writing through a hidden temporary file beside it.

    The temporary file replaces ``path`` (``os.replace``) only when the block ends without
    an error; on any error, Ctrl-C included, it is removed and ``path`` is left as it was.

    Raises
    ------
    SimulatorError
        If the temporary file cannot be created there (a folder, a missing folder, no
        permission), naming ``path`` and ``flag`` (exit code 2).
    OSError
        If writing fails (e.g. no space left on device); the command line reports it as an
        environment failure (exit code 1).
    """
    path = Path(path)
    if path.is_dir():
        raise write_error(path, IsADirectoryError(21, "Is a directory"), flag)
    temp = path.with_name(f".{path.name}.partial-{os.getpid()}")
    try:
        handle = temp.open("w", encoding="utf-8")
    except OSError as exc:
        raise write_error(path, exc, flag) from None
    try:
        with handle:
            yield handle
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
