"""A day's dispatch: the short paragraph at the head of each day of the diary (issue 29).

:func:`dispatch` writes it from the day's facts as one view knows them (the events of a
:class:`~campaign.report.days.Day`, which :func:`campaign.report.days.build_diary` took from
the view's filtered stream, :func:`campaign.report.view.side_view`): reinforcements, where a
side concentrated (two or more of its divisions at one junction at nightfall), the battles and
who won them, who fell back or surrendered, the evening withdrawal checks (RULES.md §7.6) and
the state at nightfall. A side's dispatch speaks only of what that side knew: its own
divisions and the enemy divisions it saw or fought.
"""

from __future__ import annotations

from collections import defaultdict

from campaign.events import (
    BattleFought,
    DivisionDestroyed,
    FallBackCaught,
    FellBack,
    Reinforced,
    Surrendered,
    WithdrawalCheck,
)
from campaign.maps.model import SIDES
from campaign.printers.battle_story import faced_overnight
from campaign.printers.narrative import Narrator
from campaign.printers.phrases import side_noun, verb
from campaign.report.days import Day, Diary

__all__ = ["dispatch", "listing"]

#: How a battle was won (BattleFought.reason), as a verb of the winner: ``Red routs R2``.
_WON = {
    "withdrawal": ("drives off", "drive off"),
    # the loser had no unit left on the field (§6.8): routed or off the table as well as
    # destroyed, so the division lives on to fall back
    "no-units": ("clears the field of", "clear the field of"),
    "cards": ("wears down", "wear down"),
}


