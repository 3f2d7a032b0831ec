"""Where the project's shipped data lives (config, maps, templates)."""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "CONFIG_DIR",
    "DEFAULT_MAP",
    "MAPS_DIR",
    "PROJECT_ROOT",
    "SHARED_MAPS_DIR",
    "display_path",
]

PROJECT_ROOT = Path(__file__).resolve().parent.parent
CONFIG_DIR = PROJECT_ROOT / "config"
MAPS_DIR = PROJECT_ROOT / "maps"
DEFAULT_MAP = MAPS_DIR / "default.yaml"
#: Maps drawn by other people, beside the project root when present (tests read them there).
SHARED_MAPS_DIR = PROJECT_ROOT.parent / "shared" / "maps"


def display_path(path: str | Path) -> str:
    """A path as logs show it: relative to the project root when inside it (so that a log
    does not depend on where the project was cloned), else as given."""
    p = Path(path)
    try:
        return p.resolve().relative_to(PROJECT_ROOT).as_posix()
    except (ValueError, OSError):
        return str(path)
