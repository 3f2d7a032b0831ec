"""The abstract quick battle (RULES.md §3–§7): :func:`fight`, on one of two engines.

- ``reference`` (:mod:`battle.reference`): the rules in plain Python, one small function per
  rule step: the definition of what a battle does. Needs only numpy; slow.
- ``kernel`` (:mod:`battle.kernel`, :mod:`battle.kernel_engine`): the same rules compiled
  with numba; tested to fight every battle exactly as the reference does (same results,
  events and generator state: tests/battle/test_engines_equal.py). The default.

The engine is chosen by :func:`use_engine` (the CLI's ``--engine``), else by the environment
variable ``BATTLE_ENGINE`` (``reference`` or ``kernel``), else the kernel. When the kernel
cannot be used (numba missing, failing to import, or its kernel failing to compile), the
product says so once on stderr and fights on the reference engine: the battles are the same.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import TypedDict, Unpack

import numpy as np

from battle.arrivals import Arrival
from battle.errors import unknown_name
from battle.result import BattleResult
from battle.rules import BattleRules
from battle.units import Force

__all__ = [
    "ENGINES",
    "ENV",
    "Fight",
    "FightOptions",
    "engine_fight",
    "engine_name",
    "fight",
    "load_engine",
    "use_engine",
]

#: the engines a battle can be fought on (RULES.md §3–§7 either way)
ENGINES = ("kernel", "reference")
#: the environment variable that names the engine when no ``--engine`` is given
ENV = "BATTLE_ENGINE"


class FightOptions(TypedDict, total=False):
    """The keyword options of :func:`fight`, each optional; both engines' ``fight`` take
    them alike, with the defaults given here.

    Attributes
    ----------
    attacker
        0 or 1: the side that moved in and has the first bound (RULES.md §6.2, §6.9).
        Default 0.
    doctrines
        Names of each side's tactical doctrine in ``rules.doctrines`` (§6.7). Default
        ``("steady", "steady")``.
    max_bounds
        Nightfall: the battle stops as a draw after this many bounds (§8.3). Default None:
        no limit but the ``max_turns`` cap.
    record_events
        Keep every event (dice included); off for speed in batch runs. Default True.
    arrivals
        Units that join a side at the start of a given bound (RULES.md §8.4; see
        :mod:`battle.arrivals`). Arrivals due after the battle ends never join. Default none.
    rewind
        Leave ``rng`` just after the blocks of 64 uniforms the battle used (the default,
        True). False: it is left just after the last uniform used; the battle is the same.
    """

    attacker: int
    doctrines: tuple[str, str]
    max_bounds: int | None
    record_events: bool
    arrivals: Sequence[Arrival]
    rewind: bool


Fight = Callable[..., BattleResult]

#: the engine in use in this process, once chosen: [(its name, its fight)], else empty
_chosen: list[tuple[str, Fight]] = []
#: engines loaded so far, by name (the kernel's entry, when it failed, is the reference's)
_loaded: dict[str, Fight] = {}


def _check_name(name: str, where: str) -> str:
    if name not in ENGINES:
        raise unknown_name(
            "battle engine", name, ENGINES, key=where, note=" (kernel is the default)"
        )
    return name


def load_engine(name: str) -> Fight:
    """The ``fight`` function of engine ``name`` (``kernel`` or ``reference``).

    The kernel is imported (and compiled, on a first run) here; if that fails for any reason
    (numba missing or broken), one line on stderr says so and the reference engine's
    ``fight`` is returned: it fights the same battles.

    Raises
    ------
    ConfigError
        If ``name`` is not an engine.
    """
    _check_name(name, "--engine")
    made = _loaded.get(name)
    if made is not None:
        return made
    if name == "reference":
        from battle.reference.engine import fight as reference_fight

        made = reference_fight
    else:
        try:
            from battle.kernel_engine import fight as kernel_fight

            made = kernel_fight
        except Exception as exc:  # numba missing, failing to import or to compile
            reason = f"{type(exc).__name__}: {exc}".splitlines()[0][:160]
            print(
                f"note: the compiled battle kernel is unavailable ({reason}); battles run on "
                "the reference engine (the same battles, slower)",
                file=sys.stderr,
                flush=True,
            )
            made = load_engine("reference")
    _loaded[name] = made
    return made


def use_engine(name: str | None) -> None:
    """Fight this process's battles on engine ``name`` (None: as ``BATTLE_ENGINE`` says, else
    the kernel). Also sets ``BATTLE_ENGINE``, so that processes started later (a batch's
    workers) fight on the same engine.

    Raises
    ------
    ConfigError
        If ``name`` is not an engine.
    """
    _chosen.clear()
    if name is None:
        return
    _check_name(name, "--engine")
    os.environ[ENV] = name
    _chosen.append((name, load_engine(name)))


def engine_name() -> str:
    """The name of the engine battles are fought on (``kernel`` or ``reference``) as chosen
    (the kernel's name even when it fell back to the reference, which fights alike).

    Raises
    ------
    ConfigError
        If ``BATTLE_ENGINE`` names no engine.
    """
    return _choose()[0]


def engine_fight() -> Fight:
    """The ``fight`` function of the engine chosen (:func:`engine_name`): what :func:`fight`
    calls, with the same parameters, for a caller that fights many battles and looks the
    engine up once (a campaign: a battle's call then skips the dispatch).

    Raises
    ------
    ConfigError
        If ``BATTLE_ENGINE`` names no engine.
    """
    return _choose()[1]


def _choose() -> tuple[str, Fight]:
    if not _chosen:
        name = _check_name(os.environ.get(ENV) or "kernel", ENV)
        _chosen.append((name, load_engine(name)))
    return _chosen[0]


def fight(
    force_a: Force,
    force_b: Force,
    rules: BattleRules,
    rng: np.random.Generator,
    **options: Unpack[FightOptions],
) -> BattleResult:
    """Fight one abstract battle between two forces (RULES.md §6) on the chosen engine
    (:func:`use_engine`); both engines fight it alike.

    Parameters
    ----------
    force_a, force_b
        The two sides (index 0 and 1); each needs at least one unit with fewer actual hits than
        ``rules.destroyed_at_hits`` (RULES.md §1.2).
    rules
        The battle rules (``config/rules.yaml`` ``battle:`` with any variant applied).
    rng
        The battle's own random generator (RULES.md §0.6); nothing else is read.
    **options
        By keyword, each optional: ``attacker``, ``doctrines``, ``max_bounds``,
        ``record_events``, ``arrivals``, ``rewind`` (:class:`FightOptions`).

    Returns
    -------
    BattleResult

    Raises
    ------
    ForceError
        If a force has no unit able to fight or more than ``rules.max_units_per_force``
        units, unit ids repeat (arrivals included), a unit's type or formation is not in
        ``rules.units``, or an arrival is malformed.
    ConfigError
        If a doctrine name is not in ``rules.doctrines``, or ``BATTLE_ENGINE`` names no
        engine.
    """
    chosen = _chosen[0] if _chosen else _choose()
    return chosen[1](force_a, force_b, rules, rng, **options)
