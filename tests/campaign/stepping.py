"""A campaign run one event of its clock at a time, for tests that look at it between events
(issue 26, item 8: every test runs against what ships).

The campaign's modules ship compiled (:mod:`campaign.native`), and compiled classes can be
neither subclassed nor patched: a test that once watched a campaign from inside (a method
wrapped, a function replaced) steps it instead, with its public API, and reads its state and
events at each stop: the questions the campaign asks, asked again at each stop of the
compiled code and of the plain definition written in the test.
"""

from __future__ import annotations

from collections.abc import Iterator

from simpy.core import StopSimulation

from campaign.engine import Campaign


def stepped(camp: Campaign) -> Iterator[None]:
    """Start ``camp`` (:meth:`Campaign.start`) and run it event by event to its end, stopping
    before each event of its clock (``camp.env``): at each stop the clock's ``now`` is the
    minute of the next event (reached by :meth:`Campaign.run_until`, which leaves that
    minute's events to come), so what is read there is what that event will see. After the
    last stop the campaign has ended: :meth:`Campaign.finish` gives its result."""
    camp.start()
    env = camp.env
    while True:
        if env.peek() > env.now and not camp.run_until(env.peek()):
            return  # ended on the way (its end is an event of the minute)
        if env.peek() > env.now:
            continue  # the minute's events ran before the stop: on to the next
        yield
        try:
            env.step()
        except StopSimulation:
            return
