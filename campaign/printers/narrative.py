"""Campaign events as diary sentences, shared by the text and Markdown printers.

:func:`narrate` turns the event stream into :class:`Entry` rows (time, sentence, detail
lines, style); printers lay them out. Nothing here changes or re-runs a campaign.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from campaign.clock import Clock
from campaign.events import (
    BattleFought,
    CampaignEnded,
    CampaignEvent,
    CampaignStarted,
    DayEnded,
    DivisionRaised,
    FellBack,
    Halted,
    MarchArrived,
    MarchBegun,
    MeetingOnRoad,
    Ordered,
    Reinforced,
    RoughRoadTest,
    Sighted,
    Surrendered,
    WithdrawalCheck,
)
from campaign.printers.orders import order_sentence

__all__ = ["Entry", "Narrator", "narrate"]

_SINGLE = {"artillery": "battery"}
_PLURAL = {"artillery": "batteries"}

_REASONS = {
    "cards": "{loser} was down to its last movement card",
    "both-cards": "both sides reached their last card together",
    "withdrawal": "{loser} withdrew after a withdrawal check",
    "both-withdrew": "both sides withdrew",
    "no-units": "{loser} had no unit left on the field",
    "turn-limit": "the 15-turn limit was reached",
    "nightfall": "nightfall ended it",
}


@dataclass
class Entry:
    """One diary row: ``kind`` is header, day, event, battle, night or end."""

    kind: str
    day: int
    time: str
    text: str
    details: list[str] = field(default_factory=list)
    style: str = ""
    log: tuple[str, ...] = ()
    table: list[tuple[str, ...]] = field(default_factory=list)


def _units(n: int) -> str:
    return f"{n} unit" if n == 1 else f"{n} units"


class Narrator:
    """Knows the names (junctions, sides) needed to write sentences."""

    def __init__(self, junction_names: dict[str, str] | None = None, clock: Clock | None = None):
        self.names = dict(junction_names or {})
        self.clock = clock or Clock()
        self.sides = {"red": "Red", "blue": "Blue"}
        self.bases: dict[str, str] = {}
        self.last_order: dict[str, tuple[object, ...]] = {}
        self.marching_with: set[tuple[int, str]] = set()  # (minute, division) already said

    def j(self, junction: str) -> str:
        if "~" in junction:
            a, b = junction.split("~")
            return f"the road {self.j(a)} - {self.j(b)}"
        return self.names.get(junction, junction)

    def side(self, side: str | None) -> str:
        return self.sides.get(side or "", "nobody")

    def entries(
        self, events: Iterable[CampaignEvent], battle_logs: bool = False
    ) -> Iterator[Entry]:
        day = 0
        for e in events:
            if isinstance(e, CampaignStarted):
                self.sides = dict(e.side_names)
                self.bases = dict(e.bases)
                self.clock = Clock(e.day_start, e.day_end)
                yield self._header(e)
                continue
            d = self.clock.day(e.t)
            if d != day and not isinstance(e, (DayEnded, WithdrawalCheck, CampaignEnded)):
                day = d
                yield Entry("day", d, "", f"Day {d}")
            entry = self._one(e, d, battle_logs)
            if entry is not None:
                yield entry

    def _header(self, e: CampaignStarted) -> Entry:
        doctrines = ", ".join(f"{e.side_names[s]} {e.doctrines[s]}" for s in ("red", "blue"))
        bases = ", ".join(f"{e.side_names[s]} at {self.j(e.bases[s])}" for s in ("red", "blue"))
        versions = ", ".join(f"{k} {v}" for k, v in e.versions.items())
        details = [
            f"Seed {e.seed}",
            f"Rules: {e.rules} (hash {e.rules_hash})",
            f"Doctrines: {doctrines}",
            f"Bases: {bases}",
            f"Map file: {e.map_source}",
            f"Versions: {versions}",
            *(f"Note: {n}" for n in e.notes),
        ]
        return Entry("header", 0, "", f"Campaign log: {e.map_name}", details, "bold")

    def _time(self, t: int) -> str:
        return self.clock.label(t).split(" ")[-1]

    def _one(self, e: CampaignEvent, day: int, battle_logs: bool) -> Entry | None:
        tm = self._time(e.t)
        if isinstance(e, DivisionRaised):
            kinds = [k for _, k in e.units]
            parts = [
                f"{kinds.count(k)} {_PLURAL.get(k, k) if kinds.count(k) > 1 else _SINGLE.get(k, k)}"
                for k in ("infantry", "cavalry", "artillery")
                if kinds.count(k)
            ]
            return Entry(
                "event",
                day,
                tm,
                f"{self.side(e.side)} raises division {e.division} "
                f"at {self.j(e.junction)}: {', '.join(parts)} (d100={e.roll})",
            )
        if isinstance(e, MarchBegun):
            return Entry(
                "event",
                day,
                tm,
                f"{e.division} marches {self.j(e.origin)} -> "
                f"{self.j(e.destination)} ({e.kind} road, {e.hours:g} h)",
            )
        if isinstance(e, MarchArrived):
            return Entry("event", day, tm, f"{e.division} arrives at {self.j(e.junction)}")
        if isinstance(e, RoughRoadTest):
            verdict = "passes" if e.passed else "fails, holds its position"
            return Entry(
                "event",
                day,
                tm,
                f"{e.division} tests the rough road "
                f"{self.j(e.origin)} -> {self.j(e.destination)}: d100={e.roll} vs "
                f"{e.target:g}: {verdict}",
                style="" if e.passed else "yellow",
            )
        if isinstance(e, Halted):
            return Entry(
                "event",
                day,
                tm,
                f"{e.division} holds at {self.j(e.junction)}: {e.reason}",
                style="dim",
            )
        if isinstance(e, Ordered):
            key = (e.code, e.goal, e.enemy_at, e.friends, e.aim)
            repeat = self.last_order.get(e.division) == key
            self.last_order[e.division] = key
            if (e.t, e.division) in self.marching_with:
                return None  # said with the division whose order it follows
            if e.code in ("attack", "pursue"):
                self.marching_with.update((e.t, f) for f in e.friends)
            if repeat and e.road_kind != "rough":
                return None  # the same order as before: the march line says the rest
            return Entry("event", day, tm, order_sentence(self, e), style="italic")
        if isinstance(e, Reinforced):
            return Entry(
                "event",
                day,
                tm,
                f"Reinforcements for {self.side(e.side)}: {', '.join(e.names)} "
                f"({', '.join(e.divisions)}) enter at {self.j(e.junction)}",
                style="bold",
            )
        if isinstance(e, Sighted):
            return Entry(
                "event",
                day,
                tm,
                f"{self.side(e.side)} sights {e.enemy} at {self.j(e.junction)}",
                style="cyan",
            )
        if isinstance(e, MeetingOnRoad):
            return Entry(
                "event",
                day,
                tm,
                f"Contact on {self.j('~'.join(e.road))}: "
                f"{' and '.join(e.divisions)} meet on the road",
                style="bold",
            )
        if isinstance(e, BattleFought):
            return self._battle(e, day, tm, battle_logs)
        if isinstance(e, FellBack):
            where = " -> ".join(self.j(j) for j in e.path)
            onto = " (onto its base)" if e.onto_base else ""
            return Entry(
                "event", day, tm, f"{e.division} falls back {where}{onto}", style="magenta"
            )
        if isinstance(e, Surrendered):
            return Entry(
                "event",
                day,
                tm,
                f"{e.division} is cut off at {self.j(e.junction)} and surrenders",
                style="bold red",
            )
        if isinstance(e, DayEnded):
            s = e.strength
            o = e.objectives
            return Entry(
                "night",
                e.day,
                tm,
                f"Nightfall on day {e.day}. Strength "
                f"{self.side('red')} {s['red']} boxes, {self.side('blue')} {s['blue']}; "
                f"objectives held {self.side('red')} {o['red']}, "
                f"{self.side('blue')} {o['blue']}",
                style="dim",
            )
        if isinstance(e, WithdrawalCheck):
            rows = ", ".join(f"{name} {n:+d}" for name, n in e.factors) or "no factors"
            dice = "+".join(map(str, e.rolls)) or "no dice"
            verdict = "WITHDRAWS" if e.withdraws else "fights on"
            return Entry(
                "event",
                day,
                tm,
                f"Withdrawal check for {self.side(e.side)} at "
                f"{e.casualty_percent:.0f}% losses: {rows} = {e.total}d6: {dice} = "
                f"{sum(e.rolls)} vs 12+: {verdict}",
                style="bold red" if e.withdraws else "",
            )
        if isinstance(e, CampaignEnded):
            return self._end(e, day)
        return None

    def div(self, division: str) -> str:
        """A division as the diary names it."""
        return division

    def divs(self, divisions: Iterable[str]) -> str:
        """``R1, R2 and R3``."""
        items = [self.div(d) for d in divisions]
        if len(items) <= 1:
            return "".join(items)
        return ", ".join(items[:-1]) + " and " + items[-1]

    def _battle(self, e: BattleFought, day: int, tm: str, battle_logs: bool) -> Entry:
        defender = "blue" if e.attacker == "red" else "red"
        forces = {
            s: f"{self.side(s)} ({', '.join(e.divisions[s])}: "
            f"{_units(sum(1 for u in e.units if u[1] == s))})"
            for s in ("red", "blue")
        }
        loser = None if e.winner is None else ("blue" if e.winner == "red" else "red")
        why = _REASONS.get(e.reason, e.reason).format(loser=self.side(loser))
        outcome = f"Victory for {self.side(e.winner)}" if e.winner else "A draw"
        roll = f" (roll-off {e.roll_off[0]}-{e.roll_off[1]})" if e.roll_off else ""
        h, m = divmod(e.minutes, 60)
        details = [
            f"{e.bounds} bounds ({h} h {m:02d} min); cards lost {self.side('red')} "
            f"{e.cards_lost['red']}, {self.side('blue')} {e.cards_lost['blue']}; actual hits "
            f"{self.side('red')} {e.hits['red']}, {self.side('blue')} {e.hits['blue']}",
            f"{outcome}: {why}.",
        ]
        if e.joined:
            details.append(
                "Joined during the battle: "
                + ", ".join(f"{div} (bound {bound})" for div, bound in e.joined)
            )
        lost = [u[0] for u in e.units if u[3] == "destroyed"]
        if lost:
            details.append(f"Destroyed: {', '.join(lost)}")
        for side, total, rolls, withdraws in e.withdrawal_checks:
            dice = f"{total}d6 = {sum(rolls)}" if total > 0 else f"{total} factors, no dice"
            outcome = " -> withdraws" if withdraws else ""
            details.append(f"Withdrawal check {self.side(side)}: {dice}{outcome}")
        table = [("unit", "side", "type", "state", "hits before", "taken", "total")]
        table += [
            (u[0], self.side(u[1]), u[2], u[3], str(u[4]), str(u[5]), str(u[6])) for u in e.units
        ]
        return Entry(
            "battle",
            day,
            tm,
            f"BATTLE at {e.place_name}: {forces[e.attacker]} attacks {forces[defender]}{roll}",
            details,
            "bold",
            e.log if battle_logs else (),
            table,
        )

    def _end(self, e: CampaignEnded, day: int) -> Entry:
        outcome = f"Victory for {self.side(e.winner)}" if e.winner else "A draw"
        details = [
            f"Days {e.days}; battles {e.battles}; actual hits taken {self.side('red')} "
            f"{e.losses['red']}, {self.side('blue')} {e.losses['blue']}; divisions left "
            f"{self.side('red')} {e.divisions_left['red']}, {self.side('blue')} "
            f"{e.divisions_left['blue']}; objective value {self.side('red')} "
            f"{e.objective_value['red']}, {self.side('blue')} {e.objective_value['blue']}",
        ]
        table = [("division", "side", "where", "units", "boxes", "state")]
        table += [
            (
                d[0],
                self.side(d[1]),
                self.j(d[2]) if d[2] != "-" else "-",
                str(d[3]),
                str(d[4]),
                d[5],
            )
            for d in e.divisions
        ]
        return Entry(
            "end",
            day,
            self._time(e.t),
            f"End: {outcome}. {e.reason[:1].upper()}{e.reason[1:]}.",
            details,
            "bold green",
            table=table,
        )


def narrate(
    events: Iterable[CampaignEvent],
    junction_names: dict[str, str] | None = None,
    clock: Clock | None = None,
    battle_logs: bool = False,
) -> list[Entry]:
    """The diary entries of an event stream, in order."""
    return list(Narrator(junction_names, clock).entries(events, battle_logs))
