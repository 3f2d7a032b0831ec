"""The diary's after-action report (issue 29, item 7): losses in men and guns by arm, each
commander's fate, and each side's luck over the campaign.

Losses are counted from the battles a view knows of (:class:`~campaign.events.BattleFought`
units: a unit's boxes lost in a battle are its actual hits that battle, up to destruction,
RULES.md §1.2 and §4) and turned into men and guns with the ratios of
``config/diary.yaml`` (house: flavour only). The luck line compares the battles each side
won with the number the pre-battle odds expected (:class:`campaign.printers.odds.OddsBook`,
the umpire's only) and says how unusual that is: the chance of doing as well or better (or
as badly or worse) under the exact Poisson-binomial distribution of wins.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from campaign.errors import SimulatorError
from campaign.events import BattleFought, DivisionAtEnd
from campaign.maps.model import SIDES
from campaign.paths import CONFIG_DIR
from campaign.printers.narrative import Narrator, OddsSource
from campaign.printers.phrases import division_order, figures, side_noun, verb
from campaign.report.days import Diary

__all__ = [
    "DIARY_FILE",
    "commander_fates",
    "infantry_box",
    "losses_by_arm",
    "luck",
    "poisson_binomial",
]

DIARY_FILE = CONFIG_DIR / "diary.yaml"
#: arms in the order the table gives them (any other unit kind follows)
ARMS = ("infantry", "light_infantry", "cavalry", "artillery")


@cache
def _ratios(path: Path = DIARY_FILE) -> tuple[dict[str, int], int]:
    """``(men a box by unit kind, guns a battery)`` from ``config/diary.yaml``.

    Raises
    ------
    SimulatorError
        If the file is missing or a ratio is not a whole number from 0 to 10,000.
    """
    fix = (
        "Restore config/diary.yaml: 'men_per_box' mapping each unit kind to whole men (0 to "
        "10000) and 'guns_per_battery' a whole number (0 to 100)."
    )
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        men = {str(k): v for k, v in dict(data["men_per_box"]).items()}
        guns = data["guns_per_battery"]
    except (OSError, yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
        raise SimulatorError(
            f"cannot read the diary's men and guns ratios ({exc.__class__.__name__}: {exc})",
            source=str(path),
            fix=fix,
        ) from None
    bad = [k for k, v in men.items() if type(v) is not int or not 0 <= v <= 10_000]
    if bad or type(guns) is not int or not 0 <= guns <= 100:
        key = f"men_per_box.{bad[0]}" if bad else "guns_per_battery"
        raise SimulatorError(
            "a men or guns ratio is not a whole number in range",
            source=str(path),
            key=key,
            fix=fix,
        )
    return men, guns


def infantry_box(path: Path = DIARY_FILE) -> int:
    """Men in a box of infantry (``config/diary.yaml``), for the table's note."""
    return _ratios(path)[0].get("infantry", 0)


def _lost(boxes_at: int, before: int, total: int) -> int:
    """Boxes a unit lost in one battle: its actual hits there, up to destruction (§1.2)."""
    return min(total, boxes_at) - min(before, boxes_at)


def losses_by_arm(diary: Diary, path: Path = DIARY_FILE) -> list[dict[str, Any]]:
    """Per side and arm: boxes lost, men lost, units destroyed, guns lost (batteries
    destroyed times ``guns_per_battery``), from the battles the view knows of; a side's
    total row last. A side's view counts the enemy only as its battles showed it."""
    men_per_box, guns_per_battery = _ratios(path)
    rows: list[dict[str, Any]] = []
    for side in SIDES:
        boxes: dict[str, int] = defaultdict(int)
        destroyed: dict[str, int] = defaultdict(int)
        for b in diary.battles:
            for u in b.units:
                if u.side != side:
                    continue
                boxes[u.kind] += _lost(diary.destroyed_at, u.hits_before, u.total_hits)
                destroyed[u.kind] += u.state == "destroyed"
        kinds = sorted(boxes, key=lambda k: (ARMS.index(k) if k in ARMS else len(ARMS), k))
        total = {"boxes": 0, "men": 0, "destroyed": 0, "guns": 0}
        for kind in kinds:
            men = boxes[kind] * men_per_box.get(kind, men_per_box.get("infantry", 0))
            guns = destroyed[kind] * guns_per_battery if kind == "artillery" else 0
            row = {"boxes": boxes[kind], "men": men, "destroyed": destroyed[kind], "guns": guns}
            for k, v in row.items():
                total[k] += v
            rows.append(
                {
                    "side": diary.side_name(side),
                    "arm": kind.replace("_", " "),
                    "total": False,
                    **row,
                }
            )
        rows.append({"side": diary.side_name(side), "arm": "all arms", "total": True, **total})
    return rows


