"""The log tells the truth (issue 31, item 3): the sentences of a return after a draw, a road
winner marching on, a fall back caught, a division destroyed or surrendered (where and by
whom), and "beaten" said only of a division whose last battle was lost."""

from __future__ import annotations

from campaign.events import (
    BattleFought,
    DivisionDestroyed,
    FallBackCaught,
    MarchResumed,
    Ordered,
    ReturnBegun,
    Surrendered,
)
from campaign.printers.narrative import Narrator

NAMES = {"m": "Mont Fère", "k": "Kressheim", "g": "Glotz"}


def _battle(t: int, place: str, red: tuple[str, ...], blue: tuple[str, ...], attacker: str,
            winner: str | None) -> BattleFought:  # fmt: skip
    sides = {"red": red, "blue": blue}
    return BattleFought(t, place, NAMES.get(place, place), sides, attacker, winner,
                        "withdrawal", 4, 60, {}, {}, {}, {}, (), (), (1,))  # fmt: skip


def _said(narrator: Narrator, *events) -> list[str]:
    out = []
    for e in events:
        entry = narrator.one(e, 1)
        out.append(entry.text if entry is not None else "")
    return out


def _regroup(t: int, div: str, goal: str) -> Ordered:
    return Ordered(t, "red", div, "g", "regroup", goal, goal, friends=("R3",))


def test_beaten_only_after_a_lost_battle() -> None:
    n = Narrator(NAMES)
    said = _said(
        n,
        _regroup(0, "R1", "m"),  # never fought: not beaten
        _battle(60, "k", ("R1",), ("B1",), "blue", "blue"),
        _regroup(200, "R1", "k"),  # lost its last battle: beaten
        _battle(300, "k", ("R1",), ("B1",), "red", None),
        _regroup(400, "R1", "m"),  # a draw since: not beaten
    )
    assert said[0] == "R1 marches to rejoin R3 at Mont Fère"
    assert said[2] == "R1, beaten, marches to rejoin R3 at Kressheim"
    assert said[4] == "R1 marches to rejoin R3 at Mont Fère"


def test_a_pursuit_calls_beaten_only_the_beaten() -> None:
    n = Narrator(NAMES)
    pursue = Ordered(200, "blue", "B1", "k", "pursue", "m", "m", enemies=("R1", "R2"))
    said = _said(n, _battle(60, "k", ("R1",), ("B1",), "blue", "blue"), pursue)
    assert said[1] == "B1 pursues the beaten R1, with R2, to Mont Fère"
    alone = Ordered(210, "blue", "B1", "k", "pursue", "g", "g", enemies=("R2",))
    assert _said(n, alone) == ["B1 pursues R2 to Glotz"]


def test_a_caught_fall_back_is_told_and_the_pursuer_catches() -> None:
    n = Narrator(NAMES)
    said = _said(
        n,
        FallBackCaught(600, "red", "R1", "k", "g", ("B1", "B2")),
        _battle(600, "k", ("R1",), ("B1", "B2"), "blue", "blue"),
    )
    assert said[0] == "R1, falling back toward Glotz, is caught at Kressheim by B1 and B2"
    assert "Blue's B1 and B2 (no units) catch Red's R1 (no units)" in said[1]


def test_moves_and_ends_are_told_with_where_and_by_whom() -> None:
    n = Narrator(NAMES)
    said = _said(
        n,
        ReturnBegun(900, "red", "R1", "k", "m", "k"),
        ReturnBegun(900, "blue", "B1", ("g", "k"), "g", "g~k"),
        MarchResumed(900, "red", "R2", ("m", "g"), "g"),
        DivisionDestroyed(960, "red", "R3", "m", ("B1",)),
        DivisionDestroyed(960, "blue", "B4", ("m", "g"), ("R1", "R2")),
        Surrendered(960, "blue", "B2", "k", ("R1",)),
    )
    assert said == [
        "R1 goes back to Mont Fère after the drawn battle at Kressheim",
        "B1 turns back along the road between Glotz and Kressheim to Glotz after the drawn "
        "fight there",
        "R2, the victor on the road between Mont Fère and Glotz, marches on to Glotz",
        "R3 is destroyed at Mont Fère by B1: its last unit is gone",
        "B4 is destroyed at the road between Mont Fère and Glotz by R1 and R2: its last unit "
        "is gone",
        "B2 is cut off at Kressheim and surrenders to R1",
    ]


def test_the_same_order_by_another_road_is_told_and_the_next_road_is_not() -> None:
    """A rough road that would not pass may send a division another way (RULES.md §8.2):
    the same order again from the same junction by another road is a move of its own, told
    with the road it takes instead; the next road of the same march is the same order, not
    told again. (Default seed 890526279, day 4 12:00, set out with no order told.)"""
    n = Narrator({**NAMES, "c": "La Croisée", "x": "Mont Fère"})

    def regroup(t: int, at: str, step: str, road: str) -> Ordered:
        return Ordered(t, "blue", "B4", at, "regroup", "x", step, road, friends=("B1",))

    said = _said(
        n,
        regroup(660, "p", "g", "rough"),  # the rough road to Glotz: its test fails
        regroup(720, "p", "c", "normal"),  # the same order, by La Croisée instead
        regroup(840, "c", "x", "normal"),  # the next road of that march
    )
    assert said[0] == (
        "B4 marches to rejoin B1 at Mont Fère, taking the rough road to Glotz as a short cut"
    )
    assert said[1] == "B4 marches to rejoin B1 at Mont Fère, by way of La Croisée instead"
    assert said[2] == ""
