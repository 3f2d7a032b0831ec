"""Campaign events as plain-English diary sentences, shared by every printer.

:func:`narrate` turns an event stream (already filtered for a view by
:func:`campaign.report.view.side_view`) into :class:`Entry` rows (time, sentence, detail
lines, style); the text, Markdown and HTML printers lay them out. Each event type has a
handler in :attr:`Narrator.HANDLERS`; a type without one is written by a generic fallback
(its name and fields) and counted in :attr:`Narrator.unhandled`, and a test fails until the
type has a handler. Nothing here changes or re-runs a campaign.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar

from campaign.clock import Clock, default_clock
from campaign.events import (
    BattleFought,
    CampaignEnded,
    CampaignEvent,
    CampaignStarted,
    DayEnded,
    DivisionDestroyed,
    DivisionRaised,
    FallBackCaught,
    FellBack,
    Forked,
    Halted,
    MarchArrived,
    MarchBegun,
    MarchResumed,
    MeetingOnRoad,
    Ordered,
    Place,
    Reinforced,
    ReturnBegun,
    RoughRoadTest,
    Sighted,
    StrengthLearned,
    Surrendered,
    WithdrawalCheck,
)
from campaign.maps.naming import MapNaming
from campaign.printers.battle_story import battle_details, faced_overnight, unit_table
from campaign.printers.commanders import Commanders
from campaign.printers.fates import Fates, Line
from campaign.printers.folding import Folds, chain_line, rough_line
from campaign.printers.folding import fold as fold_events
from campaign.printers.forks import fork_line
from campaign.printers.odds import Odds
from campaign.printers.orders import Told, order_told, told
from campaign.printers.phrases import (
    attributive,
    division_order,
    figures,
    objective_held,
    place_phrase,
    possessive,
    side_noun,
    side_sentence,
    verb,
)
from campaign.printers.phrases import count as _count
from campaign.printers.phrases import dice as _dice

__all__ = ["Entry", "Narrator", "OddsSource", "narrate", "place_phrase", "possessive"]

_SINGLE = {"artillery": "battery"}
#: verbs and pronouns that agree with a side's name (printers/phrases.py ``verb``)
_AGREE = (("withdraws", "withdraw"), ("fights", "fight"), ("its", "their"))
_PLURAL = {"artillery": "batteries"}

#: Orders (RULES.md §8.8) of a division marching past, not on, the enemy it meets: a beaten
#: division rejoining its army, one falling back on its base, one marching to join friends.
_PASSING = frozenset({"regroup", "guard", "concentrate", "wait"})


#: ``battle -> Odds or None``: the odds of a battle before it was fought (printers/odds.py).
OddsSource = Callable[[BattleFought], Odds | None]


@dataclass
class Entry:
    """One diary row: ``kind`` is header, day, event, battle, night or end.

    ``log`` is the battle's bound-by-bound engine log (verbose only); ``table`` rows are the
    battle's units or the end's divisions, header row first; ``event`` is the source event.
    """

    kind: str
    day: int
    time: str
    text: str
    details: list[str] = field(default_factory=list)
    style: str = ""
    log: tuple[str, ...] = ()
    table: list[tuple[str, ...]] = field(default_factory=list)
    event: CampaignEvent | None = None


class Narrator(Fates):
    """Writes the sentences: knows junction names, side names, commanders and the odds.

    Parameters
    ----------
    junction_names : dict
        Junction id → name.
    clock : Clock or None
        The campaign clock (taken from :class:`CampaignStarted` when the stream has one).
    view : str
        ``umpire``, ``red`` or ``blue``: whose diary (a side's diary says "we learn").
    odds : OddsSource or None
        Gives each battle's odds; None leaves them out. Only the umpire's view shows them:
        they are worked out from both sides' forces.
    naming : MapNaming or None
        The map's names (``CampaignMap.naming``): its commanders and division names; None
        draws every commander from ``config/commanders.yaml``.
    terrain : dict or None
        Junction id → the terrain the map gives it (``town``, ``bridge``, ``wood``), told in
        battle headers.
    """

    #: the events told in an entry of their own: ``handler(event, day, time) -> Entry``
    ENTRIES: ClassVar[dict[type[CampaignEvent], str]] = {
        CampaignStarted: "_header",
        BattleFought: "_battle",
        DayEnded: "_night",
        CampaignEnded: "_end",
    }
    #: the events told in a plain event row: ``handler(event) -> Line`` (its sentence and
    #: style), or None for an event the diary leaves out
    LINES: ClassVar[dict[type[CampaignEvent], str]] = {
        DivisionRaised: "_raised",
        MarchBegun: "_march",
        MarchArrived: "_arrived",
        RoughRoadTest: "_rough",
        Halted: "_halted",
        Ordered: "_ordered",
        Reinforced: "_reinforced",
        Sighted: "_sighted",
        StrengthLearned: "_learned",
        MeetingOnRoad: "_meeting",
        FellBack: "_fell_back",
        FallBackCaught: "_caught",
        ReturnBegun: "_return",
        MarchResumed: "_resumed",
        DivisionDestroyed: "_destroyed",
        Surrendered: "_surrendered",
        WithdrawalCheck: "_check",
        Forked: "_forked",
    }
    #: every event type with a handler
    HANDLERS: ClassVar[dict[type[CampaignEvent], str]] = {**ENTRIES, **LINES}
    _forked = fork_line  # (its sentence: campaign.printers.forks)

    def __init__(
        self,
        junction_names: dict[str, str] | None = None,
        clock: Clock | None = None,
        view: str = "umpire",
        odds: OddsSource | None = None,
        naming: MapNaming | None = None,
        terrain: dict[str, str] | None = None,
    ) -> None:
        self.names = dict(junction_names or {})
        self.terrain = dict(terrain or {})  # junction id -> the map's terrain (town, bridge)
        self.naming = naming  # the map's commanders and division names (campaign.maps.naming)
        self.clock = clock or default_clock()
        self.sides = {"red": "Red", "blue": "Blue"}
        self.view = view
        # the odds are the umpire's: worked out from both forces as they stand, which a
        # side's own diary must not give away (a side knows only what it has seen)
        self.odds = odds if view == "umpire" else None
        self.commanders: Commanders | None = None
        self.unhandled: list[str] = []
        self.battle_logs = False
        self.bases: dict[str, str] = {}
        self.landmarks: frozenset[str] = frozenset()  # objectives' junction ids (folding)
        self.last_order: dict[str, Told] = {}  # each division's last order told
        self.marching_with: set[tuple[int, str]] = set()  # (minute, division) already said
        self.opened: set[str] = set()  # divisions whose opening plan was told
        self.orders: dict[str, Ordered] = {}  # each division's last order seen (§8.8)
        self.lost_last: dict[str, bool] = {}  # "beaten" only when it is (printers/fates.py)
        self.caught: dict[tuple[int, str], list[str]] = {}

    # ------------------------------------------------------------------ names
    def j(self, junction: Place) -> str:
        """A place's name (junction, or the road between two)."""
        return place_phrase(self.names, junction)

    def side(self, side: str | None) -> str:
        """A side's name as given (``Red``, ``French``): a label, as in a table."""
        return self.sides.get(side or "", "nobody")

    def noun(self, side: str | None, start: bool = False) -> str:
        """A side in a sentence: ``Red``, ``the French`` (:func:`phrases.side_noun`)."""
        return side_noun(self.side(side), start)

    def battle_place(self, e: BattleFought) -> str:
        """``Sombreffe (village)``: where a battle was fought, with the junction's terrain
        as the map gives it (a road meeting has none)."""
        ground = "" if e.road else self.terrain.get(e.place, "")
        return f"{e.place_name} ({ground})" if ground else e.place_name

    def general(self, division: str) -> str:
        """The surname of a division's commander when known ('' if not: a side's view names
        only its own commanders)."""
        known = self.view in ("umpire", "red" if division.startswith("R") else "blue")
        return self.commanders.surname(division) if self.commanders and known else ""

    def div(self, division: str) -> str:
        """``R1 (Foy)``: a division id with its commander's name when known."""
        name = self.general(division)
        return f"{division} ({name})" if name else division

    def divs(self, divisions: Iterable[str]) -> str:
        items = [self.div(d) for d in divisions]
        if len(items) <= 1:
            return "".join(items)
        return ", ".join(items[:-1]) + " and " + items[-1]

    # ------------------------------------------------------------------ the stream
    def entries(
        self, events: Iterable[CampaignEvent], battle_logs: bool = False, fold: bool = False
    ) -> Iterator[Entry]:
        """The entries of ``events`` in order, with a ``day`` entry before each new day;
        ``fold`` tells rough-road runs, repeated plans and long march chains in one line
        each (:mod:`campaign.printers.folding`, as the diary does)."""
        self.battle_logs = battle_logs
        day = 0
        stream = list(events)
        folds = None
        if fold:
            header = next((e for e in stream if isinstance(e, CampaignStarted)), None)
            clock = Clock(header.day_start, header.day_end) if header else self.clock
            folds = fold_events(stream, clock.day)
        for e in stream:
            if isinstance(e, CampaignStarted):
                self.start(e)
            d = self.clock.day(e.t)
            quiet = (CampaignStarted, DayEnded, WithdrawalCheck, CampaignEnded)
            if d != day and not isinstance(e, quiet):
                day = d
                yield Entry("day", d, "", f"Day {d}")
            entry = self.one(e, d)
            if folds is not None:
                entry = self._folded(folds, e, entry)
            if entry is not None:
                yield entry

    def _folded(self, folds: Folds, e: CampaignEvent, entry: Entry | None) -> Entry | None:
        """``entry`` as the folded log tells it: None when another line tells it, the
        run's or the march's one line at its last event, else unchanged."""
        if entry is None or id(e) in folds.hidden:
            return None
        if isinstance(e, RoughRoadTest) and id(e) in folds.rough:
            last, tries = folds.rough[id(e)]
            return replace(entry, text=rough_line(self, last, tries)) if tries > 1 else entry
        chain = folds.chains.get(id(e))
        if chain is None:
            return entry
        major = frozenset(self.j(j) for j in (*self.landmarks, *self.bases.values()))
        return replace(entry, text=chain_line(self, chain, major))

    def start(self, e: CampaignStarted) -> None:
        """Take side names, clock and commanders from the scenario header."""
        self.sides = dict(e.side_names)
        self.bases = dict(e.bases)
        self.clock = Clock(e.day_start, e.day_end)
        self.commanders = Commanders(e.seed, e.side_names, self.naming)

    def one(self, e: CampaignEvent, day: int) -> Entry | None:
        """The entry of one event (None for an event a diary does not narrate)."""
        if isinstance(e, Reinforced) and self.commanders is not None:
            self.commanders.joined(e)  # the map may name their commanders (§8.9)
        name = self.ENTRIES.get(type(e))
        if name is not None:
            told: Callable[[Any, int, str], Entry] = getattr(self, name)
            return told(e, day, self._time(e.t))
        name = self.LINES.get(type(e))
        if name is None:
            self.unhandled.append(type(e).__name__)
            return self._generic(e, day)
        said: Callable[[Any], Line | None] = getattr(self, name)
        line = said(e)
        if line is None:
            return None
        text, style = line
        return Entry("event", day, self._time(e.t), text, style=style, event=e)

    def _time(self, t: int) -> str:
        return self.clock.label(t).split(" ")[-1]

    def _generic(self, e: CampaignEvent, day: int) -> Entry:
        """Fallback for an event type no handler knows: its name and fields, plainly."""
        words = []
        for f in fields(e):
            if f.name in ("t", "seen_by"):
                continue
            value = getattr(e, f.name)
            if isinstance(value, (tuple, list)):
                value = ", ".join(map(str, value))
            elif isinstance(value, dict):
                value = ", ".join(f"{k} {v}" for k, v in value.items())
            words.append(f"{f.name.replace('_', ' ')} {value}")
        kind = type(e).__name__
        return Entry("event", day, self._time(e.t), f"{kind}: {'; '.join(words)}", event=e)

    # ------------------------------------------------------------------ handlers
    def _header(self, e: CampaignStarted, day: int, tm: str) -> Entry:
        doctrines = ", ".join(f"{e.side_names[s]} {e.doctrines[s]}" for s in ("red", "blue"))
        bases = ", ".join(f"{e.side_names[s]} at {self.j(e.bases[s])}" for s in ("red", "blue"))
        versions = ", ".join(f"{k} {v}" for k, v in e.versions.items())
        details = [
            f"Seed {e.seed}",
            f"Rules: {e.rules} (hash {e.rules_hash})",
            f"Strategy doctrines: {doctrines}",
            f"Bases: {bases}",
            f"Map file: {e.map_source}",
            f"Versions: {versions}",
            *(f"Note: {n}" for n in e.notes),
        ]
        if self.view != "umpire":
            details.insert(0, f"What {self.noun(self.view)} knew at the time (RULES.md §8.6)")
        return Entry("header", 0, "", f"Campaign log: {e.map_name}", details, "bold", event=e)

    def _raised(self, e: DivisionRaised) -> Line:
        kinds = [u.kind for u in e.units]
        parts = [
            f"{kinds.count(k)} "
            + (_PLURAL.get(k, k) if kinds.count(k) > 1 else _SINGLE.get(k, k)).replace("_", " ")
            for k in dict.fromkeys(kinds)
        ]
        who = self.commanders.full(e.division) if self.commanders else ""
        under = f" under {who}" if who else ""
        named = self.commanders.division_name(e.division) if self.commanders else ""
        under = f", {named}," + under if named else under  # the map's name (III Corps)
        text = (
            f"{self.noun(e.side, True)} {verb(self.side(e.side), 'raises', 'raise')} division "
            f"{e.division}{under} at {self.j(e.junction)}: "
            f"{', '.join(parts)} (d100 roll {e.roll})"
        )
        return text, ""

    def adjective(self, side: str) -> str:
        """A side's name before a noun, opening a sentence: ``Red scouts``, ``French
        scouts``, ``The Allies' scouts`` (``Allied scouts`` where the map gives the side
        an adjective, :mod:`campaign.maps.naming`)."""
        own = self.naming.side(side).adjective if self.naming else None
        return own[:1].upper() + own[1:] if own else attributive(self.side(side), start=True)

    def _march(self, e: MarchBegun) -> Line:
        road = "a rough road" if e.kind == "rough" else "the road"
        hours = f"{e.hours:g} hour's" if e.hours == 1 else f"{e.hours:g} hours'"
        text = (
            f"{self.div(e.division)} sets out from {self.j(e.origin)} for "
            f"{self.j(e.destination)} along {road} ({hours} march)"
        )
        return text, ""

    def _arrived(self, e: MarchArrived) -> Line:
        return f"{self.div(e.division)} reaches {self.j(e.junction)}", ""

    def _rough(self, e: RoughRoadTest) -> Line:
        verdict = "gets through" if e.passed else f"cannot pass and stays at {self.j(e.origin)}"
        return (
            f"{self.div(e.division)} tries the rough road from {self.j(e.origin)} to "
            f"{self.j(e.destination)}: rolls {e.roll}, needing {e.target:g} or less, and "
            f"{verdict}",
            "" if e.passed else "yellow",
        )

    def _halted(self, e: Halted) -> Line:
        return f"{self.div(e.division)} holds at {self.j(e.junction)}: {e.reason}", "dim"

    def _ordered(self, e: Ordered) -> Line | None:
        """A strategy decision (RULES.md §8.8), said once (:func:`order_told`); the
        divisions marching with another are left out."""
        self.orders[e.division] = e
        last = self.last_order.get(e.division)
        self.last_order[e.division] = told(e)
        if (e.t, e.division) in self.marching_with:
            return None
        if e.code in ("attack", "pursue"):
            self.marching_with.update((e.t, f) for f in e.friends)
        text = order_told(self, e, last)
        return None if text is None else (text, "italic")

    def _reinforced(self, e: Reinforced) -> Line:
        return (
            f"Reinforcements for {self.noun(e.side)}: {', '.join(e.names)} "
            f"({self.divs(e.divisions)}) enter at {self.j(e.junction)}",
            "bold",
        )

    def _sighted(self, e: Sighted) -> Line:
        return (
            f"{self.adjective(e.side)} scouts see {self.div(e.enemy)} at {self.j(e.junction)}",
            "cyan",
        )

    def _learned(self, e: StrengthLearned) -> Line | None:
        if self.view == "umpire":
            return None  # the umpire knows every strength; the battle entry gives it
        return (
            f"{self.noun(e.side, True)} {verb(self.side(e.side), 'now knows', 'now know')} "
            f"{self.div(e.enemy)}: "
            f"{_count(e.units, 'unit')} left, {figures(e.boxes, 'box', 'boxes')}",
            "dim",
        )

    def _meeting(self, e: MeetingOnRoad) -> Line:
        return (
            f"{self.divs(e.divisions)} run into each other on {self.j((e.road[0], e.road[1]))}",
            "bold",
        )

    def end_reason(self, e: CampaignEnded) -> str:
        """The end's reason (RULES.md §8.7) as a sentence in the log's grammar: the engine
        names the sides bare (``French holds the enemy base``), the log says ``The French
        hold the enemy base`` (:func:`phrases.side_sentence`)."""
        return side_sentence(e.reason, self.sides.values())

    def led(self, division: str) -> str:
        """``R2 under Vandamme``: a division with its general where this view knows him."""
        name = self.general(division)
        return f"{division} under {name}" if name else division

    def _battle(self, e: BattleFought, day: int, tm: str) -> Entry:
        defender = "blue" if e.attacker == "red" else "red"
        # who began it: divisions that joined later (§8.4) are named in the details
        late = {u for j in e.joined for u in (j.division, *j.units)}
        count = {s: sum(u.side == s and u.id not in late for u in e.units) for s in ("red", "blue")}
        force, begun = {}, {}
        for s in ("red", "blue"):
            ids = begun[s] = [d for d in e.divisions.get(s, ()) if d not in late]
            led = [self.led(d) for d in ids]
            listed = ", ".join(led[:-1]) + " and " + led[-1] if len(led) > 1 else "".join(led)
            force[s] = f"{possessive(self.side(s))} {listed} ({_count(count[s], 'unit')})"
        roll = ""
        if e.roll_off:
            met = "they met on the road" if e.road else "neither side arrived last"
            roll = (
                f"; {met}, and a roll-off ({self.side('red')} {e.roll_off[0]}, "
                f"{self.side('blue')} {e.roll_off[1]}) made {self.noun(e.attacker)} the attacker"
            )
        details = battle_details(self, e)
        table = unit_table(self, e)
        text = (
            f"Battle at {self.battle_place(e)}: {force[e.attacker]}"
            f"{self._attacks(e, begun[e.attacker], begun[defender])} {force[defender]}{roll}"
        )
        self.remember_battle(e)  # after the sentence: "beaten" from now on (fates.py)
        if faced_overnight(e):  # a draw by the rules (§8.3); said as a wargamer says it
            text = (
                f"At {self.battle_place(e)} at dusk: {force['red']} and {force['blue']} face "
                "each other "
                "overnight"
            )
        return Entry(
            "battle",
            day,
            tm,
            text,
            details,
            "bold",
            e.log if self.battle_logs else (),
            table if self.battle_logs else [],
            event=e,
        )

    def _attacks(self, e: BattleFought, divisions: list[str], defenders: list[str]) -> str:
        """How the attacker came on (RULES.md §6.9: the side that moved in last attacks):
        `` attacks``; `` catches`` when the defenders were all caught falling back (the
        pursuer attacks: printers/fates.py); or, when every one of its divisions was marching
        elsewhere (a beaten
        division rejoining its army or falling back on its base, a march to join friends),
        ``, on its way to Glotz, runs into``: it attacks by the rules, but meant no attack."""
        many = len(divisions) > 1
        if self.caught_all(e, defenders):
            return " catch" if many else " catches"  # the pursuer attacks (issue 31)
        passing = [self.orders.get(d) for d in divisions]
        if e.roll_off or not passing or any(o is None or o.code not in _PASSING for o in passing):
            return " attack" if many else " attacks"
        goals = {o.goal for o in passing if o is not None}
        goal = goals.pop() if len(goals) == 1 else None
        way = f"on {'their' if many else 'its'} way to {self.j(goal)}" if goal else "on the march"
        beaten = all(self.beaten(d) for d in divisions)  # its last battle lost: no other
        return f", {'beaten and ' if beaten else ''}{way}, run{'' if many else 's'} into"

    def _strength(self, side: str, value: int | None) -> str:
        if value is None:
            return f"{self.side(side)} unknown"
        if self.view not in ("umpire", side):
            return f"{self.side(side)} {value} boxes in the divisions fought"
        return f"{self.side(side)} {value} boxes"

    def _night(self, e: DayEnded, day: int, tm: str) -> Entry:
        o = e.objectives
        return Entry(
            "night",
            e.day,
            tm,
            f"Nightfall on day {e.day}. Strength: {self._strength('red', e.strength.get('red'))}, "
            f"{self._strength('blue', e.strength.get('blue'))}. Objective value held: "
            + ", ".join(f"{self.side(s)} {objective_held(o, s)}" for s in ("red", "blue")),
            style="dim",
            event=e,
        )

    def _check(self, e: WithdrawalCheck) -> Line:
        name = self.side(e.side)
        who = side_noun(name)
        withdraws, fights, its = (verb(name, *v) for v in _AGREE)
        verdict = f"{who} {withdraws} from the campaign" if e.withdraws else f"{who} {fights} on"
        if e.casualty_percent is None:  # the enemy's check, as the other side learns of it
            text = f"Evening withdrawal check for {who} (only its outcome is known): {verdict}"
        else:
            rows = ", ".join(f"{f.row} {f.factors:+d}" for f in e.factors) or "none"
            if e.total <= 0:
                dice = f"they come to {e.total}, so there is nothing to roll"
            elif e.total >= e.success_total:  # the lowest roll withdraws (§7.6)
                dice = (
                    f"{_dice(e.total)} cannot roll under {e.success_total}, so withdrawal is "
                    "certain"
                )
            elif e.total * e.die < e.success_total:  # the highest roll holds
                dice = f"{_dice(e.total)} cannot reach {e.success_total}, so it is certain to hold"
            else:
                dice = (
                    f"{_dice(e.total)} rolled {'+'.join(map(str, e.rolls))} = {sum(e.rolls)}, "
                    f"{e.success_total} or more to withdraw"
                )
            text = (
                f"Evening withdrawal check for {who}, {e.casualty_percent:.0f}% of {its} strength "
                f"lost. Factors: {rows}; {dice}: {verdict}"
            )
        return text, ("bold red" if e.withdraws else "")

    def _end(self, e: CampaignEnded, day: int, tm: str) -> Entry:
        outcome = f"Victory for {self.noun(e.winner)}" if e.winner else "A draw"

        def left(s: str) -> str:
            v = e.divisions_left.get(s)
            return "unknown" if v is None else str(v)

        details = [
            f"{_count(e.days, 'day').capitalize()}, {_count(e.battles, 'battle')}. Hits taken: "
            f"{self.side('red')} {e.losses['red']}, {self.side('blue')} {e.losses['blue']}. "
            f"Divisions left: {self.side('red')} {left('red')}, {self.side('blue')} "
            f"{left('blue')}. Objective value held: {self.side('red')} "
            f"{e.objective_value['red']}, {self.side('blue')} {e.objective_value['blue']}.",
        ]
        table: list[tuple[str, ...]] = [("division", "side", "where", "units", "boxes", "state")]
        for d in sorted(e.divisions, key=lambda r: division_order(r.side, r.division)):
            where = self.j(d.place) if d.place not in ("-", "") else "-"
            if isinstance(d.place, tuple):
                a, b = d.place
                where = f"road {self.j(a)} - {self.j(b)}"
            table.append(
                (
                    self.div(d.division),
                    self.side(d.side),
                    where,
                    "?" if d.units is None else str(d.units),
                    "?" if d.boxes is None else str(d.boxes),
                    d.state,
                )
            )
        return Entry(
            "end",
            day,
            tm,
            f"End: {outcome}. {self.end_reason(e)}.",
            details,
            "bold green",
            table=table,
            event=e,
        )


def narrate(
    events: Iterable[CampaignEvent],
    junction_names: dict[str, str] | None = None,
    clock: Clock | None = None,
    battle_logs: bool = False,
    view: str = "umpire",
    odds: OddsSource | None = None,
    naming: MapNaming | None = None,
    terrain: dict[str, str] | None = None,
    fold: bool = False,
    landmarks: frozenset[str] = frozenset(),
) -> list[Entry]:
    """The diary entries of an event stream (already filtered for ``view``), in order;
    ``fold`` folds repeated lines (:mod:`campaign.printers.folding`), keeping the
    ``landmarks`` (objectives' junction ids) in a folded march."""
    narrator = Narrator(junction_names, clock, view, odds, naming, terrain)
    narrator.landmarks = landmarks
    return list(narrator.entries(events, battle_logs, fold))
