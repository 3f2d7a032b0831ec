"""Fewer SimPy events, the same campaigns (issue 15): the scheduling helpers place their work
where the plain SimPy idioms they replace did, and a campaign run the plain way came out
exactly as the lean one, event for event (stored, :data:`REFERENCE`)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest
import simpy
from simpy.core import StopSimulation

from campaign.config import load_rules
from campaign.engine import Campaign
from campaign.events import event_to_dict
from campaign.maps import load_map
from campaign.result import CampaignResult
from campaign.schedule import (
    WOKEN,
    Alarm,
    Clock,
    Routine,
    after_urgent,
    due_now,
    later,
    ring,
    urgent_pending,
)


def _wait_then(env, delay, action):
    yield env.timeout(delay)
    action()


def _run_scenario(use_later: bool, urgent_first: bool) -> list[str]:
    """At minute 1 a step schedules: a timeout for minute 6 ("before"), the action for minute
    6 (by ``later`` or by a plain process), and an interrupt-like urgent event of minute 1
    that, when run, schedules another timeout for minute 6 ("urgent's"). With
    ``urgent_first`` the urgent event is scheduled before the action, else after it."""
    env = Clock()
    log: list[str] = []

    def note(what: str):
        return lambda _: log.append(what)

    def urgent_event() -> None:
        event = env.event()
        event.callbacks.append(lambda _: env.timeout(5).callbacks.append(note("urgent's")))
        ring(env, event)

    def step():
        yield env.timeout(1)
        env.timeout(5).callbacks.append(note("before"))
        if urgent_first:
            urgent_event()
        log.append(f"urgent pending: {urgent_pending(env)}")
        if use_later:
            later(env, 5, lambda: log.append("action"))
        else:
            env.process(_wait_then(env, 5, lambda: log.append("action")))
        if not urgent_first:
            urgent_event()

    env.process(step())
    env.run()
    return log


@pytest.mark.parametrize(
    ("urgent_first", "order"),
    [(False, ["before", "action", "urgent's"]), (True, ["before", "urgent's", "action"])],
)
def test_later_runs_where_a_process_started_now_would(urgent_first, order):
    """The action runs in the same order among its minute's events as a process would:
    with an urgent event waiting when it is scheduled, after what that event schedules for
    the minute (it is then such a process); with none, a timeout created at once."""
    plain = _run_scenario(use_later=False, urgent_first=urgent_first)
    lean = _run_scenario(use_later=True, urgent_first=urgent_first)
    assert lean == plain == [f"urgent pending: {urgent_first}", *order]


def test_after_urgent_runs_after_every_urgent_event_and_before_normal_ones():
    env = Clock()
    log: list[str] = []

    def sleeper():
        try:
            yield env.timeout(100)
        except simpy.Interrupt:
            log.append("interrupted")
            env.process(started())  # an urgent process start, scheduled after after_urgent

    def started():
        log.append("started")
        yield env.timeout(0)

    def step():
        yield env.timeout(1)
        env.timeout(0).callbacks.append(lambda _: log.append("normal, scheduled first"))
        after_urgent(env).callbacks.append(lambda _: log.append("after urgent"))
        victim.interrupt()
        assert due_now(env)

    victim = env.process(sleeper())
    env.process(step())
    env.run(until=2)
    assert log == ["interrupted", "started", "after urgent", "normal, scheduled first"]


def _end_of(process):
    """What waits for ``process`` to end: a SimPy process itself, a routine's ``ended``."""
    return process.ended if isinstance(process, Routine) else process


def _scenario(env) -> list[str]:
    """Processes started, woken by ``Process.interrupt`` (one twice, one ended before its
    second interrupt runs), events triggered by hand, a
    failing event defused, a run stopped by an event and run on: what happens, in order,
    with SimPy's public API only, on ``env``."""
    log: list[str] = []

    def sleeper(name: str, waits: int):
        for _ in range(waits):
            try:
                value = yield env.timeout(100, value=name)
            except simpy.Interrupt as stop:
                value = f"woken ({stop.cause})"
            log.append(f"{name} {value} at {env.now}")
        log.append(f"{name} ends")
        return name

    go = env.event()

    def ender():
        try:
            yield go
        except simpy.Interrupt:
            log.append("c interrupted")
        log.append("c ends")

    def step():
        yield env.timeout(1)
        env.timeout(0).callbacks.append(lambda _: log.append("normal"))
        go.succeed()
        a.interrupt(1)
        b.interrupt(2)
        a.interrupt(3)
        b.interrupt(5)  # b has ended when it runs: left alone
        c.interrupt(4)
        failing = env.event()
        failing.callbacks.append(lambda e: setattr(e, "defused", True))
        failing.fail(ValueError("defused"))
        yield env.timeout(0.5)
        log.append(f"step at {env.now}, b returned {_end_of(b).value!r}")

    def waiter():
        log.append(f"waiter got {(yield _end_of(b))!r} at {env.now}")

    a, b = env.process(sleeper("a", 3)), env.process(sleeper("b", 1))
    env.process(step())
    c = env.process(ender())
    env.process(waiter())
    env.run(until=30)
    log.append(f"stopped at {env.now}, next at {env.peek()}")
    halt = env.event()
    env.timeout(20).callbacks.append(lambda _: halt.succeed("halt"))
    log.append(f"run until an event: {env.run(until=halt)!r} at {env.now}")
    assert env.run(until=halt) == "halt"  # (run already)
    env.run()
    log.append(f"ended at {env.now}, next at {env.peek()}")
    return log


