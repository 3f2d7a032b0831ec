"""Checks of a replay file's name, made before any campaign is played or read."""

from __future__ import annotations

from pathlib import Path

from campaign.errors import SimulatorError
from campaign.outfile import check_output_file

__all__ = ["check_replay_file"]


def check_replay_file(path: Path, flag: str) -> None:
    """Refuse a replay file that is not ``.html``/``.htm`` or cannot be written.

    Raises
    ------
    SimulatorError
        With the flag, what was expected and the fix.
    """
    check_output_file(path, flag)
    if Path(path).suffix.lower() not in (".html", ".htm"):
        raise SimulatorError(
            f"the replay is one HTML page, so its file name ends in .html, not "
            f"{Path(path).suffix or '(no suffix)'!r}",
            source=str(path),
            key=flag,
            fix=f"Name the replay file with .html (for example {flag} replay.html).",
        )
