"""Options and helpers shared by the sub-commands."""

from __future__ import annotations

from typing import Any

import numpy as np
import yaml

from battle.errors import ConfigError

__all__ = ["fresh_seed", "parse_overrides", "parse_pairs"]


def fresh_seed() -> int:
    """A new seed from the operating system's entropy, short enough to type back."""
    return int(np.random.SeedSequence().entropy % 1_000_000_000)


def parse_pairs(items: list[str] | None, flag: str) -> dict[str, str]:
    """``KEY=VALUE`` strings into a dict (for --set, --road-kind).

    Raises
    ------
    ConfigError
        If an item has no ``=`` or an empty key.
    """
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(
                f"{item!r} is not KEY=VALUE",
                key=flag,
                fix=f"Write it as {flag} battle.hit_dice=3d10 (a dotted key, '=', a value).",
            )
        out[key.strip()] = value.strip()
    return out


def parse_overrides(items: list[str] | None) -> dict[str, Any]:
    """``--set key=value`` items into dotted-key overrides; values read as YAML scalars."""
    out: dict[str, Any] = {}
    for key, value in parse_pairs(items, "--set").items():
        try:
            out[key] = yaml.safe_load(value) if value else value
        except yaml.YAMLError:
            raise ConfigError(
                f"cannot read the value {value!r}",
                key=f"--set {key}",
                fix="Quote strings with spaces, e.g. --set 'battle.hit_dice=20 + d20'.",
            ) from None
    return out
