"""Output files written whole or not at all (a full disk leaves no half-written log).

A regular file (or a name not yet taken) is written through a hidden temporary file that
replaces it at the end. A symlink is followed: the file it points to is replaced, the link
stays a link. An existing target that is not a regular file (a device such as
``/dev/stdout`` or ``/dev/null``, a FIFO, a socket) is written through in place: it is never
replaced by a regular file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from campaign.errors import EnvironmentFailure, SimulatorError, check_output_folder, write_error

#: Errors of a full, over-quota or failing disk: the machine's fault, not the input's.
DISK_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS})

__all__ = [
    "DISK_ERRNOS",
    "atomic_text_file",
    "check_distinct_files",
    "check_output_file",
    "write_bytes_whole",
    "write_text_whole",
]


def _same_place(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file (links followed; either may not exist yet)."""
    try:
        return a.samefile(b)
    except OSError:
        return a.resolve() == b.resolve()


def check_distinct_files(files: dict[str, Path | None]) -> None:
    """Refuse two flags naming one file, before any work: the second write (or a write over
    an input) would lose the first. ``files`` maps each flag (``--from``, ``--output``...) to
    its path or None; the first flag of each pair is taken as the one that names it.

    Raises
    ------
    SimulatorError
        Naming the file, both flags and the fix (exit code 2).
    """
    named = [(flag, Path(path)) for flag, path in files.items() if path is not None]
    for i, (flag, path) in enumerate(named):
        for other, other_path in named[i + 1 :]:
            if _same_place(path, other_path):
                raise SimulatorError(
                    f"{flag} and {other} name the same file; writing one would lose the other",
                    source=str(other_path),
                    key=other,
                    fix=f"Give {other} another file name.",
                )


def _special(path: Path) -> bool:
    """Whether ``path`` (links followed) exists and is neither a regular file nor a folder."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _real_target(path: Path) -> Path:
    """The file a name finally means: ``path`` with its symlinks followed (even dangling)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _temp_beside(target: Path) -> Path:
    return target.with_name(f".{target.name}.partial-{os.getpid()}")


def _socket_error(path: Path, flag: str | None) -> SimulatorError:
    return SimulatorError(
        "cannot write there (it is a socket, which cannot be opened as a file)",
        source=str(path),
        key=flag,
        fix="Choose a regular file, or a FIFO (mkfifo) that a reader has open.",
    )


def check_output_file(path: str | Path, flag: str | None = None) -> None:
    """Refuse, before any work, an output file that cannot be written.

    Checks that ``path`` is not a folder, that its folder exists, and that a file can be
    created there (a hidden probe file is created and removed at once); an existing device,
    FIFO or socket must be writable by this user.

    Raises
    ------
    SimulatorError
        Naming ``path``, ``flag``, the reason and the fix (exit code 2).
    """
    path = Path(path)
    if path.is_dir():
        raise write_error(path, IsADirectoryError(21, "Is a directory"), flag)
    if _special(path):
        if stat.S_ISSOCK(path.stat().st_mode):
            raise _socket_error(path, flag)
        if not os.access(path, os.W_OK):
            raise write_error(path, PermissionError(13, "Permission denied"), flag)
        return
    target = _real_target(path)
    check_output_folder(target, flag)
    probe = _temp_beside(target)
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return  # a stale partial file of this process id: the folder is writable
    except OSError as exc:
        raise SimulatorError(
            f"cannot create a file in the folder {str(target.parent)!r} "
            f"({exc.strerror or exc.__class__.__name__})",
            source=str(path),
            key=flag,
            fix="Choose a folder you can create files in.",
        ) from None
    os.close(fd)
    with contextlib.suppress(OSError):
        probe.unlink()


@contextlib.contextmanager
def _write_through(path: Path, flag: str | None) -> Iterator[TextIO]:
    """Write into an existing device, FIFO or socket in place (no temporary file)."""
    try:
        handle = path.open("w", encoding="utf-8")
    except OSError as exc:
        if stat.S_ISSOCK(path.stat().st_mode):
            raise _socket_error(path, flag) from None
        raise write_error(path, exc, flag) from None
    try:
        with handle:
            yield handle
    except OSError as exc:
        raise SimulatorError(
            f"cannot write to it ({exc.strerror or exc.__class__.__name__}); it is not a "
            "regular file, so it was written in place and the output may be cut short",
            source=str(path),
            key=flag,
            fix="Choose a regular file or a device that accepts writes (e.g. /dev/stdout).",
        ) from None


@contextlib.contextmanager
def atomic_text_file(path: Path, flag: str | None = None) -> Iterator[TextIO]:
    """Open ``path`` for writing through a hidden temporary file beside it.

    The temporary file replaces ``path`` (``os.replace``) only when the block ends without
    an error; on any error, Ctrl-C included, it is removed and ``path`` is left as it was.
    A symlink is followed: the file it points to is replaced and the link is kept. An
    existing device, FIFO or socket is written in place instead (never replaced).

    Raises
    ------
    SimulatorError
        If the temporary file cannot be created there (a folder, a missing folder, no
        permission), or if writing into a device, FIFO or socket fails (``/dev/full``:
        no space left), naming ``path`` and ``flag`` (exit code 2).
    OSError
        If writing a regular file fails (e.g. no space left on device); the command line
        reports it as an environment failure (exit code 1).
    """
    path = Path(path)
    if path.is_dir():
        raise write_error(path, IsADirectoryError(21, "Is a directory"), flag)
    if _special(path):
        with _write_through(path, flag) as handle:
            yield handle
        return
    target = _real_target(path)
    temp = _temp_beside(target)
    try:
        handle = temp.open("w", encoding="utf-8")
    except OSError as exc:
        raise write_error(path, exc, flag) from None
    try:
        with handle:
            yield handle
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


def write_text_whole(path: Path, text: str, flag: str | None = None) -> None:
    """Write ``text`` to ``path`` whole or not at all (:func:`atomic_text_file`).

    Raises
    ------
    SimulatorError
        If the place cannot be written, or a device, FIFO or socket refuses the text
        (exit code 2).
    EnvironmentFailure
        If the disk is full or failing (exit code 1); ``path`` is left as it was.
    """
    try:
        with atomic_text_file(path, flag) as handle:
            handle.write(text)
    except OSError as exc:
        raise _not_written(path, exc, flag) from None


def write_bytes_whole(path: Path, data: bytes, flag: str | None = None) -> None:
    """Write ``data`` (a PDF) to ``path`` whole or not at all: through a hidden temporary
    file beside it that replaces ``path`` only once written (a symlink is followed).

    Raises
    ------
    SimulatorError
        If the place cannot be written (exit code 2).
    EnvironmentFailure
        If the disk is full or failing (exit code 1); ``path`` is left as it was.
    """
    path = Path(path)
    if path.is_dir():
        raise write_error(path, IsADirectoryError(21, "Is a directory"), flag)
    target = _real_target(path)
    temp = _temp_beside(target)
    try:
        temp.write_bytes(data)
        os.replace(temp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise _not_written(path, exc, flag) from None


def _not_written(path: Path, exc: OSError, flag: str | None) -> Exception:
    """The error for a write that failed with ``exc``: a full or failing disk is the
    machine's (:class:`EnvironmentFailure`, exit code 1), anything else the user's choice of
    place (:func:`write_error`, exit code 2)."""
    if exc.errno in DISK_ERRNOS:
        return EnvironmentFailure(
            f"cannot write the file ({exc.strerror}); nothing was written",
            source=str(path),
            key=flag,
            fix="Free space or choose another place, then run the same command again.",
        )
    return write_error(path, exc, flag)
