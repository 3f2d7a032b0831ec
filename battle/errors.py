"""Named exceptions for the simulator.

Every error a user can cause (a bad config key, a bad dice expression, an unknown unit type,
a broken map) is a :class:`SimulatorError`. Its message is one paragraph naming *where* (file
and key path), *what* was expected and *how to fix it*. The command line turns these into a
plain message and exit code 2; nothing else in the engine swallows exceptions.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "DiceExpressionError",
    "ForceError",
    "SimulatorError",
]


class SimulatorError(Exception):
    """Base class of every user-facing error (exit code 2 at the command line)."""

    exit_code = 2

    def __init__(
        self,
        what: str,
        *,
        source: str | None = None,
        key: str | None = None,
        fix: str | None = None,
    ) -> None:
        self.what = what
        self.source = source
        self.key = key
        self.fix = fix
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The one-paragraph message: ``source: key: what. fix``."""
        where = ": ".join(part for part in (self.source, self.key) if part)
        text = f"{where}: {self.what}" if where else self.what
        if self.fix:
            text = f"{text.rstrip('.')}. {self.fix}"
        return text


class ConfigError(SimulatorError):
    """A rules/variant/doctrine config file or override is invalid."""


class DiceExpressionError(ConfigError):
    """A dice expression (RULES.md §0.5) cannot be parsed or rolled."""


class ForceError(SimulatorError):
    """A force description (YAML file or compact flag) is invalid."""
