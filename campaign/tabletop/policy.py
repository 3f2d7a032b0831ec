"""Which battles a campaign stops for, to fight them on the table (issue 28): ``--tabletop``.

A policy is one of

- ``all``: every battle;
- ``units>=N``: battles with at least N units at their start, both sides counted (late
  arrivals are not known when a battle begins, so they do not count), N from 1 to 10,000;
- ``at=JUNCTION[,JUNCTION...]``: battles at these junctions (ids or names, as the map gives
  them; a battle on a road is at neither of its ends).

:func:`parse_policy` makes it a rule for :meth:`campaign.engine.Campaign.run_until_battle`
(a battle that already has a table result is never stopped for). ``ask`` (asking at each
battle on a terminal) is the command line's, not a rule of this module.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from battle.errors import ConfigError

if TYPE_CHECKING:  # a command's help reads FORMS without the campaign's modules
    from campaign.table_battle import BattleStart

__all__ = ["FORMS", "MAX_UNITS", "Policy", "choice_list", "parse_policy"]

#: the policies :func:`parse_policy` reads, as help and errors write them (a command line
#: adds its own, e.g. ``ask``)
FORMS = ("all", "units>=N", "at=JUNCTION[,JUNCTION]")

#: the most units a ``units>=N`` policy may ask for (a bound on what a user types)
MAX_UNITS = 10_000
#: a stop rule: whether to stop before this battle
Policy = Callable[["BattleStart"], bool]

_FIX = "Write --tabletop all, --tabletop 'units>=12' or --tabletop at=JUNCTION[,JUNCTION]."
_UNITS = re.compile(r"^units\s*>=\s*(\d{1,6})$")


def choice_list(choices: Sequence[str]) -> str:
    """``a, b or c``: the policies a command accepts, as its errors list them.

    >>> choice_list(FORMS)
    'all, units>=N or at=JUNCTION[,JUNCTION]'
    """
    if len(choices) < 2:
        return "".join(choices)
    return f"{', '.join(choices[:-1])} or {choices[-1]}"


def parse_policy(
    text: str, junctions: Mapping[str, str] | None = None, *, choices: Sequence[str] = FORMS
) -> Policy:
    """The stop rule of the policy ``text`` (see the module docstring).

    ``junctions`` maps each junction id of the map to its name; given, ``at=`` takes ids or
    names (any case) and refuses others. ``choices`` are every policy the command accepts
    (:data:`FORMS` and its own, e.g. ``ask``), listed in the error of an unknown one.

    Raises
    ------
    ConfigError
        Naming ``--tabletop``: an unknown policy, N out of range, an empty or unknown
        junction.
    """
    spec = text.strip()
    if spec == "all":
        return _every
    m = _UNITS.match(spec)
    if m is not None:
        n = int(m.group(1))
        if not 1 <= n <= MAX_UNITS:
            raise ConfigError(
                f"expected units>=N with N from 1 to {MAX_UNITS:,} (found {n:,})",
                key="--tabletop",
                fix=_FIX,
            )
        return lambda b: sum(b.units.values()) >= n
    if spec.startswith("at="):
        wanted = frozenset(_junction(j, junctions) for j in spec[3:].split(","))
        return lambda b: b.junction in wanted
    raise ConfigError(
        f"expected {choice_list(choices)} (found {spec!r:.60})",
        key="--tabletop",
        fix="Write one of them, e.g. --tabletop all or --tabletop 'units>=12' (quoted: the "
        "shell reads >).",
    )


def _every(_: BattleStart) -> bool:
    return True


def _junction(given: str, junctions: Mapping[str, str] | None) -> str:
    """The junction id ``given`` names (an id, or a name in any case)."""
    name = given.strip()
    if not name:
        raise ConfigError("a junction is empty in at=", key="--tabletop", fix=_FIX)
    if junctions is None or name in junctions:
        return name
    for jid, jname in junctions.items():
        if jname.casefold() == name.casefold():
            return jid
    known = ", ".join(sorted(junctions)[:12]) + (", ..." if len(junctions) > 12 else "")
    raise ConfigError(
        f"no junction {name!r:.40} on this map (its junctions: {known})",
        key="--tabletop",
        fix="Give a junction id or name of the map (campaign map info lists them).",
    )
