"""Checks of the strategy doctrines a run asks for (RULES.md §8.8)."""

from __future__ import annotations

from collections.abc import Mapping

from battle.errors import ConfigError
from campaign.config import StrategyDoctrine

__all__ = ["check_doctrines"]


def check_doctrines(doctrines: dict[str, str], known: Mapping[str, StrategyDoctrine]) -> None:
    """Refuse a side's doctrine name that ``campaign.doctrines`` does not define (RULES.md
    §8.8): :class:`ConfigError` naming the flag and the names there are."""
    for side in ("red", "blue"):
        name = doctrines[side]
        if name not in known:
            raise ConfigError(
                f"no strategy doctrine named {name!r}",
                key=f"--{side}-doctrine",
                fix=f"Choose one of: {', '.join(sorted(known))}.",
            )
