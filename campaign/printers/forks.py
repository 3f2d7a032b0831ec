"""A fork told in the log (``campaign fork``, issue 28): from this minute on, other rules,
doctrines or dice (:class:`campaign.events.Forked`)."""

from __future__ import annotations

from campaign.events import SIDES, Forked
from campaign.printers.fates import Line
from campaign.printers.namer import Namer

__all__ = ["fork_line"]


def fork_line(n: Namer, e: Forked) -> Line:
    """The sentence of a fork: the rules, each side's doctrine and the dice from now on."""
    doctrines = ", ".join(f"{n.noun(s)} {e.doctrines[s]}" for s in SIDES if s in e.doctrines)
    dice = "new dice" if e.reseeded else "the same dice"
    return (
        f"The campaign forks here (campaign fork): from now on rules {e.rules}, "
        f"{doctrines}, {dice}",
        "bold",
    )
