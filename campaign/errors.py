"""Campaign-level named exceptions (all :class:`battle.errors.SimulatorError`, exit code 2)."""

from __future__ import annotations

from pathlib import Path

from battle.errors import SimulatorError

__all__ = [
    "BatchSpecError",
    "EnvironmentFailure",
    "MapError",
    "SimulatorError",
    "make_output_dir",
    "split_pair",
    "write_error",
]


class MapError(SimulatorError):
    """A campaign map file is invalid or cannot hold a campaign (RULES.md §8.1)."""


class BatchSpecError(SimulatorError):
    """A batch spec (YAML or flags) is invalid."""


class EnvironmentFailure(SimulatorError):
    """The input is fine but the machine is not: a full disk, a scheduler nobody answers at.

    Exit code 1 (not 2): running the same command again once the cause is gone works.
    """

    exit_code = 1


def write_error(path: str | Path, exc: OSError, flag: str | None = None) -> SimulatorError:
    """A one-paragraph error for an output file or folder that cannot be written."""
    reason = exc.strerror or exc.__class__.__name__
    fix = "Choose a writable location you can create files in."
    if isinstance(exc, IsADirectoryError):
        reason = "it is a folder, not a file"
        fix = f"Name a file inside it, e.g. {Path(path) / 'NAME'}, or another file."
    elif isinstance(exc, NotADirectoryError | FileExistsError):
        reason = "a file is in the way where a folder is needed"
    elif isinstance(exc, FileNotFoundError) and not Path(path).parent.is_dir():
        folder = Path(path).parent
        reason = f"the folder {str(folder)!r} does not exist"
        fix = f"Create the folder first (mkdir -p {folder}) or choose another path."
    return SimulatorError(f"cannot write there ({reason})", source=str(path), key=flag, fix=fix)


def check_output_folder(path: str | Path, flag: str | None = None) -> None:
    """Refuse an output file whose folder does not exist (an output file never creates
    folders: a mistyped folder name would otherwise put the file somewhere unexpected).

    Raises
    ------
    SimulatorError
        If ``path``'s folder is missing or is a file, naming ``path``, ``flag`` and the fix.
    """
    folder = Path(path).parent
    if not folder.is_dir():
        exc: OSError = (
            NotADirectoryError(20, "Not a directory")
            if folder.exists()
            else FileNotFoundError(2, "No such file or directory")
        )
        raise write_error(path, exc, flag)


def make_output_dir(directory: str | Path, flag: str | None = None) -> Path:
    """Create the output folder ``directory`` (and its parents) if missing; return it.

    Raises
    ------
    SimulatorError
        If it cannot be created (a file is in the way, no permission, a read-only place);
        the message names the folder and ``flag``.
    """
    out = Path(directory)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise write_error(out, exc, flag) from None
    return out


def split_pair(
    text: str, error: type[SimulatorError], flag: str, form: str, fix: str
) -> tuple[str, str]:
    """An option's ``KEY=VALUE`` item split at its first ``=``: the key stripped, the value
    as written.

    Raises
    ------
    SimulatorError
        (of class ``error``) ``'TEXT' is not FORM`` (``form``: e.g. ``KEY=VALUE``) when
        there is no ``=`` or the key is empty, naming ``flag`` and ``fix``.
    """
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise error(f"{text!r} is not {form}", key=flag, fix=fix)
    return key.strip(), value
