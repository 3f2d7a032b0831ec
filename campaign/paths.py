"""Where the project's shipped data lives (config, maps, templates)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["CONFIG_DIR", "MAPS_DIR", "PROJECT_ROOT", "SHARED_MAPS_DIR", "DEFAULT_MAP"]

PROJECT_ROOT = Path(__file__).resolve().parent.parent
CONFIG_DIR = PROJECT_ROOT / "config"
MAPS_DIR = PROJECT_ROOT / "maps"
DEFAULT_MAP = MAPS_DIR / "default.yaml"
#: Maps drawn by other people, beside the project root when present (tests read them there).
SHARED_MAPS_DIR = PROJECT_ROOT.parent / "shared" / "maps"
