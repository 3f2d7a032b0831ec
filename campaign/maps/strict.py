"""The base of the tables a map file is read into (the map, its name overlay, the road kinds).

A key such a table does not know is an error, named with its file and place, never silently
ignored: a typo'd ``hours`` or ``objective`` would otherwise change nothing and say nothing.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["StrictModel"]


class StrictModel(BaseModel):
    """A pydantic model that refuses unknown keys (``extra="forbid"``); a neutral map's
    tables, read as drawn by others, loosen it to ``extra="allow"``."""

    model_config = ConfigDict(extra="forbid")
