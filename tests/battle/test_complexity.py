"""No function in ``battle/`` is graded E or F by radon's cyclomatic complexity (issue 27:
RULES.md §6.7 asks for doctrines as "data + small functions"; the same holds for every rule
step). ``radon cc -s -n E battle`` lists the same from the command line."""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_rank, cc_visit

BATTLE = Path(__file__).resolve().parents[2] / "battle"


def test_no_function_in_battle_is_graded_e_or_f() -> None:
    graded = []
    for source in sorted(BATTLE.rglob("*.py")):
        for block in cc_visit(source.read_text(encoding="utf-8")):
            graded.append((cc_rank(block.complexity), f"{source.name}:{block.lineno} {block.name}"))
    assert len(graded) > 100  # every module was read
    assert [where for rank, where in graded if rank in ("E", "F")] == []


def test_the_grades_are_those_of_radon() -> None:
    """The threshold the test applies: E starts at a complexity of 31, F at 41."""
    assert cc_rank(30) == "D" and cc_rank(31) == "E" and cc_rank(41) == "F"
