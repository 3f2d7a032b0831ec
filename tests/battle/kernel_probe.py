"""A battle laid out in the compiled kernel, for tests that set a position by hand and call
one rule at a time (RULES.md §3–§7), with scripted dice."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from battle.arrivals import Arrival
from battle.events import BattleEvent
from battle.kernel import layout as L
from battle.kernel.decode import events
from battle.kernel.jit import Battle
from battle.kernel.lineup import new_state
from battle.kernel.pack import doctrine_arrays, rule_arrays
from battle.tables import Tables
from battle.units import Force, UnitSpec

ACTIONS = {L.A_RALLY: "rally", L.A_CHARGE: "charge", L.A_FORM: "form", L.A_ADVANCE: "advance"}
#: flag names a test may set or read -> their column of U
COLUMNS = {
    "shaken": L.U_SHAKEN,
    "disordered": L.U_DISORD,
    "failed_change": L.U_FAILED,
    "frozen": L.U_FROZEN,
    "routed": L.U_ROUTED,
    "destroyed": L.U_DESTR,
    "off_table": L.U_OFFT,
    "out": L.U_OUT,
    "total_hits": L.U_TOTAL,
    "hits": L.U_HITS,
    "hits_before": L.U_HB,
    "change_cost": L.U_CCOST,
    "charge_bonus": L.U_CBONUS,
    "no_charge": L.U_NOCH,
    "present": L.U_PRESENT,
}
UNIT_REFS = {
    "melee": L.U_MELEE,
    "charged_by": L.U_CBY,
    "charging": L.U_CING,
    "stood_vs": L.U_SVS,
    "stood_by": L.U_SBY,
}


def uniform(roll: int, sides: int) -> float:
    """The uniform that rolls ``roll`` on a d``sides`` (floor(u * sides) + 1, RULES.md §0.1)."""
    assert 1 <= roll <= sides, (roll, sides)
    return (roll - 0.5) / sides


class Probe:
    """One battle in the kernel: ``red`` and ``blue`` units (their own formations), the dice
    ``rolls`` as ``(roll, sides)`` pairs in the order the rules roll them, turn and bound 1.

    ``b`` is the kernel's battle: pass it to any rule function (``stand_tests(p.b, 0)``).
    """

    def __init__(
        self,
        tables: Tables,
        red: Sequence[UnitSpec],
        blue: Sequence[UnitSpec],
        rolls: Iterable[tuple[int, int]] = (),
        *,
        doctrines: tuple[str, str] = ("steady", "steady"),
        attacker: int = 0,
        record: bool = True,
        arrivals: Sequence[Arrival] = (),
        uniforms: Sequence[float] = (),
    ) -> None:
        self.t = tables
        self.packed = rule_arrays(tables)
        due = sorted(arrivals, key=lambda a: a.bound)
        self.lay = lay = new_state(
            tables, (Force("Red", tuple(red)), Force("Blue", tuple(blue))), due
        )
        #: the battle as the kernel lays it out before the first bound
        self.start = start = lay.start(self.packed, attacker)
        n = start[0].shape[0]
        dice = [uniform(r, s) for r, s in rolls] + list(uniforms)
        self.U = start[0].copy()
        self.P = start[1].copy()
        self.S = start[2].copy()
        self.S[L.S_RECORD] = record
        self.S[L.S_TURN] = self.S[L.S_BOUNDS] = 1
        self.S[L.S_DNUM] = len(dice)
        self.DK = start[3].copy()
        self.E = np.zeros((4096, L.EW), np.float64)
        self.O = np.zeros((n, L.NO), np.int64)
        self.OG = np.zeros(n, np.float64)
        arrays = (
            self.U,
            self.P,
            self.S,
            self.DK,
            np.zeros_like(self.DK),
            np.array([*dice, 0.5], np.float64),
            self.E,
            self.O,
            self.OG,
            lay.AB,
            lay.AS,
            np.zeros((L.WK_ROWS, n), np.int64),
            np.zeros((2, n), np.bool_),
            np.zeros((n, 5), np.int64),
            np.zeros(n, np.float64),
        )
        self.b = Battle(*arrays, *doctrine_arrays(tables, doctrines))
        self.ids = [s.id for s in lay.specs]

    def reset(self) -> None:
        """Put the units and the battle's counts back as laid out (the dice read on)."""
        U0, P0, S0, DK0 = self.start
        self.U[:] = U0
        self.P[:] = P0
        keep = self.S[[L.S_DI, L.S_DUSED, L.S_DNUM, L.S_RECORD, L.S_TURN, L.S_BOUNDS]]
        self.S[:] = S0
        self.S[[L.S_DI, L.S_DUSED, L.S_DNUM, L.S_RECORD, L.S_TURN, L.S_BOUNDS]] = keep
        self.DK[:] = DK0

    def deck(self, side: int) -> list[int]:
        """``side``'s cards, highest first (RULES.md §3)."""
        return [int(c) for c in self.DK[side, : self.S[L.S_DN + side]]]

    # ------------------------------------------------------------------ units
    def i(self, uid: str) -> int:
        """The kernel index of unit ``uid``."""
        return self.ids.index(uid)

    def set(self, uid: str, **values: object) -> None:
        """Set flags or numbers (``shaken=True``), unit references (``melee="B-I1"``, None for
        none), ``pos`` (inches) or ``formation`` (a name of the unit's type)."""
        i = self.i(uid)
        for name, value in values.items():
            if name in COLUMNS:
                self.U[i, COLUMNS[name]] = int(value)  # type: ignore[call-overload]
            elif name in UNIT_REFS:
                self.U[i, UNIT_REFS[name]] = -1 if value is None else self.i(str(value))
            elif name == "pos":
                self.P[i, L.P_POS] = float(value)  # type: ignore[arg-type]
            elif name == "formation":
                kind = self.packed.kinds[self.U[i, L.U_KIND]]
                self.U[i, L.U_FID] = self.packed.fid[(kind, str(value))]
            else:
                raise KeyError(name)

    def get(self, uid: str, name: str) -> object:
        """A flag (bool), number, unit reference (id or None), ``pos`` or ``formation``."""
        i = self.i(uid)
        if name in COLUMNS:
            v = int(self.U[i, COLUMNS[name]])
            return bool(v) if name not in ("total_hits", "hits", "hits_before") else v
        if name in UNIT_REFS:
            j = int(self.U[i, UNIT_REFS[name]])
            return None if j < 0 else self.ids[j]
        if name == "pos":
            return float(self.P[i, L.P_POS])
        if name == "formation":
            return self.packed.formations[self.U[i, L.U_FID]]
        raise KeyError(name)

    def charge(self, charger: str, target: str) -> None:
        """``charger`` has moved into contact with ``target`` (RULES.md §6.4)."""
        self.set(charger, pos=self.t.depth - self.get(target, "pos"))  # type: ignore[operator]
        self.set(target, charged_by=charger)
        self.set(charger, charging=target, charge_bonus=self.t.charge_bonus)
        self.U[self.i(target), L.U_CHGL] = 1

    def order(self, k: int, uid: str, action: int, target: str | None = None) -> None:
        """Write order ``k`` of the bound: ``uid`` does ``action`` (battle.kernel.layout A_*)."""
        self.O[k] = (self.i(uid), action, -1 if target is None else self.i(target), -1)

    def orders(self, count: int) -> list[tuple[str, str, str, str]]:
        """The bound's first ``count`` orders: (unit, action, target id, formation name)."""
        out = []
        for k in range(count):
            u, action, target, form = (int(x) for x in self.O[k])
            out.append(
                (
                    self.ids[u],
                    ACTIONS[action],
                    self.ids[target] if target >= 0 else "",
                    self.packed.formations[form] if form >= 0 else "",
                )
            )
        return out

    # ------------------------------------------------------------------ battle
    @property
    def dice_used(self) -> int:
        return int(self.S[L.S_DUSED])

    def tally(self, side: int, row: int) -> int:
        """A §7.2 count of ``side`` (battle.kernel.layout T_*)."""
        return int(self.S[L.S_TAL + 4 * side + row])

    def events(self) -> list[BattleEvent]:
        """The events recorded so far (after the battle's start)."""
        rows = self.E[: int(self.S[L.S_EN])]
        return events(self.t, self.packed, self.lay, int(self.S[L.S_ATTACKER]), rows, ())[1:]
