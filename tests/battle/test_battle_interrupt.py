"""Ctrl-C during ``campaign battle --odds``: the odds of the battles fought so far, exit 130.

Ctrl-C that lands inside the compiled battle reaches Python as numba's ``SystemError`` with
the interrupt as its cause; either way the command stops cleanly, prints the odds of the
battles that ended (labelled as such), keeps exactly their events, and never a traceback.
The interrupt is simulated by wrapping :func:`battle.engine.fight` as the command calls it.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pytest

from battle.forces import parse_force_flag
from campaign.cli import battle_cmd, main
from campaign.cli.common import caused_by_ctrl_c
from campaign.config import load_rules

_FIGHT = battle_cmd.fight  # the engine's own, before any test wraps it


def _numba_style_interrupt() -> SystemError:
    """What numba raises when Ctrl-C arrives while compiled code runs."""
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as ki:
            raise SystemError("fight_arrays returned a result with an exception set") from ki
    except SystemError as err:
        return err


def _interrupt_after(monkeypatch: pytest.MonkeyPatch, k: int, error: Callable[[], BaseException]):
    """Make the command's k+1-th battle raise ``error()``."""
    real = _FIGHT
    calls = {"n": 0}

    def fight(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] > k:
            raise error()
        return real(*args, **kwargs)

    monkeypatch.setattr(battle_cmd, "fight", fight)


def _forces() -> tuple[Any, Any]:
    rules = load_rules().rules.battle
    units, top = rules.units, rules.max_units_per_force
    return (
        parse_force_flag("6i1c1a", "Red", "R", units, top),
        parse_force_flag("4i1c1a", "Blue", "B", units, top),
    )


def test_caused_by_ctrl_c_follows_the_chain() -> None:
    assert caused_by_ctrl_c(KeyboardInterrupt())
    assert caused_by_ctrl_c(_numba_style_interrupt())
    plain = SystemError("something else")
    assert not caused_by_ctrl_c(plain)
    try:
        try:
            raise ValueError("x")
        except ValueError:
            raise SystemError("y")  # noqa: B904 - context, not cause, on purpose
    except SystemError as err:
        assert not caused_by_ctrl_c(err)
    a, b = RuntimeError("a"), RuntimeError("b")
    a.__cause__, b.__cause__ = b, a  # a cycle ends instead of looping
    assert not caused_by_ctrl_c(a)


@pytest.mark.parametrize("error", [KeyboardInterrupt, _numba_style_interrupt])
def test_interrupted_odds_are_the_odds_of_the_battles_fought(monkeypatch, error) -> None:
    rules = load_rules().rules.battle
    forces, docs = _forces(), ("steady", "steady")
    whole_events = io.StringIO()
    whole = battle_cmd.run_odds(forces, rules, 9, 3, 0, docs, progress=False, events=whole_events)
    _interrupt_after(monkeypatch, 3, error)
    cut_events = io.StringIO()
    cut = battle_cmd.run_odds(forces, rules, 9, 10, 0, docs, progress=False, events=cut_events)
    assert cut.pop("interrupted") == {"asked": 10}
    assert cut == whole  # the same three battles, summarised the same way
    assert cut_events.getvalue() == whole_events.getvalue()
    assert {json.loads(line)["battle"] for line in cut_events.getvalue().splitlines()} == {0, 1, 2}


def test_interrupt_before_the_first_battle_ends_is_an_interrupt(monkeypatch) -> None:
    rules = load_rules().rules.battle
    _interrupt_after(monkeypatch, 0, _numba_style_interrupt)
    with pytest.raises(SystemError):  # the command's entry point reports it (next test)
        battle_cmd.run_odds(_forces(), rules, 9, 10, 0, ("steady", "steady"), progress=False)


def test_other_errors_are_not_taken_for_an_interrupt(monkeypatch) -> None:
    rules = load_rules().rules.battle
    _interrupt_after(monkeypatch, 2, lambda: SystemError("a real fault"))
    with pytest.raises(SystemError, match="a real fault"):
        battle_cmd.run_odds(_forces(), rules, 9, 10, 0, ("steady", "steady"), progress=False)


def _run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    done = capsys.readouterr()
    return int(exc.value.code or 0), done.out, done.err


def test_the_command_prints_the_partial_odds_and_exits_130(monkeypatch, capsys, tmp_path) -> None:
    events = tmp_path / "events.jsonl"
    _interrupt_after(monkeypatch, 4, _numba_style_interrupt)
    code, out, err = _run(capsys, "battle", "--seed", "2", "--odds", "50", "--events", str(events))
    assert code == 130
    assert "Odds over 4 battles" in out
    assert "interrupted after 4 of 50 battles" in err and str(events) in err
    assert "Traceback" not in err and "SystemError" not in err
    assert {json.loads(line)["battle"] for line in events.read_text().splitlines()} == {
        0,
        1,
        2,
        3,
    }
    _interrupt_after(monkeypatch, 4, _numba_style_interrupt)
    code, out, err = _run(capsys, "battle", "--seed", "2", "--odds", "50", "--json")
    assert code == 130
    data = json.loads(out)
    assert data["battles"] == 4 and data["interrupted"] == {"asked": 50}


STOPPED = "interrupted: campaign battle stopped before it finished"


def test_an_interrupt_before_any_battle_ended_says_interrupted(monkeypatch, capsys) -> None:
    _interrupt_after(monkeypatch, 0, _numba_style_interrupt)
    code, out, err = _run(capsys, "battle", "--seed", "2", "--odds", "50")
    assert (code, out, err.strip()) == (130, "", STOPPED)
    code, out, err = _run(capsys, "battle", "--seed", "2")  # one battle, no --odds
    assert (code, out, err.strip()) == (130, "", STOPPED)


@pytest.mark.parametrize("where", ["campaign.engine.run_campaign", "campaign.maps.load_map"])
def test_ctrl_c_that_typer_catches_still_says_interrupted(monkeypatch, capsys, where) -> None:
    # Typer turns a KeyboardInterrupt raised inside a command into exit code 130 and says
    # nothing; the command line must still say "interrupted" (once), never a traceback
    module, name = where.rsplit(".", 1)

    def ctrl_c(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(f"{module}.{name}", ctrl_c)
    code, out, err = _run(capsys, "run", "--seed", "1")
    assert code == 130 and out == ""
    last = "interrupted: campaign run stopped before it finished"
    assert err.splitlines()[-1] == last and err.count("interrupted") == 1
