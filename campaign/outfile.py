"""Output files written whole or not at all (a full disk leaves no half-written log)."""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from campaign.errors import EnvironmentFailure, write_error

#: Errors of a full, over-quota or failing disk: the machine's fault, not the input's.
DISK_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS})

__all__ = ["DISK_ERRNOS", "atomic_text_file", "write_text_whole"]


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


def write_text_whole(path: Path, text: str, flag: str | None = None) -> None:
    """Write ``text`` to ``path`` whole or not at all (:func:`atomic_text_file`).

    Raises
    ------
    SimulatorError
        If the place cannot be written (exit code 2).
    EnvironmentFailure
        If the disk is full or failing (exit code 1); ``path`` is left as it was.
    """
    try:
        with atomic_text_file(path, flag) as handle:
            handle.write(text)
    except OSError as exc:
        if exc.errno in DISK_ERRNOS:
            raise EnvironmentFailure(
                f"cannot write the file ({exc.strerror}); nothing was written",
                source=str(path),
                key=flag,
                fix="Free space or choose another place, then run the same command again.",
            ) from None
        raise write_error(path, exc, flag) from None
