"""The result of a battle fought on the table (issue 28 item 2): the sheet to fill in, its
checks, and the quick form.

A result sheet is YAML::

    battle: 3              # the battle it is the result of
    winner: red            # red, blue or draw
    bounds: 12             # how long it lasted, in bounds of 15 minutes (RULES.md §8.3)
    units:
      R2-I1: {hits: 4, status: in}      # hits: the unit's actual hits after the battle
      R2-A1: {hits: 10, status: destroyed}

``hits`` are a unit's actual hits *after* the battle, those it carried in included (RULES.md
§1.2), from what it carried in up to ``battle.destroyed_at_hits``; ``status`` is ``in`` (on
the field at the end), ``routed``, ``withdrawn`` (left the field) or ``destroyed`` (exactly the
units at ``destroyed_at_hits``). A winner must have a unit ``in`` at the end.

The quick form ``winner=red,red_losses=20%,blue_losses=45%[,bounds=12]`` spreads each side's
losses over its units by :func:`spread_losses` (the rule is in its docstring).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from battle.errors import SimulatorError
from battle.units import UnitSpec
from battle.yamlfile import read_yaml_file
from campaign.analysis.refight import BattleSetup
from campaign.events import SIDES
from campaign.table_result import STATUSES, TableResult, TableUnit

__all__ = [
    "STATUSES",
    "ResultSheetError",
    "TableResult",
    "TableUnit",
    "check_result",
    "parse_quick_result",
    "read_result",
    "result_sheet",
    "spread_losses",
]

_WINNERS = ("red", "blue", "draw")
_FIX = "Fill in the sheet 'campaign result-sheet' wrote (its comments say what each field takes)."
_QUICK_FIX = "Write e.g. --result 'winner=red,red_losses=20%,blue_losses=45%' (bounds=N optional)."


class ResultSheetError(SimulatorError):
    """A battle result entered by hand is not one the battle could have had."""


def _all_units(setup: BattleSetup) -> list[UnitSpec]:
    arrived = [u for a in setup.arrivals for u in a.units]
    return [*setup.forces[0].units, *setup.forces[1].units, *arrived]


def _side_of(setup: BattleSetup) -> dict[str, str]:
    sides = {u.id: SIDES[i] for i in (0, 1) for u in setup.forces[i].units}
    sides.update({u.id: SIDES[a.side] for a in setup.arrivals for u in a.units})
    return sides


def result_sheet(setup: BattleSetup, names: Mapping[str, str], limit: int) -> str:
    """The YAML sheet to fill in for ``setup``: every unit listed with the hits it carried in
    and status ``in``, the fields' rules in comments. ``limit`` is
    ``battle.destroyed_at_hits``."""
    b = setup.event
    lines = [
        f"# Result of battle {setup.number}: {b.place_name}.",
        "# Fill in the winner, how many bounds it lasted, and for every unit its actual hits",
        f"# after the battle (those carried in included, up to {limit}) and its status:",
        f"#   {', '.join(STATUSES)} ('destroyed' exactly at {limit} hits).",
        f"battle: {setup.number}",
        "winner: draw        # red, blue or draw",
        f"bounds: 1          # 1 to {setup.max_bounds} (the bounds of daylight left)",
        "units:",
    ]
    sides = _side_of(setup)
    late = {u.id: a.bound for a in setup.arrivals for u in a.units}
    for u in _all_units(setup):
        note = f"{names.get(sides[u.id], sides[u.id])} {u.kind.replace('_', ' ')}"
        note += f", carried in {u.hits}" if u.hits else ""
        note += f", joins at bound {late[u.id]}" if u.id in late else ""
        lines.append(f"  {u.id}: {{hits: {u.hits}, status: in}}   # {note}")
    return "\n".join(lines) + "\n"


def _whole(value: object, key: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ResultSheetError(
            f"expected a whole number from {low} to {high} (found {value!r:.40})",
            key=key,
            fix=_FIX,
        )
    if not low <= value <= high:
        raise ResultSheetError(f"expected {low}..{high} (found {value})", key=key, fix=_FIX)
    return value


def _mapping(value: object, key: str) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise ResultSheetError(
            f"expected a mapping of keys (found {type(value).__name__})", key=key, fix=_FIX
        )
    return value


def _only(
    data: Mapping[Any, Any],
    allowed: Sequence[str],
    where: str,
    fix: str = _FIX,
    required: Sequence[str] | None = None,
    cut: int | None = 40,
) -> None:
    """Refuse a key of ``data`` not ``allowed`` (shown cut to ``cut`` characters) and a
    ``required`` one (default: all allowed) that is missing; ``where`` prefixes the key."""
    for key in data:
        if key not in allowed:
            raise ResultSheetError(
                f"unknown key {repr(key)[:cut]} (a typo?); expected {', '.join(allowed)}",
                key=f"{where}{key}",
                fix=fix,
            )
    for key in allowed if required is None else required:
        if key not in data:
            raise ResultSheetError("missing (it is required)", key=f"{where}{key}", fix=fix)


def check_result(data: object, setup: BattleSetup, limit: int) -> TableResult:
    """The :class:`TableResult` of a parsed sheet, checked against the battle.

    Raises
    ------
    ResultSheetError
        Naming the key path, what was expected and the fix: not a mapping, an unknown or
        missing key, another battle's sheet, a winner other than red/blue/draw, bounds outside
        1..daylight left, an unknown or missing unit, hits below those carried in or above
        ``limit``, an unknown status, ``destroyed`` not matching ``limit`` hits, or a winner
        with no unit left on the field.
    """
    top = _mapping(data, "(top level)")
    _only(top, ("battle", "winner", "bounds", "units"), "")
    number = _whole(top["battle"], "battle", 1, 10**6)
    if number != setup.number:
        raise ResultSheetError(
            f"this sheet is for battle {number}, not battle {setup.number}",
            key="battle",
            fix=f"Give the sheet of battle {setup.number}.",
        )
    winner = top["winner"]
    if winner not in _WINNERS:
        raise ResultSheetError(
            f"expected red, blue or draw (found {winner!r:.40})", key="winner", fix=_FIX
        )
    bounds = _whole(top["bounds"], "bounds", 1, max(setup.max_bounds, 1))
    entries = _mapping(top["units"], "units")
    carried = {u.id: u.hits for u in _all_units(setup)}
    sides = _side_of(setup)
    for uid in entries:
        if uid not in carried:
            raise ResultSheetError(
                f"no unit {uid!r:.40} fought in this battle; its units are {', '.join(carried)}",
                key=f"units.{uid}",
                fix="Use the unit ids the sheet lists.",
            )
    units = []
    for uid, before in carried.items():
        if uid not in entries:
            raise ResultSheetError(
                "missing (every unit of the battle needs its hits and status)",
                key=f"units.{uid}",
                fix=_FIX,
            )
        entry = _mapping(entries[uid], f"units.{uid}")
        _only(entry, ("hits", "status"), f"units.{uid}.")
        hits = _whole(entry["hits"], f"units.{uid}.hits", before, limit)
        status = entry["status"]
        if status not in STATUSES:
            raise ResultSheetError(
                f"expected one of {', '.join(STATUSES)} (found {status!r:.40})",
                key=f"units.{uid}.status",
                fix=_FIX,
            )
        if (status == "destroyed") != (hits == limit):
            raise ResultSheetError(
                f"a unit is destroyed exactly at {limit} actual hits (RULES.md §1.2); "
                f"found {hits} hits and status {status}",
                key=f"units.{uid}",
                fix=f"Give {limit} hits and status destroyed, or fewer hits and another status.",
            )
        units.append(TableUnit(uid, sides[uid], hits, status))
    if winner != "draw" and not any(u.side == winner and u.status == "in" for u in units):
        raise ResultSheetError(
            f"the winner, {winner}, has no unit left on the field (status in)",
            key="winner",
            fix="Name the side that held the field, or mark its units that stayed as 'in'.",
        )
    _check_absent(units, setup, bounds)
    return TableResult(number, None if winner == "draw" else winner, bounds, tuple(units))


def _check_absent(units: Sequence[TableUnit], setup: BattleSetup, bounds: int) -> None:
    """A late arrival announced for a bound the battle did not reach took no part
    (:mod:`campaign.table_battle`, *(house)*): its units keep the hits they carried in."""
    late = {u.id: (a.bound, u.hits) for a in setup.arrivals for u in a.units}
    for u in units:
        if u.id in late and late[u.id][0] > bounds and u.hits != late[u.id][1]:
            bound, before = late[u.id]
            raise ResultSheetError(
                f"it arrives at bound {bound} and the battle lasted {bounds}: it took no part, "
                f"so it keeps the {before} hits it carried in (found {u.hits})",
                key=f"units.{u.id}.hits",
                fix=f"Give it {before} hits, or give the bounds the battle really lasted.",
            )


def read_result(path: Path, setup: BattleSetup, limit: int) -> TableResult:
    """Read and check a filled-in sheet (see :func:`check_result`).

    Raises
    ------
    ResultSheetError
        The file cannot be read or is not valid YAML, or :func:`check_result` refuses it; the
        message names the file.
    """
    data = read_yaml_file(path, ResultSheetError, not_found="result file not found")
    try:
        return check_result(data, setup, limit)
    except ResultSheetError as exc:
        raise ResultSheetError(exc.what, source=str(path), key=exc.key, fix=exc.fix) from None


_QUICK = re.compile(r"^\s*([a-z_]+)\s*=\s*([^,=;]+?)\s*$")


def spread_losses(units: Sequence[UnitSpec], percent: float, limit: int) -> dict[str, int]:
    """Each unit's actual hits after losing ``percent`` of a side's boxes (the quick form's
    rule).

    The hits to deal are ``round(percent / 100 * boxes)``, ``boxes`` the side's boxes left
    before the battle (``limit`` less the hits carried in, summed over its units), dealt one at
    a time to the unit with the most boxes left (ties: the unit listed first), so losses fall
    evenly; a unit at ``limit`` hits is destroyed.

    >>> from battle.units import UnitSpec
    >>> spread_losses([UnitSpec("a", "infantry"), UnitSpec("b", "infantry", hits=4)], 50, 10)
    {'a': 6, 'b': 6}
    """
    hits = {u.id: u.hits for u in units}
    boxes = sum(limit - h for h in hits.values())
    deal = round(percent / 100 * boxes)
    order = [u.id for u in units]
    for _ in range(deal):
        target = max(order, key=lambda uid: (limit - hits[uid], -order.index(uid)))
        hits[target] += 1
    return hits


def _quick_side(
    setup: BattleSetup, side: int, percent: float, limit: int, bounds: int, stays: bool
) -> dict[str, dict[str, object]]:
    """The sheet entries of one side (0 or 1) in the quick form: ``percent`` of its boxes
    lost, spread by :func:`spread_losses` over its units in the battle (late arrivals
    announced for a bound after ``bounds`` took no part and keep their hits); units left
    below ``limit`` are ``in`` when the side ``stays`` on the field, else ``withdrawn``."""
    fought = list(setup.forces[side].units)
    absent: list[UnitSpec] = []
    for a in setup.arrivals:
        if a.side == side:
            (fought if a.bound <= bounds else absent).extend(a.units)
    hits = spread_losses(fought, percent, limit) | {u.id: u.hits for u in absent}
    return {
        uid: {"hits": h, "status": "destroyed" if h >= limit else ("in" if stays else "withdrawn")}
        for uid, h in hits.items()
    }


def parse_quick_result(text: str, setup: BattleSetup, limit: int, bounds: int) -> TableResult:
    """The :class:`TableResult` of the quick form ``winner=red,red_losses=20%,
    blue_losses=45%`` (``bounds=N`` optional: ``bounds`` is used otherwise). Losses are spread
    by :func:`spread_losses` over each side's units in the battle (a late arrival announced
    for a bound the battle did not reach took no part); units left below ``limit`` hits are
    ``in`` for the winner (and both sides in a draw) and ``withdrawn`` for the loser.

    Raises
    ------
    ResultSheetError
        A part that is not ``key=value``, an unknown or missing key, a winner other than
        red/blue/draw, a loss outside 0-100%, bounds outside 1..daylight left, or a winner
        with every unit destroyed.
    """
    fields: dict[str, str] = {}
    for part in text.split(","):
        m = _QUICK.match(part)
        if m is None:
            raise ResultSheetError(
                f"expected key=value (found {part.strip()!r:.40})",
                key="--result",
                fix=_QUICK_FIX,
            )
        fields[m.group(1)] = m.group(2)
    allowed = ("winner", "red_losses", "blue_losses", "bounds")
    data: dict[str, Any] = {"battle": setup.number, "bounds": bounds}
    _only(fields, allowed, "--result ", _QUICK_FIX, allowed[:3], None)
    winner = fields["winner"]
    if "bounds" in fields:
        try:
            data["bounds"] = int(fields["bounds"])
        except ValueError:
            data["bounds"] = fields["bounds"]
    units: dict[str, dict[str, object]] = {}
    for i, side in enumerate(SIDES):
        raw = fields[f"{side}_losses"].removesuffix("%")
        try:
            percent = float(raw)
        except ValueError:
            percent = math.nan
        if not 0 <= percent <= 100:
            raise ResultSheetError(
                f"expected a loss from 0% to 100% (found {fields[f'{side}_losses']!r:.40})",
                key=f"--result {side}_losses",
                fix="Write the share of the side's boxes lost, e.g. 20%.",
            )
        reached = data["bounds"] if isinstance(data["bounds"], int) else 0
        units.update(_quick_side(setup, i, percent, limit, reached, winner in (side, "draw")))
    data["winner"] = winner
    data["units"] = units
    try:
        return check_result(data, setup, limit)
    except ResultSheetError as err:
        # check_result speaks of a sheet's keys; the quick form's user typed --result
        raise ResultSheetError(
            err.what,
            key=f"--result {err.key}" if err.key else "--result",
            fix=_QUICK_FIX if err.fix == _FIX else err.fix,
        ) from None
