"""The campaign's clock: the one module of the product that schedules SimPy events, through
SimPy's public API only (issue 26, item 3; ``tests/campaign/test_simpy_public.py`` checks
that no product module reads or writes a private attribute of a SimPy object).

SimPy runs the events of one minute by priority (``URGENT`` 0: interrupts, process starts;
then ``NORMAL`` 1: timeouts, triggered events), and within a priority in the order they
were scheduled. The campaign needs a little more than ``simpy.Environment`` offers: to ask
whether an event waits this minute and whether the first is urgent, to count what a contact
check scheduled, and to trigger an event at a priority of its choosing (``Event.succeed``
always schedules at ``NORMAL``). So the campaign runs on :class:`Clock`, an environment of its
own with ``simpy.Environment``'s public methods (``now``, ``schedule``, ``step``, ``run``,
``peek``, ``active_process``, the factories ``event``, ``timeout``, ``process``); SimPy's
events call only its ``schedule()``. It does not subclass ``simpy.Environment``: a compiled
class cannot subclass a Python one, and the subclass would carry SimPy's private attributes.
Its queue, time and count of events are kept exactly as ``simpy.Environment`` keeps them
(same heap, same order), so that a campaign comes out the same, event for event.

A process on the clock is a :class:`Routine` (SimPy's ``Process``, which keeps the running
process in a private attribute of its environment, compiled). It waits on a :class:`Wait` (a
compiled ``simpy.Timeout``, :meth:`Clock.wait`), an :class:`Alarm` (an untriggered event, rung
by :func:`ring`) or any SimPy event (``Clock.timeout`` stays SimPy's). Each is scheduled where
SimPy's would be, and the helpers below place their work exactly where the plainer SimPy idiom
each replaces would have (same minute, same order), with fewer events (issues 15, 31):
``python -m benchmarks.fingerprint --check`` is the check, and
``tests/campaign/test_scheduling.py`` runs one scenario on both environments. A division's
process is woken with ``Routine.wake`` (:meth:`campaign.engine.Campaign.wake`): where
SimPy's ``Process.interrupt`` would throw ``simpy.Interrupt`` into it, the same event resumes
it with :data:`WOKEN`, which every wait of its process expects.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Generator
from typing import Any, Final

import simpy
from simpy.core import EmptySchedule, Infinity, SimTime, StopSimulation
from simpy.events import NORMAL, URGENT

__all__ = [
    "WOKEN",
    "Alarm",
    "Clock",
    "Routine",
    "Wait",
    "after_urgent",
    "due_now",
    "first_of",
    "later",
    "may_wake",
    "now_of",
    "queued",
    "ring",
    "set_active",
    "urgent_pending",
    "waits_on",
]

#: an event's priority, lowest first: SimPy's ints (``URGENT`` 0, ``NORMAL`` 1) or the floats
#: below; a union, so that compiled code keeps the number given (not re-boxed at every event)
Priority = int | float
#: between URGENT (0) and NORMAL (1): the clock only compares priorities
_AFTER_URGENT: Final[Priority] = 0.5
#: the priority SimPy gives an event put back after a stop (``StopSimulation``): first of all
_RESUMED: Final[Priority] = -1.0

#: the events SimPy makes triggered and ok (``simpy.Timeout``): none of them can fail
_TIMEOUT: Final = simpy.Timeout
#: heapq's push and pop: compiled, a final is read directly, not looked up at every event
_push: Final = heapq.heappush
_pop: Final = heapq.heappop


class _Woken:
    """The type of :data:`WOKEN` (one instance)."""

    def __repr__(self) -> str:
        return "WOKEN"


#: what a routine woken by :meth:`Routine.wake` resumes with, at whatever wait it was at
#: (no event of the campaign runs with it as its value)
WOKEN: Final = _Woken()


class Wait:
    """A timeout of the campaign's own (:meth:`Clock.wait`): what ``simpy.Timeout`` is to a
    process, made by compiled code (SimPy's timeout is made by interpreted code, a twentieth
    of a campaign's time, issue 31). It is scheduled as it is made, at ``priority`` (SimPy's
    ``NORMAL`` unless told), exactly where a ``simpy.Timeout`` made then, or an event
    triggered then at that priority, would be; it never fails. Only routines wait on it
    (yield it; resumed with ``value``); :meth:`then` adds a callback.

    Most waits have one waiter, the routine that yields it: it is kept in a slot of its own,
    ``routine`` (None: none), resumed first when it runs, so that a wait makes no list (a wait
    is made at every step of a march); the other callbacks, after it, are in ``more`` (None
    until one is added); :attr:`callbacks` is the whole list, as SimPy's events have it.
    ``ran`` says whether it has run; ``value`` is what a routine waiting on it resumes with
    (None; an interrupt's cause).
    """

    def __init__(
        self, env: Clock, delay: SimTime, priority: Priority = NORMAL, value: Any = None
    ) -> None:
        if delay < 0:
            raise ValueError(f"Negative delay {delay}")
        self.routine: Routine | None = None
        self.more: list[Callable[[Any], None]] | None = None
        self.ran = False
        self.value = value
        # queued as Clock.schedule would (a wait is not triggered: nothing asked of it)
        env.scheduled += 1
        _push(env.queue, (env.now + delay, priority, env.scheduled, self))

    @property
    def callbacks(self) -> list[Callable[[Any], None]] | None:
        """What is called with it when it runs, in order (a list to add to, as a SimPy
        event's); None once it has run (SimPy's mark)."""
        if self.ran:
            return None
        more = self.more
        if more is None:
            self.more = more = []
        routine = self.routine
        if routine is not None:  # (first of all: it was added before the others)
            self.routine = None
            more.insert(0, routine)
        return more

    def then(self, callback: Callable[[Wait], None]) -> None:
        """Call ``callback`` with this wait when it runs (after those added before).

        Raises RuntimeError if it has run."""
        if self.ran:
            raise RuntimeError("the wait has run")
        more = self.more
        if more is None:
            self.more = [callback]
        else:
            more.append(callback)

    def wait_for(self, routine: Routine) -> None:
        """Resume ``routine`` when it runs (after the callbacks added before): what a
        routine that yields it does. Raises RuntimeError if it has run."""
        if self.routine is None and not self.more:
            if self.ran:
                raise RuntimeError("the wait has run")
            self.routine = routine
        else:
            self.then(routine)

    def forget(self, routine: Routine) -> None:
        """Resume ``routine`` no more when it runs (it was woken). Raises ValueError if it
        was not to be."""
        if self.routine is routine:
            self.routine = None
            return
        more = self.more
        if more is None:
            raise ValueError(f"{routine} does not wait on it")
        more.remove(routine)


class Alarm(Wait):
    """A :class:`Wait` that is not scheduled as it is made but when it is rung (:func:`ring`,
    at most once), if ever: what an untriggered ``simpy.Event`` is to a routine sleeping on
    it, made and rung by compiled code (issue 31). Its value is None; ``rung`` says whether
    it has been rung (scheduled).
    """

    def __init__(self) -> None:  # (a Wait's attributes, unscheduled)
        self.routine = None
        self.more = None
        self.ran = False
        self.value = None
        self.rung = False


#: what a process of the campaign waits on (yields): SimPy's events, or a :class:`Wait`
Waitable = simpy.Event | Wait
#: one scheduled event: (minute, priority, order of scheduling, event), as simpy.Environment
#: keeps them; the order makes every entry unique, so events themselves are never compared
Entry = tuple[SimTime, Priority, int, Waitable]


class Clock:
    """The campaign's SimPy environment (minutes since 06:00 day 1): ``simpy.Environment``'s
    behaviour, event for event, with its queue, time and active process as attributes of its
    own.

    Attributes
    ----------
    now
        The minute now: an int or a float as it was given (as SimPy's ``env.now``).
    queue
        The scheduled events, a heap of :data:`Entry` (triggered, waiting to run).
    scheduled, steps
        Events scheduled and events run so far (the first is each entry's order).
    active_process
        The :class:`Routine` running now, None when none is (``env.active_process``).
    """

    def __init__(self) -> None:
        self.now: SimTime = 0
        self.queue: list[Entry] = []
        self.scheduled = 0
        self.steps = 0
        #: the routine running now (None: none), set as it resumes and leaves off
        self.active_process: Routine | None = None
        # (priority, delay) asked of the next schedule() by trigger()
        self._asked: tuple[Priority, SimTime] | None = None

    # --------------------------------------------------------------- SimPy's environment
    def event(self) -> simpy.Event:
        """A new untriggered event (``simpy.Environment.event``)."""
        env: Any = self  # SimPy types its events' environment simpy.Environment
        return simpy.Event(env)

    def timeout(self, delay: SimTime = 0, value: Any = None) -> simpy.Timeout:
        """An event that runs in ``delay`` minutes (>= 0) with ``value``."""
        env: Any = self
        return simpy.Timeout(env, delay, value)

    def wait(self, delay: SimTime) -> Wait:
        """A :class:`Wait` that runs in ``delay`` minutes (>= 0): ``timeout(delay)`` for a
        :class:`Routine`, cheaper. Raises ValueError for a negative delay."""
        return Wait(self, delay)

    def process(self, generator: Generator[Waitable, Any, Any]) -> Routine:
        """Start ``generator`` as a process, a :class:`Routine` (``simpy.Environment.process``;
        its start is an urgent event of this minute)."""
        return Routine(self, generator)

    def schedule(self, event: Waitable, priority: Priority = NORMAL, delay: SimTime = 0) -> None:
        """Queue the triggered ``event`` to run in ``delay`` minutes at ``priority`` (SimPy's
        events call this as they are triggered), or as :meth:`trigger` asked."""
        asked = self._asked
        if asked is not None:
            self._asked = None
            priority, delay = asked
        self.scheduled += 1
        _push(self.queue, (self.now + delay, priority, self.scheduled, event))

    def trigger(
        self, event: simpy.Event, priority: Priority, value: Any = None, delay: SimTime = 0
    ) -> None:
        """Trigger ``event`` with ``value`` (``Event.succeed``) to run in ``delay`` minutes at
        ``priority``. Raises RuntimeError if it was triggered already."""
        self._asked = (priority, delay)
        try:
            event.succeed(value)
        finally:
            self._asked = None

    def peek(self) -> SimTime:
        """The minute of the next event (``simpy.core.Infinity`` when none waits)."""
        return self.queue[0][0] if self.queue else Infinity

    def step(self) -> None:
        """Run the next event: its time becomes now, its callbacks are called in order.

        Raises
        ------
        simpy.core.EmptySchedule
            When no event waits.
        StopSimulation
            From a callback that stops the run: the event's other callbacks run first when
            the run goes on.
        Exception
            A copy of a failed event's exception that nothing defused (a process's error).
        """
        if not self.queue:
            raise EmptySchedule
        entry = _pop(self.queue)  # (its priority and order not unpacked: not read)
        self.now = entry[0]
        event = entry[3]
        self.steps += 1
        if isinstance(event, Wait):  # most events: run natively, its routine first
            self._run_wait(event)
            return
        callbacks = event.callbacks
        event.callbacks = None  # type: ignore[assignment]  # processed (SimPy's mark)
        assert callbacks is not None  # (an event runs once)
        try:
            for callback in callbacks:
                if isinstance(callback, Routine):  # (called natively)
                    callback.resume(event)
                else:
                    callback(event)
        except StopSimulation:
            event.callbacks = callbacks[callbacks.index(callback) + 1 :]
            self.schedule(event, _RESUMED)
            raise
        # a Timeout cannot fail (it is made triggered, ok): its check, a SimPy property
        # call, is left out, a tenth of the clock's time a timeout compiled
        if type(event) is _TIMEOUT:
            return
        if not event.ok and not event.defused:
            failure = event.value
            assert isinstance(failure, BaseException)  # (Event.fail takes exceptions only)
            error = type(failure)(*failure.args)
            error.__cause__ = failure
            raise error

    def _run_wait(self, wait: Wait) -> None:
        """Run ``wait`` (a step): resume its routine, then call its other callbacks in
        order; it cannot fail. A StopSimulation from a callback puts it back with the
        callbacks left (first of all), as :meth:`step` does an event."""
        assert not wait.ran  # (a wait runs once)
        wait.ran = True
        routine = wait.routine
        if routine is not None:  # (a routine's resumption raises nothing)
            routine.resume(wait)
        more = wait.more
        if more is None:
            return
        wait.more = None
        try:
            for callback in more:
                if isinstance(callback, Routine):
                    callback.resume(wait)
                else:
                    callback(wait)
        except StopSimulation:
            wait.routine = None  # (resumed already)
            wait.more = more[more.index(callback) + 1 :]
            wait.ran = False
            self.schedule(wait, _RESUMED)
            raise

    def run(self, until: SimTime | simpy.Event | None = None) -> Any:
        """Run events until none is left, or until ``until``: a minute (> now; the events
        of that minute wait) or an event (its value is returned), as
        ``simpy.Environment.run``.

        Raises ValueError for a minute not after now, RuntimeError when the events ran out
        before ``until``.
        """
        if until is not None:
            if not isinstance(until, simpy.Event):
                at = until if isinstance(until, int) else float(until)
                if at <= self.now:
                    raise ValueError(f"until ({at}) must be greater than now ({self.now})")
                stop = self.event()
                self.trigger(stop, URGENT, None, at - self.now)  # before that minute's events
                until = stop
            elif until.callbacks is None:  # already run
                return until.value
            until.callbacks.append(StopSimulation.callback)
        try:
            while True:
                self.step()
        except StopSimulation as stop_:
            return stop_.args[0]
        except EmptySchedule:
            if until is not None:
                raise RuntimeError(f"no events left before {until}") from None
        return None


class Routine:
    """A process of the campaign (a division's life, the evenings' checks), run on the clock
    as ``simpy.Process`` runs one, event for event, with SimPy's public API only: started by
    an urgent event of this minute, resumed by the events it yields (it is their callback),
    woken by :meth:`interrupt` (an urgent event that throws ``simpy.Interrupt`` into it).
    Compiled, it resumes its generator without SimPy's interpreted ``Process._resume``, the
    most run code of the event loop (issue 31). Not an event itself: what waits for it to
    end waits on :attr:`ended`. It ends as a process does, with one normal event of its
    minute, :attr:`ended` (a failure raised from :meth:`Clock.step` when that event runs, as
    SimPy raises a process's, unless something waited on it).

    Attributes
    ----------
    target
        The event it waits on (SimPy's ``Process.target``).
    is_alive
        True until its generator has returned or raised.
    """

    def __init__(self, env: Clock, generator: Generator[Waitable, Any, Any]) -> None:
        self.env = env
        self.generator = generator
        # its ``send``, looked up once: compiled, ``generator.send(...)`` looks the method up
        # by name at every resumption (the generator's type is only known as it runs)
        self._send: Callable[[Any], Waitable] = generator.send
        self.is_alive = True
        self._ended: simpy.Event | None = None  # (made when first asked for, or at the end)
        start = Wait(env, 0, URGENT)  # as SimPy's Initialize: urgent, ahead of interrupts
        start.routine = self
        self.target: Waitable = start

    @property
    def ended(self) -> simpy.Event:
        """The event of its end (what ``yield process`` waits on with SimPy): triggered as
        it ends, with what its generator returned, or failed with what it raised."""
        if self._ended is None:
            self._ended = self.env.event()
        return self._ended

    def __call__(self, event: Waitable) -> None:
        """Resume with ``event``'s value (it ran), or its exception (it failed)."""
        self._resume(event, None)

    def resume(self, event: Waitable) -> None:
        """What calling it does (:meth:`__call__`), called natively by :meth:`Clock.step`."""
        self._resume(event, None)

    def interrupt(self, cause: Any = None) -> None:
        """Throw ``simpy.Interrupt(cause)`` into it as an urgent event of this minute runs
        (``simpy.Process.interrupt``); ignored if it has ended by then.

        Raises RuntimeError if it has ended, or if it is the one running."""
        self._urgently(cause, "interrupt", "interrupted")

    def wake(self) -> None:
        """Resume it with :data:`WOKEN`, whatever it waits on, as an urgent event of this
        minute runs: the event :meth:`interrupt` would send, in the same place among the
        minute's events, resuming it where the interrupt would be thrown, without the
        exception (issue 31: thrown through a division's nested steps, an interrupt cost
        more than the step it ended). Ignored if it has ended by then.

        Raises RuntimeError as :meth:`interrupt` does."""
        self._urgently(WOKEN, "wake", "woken")

    def _urgently(self, value: Any, verb: str, done: str) -> None:
        """Send ``value`` by an urgent event of this minute (SimPy's ``Interruption``)."""
        if not self.is_alive:
            raise RuntimeError(f"{self} has terminated and cannot be {done}.")
        if self is self.env.active_process:
            raise RuntimeError(f"A process is not allowed to {verb} itself.")
        Wait(self.env, 0, URGENT, value).then(self._interrupted)

    def _interrupted(self, event: Wait) -> None:
        """Run by the event of :meth:`interrupt` or :meth:`wake`: throw the interrupt, or
        send :data:`WOKEN`."""
        if self.is_alive:  # (two interrupts on their way, and it ended at the first)
            target = self.target
            if isinstance(target, Wait):
                target.forget(self)
            else:
                callbacks = target.callbacks
                assert callbacks is not None  # (what it waits on has not run)
                callbacks.remove(self)
            value = event.value
            self._resume(event, None if value is WOKEN else simpy.Interrupt(value))

    def _resume(self, event: Waitable, thrown: BaseException | None) -> None:
        """Run the generator on from ``event`` (or with ``thrown`` thrown in) to the next
        event it waits on, as ``simpy.Process`` does."""
        env = self.env
        env.active_process = self
        generator = self.generator
        send = self._send
        while True:
            try:
                if thrown is not None:
                    event = generator.throw(thrown)
                elif isinstance(event, Wait):  # noqa: SIM114  (never fails; read natively)
                    event = send(event.value)
                elif type(event) is _TIMEOUT or event.ok:  # (a timeout cannot fail)
                    event = send(event.value)
                else:  # a failed event: a copy of its exception is thrown in
                    event.defused = True
                    failure = event.value
                    assert isinstance(failure, BaseException)  # (Event.fail takes exceptions)
                    error = type(failure)(*failure.args)
                    error.__cause__ = failure
                    event = generator.throw(error)
            except StopIteration as stop:
                self._end(stop.value, None)
                break
            except Exception as error:  # (KeyboardInterrupt and the like go straight up)
                self._end(None, error)
                break
            thrown = None
            if isinstance(event, Wait):  # (read natively, as in Clock.step)
                if not event.ran:  # not run yet: it resumes this process when it runs
                    event.wait_for(self)
                    self.target = event
                    break
                continue  # run already: resumed at once with it (as SimPy's Process)
            callbacks = event.callbacks
            if callbacks is not None:  # not run yet: it resumes this process when it runs
                callbacks.append(self)
                self.target = event
                break
            # run already: resumed at once with it (as SimPy's Process)
        env.active_process = None

    def _end(self, value: Any, error: Exception | None) -> None:
        """Its generator returned ``value`` or raised ``error``: the event that ends a
        process (a step of this minute; the error raised as it runs)."""
        self.is_alive = False
        end = self.ended
        if error is None:
            end.succeed(value)
        else:
            end.fail(error)


# ------------------------------------------------------------------- the campaign's helpers
def now_of(env: Clock) -> SimTime:
    """The campaign's minute now (``env.now``)."""
    return env.now


def due_now(env: Clock) -> bool:
    """Whether any event waits to run this minute (a zero-delay event created now would
    run after it; with none, it would run next): SimPy's ``env.peek() == env.now``."""
    queue = env.queue
    return bool(queue) and queue[0][0] == env.now


def urgent_pending(env: Clock) -> bool:
    """Whether an urgent event (an interrupt, a process start) waits to run this minute."""
    queue = env.queue
    return bool(queue) and queue[0][1] == URGENT and queue[0][0] == env.now


def queued(env: Clock) -> int:
    """How many events are scheduled (triggered and waiting to run)."""
    return len(env.queue)


def waits_on(process: Routine) -> Waitable:
    """The event ``process`` waits on (SimPy's ``process.target``)."""
    return process.target


def may_wake(env: Clock, process: Routine) -> bool:
    """Whether ``process`` may be woken (``process.interrupt()``): it is alive and not the
    one running (``Process.interrupt`` raises for either)."""
    return process.is_alive and process is not env.active_process


def set_active(env: Clock, process: Routine | None) -> None:
    """Make ``process`` the one counted as running (None: none), as while the event that
    runs a callback outside any process would: a wake then interrupts it as it would that
    event's."""
    env.active_process = process


def later(env: Clock, delay: float, action: Callable[[], None]) -> None:
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
        Routine(env, _wait_then(env, delay, action))
        return
    env.wait(delay).then(lambda _: action())


def _wait_then(
    env: Clock, delay: float, action: Callable[[], None]
) -> Generator[Waitable, Any, None]:
    yield env.wait(delay)
    action()
    yield Alarm()  # never rung: an ending process would schedule an event (a step)


def first_of(env: Clock, events: tuple[simpy.Event, ...]) -> simpy.Event:
    """An event triggered when the first of ``events`` runs, as ``simpy.AnyOf`` would be
    (scheduled as that event runs), without building a condition value."""
    first = env.event()

    def trigger(_: simpy.Event) -> None:
        if not first.triggered:
            first.succeed()

    for event in events:
        event.callbacks.append(trigger)
    return first


def ring(env: Clock, event: simpy.Event | Alarm) -> None:
    """Trigger ``event`` (or ring the alarm) as an urgent event of this minute: a process
    waiting on it resumes where an interrupt sent now would have resumed it, without the
    exception. Raises RuntimeError if it was triggered (rung) already."""
    if isinstance(event, Alarm):
        if event.rung:
            raise RuntimeError("the alarm has rung")
        event.rung = True
        env.schedule(event, URGENT)
    else:
        env.trigger(event, URGENT)


def after_urgent(env: Clock) -> Wait:
    """A triggered event of this minute that runs after every urgent event of the minute,
    however late scheduled, and before its normal ones (priority 0.5)."""
    return Wait(env, 0, _AFTER_URGENT)
