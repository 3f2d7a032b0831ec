"""Where a batch-driven command writes: its results file (``-o/--output``) and its charts
folder (``--plot``), checked before any work or output.

``campaign batch run``, ``batch report``, ``tournament`` and ``sensitivity`` call these
first, so a path that cannot be written is refused before a plan header is printed or a
campaign is run: no work is thrown away because the last step fails on input that could
have been checked at the start. Nothing is created or written here.
"""

from __future__ import annotations

import os
from pathlib import Path

from campaign.batch.filecheck import not_duckdb
from campaign.errors import BatchSpecError, SimulatorError

__all__ = ["check_plot_folder", "check_results_output"]


def check_plot_folder(directory: str | Path | None, flag: str = "--plot") -> None:
    """Refuse a charts folder that could not be created or written (None: no charts).

    The folder may be missing (it is created when the charts are written), but the
    nearest existing folder above it must be a folder this user may create files in.

    Raises
    ------
    SimulatorError
        (exit code 2) If ``directory`` or a folder above it is a file, or the place is not
        writable; naming the path, ``flag`` and the fix.
    """
    if directory is None:
        return
    path = Path(directory)
    example = f"{flag} plots"
    if path.exists() and not path.is_dir():
        raise SimulatorError(
            "cannot write the charts there: it is a file, and the charts need a folder",
            source=str(path),
            key=flag,
            fix=f"Give a folder (created when missing), e.g. {example}; the file is left as it is.",
        )
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise SimulatorError(
            f"cannot create the charts folder: {str(existing)!r} is a file, not a folder",
            source=str(path),
            key=flag,
            fix=f"Give a folder whose parents are folders, e.g. {example}.",
        )
    if not os.access(existing, os.W_OK | os.X_OK):
        raise SimulatorError(
            f"cannot write the charts there: no permission to create files in {str(existing)!r}",
            source=str(path),
            key=flag,
            fix=f"Choose a folder you can write to, e.g. {example}.",
        )


def check_results_output(
    path: str | Path, flag: str = "--output", spec: str | Path | None = None
) -> None:
    """Refuse a results file a batch could not write, before anything is printed or run.

    A new file name in an existing writable folder, or an existing DuckDB file, passes
    (whether an existing file holds a batch's tables is checked when it is opened).
    ``spec``: the spec file whose ``output:`` key named ``path`` (None: ``flag`` did).

    Raises
    ------
    BatchSpecError
        (exit code 2) If ``path`` is a folder, its folder is missing or is a file or not
        writable, or it is an existing file that is not a DuckDB file; naming the path,
        ``flag`` and the fix. Nothing is written.
    """
    path = Path(path)
    folder = path.parent
    if spec is not None:  # named by the spec's key: the error names the file and the key
        flag = "output:"
    if path.is_dir():
        problem = "it is a folder, not a file"
        fix = f"Name a results file inside it, e.g. {flag} {path / 'results.duckdb'}."
    elif folder.exists() and not folder.is_dir():
        problem = f"cannot create the results file: {str(folder)!r} is a file, not a folder"
        fix = "Choose a path in a folder."
    elif not folder.is_dir():
        problem = f"cannot create the results file: the folder {str(folder)!r} does not exist"
        fix = f"Create the folder first (mkdir -p {folder}) or choose another path."
    elif path.is_file() and not_duckdb(path):
        problem = "this file is not a DuckDB results file"
        fix = (
            f"Give a new file name ({flag} NEW.duckdb, created) or a results file a batch "
            "wrote; the file is left as it is."
        )
    elif not path.exists() and not os.access(folder, os.W_OK | os.X_OK):
        problem = f"cannot create the results file: no permission to write in {str(folder)!r}"
        fix = "Choose a folder you can write to."
    else:
        return
    if spec is not None:
        raise BatchSpecError(f"{path}: {problem}", source=str(spec), key="output", fix=fix)
    raise BatchSpecError(problem, source=str(path), key=flag, fix=fix)