def _battle_records(diary: Diary) -> dict[str, list[str]]:
    """Each division's battles in order, as ``won``, ``lost`` or ``drew``."""
    record: dict[str, list[str]] = defaultdict(list)
    for b in diary.battles:
        for side, divisions in b.divisions.items():
            for d in divisions:
                record[d].append(
                    "drew" if b.winner is None else "won" if b.winner == side else "lost"
                )
    return record


def _battles_fought(r: list[str]) -> str:
    """``3 battles: won 2, lost 1, drew 0`` (none: ``no battle``)."""
    if not r:
        return "no battle"
    return (
        f"{len(r)} battle{'s' if len(r) != 1 else ''}: won {r.count('won')}, lost "
        f"{r.count('lost')}, drew {r.count('drew')}"
    )


def _fate(row: DivisionAtEnd, narrator: Narrator) -> str:
    """How a commander's campaign ended with his division's (RULES.md §8.5, §8.7): taken
    prisoner when it surrendered, his division destroyed under him, else its state, where
    it stood and its strength when known."""
    where = narrator.j(row.place) if row.place not in ("", "-") else ""
    where = ("on " if isinstance(row.place, tuple) else "at ") + where if where else ""
    if row.state == "surrendered":
        return f"taken prisoner with his division{f' {where}' if where else ''}"
    if row.state == "destroyed" or row.units == 0:
        return "his division destroyed under him"
    size = (
        ""
        if row.units is None or row.boxes is None
        else f", {figures(row.units, 'unit')}, {figures(row.boxes, 'box', 'boxes')}"
    )
    return f"{row.state}{f' {where}' if where else ''}{size}"


def commander_fates(diary: Diary, narrator: Narrator) -> list[dict[str, str]]:
    """Each named commander of the view (its own side's, or all for the umpire): his
    division, its battles won, lost and drawn, and how it ended (RULES.md §8.5, §8.7)."""
    record = _battle_records(diary)
    ends = {row.division: row for row in diary.end.divisions} if diary.end else {}
    rows = []
    for d, row in sorted(ends.items(), key=lambda r: division_order(r[1].side, r[0])):
        name = narrator.commanders.full(d) if narrator.commanders else ""
        if not name or narrator.general(d) == "":
            continue  # a side's diary names only its own commanders
        rows.append(
            {
                "commander": name,
                "division": d,
                "side": diary.side_name(row.side),
                "battles": _battles_fought(record.get(d, [])),
                "fate": _fate(row, narrator),
            }
        )
    return rows


def poisson_binomial(chances: Sequence[float]) -> list[float]:
    """``P(exactly k successes)`` for k = 0..n of independent trials with ``chances``
    (exact, by convolution). ``poisson_binomial([0.5, 0.5]) == [0.25, 0.5, 0.25]``."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1.0 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist


def luck(diary: Diary, odds: OddsSource | None) -> list[str]:
    """Per side, one sentence: battles won against the number the odds expected, and the
    chance of a result as far from it or further on that side (one tail of the
    Poisson-binomial). Empty without odds (a side's diary: the odds are the umpire's)."""
    if odds is None or diary.view != "umpire":
        return []
    known: list[tuple[BattleFought, Any]] = [(b, odds(b)) for b in diary.battles]
    known = [(b, o) for b, o in known if o is not None]
    if not known:
        return []
    out = []
    for side in SIDES:
        chances = [o.chance(side) for _, o in known]
        won = sum(b.winner == side for b, _ in known)
        expected = sum(chances)
        dist = poisson_binomial(chances)
        if won >= expected:
            tail, how = sum(dist[won:]), "as many or more"
        else:
            tail, how = sum(dist[: won + 1]), "as few or fewer"
        name = diary.side_name(side)
        verdict = (
            "about what the odds gave" if tail >= 0.25 else "lucky" if won > expected else "unlucky"
        )
        out.append(
            f"{side_noun(name, start=True)} won {won} of {len(known)} "
            f"{'battle' if len(known) == 1 else 'battles'} against {expected:.1f} expected "
            f"from the odds before each: {how} wins come {tail:.0%} of the time, so "
            f"{verb(name, 'it was', 'they were')} {verdict}."
        )
    return out