def test_the_clock_runs_events_as_simpy_environment_does():
    """Clock, the campaign's environment, runs SimPy's events in SimPy's order; its
    processes (routines) run as SimPy's."""
    plain = _scenario(simpy.Environment())
    assert _scenario(Clock()) == plain
    assert plain == [
        "a woken (1) at 1",
        "b woken (2) at 1",
        "b ends",
        "a woken (3) at 1",
        "c interrupted",
        "c ends",
        "normal",
        "waiter got 'b' at 1",
        "step at 1.5, b returned 'b'",
        "stopped at 30, next at 30",  # (the stop is put back, SimPy does so)
        "run until an event: 'halt' at 50",
        "a a at 101",
        "a ends",
        "ended at 101, next at inf",
    ]


class _CountingEnvironment(simpy.Environment):
    """SimPy's environment, counting the events it runs (as the clock's ``steps``)."""

    def __init__(self) -> None:
        super().__init__()
        self.steps = 0

    def step(self) -> None:
        self.steps += 1
        super().step()


def _routines(routine: bool) -> list[str]:
    """Processes woken by interrupts (one twice, one ended before its second interrupt
    runs), one thrown a failed event, one ending and one failing, each waiting on timeouts:
    what happens, in order, with SimPy's processes and timeouts, or with routines and
    waits on the campaign's clock (``routine``)."""
    env = Clock() if routine else _CountingEnvironment()
    log: list[str] = []
    start = env.process
    wait = env.wait if routine else env.timeout

    def sleeper(name: str, waits: int):
        for _ in range(waits):
            try:
                value = yield wait(100)
            except simpy.Interrupt as stop:
                value = f"woken ({stop.cause})"
            log.append(f"{name} {value} at {env.now}")
        log.append(f"{name} ends")

    bad = env.event()

    def catcher():
        try:
            yield bad
        except KeyError as error:
            log.append(f"caught {error!r} at {env.now}")
        yield env.event()

    def step():
        yield wait(1)
        wait(0).callbacks.append(lambda _: log.append("normal"))
        a.interrupt(1)
        b.interrupt(2)
        a.interrupt(3)
        b.interrupt(5)  # b has ended when it runs: left alone
        bad.fail(KeyError("bad"))
        value = yield env.timeout(0.5, value="half")
        log.append(f"step got {value} at {env.now}")
        raise ValueError("step fails")

    a, b = start(sleeper("a", 3)), start(sleeper("b", 1))
    start(step())
    start(catcher())
    with pytest.raises(ValueError) as raised:
        env.run(until=30)
    log.append(f"raised {raised.value!r} at {env.now}")
    env.run()
    log.append(f"ended at {env.now}, steps {env.steps}")
    return log


def test_a_routine_runs_as_a_simpy_process():
    """Routine and Wait, the campaign's compiled process and timeout, run as SimPy's
    Process and Timeout do: the same things, in the same order, in as many steps."""
    plain = _routines(routine=False)
    assert _routines(routine=True) == plain
    assert plain == [
        "a woken (1) at 1",
        "b woken (2) at 1",
        "b ends",
        "a woken (3) at 1",
        "normal",
        "caught KeyError('bad') at 1",
        "step got half at 1.5",
        "raised ValueError('step fails') at 1.5",
        "ended at 30, steps 15",  # (the stop at 30 of the first run stops the second)
    ]


