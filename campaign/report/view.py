"""One commander's view of a campaign, rebuilt from the event stream (RULES.md §8.6).

The umpire sees every event. A side sees only the events whose ``seen_by`` names it: its own
divisions always, enemy divisions only where it sighted them (a :class:`Sighted` event, or a
march or battle it saw), and an enemy division's strength only once it has fought it (a
:class:`StrengthLearned` event). :class:`Knowledge` replays such a filtered stream and holds
what the viewer knows at each moment.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from campaign.errors import SimulatorError
from campaign.events import (
    BattleFought,
    CampaignEvent,
    DivisionRaised,
    FellBack,
    MarchArrived,
    MarchBegun,
    Sighted,
    StrengthLearned,
    Surrendered,
)

__all__ = [
    "BOXES_PER_UNIT",
    "VIEWS",
    "DivisionState",
    "Knowledge",
    "check_view",
    "division_of",
    "enemy_of",
    "visible_events",
]

#: The names ``--view`` accepts.
VIEWS: tuple[str, ...] = ("umpire", "red", "blue")

#: Hit boxes of a fresh unit (a unit's strength is 10 minus its actual hits, campaign/army.py).
BOXES_PER_UNIT = 10


def check_view(view: str) -> str:
    """Return ``view`` if it is one of :data:`VIEWS`.

    Raises
    ------
    SimulatorError
        If it is not.
    """
    if view not in VIEWS:
        raise SimulatorError(
            f"unknown view {view!r}",
            key="--view",
            fix="Give --view red, --view blue or --view umpire.",
        )
    return view


def visible_events(events: Iterable[CampaignEvent], view: str) -> list[CampaignEvent]:
    """The events ``view`` knows of, in campaign-time order (stable for equal times).

    Parameters
    ----------
    events : iterable of CampaignEvent
        The whole stream.
    view : str
        ``"umpire"`` (everything) or a side, ``"red"`` or ``"blue"``.

    Returns
    -------
    list of CampaignEvent
        The events whose ``seen_by`` includes the side (all of them for the umpire).
    """
    check_view(view)
    chosen = [e for e in events if view == "umpire" or view in e.seen_by]
    return sorted(chosen, key=lambda e: e.t)


def enemy_of(side: str) -> str:
    """The other side (``red`` ↔ ``blue``)."""
    return "blue" if side == "red" else "red"


def division_of(unit_id: str) -> str:
    """The division id of a unit id (``R1-I3`` → ``R1``)."""
    return unit_id.split("-", 1)[0]


@dataclass
class DivisionState:
    """What a viewer knows of one division.

    ``where`` is ``("at", junction)`` or ``("road", origin, destination, t0, minutes)``;
    ``seen_t`` is when the viewer last had sight of it; ``boxes`` / ``units`` are None
    while its strength is unknown to the viewer.
    """

    id: str
    side: str
    own: bool
    where: tuple[Any, ...] = ()
    seen_t: int = 0
    boxes: int | None = None
    units: int | None = None
    alive: bool = True
    unit_hits: dict[str, int] = field(default_factory=dict)


class Knowledge:
    """Replay of a view's events: positions and strengths as the viewer knows them.

    Parameters
    ----------
    view : str
        ``"umpire"``, ``"red"`` or ``"blue"``.
    destroyed_at : int
        Actual hits at which a unit is destroyed (units reported ``destroyed`` are dropped
        whatever their hits).
    """

    def __init__(self, view: str, destroyed_at: int = BOXES_PER_UNIT) -> None:
        self.view = check_view(view)
        self.destroyed_at = destroyed_at
        self.divisions: dict[str, DivisionState] = {}
        self.now = 0

    # ------------------------------------------------------------------ queries
    def knows_all(self, side: str) -> bool:
        """Whether the viewer sees every division of ``side`` (its own side, or the umpire)."""
        return self.view in ("umpire", side)

    def present(self) -> list[DivisionState]:
        """Living divisions the viewer has a position for, own side first, by id."""
        rows = [d for d in self.divisions.values() if d.alive and d.where]
        return sorted(rows, key=lambda d: (not d.own, d.side != "red", d.id))

    def strength(self, side: str) -> int | None:
        """Boxes of ``side`` as the viewer knows them (known enemy divisions only), or None."""
        known = [
            d.boxes
            for d in self.divisions.values()
            if d.side == side and d.alive and d.boxes is not None
        ]
        return sum(known) if known else None

    # ------------------------------------------------------------------ replay
    def apply_all(self, events: Sequence[CampaignEvent]) -> None:
        """Apply :meth:`apply` to each event in turn."""
        for e in events:
            self.apply(e)

    def _get(self, division: str, side: str) -> DivisionState:
        d = self.divisions.get(division)
        if d is None:
            own = self.knows_all(side)
            d = DivisionState(division, side, own)
            self.divisions[division] = d
        return d

    def apply(self, e: CampaignEvent) -> None:
        """Update the knowledge with one event of the view (see :func:`visible_events`)."""
        self.now = max(self.now, e.t)
        if isinstance(e, DivisionRaised):
            d = self._get(e.division, e.side)
            d.where = ("at", e.junction)
            d.unit_hits = {uid: 0 for uid, _ in e.units}
            if d.own:
                self._recount(d)
        elif isinstance(e, MarchBegun):
            d = self._get(e.division, e.side)
            d.where = ("road", e.origin, e.destination, e.t, round(e.hours * 60))
            d.seen_t = e.t
        elif isinstance(e, MarchArrived):
            d = self._get(e.division, e.side)
            d.where = ("at", e.junction)
            d.seen_t = e.t
        elif isinstance(e, Sighted):
            d = self._get(e.enemy, enemy_of(e.side))
            d.where = ("at", e.junction)
            d.seen_t = e.t
        elif isinstance(e, StrengthLearned) and not self.knows_all(enemy_of(e.side)):
            d = self._get(e.enemy, enemy_of(e.side))
            d.boxes, d.units = e.boxes, e.units
            d.alive = e.units > 0
        elif isinstance(e, BattleFought):
            self._battle(e)
        elif isinstance(e, FellBack):
            d = self._get(e.division, e.side)
            d.seen_t = e.t
        elif isinstance(e, Surrendered):
            d = self._get(e.division, e.side)
            d.alive = False

    def _battle(self, e: BattleFought) -> None:
        if "~" in e.place:
            a, b = e.place.split("~")
            place: tuple[Any, ...] = ("road", a, b, e.t, 0)
        else:
            place = ("at", e.place)
        for side, ids in e.divisions.items():
            for division in ids:
                d = self._get(division, side)
                d.seen_t = e.t
                if place[0] == "at" or not d.where or d.where[0] != "road":
                    d.where = place
        for uid, _side, _kind, state, _before, _taken, total in e.units:
            found = self.divisions.get(division_of(uid))
            if found is None or not found.own:
                continue
            if state == "destroyed" or total >= self.destroyed_at:
                found.unit_hits.pop(uid, None)
            else:
                found.unit_hits[uid] = total
        for ids in e.divisions.values():
            for division in ids:
                d = self.divisions[division]
                if d.own:
                    self._recount(d)
                    d.alive = bool(d.unit_hits)

    def _recount(self, d: DivisionState) -> None:
        d.units = len(d.unit_hits)
        d.boxes = sum(self.destroyed_at - h for h in d.unit_hits.values())
