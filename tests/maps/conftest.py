"""Fixtures for the map tests: small map files written to a temporary directory."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from campaign.paths import SHARED_MAPS_DIR

SMALL_MAP = """\
name: small
junctions:
  - {id: No, name: Yes, pos: [0, 0], objective: true, value: 2}
  - {id: "010", name: On, pos: [1, 0]}
  - {id: 010b, name: off, pos: [2, 0], terrain: wood}
  - {id: 1e3, name: 1e3, pos: [3, 0]}
  - {id: base_b, name: Blue Base, pos: [4, 0]}
roads:
  - [No, 010, {kind: normal, hours: 2}]
  - [010, 010b, {kind: rough}]
  - [010b, 1e3, {kind: normal, hours: 2.5, primary: blue}]
  - [1e3, base_b]
  - [No, base_b, {kind: rough, hours: 9}]
sides:
  red: {name: Reds, base: No, start: [No, "010"], primary_road: [No, "010"]}
  blue: {base: base_b, start: [base_b]}
"""


@pytest.fixture
def small_map_text() -> str:
    """A valid project-format map whose ids look like YAML 1.1 booleans and numbers."""
    return SMALL_MAP


@pytest.fixture
def write_map(tmp_path: Path) -> Callable[[str, str], Path]:
    """Write YAML text (or a document) to ``tmp_path/name`` and return the path."""

    def write(text: str | dict, name: str = "map.yaml") -> Path:
        path = tmp_path / name
        body = text if isinstance(text, str) else yaml.safe_dump(text, sort_keys=False)
        path.write_text(body, encoding="utf-8")
        return path

    return write


@pytest.fixture
def shared_maps() -> Path:
    """The shared (publishers') maps directory; the test is skipped when it is absent."""
    if not SHARED_MAPS_DIR.is_dir():
        pytest.skip(f"shared maps not present at {SHARED_MAPS_DIR}")
    return SHARED_MAPS_DIR
