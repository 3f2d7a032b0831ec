"""Campaign-level named exceptions (all :class:`battle.errors.SimulatorError`, exit code 2)."""

from __future__ import annotations

from battle.errors import SimulatorError

__all__ = ["BatchSpecError", "MapError", "SimulatorError"]


class MapError(SimulatorError):
    """A campaign map file is invalid or cannot hold a campaign (RULES.md §8.1)."""


class BatchSpecError(SimulatorError):
    """A batch spec (YAML or flags) is invalid."""
