"""Folding repeated lines, shared by the text log and the diary (issue 29).

A log that tells every event reads like a ledger: a division failing a rough road three
times prints three rolls and three copies of its plan, and a march through a chain of minor
junctions prints "sets out" and "reaches" at every one. :func:`fold` finds, in a stream of
events (already filtered for a view):

- each division's **run of rough-road tests** on one road in one day (RULES.md §8.2): told
  as one line at the last try (``R2 tries the rough road from A to B three times and gets
  through at 11:00``);
- a **plan repeated** at each rough-road try (the same :class:`Ordered`, RULES.md §8.8):
  told once;
- a **chain of four or more march legs** of one division in one day with nothing else
  happening to it between them: told as one line at its arrival (``R1 marches from A by way
  of C to E``), the stops folded by :func:`fold_stops`.

The diary's timeline (:mod:`campaign.report.context`) and the text log's summary detail
(:meth:`campaign.printers.narrative.Narrator.entries` with ``fold=True``) both read these
folds and write their lines with :func:`rough_line` and :func:`chain_line`; nothing here
changes a campaign.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from campaign.clock import Clock
from campaign.events import (
    CampaignEvent,
    MarchArrived,
    MarchBegun,
    Ordered,
    Place,
    RoughRoadTest,
)
from campaign.printers.phrases import count

__all__ = ["Chain", "Folds", "Teller", "chain_line", "fold", "fold_stops", "rough_line", "times"]


class Teller(Protocol):
    """What writes a folded line: a :class:`campaign.printers.narrative.Narrator`."""

    clock: Clock

    def j(self, junction: Place) -> str: ...

    def div(self, division: str) -> str: ...


#: The fewest legs a march chain must have to be told as one line (five stops: the first,
#: the last and three between, which :func:`fold_stops` folds).
CHAIN_LEGS = 4


@dataclass(frozen=True)
class Chain:
    """A division's march through ``stops`` (junction ids, first to last), set out at
    ``set_out`` (minutes)."""

    division: str
    stops: tuple[str, ...]
    set_out: int


@dataclass
class Folds:
    """What :func:`fold` found, by ``id()`` of the events in the stream it was given.

    ``rough``: the last test of each run -> (that test, tries); ``chains``: the last arrival
    of each folded march -> its :class:`Chain`; ``hidden``: events another line tells.
    """

    rough: dict[int, tuple[RoughRoadTest, int]] = field(default_factory=dict)
    chains: dict[int, Chain] = field(default_factory=dict)
    hidden: set[int] = field(default_factory=set)


def times(n: int) -> str:
    """``once``, ``twice``, ``three times``."""
    return {1: "once", 2: "twice"}.get(n, f"{count(n, 'time')}")


def fold_stops(names: list[str], major: frozenset[str] = frozenset()) -> str:
    """A march's stops: ``A, B, C`` for a short one; a long chain of minor junctions folded
    into ``A by way of B and D to E`` (five stops or more; ``major``: the names of
    objectives and bases, kept; with none between, the middle stop)."""
    if len(names) <= CHAIN_LEGS:
        return ", ".join(names)
    inner = names[1:-1]
    ends = {names[0], names[-1]}
    kept = [n for n in inner if n in major and n not in ends] or [inner[len(inner) // 2]]
    kept = list(dict.fromkeys(kept))
    if len(kept) > 4:
        kept = [*kept[:2], "…", *kept[-2:]]
    between = ", ".join(kept[:-1]) + " and " + kept[-1] if len(kept) > 1 else kept[0]
    return f"{names[0]} by way of {between} to {names[-1]}"


def _rough_runs(
    events: Sequence[CampaignEvent], day_of: Callable[[int], int], folds: Folds
) -> None:
    """Each division's runs of rough-road tests on one road in one day: a run ends when it
    gets through, the division tries another road, or the day ends."""
    open_runs: dict[str, tuple[RoughRoadTest, int]] = {}
    for e in events:
        if not isinstance(e, RoughRoadTest):
            continue
        last = open_runs.get(e.division)
        same = last is not None and (
            (last[0].origin, last[0].destination, day_of(last[0].t))
            == (e.origin, e.destination, day_of(e.t))
        )
        if last is not None and not same:
            folds.rough[id(last[0])] = last
        elif last is not None:
            folds.hidden.add(id(last[0]))
        open_runs[e.division] = (e, last[1] + 1 if same and last is not None else 1)
        if e.passed:
            folds.rough[id(e)] = open_runs.pop(e.division)
    for last in open_runs.values():
        folds.rough[id(last[0])] = last


def _plan(e: Ordered) -> tuple[object, ...]:
    return (e.code, e.goal, e.step, e.enemy_at, e.friends, e.aim)


def _repeated_plans(events: Sequence[CampaignEvent], folds: Folds) -> None:
    """A plan told again at a rough-road try (the same order, the same road) is hidden."""
    plans: dict[str, tuple[object, ...]] = {}
    for e in events:
        if isinstance(e, Ordered):
            again = plans.get(e.division) == _plan(e)
            plans[e.division] = _plan(e)
            if again and e.road_kind == "rough":
                folds.hidden.add(id(e))


def _divisions(e: CampaignEvent) -> tuple[str, ...]:
    """The divisions an event happens to (a sighting happens to the side that sees)."""
    one = getattr(e, "division", None)
    if isinstance(one, str):
        return (one,)
    many = getattr(e, "divisions", ())
    if isinstance(many, dict):
        return tuple(d for ds in many.values() for d in ds)
    return tuple(d for d in many if isinstance(d, str))


@dataclass
class _Open:
    """A march chain being read: its legs so far and the leg under way."""

    first: MarchBegun
    stops: list[str]
    members: list[CampaignEvent] = field(default_factory=list)
    under_way: MarchBegun | None = None
    order: tuple[object, ...] | None = None

    def takes(self, e: CampaignEvent, day_of: Callable[[int], int]) -> bool:
        """Whether ``e`` (an event of the chain's division) continues the chain."""
        if isinstance(e, MarchBegun):
            ok = self.under_way is None and e.origin == self.stops[-1]
            if ok and day_of(e.t) == day_of(self.first.t):
                self.under_way = e
                return True
            return False
        if isinstance(e, MarchArrived):
            if self.under_way is None or e.junction != self.under_way.destination:
                return False
            self.members += [self.under_way, e]
            self.stops.append(e.junction)
            self.under_way = None
            return True
        if isinstance(e, Ordered):  # the same plan, on an ordinary road: the march goes on
            return _order(e) == self.order and e.road_kind != "rough"
        return False


def _order(e: Ordered) -> tuple[object, ...]:
    """An order as the log tells it (the narrator says a repeated one once)."""
    return (e.code, e.goal, e.enemy_at, e.friends, e.aim)


def _close(chain: _Open, folds: Folds) -> None:
    if len(chain.stops) - 1 < CHAIN_LEGS:
        return
    last = chain.members[-1]
    folds.chains[id(last)] = Chain(chain.first.division, tuple(chain.stops), chain.first.t)
    folds.hidden.update(id(m) for m in chain.members[:-1])


def _march_chains(
    events: Sequence[CampaignEvent], day_of: Callable[[int], int], folds: Folds
) -> None:
    """Each division's chains of march legs, one after another in one day with nothing else
    happening to it (a repeated order aside)."""
    chains: dict[str, _Open] = {}
    orders: dict[str, tuple[object, ...]] = {}  # each division's last order
    for e in events:
        for d in _divisions(e):
            chain = chains.get(d)
            if chain is not None and not chain.takes(e, day_of):
                _close(chains.pop(d), folds)
            elif chain is not None:
                continue
            if isinstance(e, MarchBegun):
                chains[d] = _Open(e, [e.origin], under_way=e, order=orders.get(d))
        if isinstance(e, Ordered):
            orders[e.division] = _order(e)
    for chain in chains.values():
        _close(chain, folds)


def fold(
    events: Iterable[CampaignEvent],
    day_of: Callable[[int], int],
    marches: bool = True,
) -> Folds:
    """The folds of ``events`` (see the module's docstring).

    Parameters
    ----------
    events : iterable of CampaignEvent
        A stream in order (a whole campaign or one day), already filtered for a view; the
        result refers to these very objects by ``id()``.
    day_of : callable
        Minute -> the campaign day (``Clock.day``): runs and chains never cross a night.
    marches : bool
        Also fold march chains (the diary sums marches up elsewhere and passes False).

    Returns
    -------
    Folds
    """
    stream = list(events)
    folds = Folds()
    _rough_runs(stream, day_of, folds)
    _repeated_plans(stream, folds)
    if marches:
        _march_chains(stream, day_of, folds)
    return folds


def rough_line(narrator: Teller, e: RoughRoadTest, tries: int) -> str:
    """``R2 tries the rough road from A to B three times and gets through at 11:00``."""
    road = f"the rough road from {narrator.j(e.origin)} to {narrator.j(e.destination)}"
    at = narrator.clock.label(e.t)[-5:]
    if tries == 1:
        then = "gets through" if e.passed else f"cannot pass and stays at {narrator.j(e.origin)}"
        return (
            f"{narrator.div(e.division)} tries {road}: rolls {e.roll}, needing {e.target:g} or "
            f"less, and {then}"
        )
    if e.passed:
        return f"{narrator.div(e.division)} tries {road} {times(tries)} and gets through at {at}"
    return (
        f"{narrator.div(e.division)} tries {road} {times(tries)} and cannot pass "
        f"(last roll {e.roll}, needing {e.target:g} or less); it stays at {narrator.j(e.origin)}"
    )


def chain_line(narrator: Teller, chain: Chain, major: frozenset[str]) -> str:
    """``R1 (Guérin) marches from Vauclair by way of Glotz to Mont Fère (set out at 06:00)``."""
    names = [narrator.j(j) for j in chain.stops]
    since = narrator.clock.label(chain.set_out)[-5:]
    route = fold_stops(names, major)
    return f"{narrator.div(chain.division)} marches from {route} (set out at {since})"