def listing(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _knows_all(diary: Diary, side: str) -> bool:
    return diary.view in ("umpire", side)


def _concentrations(diary: Diary, narrator: Narrator, day: Day) -> list[str]:
    """``Red has R1, R2 and R3 together at Mont Fère``: two or more divisions of a side at
    one junction at nightfall (the enemy's only where this view saw them there that day)."""
    out = []
    for side in SIDES:
        at: dict[str, list[str]] = defaultdict(list)
        for m in day.marks:
            if m.side == side and m.junction is not None and (m.own or not m.stale):
                at[m.junction].append(m.division)
        for junction, divisions in sorted(at.items(), key=lambda r: (-len(r[1]), r[0])):
            if len(divisions) < 2:
                continue
            name = diary.side_name(side)
            seen = "" if _knows_all(diary, side) else " (as seen)"
            out.append(
                f"{side_noun(name)} {verb(name, 'has', 'have')} "
                f"{narrator.divs(sorted(divisions))} together at {narrator.j(junction)}{seen}"
            )
    return out


def _battle(diary: Diary, narrator: Narrator, b: BattleFought, number: int) -> str:
    when = diary.clock.label(b.t)[-5:]
    where = f"#{number} at {b.place_name} ({when})"
    if faced_overnight(b):
        both = [d for side in SIDES for d in b.divisions.get(side, ())]
        return f"{where}: {narrator.divs(both)} face each other overnight"
    if b.winner is None:
        return f"{where} is drawn"
    loser = "blue" if b.winner == "red" else "red"
    name = diary.side_name(b.winner)
    doing = verb(name, *_WON.get(b.reason, ("beats", "beat")))
    beaten = narrator.divs(b.divisions.get(loser, ()))
    return f"{where}: {side_noun(name)} {doing} {beaten}"


def _fell_back(narrator: Narrator, falls: list[FellBack], verb_: str = "") -> list[str]:
    """``R3 (Delorme) toward Koporye`` (or ``R3 (Delorme) falls back toward Koporye`` with
    ``verb_``): where it was going only when the view saw it set off all the way (its own
    side, or the umpire); a fall back caught on its way is told by its own sentence."""
    out = []
    for f in falls:
        where = narrator.j(f.path[-1]) if f.path else ""
        to = f" toward {where}" if where and narrator.view in ("umpire", f.side) else ""
        out.append(f"{narrator.div(f.division)}{verb_}{to}")
    return out


def _night(diary: Diary, day: Day) -> str:
    parts = []
    for s in SIDES:
        v = day.strength.get(s)
        name = diary.side_name(s)
        if v is None:
            continue
        shown = f"{v} boxes" if _knows_all(diary, s) else f"{v} boxes in the divisions fought"
        parts.append(f"{side_noun(name)} {shown}")
    text = ""
    if parts:
        text = "At nightfall: " + listing(parts)
    if day.tally is not None:
        held = listing(
            [
                f"{side_noun(diary.side_name(s))} {_value(day.tally.objectives.get(s))}"
                for s in SIDES
            ]
        )
        text += ("; objective value held: " if text else "Objective value held: ") + held
    return text + "." if text else ""


def _reinforcements(diary: Diary, narrator: Narrator, day: Day) -> list[str]:
    """``Reinforcements reach Red at Mont Fère: R4.`` for each arrival (RULES.md §8.9)."""
    return [
        f"Reinforcements reach {side_noun(diary.side_name(e.side))} at "
        f"{narrator.j(e.junction)}: {narrator.divs(e.divisions)}."
        for e in day.events
        if isinstance(e, Reinforced)
    ]


def _battles(diary: Diary, narrator: Narrator, day: Day, numbers: dict[int, int]) -> list[str]:
    """``One battle: …`` or ``2 battles: …; ….`` (none: nothing)."""
    fights = [_battle(diary, narrator, b, numbers[id(b)]) for b in day.battles]
    if not fights:
        return []
    word = "One battle" if len(fights) == 1 else f"{len(fights)} battles".capitalize()
    return [f"{word}: " + "; ".join(fights) + "."]


def _falling_back(narrator: Narrator, falls: list[FellBack]) -> list[str]:
    """Per side, its falls back (RULES.md §8.5): ``Falling back: …`` when more than one."""
    out = []
    for side in SIDES:
        mine = [f for f in falls if f.side == side]
        if mine:
            out.append(
                f"Falling back: {listing(_fell_back(narrator, mine))}."
                if len(mine) > 1
                else f"{_fell_back(narrator, mine, ' falls back')[0]}."
            )
    return out


def _caught_surrendered_destroyed(narrator: Narrator, day: Day) -> list[str]:
    """Divisions caught on their way back, cut off and surrendering, or destroyed, in the
    order they happened (RULES.md §8.5)."""
    out = []
    for e in day.events:
        if isinstance(e, FallBackCaught):
            out.append(
                f"{narrator.div(e.division)} is caught at {narrator.j(e.junction)} on its way."
            )
        elif isinstance(e, Surrendered):
            out.append(
                f"{narrator.div(e.division)}, cut off at {narrator.j(e.junction)}, surrenders."
            )
        elif isinstance(e, DivisionDestroyed):
            out.append(f"{narrator.div(e.division)} is destroyed at {narrator.j(e.place)}.")
    return out


def _withdrawals(diary: Diary, day: Day) -> list[str]:
    """Each side that failed its evening withdrawal check (RULES.md §7.6)."""
    out = []
    for e in day.events:
        if isinstance(e, WithdrawalCheck) and e.withdraws:
            name = diary.side_name(e.side)
            out.append(
                f"{side_noun(name, start=True)} {verb(name, 'fails', 'fail')} "
                f"{verb(name, 'its', 'their')} evening check and "
                f"{verb(name, 'withdraws', 'withdraw')} from the campaign."
            )
    return out


def dispatch(diary: Diary, narrator: Narrator, day: Day, numbers: dict[int, int]) -> str:
    """The day's dispatch: one paragraph from the day's facts as ``diary.view`` knew them.

    Parameters
    ----------
    diary, day : Diary, Day
        The view's diary and one of its days (events already filtered for the view).
    narrator : Narrator
        Names junctions and divisions (with commanders where the view knows them).
    numbers : dict
        ``id(battle) -> its number`` in the diary.

    Returns
    -------
    str
        Sentences, each ending in a full stop; never empty (a quiet day says so).
    """
    falls = [e for e in day.events if isinstance(e, FellBack)]
    sentences = _reinforcements(diary, narrator, day)
    sentences += _battles(diary, narrator, day, numbers)
    sentences += _falling_back(narrator, falls)
    sentences += _caught_surrendered_destroyed(narrator, day)
    together = _concentrations(diary, narrator, day)
    if together:
        sentences.append(listing(together) + ".")
    if not day.battles and not falls:
        sentences.insert(0, "A day of marching: no battle is fought.")
    sentences += _withdrawals(diary, day)
    night = _night(diary, day)
    if night:
        sentences.append(night)
    return " ".join(s[:1].upper() + s[1:] for s in sentences)


def _value(value: int | None) -> str:
    """An objective value as a side's view knows it (None: the enemy's, not known)."""
    return "not known" if value is None else str(value)
