"""campaign.schedule's own SimPy step loop and timeouts (issue 15) do what SimPy's do:
the same events in the same order at the same minutes, and the same errors."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

import pytest
import simpy

from campaign.schedule import first_of, run_until, timeout

Make = Callable[[simpy.Environment, Any], simpy.Event]


def _simpy_timeout(env: simpy.Environment, delay: Any) -> simpy.Event:
    return env.timeout(delay)


def _world(make: Make, trace: list[tuple[Any, str]]) -> tuple[simpy.Environment, simpy.Event]:
    """Three processes waking one another with timeouts (ints and floats, zero delays)
    and a plain event; returns the environment and the event that ends the run."""
    env = simpy.Environment()
    done = env.event()
    bell = env.event()

    def walker(name: str, delays: list[Any]) -> Generator[simpy.Event, Any, None]:
        for d in delays:
            yield make(env, d)
            trace.append((env.now, name))
            if name == "a" and env.now >= 5 and not bell.triggered:
                bell.succeed()

    def sleeper() -> Generator[simpy.Event, Any, None]:
        yield bell
        trace.append((env.now, "bell"))
        yield make(env, 0)
        trace.append((env.now, "after bell"))
        yield make(env, 2.5)
        done.succeed()

    env.process(walker("a", [1, 0, 2, 2.0, 0, 3]))
    env.process(walker("b", [0, 1, 1.5, 0, 4]))
    env.process(sleeper())
    return env, first_of(env, (done, make(env, 100)))


def test_run_until_and_timeout_replay_simpy_event_for_event() -> None:
    ours: list[tuple[Any, str]] = []
    env, until = _world(timeout, ours)
    run_until(env, until)
    theirs: list[tuple[Any, str]] = []
    env2, until2 = _world(_simpy_timeout, theirs)
    env2.run(until=until2)
    assert ours == theirs and len(ours) > 10
    assert [type(t) for t, _ in ours] == [type(t) for t, _ in theirs]  # ints stay ints
    assert env.now == env2.now == 7.5  # bell at 5, then 0 and 2.5 minutes
    # what is left to run is the same (SimPy also puts the processed until event back, with
    # no callbacks left, at priority -1: nothing of it would run)
    rest2 = [e for *_, e in sorted(env2._queue) if e is not until2]
    assert [e for *_, e in sorted(env._queue)] != [] and len(env._queue) == len(rest2)


def test_timeout_refuses_a_negative_delay_as_simpy_does() -> None:
    env = simpy.Environment()
    with pytest.raises(ValueError, match="Negative delay"):
        timeout(env, -1)
    event = timeout(env, 3)
    assert isinstance(event, simpy.Timeout) and event.triggered and not event.processed


def test_run_until_stops_on_an_empty_schedule_and_returns_when_already_processed() -> None:
    env = simpy.Environment()
    never = env.event()
    timeout(env, 4)
    with pytest.raises(RuntimeError, match="No scheduled events left"):
        run_until(env, never)
    assert env.now == 4
    gone = timeout(env, 1)
    run_until(env, gone)
    assert gone.processed
    run_until(env, gone)  # processed already: nothing happens
    assert env.now == 5


def test_run_until_raises_a_failure_nobody_handled() -> None:
    env = simpy.Environment()

    def broken() -> Generator[simpy.Event, Any, None]:
        yield timeout(env, 2)
        raise KeyError("lost")

    env.process(broken())
    with pytest.raises(KeyError, match="lost"):
        run_until(env, timeout(env, 10))
    assert env.now == 2
