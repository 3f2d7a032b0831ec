"""Run one battle in the kernel: lay it out, feed it the battle's dice, decode the result.

The battle's uniforms come from its generator in blocks of 64 (RULES.md §0.6), drawn here
before the compiled battle runs (passing a generator into compiled code costs more than a
whole battle). A battle that needs more dice than were drawn, or more event rows than its
buffer holds, is fought again from the start with more: the same dice give the same battle.
Afterwards the generator stands exactly where 64-uniform blocks would have left it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np
from numba import config

from battle.arrivals import Arrival
from battle.kernel import layout as L
from battle.kernel.bound import (
    fight_arrays,
    listing_of,
    outcome_columns,
    run_battle,
    set_out,
)
from battle.kernel.decode import result
from battle.kernel.jit import FIELDS
from battle.kernel.lineup import new_state
from battle.kernel.pack import doctrine_arrays, rule_arrays
from battle.result import BattleResult
from battle.tables import Tables
from battle.units import Force

__all__ = ["BLOCK", "fight_tables"]

BLOCK = 64  # uniforms per block drawn from the battle's generator
#: numba's NUMBA_DISABLE_JIT: the kernel's functions are plain Python
PLAIN_PYTHON = bool(config.DISABLE_JIT)
#: event rows a recording battle starts with, plus 64 per unit
EVENT_ROWS = 512
EVENT_ROWS_PER_UNIT = 64
#: blocks drawn up front: grows at once to what a battle needed (plus one), and shrinks by a
#: block after every SHRINK_AFTER battles that needed fewer (one long battle must not make
#: every later battle draw and step back thousands of uniforms)
_GUESS = [4]
_FEWER = [0]  # battles since the guess last changed that needed fewer blocks
SHRINK_AFTER = 256
#: bit generators whose ``advance(-k)`` steps back exactly k 64-bit draws
_STEPS_BACK = (np.random.PCG64, np.random.PCG64DXSM)


def fight_tables(
    t: Tables,
    force_a: Force,
    force_b: Force,
    rng: np.random.Generator,
    attacker: int,
    doctrines: tuple[str, str],
    max_bounds: int | None,
    record: bool,
    due: Sequence[Arrival],
    rewind: bool = True,
) -> BattleResult:
    """Fight one battle of checked forces (see :func:`battle.engine.fight`)."""
    rl = doctrine_arrays(t, doctrines)
    p = rule_arrays(t)
    lay = new_state(t, (force_a, force_b), due, p)
    n = len(lay.listed_ids)
    # a bit generator that cannot step back one 64-bit draw at a time (MT19937 has no
    # ``advance``; Philox's counts blocks of four and only forward) is rewound by restoring
    # its state and drawing the used blocks again
    bitgen = rng.bit_generator
    steps_back = rewind and type(bitgen) in _STEPS_BACK
    advance = getattr(bitgen, "advance", None) if steps_back else None
    start = bitgen.state if rewind and advance is None else None
    dice = rng.random(BLOCK * _GUESS[0])
    rows = EVENT_ROWS + EVENT_ROWS_PER_UNIT * n if record else 256
    nightfall = -1 if max_bounds is None else max_bounds
    while True:
        if PLAIN_PYTHON:  # NUMBA_DISABLE_JIT=1: the same rules, run as Python (debugging)
            st = set_out(lay.arrays, attacker, dice, rows, record, nightfall, rl)  # type: ignore[no-untyped-call]
            fields = dict(zip(FIELDS, (*st, *rl), strict=True))
            run_battle(SimpleNamespace(**fields))  # type: ignore[no-untyped-call]
            C = outcome_columns(st[0], listing_of(lay.arrays[2]))  # type: ignore[no-untyped-call]
            S, E = st[2], st[6]
        else:
            C, S, E = fight_arrays(lay.arrays, attacker, dice, rows, record, nightfall, rl)
        s = S.tolist()
        used = s[L.S_DUSED]
        if used > len(dice):  # more dice: the next blocks of the same stream
            more = -(-(used - len(dice)) // BLOCK) + 1
            _GUESS[0] = min(max(_GUESS[0], -(-used // BLOCK) + 1), 4096)
            _FEWER[0] = 0
            dice = np.concatenate((dice, rng.random(BLOCK * more)))
            continue
        if s[L.S_EOVER]:
            rows *= 4
            continue
        break
    keep = BLOCK * -(-used // BLOCK)
    if keep + BLOCK < BLOCK * _GUESS[0]:
        _FEWER[0] += 1
        if _FEWER[0] >= SHRINK_AFTER:
            _GUESS[0] -= 1
            _FEWER[0] = 0
    spare = len(dice) - keep
    if spare and rewind:
        if advance is not None:
            advance(-spare)  # one 64-bit draw per uniform
        else:
            _rewind(rng, start, keep)
    return result(t, p, lay, (force_a, force_b), C, s, E, record)


def _rewind(rng: np.random.Generator, start: Mapping[str, Any] | None, keep: int) -> None:
    """Put a generator without ``advance`` just after the ``keep`` uniforms the battle's
    used blocks took: restore ``start``, its bit generator's state before the battle drew,
    and draw them again."""
    assert start is not None
    rng.bit_generator.state = start
    rng.random(keep)
