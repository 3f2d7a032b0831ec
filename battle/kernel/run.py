"""Run one battle in the kernel: lay it out, fight it, decode the result.

A compiled battle draws its uniforms itself, one by one, straight from the battle's generator
(RULES.md §0.6, :mod:`battle.kernel.draw`), and keeps them: a battle whose event buffer, or
whose buffer of kept uniforms, was too small is fought again from the start with a larger one,
replaying the same uniforms, so it is the same battle. Afterwards the generator stands where
blocks of 64 uniforms would have left it: after the last uniform used, and the rest of its
block (``rewind``; else just after the last uniform used). In plain Python
(``NUMBA_DISABLE_JIT=1``) the uniforms are drawn beforehand in blocks of 64.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any, cast

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
from battle.kernel.jit import FIELDS, Battle
from battle.kernel.layout import EW, NS, S_DNUM, S_DUP, S_DUSED, S_EN, S_EOVER, S_NWD
from battle.kernel.lineup import new_state
from battle.kernel.pack import Packed, doctrine_arrays, doctrine_rules, rule_arrays
from battle.refusals import refuse_doctrines, refuse_repeats
from battle.result import BattleResult
from battle.tables import Tables
from battle.units import Force

__all__ = ["BLOCK", "Buffers", "KernelRules", "fight_tables", "kernel_rules"]

BLOCK = 64  # uniforms per block drawn from the battle's generator
#: numba's NUMBA_DISABLE_JIT: the kernel's functions are plain Python
PLAIN_PYTHON = bool(config.DISABLE_JIT)
#: event rows a recording battle starts with, plus 64 per unit
EVENT_ROWS = 512
EVENT_ROWS_PER_UNIT = 64
#: event rows of a battle that does not record its events: its withdrawal checks (one row
#: each and one per die; the longest of 7,000 campaign battles wrote 49)
QUIET_ROWS = 64
#: uniforms a battle can keep at first (a longer one is fought again with room for 4 times
#: as many)
DICE = 512
#: the address of a bit generator's ``bitgen_t``, from its capsule
_ADDRESS = ctypes.pythonapi.PyCapsule_GetPointer
_ADDRESS.restype = ctypes.c_void_p
_ADDRESS.argtypes = [ctypes.py_object, ctypes.c_char_p]


#: int64 entries of a battle's output per unit, after its S: one per column of
#: ``OUT_COLUMNS``, and its state at the end (:func:`battle.kernel.bound.outcome_columns`)
OUT_PER_UNIT = len(L.OUT_COLUMNS) + 1


class Buffers:
    """What a compiled battle writes into, handed from one battle to the next: the uniforms
    it keeps ``DB`` (``DICE`` of them), ``OUT``, its S and its units' outcome columns (read
    into a list at once, through ``VIEW``, a memoryview of it: faster than numpy's
    ``tolist`` for so few), and ``E``, the event rows of a battle that does not record its
    events (``QUIET_ROWS`` of them, float64 [rows, EW]; its withdrawal checks' rows are
    copied out for its result, the only rows it keeps). A battle takes a set from
    :data:`_SPARE` (or makes one) and puts it back once it has read them, so that no two
    battles share one (threads, or a battle fought while another's caller reads). A
    recording battle's event rows are its own: its result keeps them."""

    __slots__ = ("DB", "E", "OUT", "VIEW")

    def __init__(self) -> None:
        self.DB = np.empty(DICE, np.float64)
        self.out(L.NS + OUT_PER_UNIT * 32)
        self.E = np.empty((QUIET_ROWS, L.EW), np.float64)

    def out(self, size: int) -> None:
        """A new ``OUT`` of ``size`` int64 entries, and its ``VIEW``."""
        self.OUT = np.empty(size, np.int64)
        self.VIEW = self.OUT.data


#: the sets of buffers no battle is using
_SPARE: list[Buffers] = []
#: the event rows of a quiet battle without a withdrawal check (none)
_NO_ROWS = np.empty((0, L.EW), np.float64)


#: what a battle under one rules object and two doctrines is given (:func:`kernel_rules`)
KernelRules = tuple[Packed, Any, int]


def kernel_rules(t: Tables, doctrines: tuple[str, str]) -> KernelRules:
    """The rules ``t`` with the two sides' ``doctrines`` (names in ``t.doctrines``) as a
    battle is given them: their arrays (:func:`~battle.kernel.pack.rule_arrays`), and the
    compiled kernel's :class:`~battle.kernel.jit.Rules` and the address it reads them at
    (:func:`~battle.kernel.pack.doctrine_rules`; None and 0 in plain Python). The caller
    keeps them while a battle uses them. Raises ConfigError if a doctrine name is not in
    ``t.doctrines``."""
    if PLAIN_PYTHON:
        refuse_doctrines(t, doctrines)
        return rule_arrays(t), None, 0
    return doctrine_rules(t, doctrines)


def fight_tables(
    t: Tables,
    kr: KernelRules,
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
    """Fight one battle of checked forces under the rules ``t`` with the two ``doctrines``,
    given as ``kr`` (:func:`kernel_rules`; see :func:`battle.engine.fight`)."""
    nightfall = -1 if max_bounds is None else max_bounds
    p, rules, address = kr  # the battle reads the rules at address: held until it is over
    if PLAIN_PYTHON:
        lay = new_state(t, (force_a, force_b), due, p)
        rows = EVENT_ROWS + EVENT_ROWS_PER_UNIT * len(lay.listed_ids) if record else QUIET_ROWS
        out, E = _plain(t, lay.arrays, attacker, doctrines, rng, rows, record, nightfall, rewind)
        if out[L.S_DUP]:
            refuse_repeats(lay.listed_ids)
        return result(t, p, lay, (force_a, force_b), out, E, record)
    forces = (force_a, force_b)
    lay = new_state(t, forces, due, p)
    units = len(lay.listed_ids)
    bits = rng.bit_generator
    if bits is not _LAST[0]:
        _LAST[0], _LAST[1] = bits, _ADDRESS(bits.capsule, b"BitGenerator")
    bitgen: int = _LAST[1]  # the address of its bitgen_t (numpy's C interface)
    buf = _SPARE.pop() if _SPARE else Buffers()
    DB = buf.DB
    if len(DB) != DICE:  # DICE was changed (tests)
        DB = buf.DB = np.empty(DICE, np.float64)
    size = NS + OUT_PER_UNIT * units
    if len(buf.OUT) < size:
        buf.out(2 * size)
    OUT, VIEW = buf.OUT, buf.VIEW
    if record:
        E = np.empty((EVENT_ROWS + EVENT_ROWS_PER_UNIT * units, EW))
    else:
        E = buf.E
        if len(E) != QUIET_ROWS:  # QUIET_ROWS was changed (tests)
            E = buf.E = np.empty((QUIET_ROWS, EW))
    drawn = 0
    while True:
        fight_arrays(lay.arrays, attacker, DB, drawn, E, record, nightfall, address, bitgen, OUT)
        out = VIEW[:size].tolist()  # S, then the units' outcome columns
        if out[S_DUP]:
            _SPARE.append(buf)
            refuse_repeats(lay.listed_ids)
        drawn = out[S_DNUM]
        if out[S_DUSED] > len(DB):  # more uniforms than DB keeps: kept, and room for more
            more = np.empty(4 * len(DB), np.float64)
            more[:drawn] = DB[:drawn]
            DB = more
            continue
        if out[S_EOVER]:
            E = np.empty((4 * len(E), EW))
            continue
        break
    del rules  # held until the battle was over
    if not record:  # the rows its withdrawal checks are decoded from, if it made any
        E = E[: out[S_EN]].copy() if out[S_NWD] else _NO_ROWS
    _SPARE.append(buf)
    spare = -drawn % BLOCK
    if spare and rewind:
        rng.random(spare)  # the rest of the last block
    return result(t, p, lay, forces, out, E, record)


#: the last bit generator a battle drew from and its address (a campaign's stream is one
#: generator, restarted for each battle)
_LAST: list[Any] = [None, 0]


def _plain(
    t: Tables,
    arrays: tuple[Any, ...],
    attacker: int,
    doctrines: tuple[str, str],
    rng: np.random.Generator,
    rows: int,
    record: bool,
    nightfall: int,
    rewind: bool,
) -> tuple[list[int], Any]:
    """The battle in plain Python (``NUMBA_DISABLE_JIT=1``, for debugging): the same rules,
    its uniforms drawn beforehand in blocks of 64 (more blocks if it needs them); returns
    what :func:`battle.kernel.bound.fight_arrays` writes to ``OUT`` (as a list) and its event
    rows."""
    rl: Any = doctrine_arrays(t, doctrines)  # the arrays of RL
    start = rng.bit_generator.state if rewind else None
    dice = rng.random(4 * BLOCK)
    while True:
        E = np.empty((rows, L.EW), np.float64)
        st = set_out(arrays, attacker, dice, E, record, nightfall, rl[0], rl[1], rl[9])
        if st[2][L.S_DUP]:  # refused: not fought
            return st[2].tolist(), st[6]
        run_battle(cast(Battle, SimpleNamespace(**dict(zip(FIELDS, (*st, *rl), strict=True)))))
        s = st[2].tolist()
        used = s[L.S_DUSED]
        if used > len(dice):  # more dice: the next blocks of the same stream
            dice = np.concatenate((dice, rng.random(BLOCK * (-(-(used - len(dice)) // BLOCK)))))
            continue
        if s[L.S_EOVER]:
            rows *= 4
            continue
        break
    if start is not None:  # the generator after the blocks used
        rng.bit_generator.state = start
        rng.random(BLOCK * -(-used // BLOCK))
    n = len(arrays[1])
    OUT = np.empty(L.NS + OUT_PER_UNIT * n, np.int64)
    OUT[: L.NS] = st[2]
    outcome_columns(st[0], listing_of(arrays[1]), OUT[L.NS :])
    return OUT.tolist(), st[6]