def _stopped_by_a_callback(routine: bool) -> list[object]:
    """A routine waits on a timeout (a Wait, or SimPy's) that then gets two callbacks, the
    first of which stops the run: what runs, before and after the run goes on."""
    env: Clock | simpy.Environment = Clock() if routine else simpy.Environment()
    log: list[object] = []

    def sleeper():
        yield wait
        log.append(("resumed", env.now))
        yield env.timeout(5)
        log.append(("again", env.now))

    def stop(_: object) -> None:
        raise StopSimulation("stop")

    wait = env.wait(3) if isinstance(env, Clock) else env.timeout(3)
    env.process(sleeper())
    env.step()  # (the routine's start: it waits on the timeout, its first callback)
    wait.callbacks.append(stop)
    wait.callbacks.append(lambda _: log.append("after"))
    log.append(env.run())
    env.run()
    return log


def test_a_wait_stopped_by_a_callback_resumes_its_routine_once():
    """A callback that stops the run leaves the wait's other callbacks to run when the run
    goes on, as SimPy does; the routine it resumed first is not resumed again."""
    assert _stopped_by_a_callback(routine=True) == _stopped_by_a_callback(routine=False)
    assert _stopped_by_a_callback(routine=True) == [
        ("resumed", 3),
        "stop",
        "after",
        ("again", 8),
    ]


def _woken(wake: bool) -> list[str]:
    """Routines woken twice (one ended before its second wake-up runs) by ``wake``, or by
    ``interrupt``: what each resumes with, when, and after how many steps."""
    env = Clock()
    log: list[str] = []

    def sleeper(name: str, waits: int):
        for _ in range(waits):
            try:
                value = yield env.wait(100)
            except simpy.Interrupt:
                value = "interrupted"
            log.append(f"{name} {value} at {env.now}, step {env.steps}")
        log.append(f"{name} ends")

    def step():
        yield env.wait(1)
        env.wait(0).then(lambda _: log.append(f"normal, step {env.steps}"))
        for p in (a, b, a, b):  # b has ended when its second runs: left alone
            p.wake() if wake else p.interrupt()
        with pytest.raises(RuntimeError):
            me.wake()  # (a routine may not wake itself)
        yield env.wait(1)

    a, b = Routine(env, sleeper("a", 3)), Routine(env, sleeper("b", 1))
    me = Routine(env, step())
    env.run()
    with pytest.raises(RuntimeError):
        b.wake()  # (it has ended)
    log.append(f"ended at {env.now}, steps {env.steps}")
    return log


def test_a_woken_routine_resumes_where_an_interrupted_one_would():
    """``Routine.wake`` resumes a routine with WOKEN by the event, in the step and order,
    where ``Routine.interrupt`` would throw its interrupt."""
    interrupted = _woken(wake=False)
    assert [line.replace("interrupted", repr(WOKEN)) for line in interrupted] == _woken(wake=True)
    assert interrupted == [
        "a interrupted at 1, step 5",
        "b interrupted at 1, step 6",
        "b ends",
        "a interrupted at 1, step 7",
        "normal, step 9",
        "a None at 101, step 16",  # (the waits it was woken from run too)
        "a ends",
        "ended at 101, steps 17",
    ]


def test_the_clock_raises_what_simpy_raises():
    """A process's error comes out of run (a copy, caused by the original); a minute not
    after now and an event never triggered are refused as SimPy refuses them."""
    env = Clock()

    def failing():
        yield env.timeout(1)
        raise KeyError("lost")

    env.process(failing())
    with pytest.raises(KeyError) as raised:
        env.run()
    assert isinstance(raised.value.__cause__, KeyError)
    with pytest.raises(ValueError, match="must be greater"):
        env.run(until=env.now)
    with pytest.raises(RuntimeError, match="no events left"):
        env.run(until=env.event())
    with pytest.raises(simpy.core.EmptySchedule):
        env.step()


def test_ring_and_after_urgent_set_the_priority_and_nothing_else():
    """An event triggered twice is refused (and the clock's next event is not bent); the
    next event scheduled after ring is an ordinary normal one."""
    env = Clock()
    event = env.event()
    ring(env, event)
    with pytest.raises(RuntimeError):
        ring(env, event)
    later_one = env.timeout(0)
    assert [entry[1] for entry in sorted(env.queue)] == [0, 1]
    assert sorted(env.queue)[1][3] is later_one
    alarm = Alarm()
    assert len(env.queue) == 2  # (not scheduled until rung)
    ring(env, alarm)
    with pytest.raises(RuntimeError):
        ring(env, alarm)
    assert sorted(env.queue)[1][1:] == (0, 3, alarm)  # urgent, after the event rung first


def test_due_now():
    env = Clock()
    assert not due_now(env)
    env.timeout(1)
    assert not due_now(env)
    env.timeout(0)
    assert due_now(env)


