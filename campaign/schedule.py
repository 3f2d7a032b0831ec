"""The campaign's scheduling on SimPy: the one module of the product that reaches past
SimPy's public API (issue 26, item 3). Each helper places its work exactly where the plainer
SimPy idiom it replaces would have (same minute, same order), with fewer events (issue 15),
so that a campaign comes out the same.

SimPy runs the events of one minute by priority (``URGENT`` 0: interrupts, process starts;
then ``NORMAL`` 1: timeouts, triggered events), and within a priority in the order they
were scheduled. Every other campaign module uses SimPy's public API only (``env.timeout``,
``env.process``, ``env.run``; a test checks it). What is left here, and why SimPy's public
API does not give it:

* :func:`now_of` is the clock (``env._now``), :func:`due_now` whether an event waits this
  minute (``env._queue``), :func:`waits_on` what a process waits on (``process._target``)
  and :func:`may_wake` whether a process may be woken (``process._value``,
  ``env._active_proc``): SimPy's ``now``, ``peek``, ``target``, ``is_alive`` and
  ``active_process`` are properties and methods, each an interpreted Python call, where the
  compiled campaign reads them about 1,200 times a campaign (measured: 3% of a compiled
  campaign's time, issue 26).
* :func:`urgent_pending` reads the priority of the first queued event (``env._queue``):
  SimPy's ``peek`` gives its time only. :func:`queued` counts the queue (whether a contact
  check scheduled anything; no public count).
* :func:`ring`, :func:`after_urgent` and :func:`nudge` trigger an event with a priority of
  their own (``event._ok``, ``event._value`` and ``env.schedule``): ``Event.succeed`` always
  schedules at ``NORMAL``. :func:`nudge` resumes a process as ``Process.interrupt`` would,
  without the exception (``process._resume``, ``process._target``).
* :func:`set_active` runs a contact check as if outside any process (``env._active_proc``),
  as the event that would have run it would.

Replacing them with public calls (``interrupt`` and ``except simpy.Interrupt`` at every
wait, a process per check) gives the same campaigns more slowly; the fingerprint
(``python -m benchmarks fingerprint``) is the check for any such change.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

import simpy
from simpy.core import SimTime
from simpy.events import PENDING, URGENT

__all__ = [
    "WOKEN",
    "Woken",
    "after_urgent",
    "due_now",
    "first_of",
    "later",
    "may_wake",
    "now_of",
    "nudge",
    "queued",
    "ring",
    "set_active",
    "urgent_pending",
    "waits_on",
]

#: between URGENT (0) and NORMAL (1): SimPy only compares priorities (typed Any: SimPy's type
#: says int, which a compiled module would check)
_AFTER_URGENT: Any = 0.5


def now_of(env: simpy.Environment) -> SimTime:
    """The campaign's minute now (SimPy's ``env.now``: an int or a float as it was given)."""
    return env._now


def due_now(env: simpy.Environment) -> bool:
    """Whether any event waits to run this minute (a zero-delay event created now would
    run after it; with none, it would run next): SimPy's ``env.peek() == env.now``."""
    queue = env._queue
    return bool(queue) and queue[0][0] == env._now


def waits_on(process: simpy.Process) -> simpy.Event:
    """The event ``process`` waits on (SimPy's ``process.target``)."""
    return process._target


def may_wake(env: simpy.Environment, process: simpy.Process) -> bool:
    """Whether ``process`` may be woken (:func:`nudge`): it is alive and not the one running
    (SimPy's ``process.is_alive and process is not env.active_process``)."""
    return process._value is PENDING and process is not env._active_proc


def queued(env: simpy.Environment) -> int:
    """How many events are scheduled (triggered and waiting to run)."""
    return len(env._queue)


def set_active(env: simpy.Environment, process: simpy.Process | None) -> None:
    """Make ``process`` the one SimPy counts as running (None: none), as while the event
    that runs a callback outside any process would: a wake then interrupts it as it would
    that event's."""
    env._active_proc = process


def urgent_pending(env: simpy.Environment) -> bool:
    """Whether an urgent event (an interrupt, a process start) waits to run this minute."""
    queue = env._queue
    return bool(queue) and queue[0][1] == URGENT and queue[0][0] == env._now


def later(env: simpy.Environment, delay: float, action: Callable[[], None]) -> None:
    """Run ``action`` in ``delay`` minutes (>= 0), where a process started now whose first act
    is ``yield env.timeout(delay)`` would, without the process and its two events.

    The process's timeout would be created when its start runs: after the urgent events
    already waiting this minute, which may schedule events of their own. With none waiting,
    the timeout is created now, in the same place among the events of its minute, provided
    the caller schedules nothing more for that minute before it returns to SimPy (each
    caller in this package schedules only this minute's urgent events, or events for other
    minutes); with some waiting, a process it is. ``delay`` is read now: nothing it depends
    on may change before those urgent events have run.
    """
    if urgent_pending(env):
        env.process(_wait_then(env, delay, action))
        return
    env.timeout(delay).callbacks.append(lambda _: action())


def _wait_then(
    env: simpy.Environment, delay: float, action: Callable[[], None]
) -> Generator[simpy.Event, Any, None]:
    yield env.timeout(delay)
    action()
    yield env.event()  # never triggered: an ending process would schedule an event (a step)


def first_of(env: simpy.Environment, events: tuple[simpy.Event, ...]) -> simpy.Event:
    """An event triggered when the first of ``events`` runs, as ``simpy.AnyOf`` would be
    (scheduled as that event runs), without building a condition value."""
    first = env.event()

    def trigger(_: simpy.Event) -> None:
        if not first.triggered:
            first.succeed()

    for event in events:
        event.callbacks.append(trigger)
    return first


def ring(env: simpy.Environment, event: simpy.Event) -> None:
    """Trigger ``event`` as an urgent event of this minute: a process waiting on it resumes
    where an interrupt sent now would have resumed it, without the exception."""
    event._ok, event._value = True, None
    env.schedule(event, URGENT)


def after_urgent(env: simpy.Environment) -> simpy.Event:
    """A triggered event of this minute that runs after every urgent event of the minute,
    however late scheduled, and before its normal ones (priority 0.5)."""
    event = env.event()
    event._ok, event._value = True, None
    env.schedule(event, _AFTER_URGENT)
    return event


class Woken:
    """The type of :data:`WOKEN` (one instance: compare with ``is``)."""

    def __repr__(self) -> str:
        return "WOKEN"


#: what a process woken by :func:`nudge` gets from its ``yield`` (every other event the
#: campaign's processes wait on has the value None)
WOKEN = Woken()


def nudge(env: simpy.Environment, process: simpy.Process) -> None:
    """Wake ``process`` where ``process.interrupt()`` would, without the exception: an urgent
    event of this minute that, when it runs, takes the process off the event it waits on
    and resumes it with :data:`WOKEN` as its ``yield``'s value (an interrupt would throw
    :class:`simpy.Interrupt` there instead). A process that has ended by then is left alone,
    as an interrupt would leave it. The caller makes sure ``process`` is alive and is not the
    one running (``Process.interrupt`` raises for either)."""
    event = env.event()
    event._ok, event._value = True, WOKEN

    def resume(_: simpy.Event) -> None:
        # what simpy's Interruption._interrupt does, with a value in place of the exception
        if process._value is PENDING:
            target = process._target
            if target.callbacks is not None:
                target.callbacks.remove(process._resume)
            process._resume(event)

    event.callbacks.append(resume)
    env.schedule(event, URGENT)
