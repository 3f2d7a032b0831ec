"""Who meets whom in a campaign, and the battles being fought (RULES.md §8.4, §8.5): where a
battle is fought (:class:`Meeting`), what a battle being fought keeps (:class:`Battle`), and
the small rules the battle desk (:mod:`campaign.battles`) applies to the divisions at a
place: which of them are met (:func:`may_fight`), which side is the pursuer
(:func:`pursuing_side`), whether both sides are there (:func:`both_sides`) or arrived
together (:func:`arrived_together`), whether two divisions set off together
(:func:`same_start`).
"""

from __future__ import annotations

from battle.result import BattleResult
from battle.units import Force
from campaign.army import Division

__all__ = [
    "Battle",
    "Meeting",
    "arrived_together",
    "both_sides",
    "both_sides_at",
    "may_fight",
    "place_of",
    "pursuing_side",
    "same_start",
]


def pursuing_side(divisions: list[Division]) -> str | None:
    """The side that attacks because every division of the other side at the junction is
    in mid fall back (RULES.md §8.5): a beaten division caught on its way is never the
    attacker, whoever arrived last (issue 31: the pursuer is). None when neither side, or
    both, are all falling back: then §6.9 decides (the side that arrived last, or a
    roll-off)."""
    falling = {"red": True, "blue": True}
    for d in divisions:
        if not d.orders or d.orders[0][0] != "march":
            falling[d.side] = False
    if falling["red"] == falling["blue"]:
        return None
    return "blue" if falling["red"] else "red"


def may_fight(d: Division) -> bool:
    """Whether a division at a junction is met there by an enemy (RULES.md §8.4).

    Every division standing there is, and so is one falling back through it (its next order
    a fall back's ``march``): a retreat that runs into the enemy is caught. A division
    waiting to return after a draw (``wait_until``, ``return``) or to finish a road
    (``arrive``) is not: the draw's rule (§8.5) or the road battle placed it there. Not met,
    it starts no battle; yet a battle that starts there (another division met) is fought
    with it too: every division of either side at the junction (§8.4,
    :meth:`campaign.battles.BattleDesk.check_contact`).
    """
    return not d.orders or d.orders[0][0] == "march"


class Meeting:
    """Where a battle is fought: a junction, or a road between ``road[0]`` and ``road[1]``
    (RULES.md §8.4). A structured key: nothing parses junction ids. Read-only once made.

    (A plain class, not a dataclass: compiled, its constructor runs in C.)"""

    junction: str | None
    road: tuple[str, str] | None

    def __init__(self, junction: str | None = None, road: tuple[str, str] | None = None) -> None:
        self.junction = junction
        self.road = road

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Meeting):
            return NotImplemented
        return self.junction == other.junction and self.road == other.road

    def __hash__(self) -> int:
        return hash((self.junction, self.road))

    def __repr__(self) -> str:
        return f"Meeting(junction={self.junction!r}, road={self.road!r})"

    @property
    def key(self) -> str:
        """The display key of the event stream: the junction id, or ``"a~b"`` for a road."""
        return self.junction if self.junction is not None else "~".join(self.road or ())


class Battle:
    """A battle being fought: what it needs to be fought again with a late arrival.

    ``start`` is in campaign minutes; ``divisions`` were at the place when it began;
    ``joins`` are the late arrivals with the bound each joins (RULES.md §8.4); ``slot`` is
    where its record goes in the event stream; ``stream`` is its random stream (``BATTLE +
    number``, :mod:`campaign.streams`); ``version`` counts the times it was fought;
    ``ground_steps`` the training grades the defender's units gained from the ground (the
    optional house rule ``terrain``, :mod:`campaign.terrain`; 0 without it).

    Equal only to itself. (A plain class with its own ``__init__``, not a dataclass:
    compiled, its constructor runs in C, where a dataclass's generated ``__init__`` stays
    interpreted; made for every battle, campaign.native.)
    """

    number: int
    where: Meeting
    divisions: list[Division]
    forces: tuple[Force, Force]
    attacker: str
    roll_off: tuple[int, int] | None
    start: float
    max_bounds: int
    stream: int
    slot: int
    ground_steps: int
    joins: list[tuple[Division, int]]
    result: BattleResult | None
    version: int

    def __init__(
        self,
        number: int,
        where: Meeting,
        divisions: list[Division],
        forces: tuple[Force, Force],
        attacker: str,
        roll_off: tuple[int, int] | None,
        start: float,
        max_bounds: int,
        stream: int,
        slot: int,
        ground_steps: int = 0,
    ) -> None:
        self.number = number
        self.where = where
        self.divisions = divisions
        self.forces = forces
        self.attacker = attacker
        self.roll_off = roll_off
        self.start = start
        self.max_bounds = max_bounds
        self.stream = stream
        self.slot = slot
        self.ground_steps = ground_steps
        self.joins = []
        self.result = None
        self.version = 0

    def __repr__(self) -> str:
        return f"Battle(number={self.number!r}, where={self.where!r}, start={self.start!r})"

    @property
    def end(self) -> float:
        """Campaign minute the battle ends (bounds x 15 minutes after its start, §8.3)."""
        assert self.result is not None
        return self.start + self.result.minutes

    def members(self) -> list[Division]:
        """Everyone in it: those there at the start, then the late arrivals."""
        return self.divisions + [d for d, _ in self.joins]


def place_of(where: Meeting) -> str | tuple[str, str]:
    """Where a battle was fought: its junction, or its road's two ends in order (either way
    marched)."""
    road = where.road
    if road is not None:
        x, y = road
        return (x, y) if x <= y else (y, x)
    assert where.junction is not None
    return where.junction


def both_sides(divisions: list[Division]) -> bool:
    """Whether both sides have a division among ``divisions``."""
    return len({d.side for d in divisions}) == 2


def both_sides_at(divisions: list[Division], junction: str) -> bool:
    """Whether living ``divisions`` of both sides stand at ``junction``, whoever of them is
    free or met: without them no meeting is there (RULES.md §8.4). One pass, nothing built."""
    red = blue = False
    for d in divisions:
        if d.alive and d.location == junction:
            if d.side == "red":
                red = True
            else:
                blue = True
            if red and blue:
                return True
    return False


def arrived_together(here: list[Division], arriving: Division, now: float) -> bool:
    """Whether an enemy of ``arriving`` among ``here`` arrived at the same minute ``now``."""
    return any(d.side != arriving.side and d.arrived_at == now for d in here)


def same_start(road: tuple[str, str, float, float], other: tuple[str, str, float, float]) -> bool:
    """``road[:3] == other[:3]``: the same origin, destination and departure minute."""
    return road[0] == other[0] and road[1] == other[1] and road[2] == other[2]