#: The plain scheduling's campaigns, stored: for each case below, the digest (:func:`_digest`)
#: of each seed's campaign and the SimPy steps of all of them, as the reference classes ran
#: them: ``_Plain`` (the scheduling as it was at main 85a0b04: an arrival's contact check and
#: the division's wait two zero-delay events, a division in a battle waiting on a timeout to
#: its end) and ``_Started`` (the start as at main 8e61569: the initial contact check and each
#: reinforcement's entry processes of their own), subclasses of :class:`Campaign` kept in this
#: file up to abbc36b and run there on the plain modules (``CAMPAIGN_NATIVE=0``): compiled
#: classes cannot be subclassed (issue 26, item 8). Both gave exactly the lean campaigns then.
#: A change that alters campaigns on purpose (a new tests/golden/fingerprint.txt) alters these
#: too: the reference can then only be run again from that commit, or the lean campaigns'
#: digests stored in its place with the reason (the steps of the reference kept).
REFERENCE = Path(__file__).resolve().parents[1] / "golden" / "scheduling_reference.json"


def _digest(result: CampaignResult) -> str:
    """16 hex digits of a campaign: its event stream as JSON rows (the header's package
    versions and map path left out, as ``benchmarks.fingerprint`` does) and its result."""
    digest = hashlib.sha256()
    for event in result.events:
        row = event_to_dict(event)
        row.pop("versions", None)
        row.pop("map_source", None)
        digest.update(json.dumps(row, sort_keys=True, default=str).encode())
    summary = dataclasses.asdict(result)
    summary.pop("events")
    digest.update(json.dumps(summary, sort_keys=True, default=str).encode())
    return digest.hexdigest()[:16]


def _as_the_reference_ran(kind, map_name, doctrines, overrides, seeds):
    """Run seeds 0..seeds-1 as the product runs them, assert each campaign is the stored one
    of the reference ``kind`` (``plain`` or ``started``), and return the SimPy steps they
    took in all and those the reference took."""
    rules = load_rules(None, {f"campaign.{k}": v for k, v in overrides.items()})
    cmap = load_map(map_name)
    pair = f"{doctrines['red']}-{doctrines['blue']}" if doctrines else "balanced-balanced"
    settings = ",".join(f"{k}={v}" for k, v in overrides.items()) or "-"
    stored = json.loads(REFERENCE.read_text(encoding="utf-8"))
    reference = stored[f"{kind} {map_name or 'default'} {pair} {settings}"]
    assert len(reference["campaigns"]) == seeds
    steps = 0
    for seed in range(seeds):
        camp = Campaign(cmap, rules, seed, doctrines)
        assert _digest(camp.run()) == reference["campaigns"][seed], seed
        steps += camp.env.steps
    return steps, reference["steps"]


@pytest.mark.parametrize(
    ("map_name", "doctrines", "overrides"),
    [
        (None, None, {}),
        (None, {"red": "aggressive", "blue": "raider"}, {}),
        (None, {"red": "aggressive", "blue": "aggressive"}, {"withdrawal_threshold_percent": 100}),
        ("waterloo-1815", {"red": "cautious", "blue": "aggressive"}, {}),
    ],
)
def test_lean_scheduling_gives_the_plain_campaign(map_name, doctrines, overrides):
    """Event for event the same campaign as the plain scheduling (late arrivals, night
    battles, reinforcements, sides wiped out included; stored, :data:`REFERENCE`), in fewer
    SimPy steps."""
    lean_steps, plain_steps = _as_the_reference_ran("plain", map_name, doctrines, overrides, 12)
    assert lean_steps < 0.85 * plain_steps


@pytest.mark.parametrize(
    ("map_name", "doctrines"),
    [
        (None, {"red": "balanced", "blue": "cautious"}),
        (None, {"red": "aggressive", "blue": "raider"}),
        ("waterloo-1815", {"red": "cautious", "blue": "aggressive"}),
    ],
)
def test_start_events_give_the_campaign_the_processes_gave(map_name, doctrines):
    """The initial contact check and the reinforcements scheduled by one urgent event
    (campaign.reinforcements.schedule_entries) give event for event the campaign their own
    processes gave (stored, :data:`REFERENCE`), in fewer SimPy steps (no process starts)."""
    assert load_map(map_name).reinforcements  # the maps bring reinforcements: entries compared
    lean_steps, plain_steps = _as_the_reference_ran("started", map_name, doctrines, {}, 16)
    assert lean_steps < plain_steps
