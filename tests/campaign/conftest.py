"""Shared fixtures and map builders for campaign tests."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from campaign.config import load_rules
from campaign.maps import load_map


@pytest.fixture(scope="session")
def rules():
    return load_rules()


@pytest.fixture(scope="session")
def default_map():
    return load_map()


def write_map(tmp_path: Path, junctions, roads, sides, name="test map") -> Path:
    """Write a small map in the project's own format and return its path."""
    doc = {
        "name": name,
        "junctions": [
            {"id": j, "name": j.capitalize(), "pos": [i * 10, 0], **extra}
            for i, (j, extra) in enumerate(junctions)
        ],
        "roads": [[a, b, attrs] for a, b, attrs in roads],
        "sides": sides,
    }
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path
