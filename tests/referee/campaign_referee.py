"""An independent campaign referee: audits a campaign from its event stream and its map alone.

It reads JSON-ready campaign event dicts (``campaign run --format jsonl`` writes them, one per
line) and the map as plain data (:class:`MapData`: junctions with their objective values,
roads with kind and hours, each side's base and primary road), and re-derives from RULES.md
what the events must show. It imports nothing from ``campaign`` or ``battle``: it is written
from RULES.md §7.2, §7.6 and §8.2–§8.9, so that a mistake in the engine is not copied here.

Two kinds of finding:

- **departures** from RULES.md (each must be 0): a rough road taken without a test (§8.2), a
  march set off at night or one it cannot finish by nightfall (§8.3), enemies sharing a
  junction in daylight without a battle or a division left out of a battle at its junction
  (§8.4), a fall back longer than two junctions, off the roads, by a road the enemy came by or
  onto itself (§8.5), the day's objective values and the evening check's objective and
  casualty figures (§7.2, §7.6), the base held at nightfall (§8.7), reinforcements (§8.9);
- **glitches**: what a wargamer reading the log finds odd though no rule forbids it (issue 31's
  table): an enemy base entered and left the same day, A→B→A the same day, repeated orders,
  two orders in one minute, orders naming a destroyed division, "to the guns" arriving after
  the battle, same-day rematches, a division in mid fall back named the attacker, a fall back
  caught on the way. They are measurements (``python -m benchmarks.generals`` prints them).

Use::

    report = CampaignReferee(map_data).audit(events)
    report.departures          # [] when the campaign was played by the rules
    report.glitches["rematch"]  # one sentence per case
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from log_truths import LogTruths

__all__ = ["GLITCHES", "CampaignReferee", "MapData", "Report"]

DAY = 1440  # minutes in a day; t = 0 is 06:00 of day 1 (RULES.md §8.3)
SIDES = ("red", "blue")

#: glitch name -> what it counts (the issue's table, one line each)
GLITCHES = {
    "base_left": "enemy base entered, then left the same day by choice",
    "base_lost": "enemy base entered, then lost the same day in a battle (a fall back, §8.5)",
    "aba": "a division marching A→B→A the same day, not a fall back",
    "aba_trigger": "... of which with a logged trigger",
    "repeated": "the same order repeated to a division the same day",
    "two_orders": "two different orders to one division in the same minute",
    "destroyed_named": "an order naming a division already destroyed or surrendered",
    "guns_late": "'marches to the guns' arriving after the battle ended",
    "guns": "'marches to the guns' orders",
    "rematch": "same-day rematch of the same forces",
    "attacker_falling_back": "a division in mid fall back named the attacker",
    "caught": "a fall back caught on the way",
    "battles": "battles",
    "fall_backs": "fall backs",
}


@dataclass(frozen=True)
class MapData:
    """The map as plain data (RULES.md §8.1).

    ``objectives``: junction -> value (objectives only); ``roads``: (a, b) -> (kind, hours),
    both orders; ``bases`` and ``primary``: side -> base junction / its primary road's two
    junctions (or None); ``daylight``: minutes of daylight from 06:00 (840: to 20:00);
    ``rough_wait``: minutes before a division tries again after a failed rough-road test.
    """

    objectives: dict[str, int]
    roads: dict[tuple[str, str], tuple[str, float]]
    bases: dict[str, str]
    primary: dict[str, tuple[str, str] | None]
    daylight: int = 840
    rough_wait: int = 60
    reinforcements: tuple[tuple[str, str, int], ...] = ()  # (side, junction, minute)


@dataclass
class Report:
    """What the referee found: departures (sentences) and glitches (name -> sentences)."""

    departures: list[str] = field(default_factory=list)
    glitches: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def count(self, name: str) -> int:
        return len(self.glitches.get(name, ()))


@dataclass
class Div:
    """What the referee knows of one division."""

    id: str
    side: str
    units: dict[str, int]  # unit id -> hits carried
    kinds: dict[str, str]
    place: Any = None  # junction id, ("road", a, b) or None when gone
    came_from: str | None = None  # the junction it last marched from
    falling_back: list[str] = field(default_factory=list)  # junctions still to reach
    retreating: bool = False  # from its fall back's order until it reaches its last junction
    returning: str | None = None  # after a draw as attacker: the junction it returns to
    gone: str = ""  # destroyed or surrendered
    gone_t: float = 0.0  # from when: a battle's end (its units lost as it is fought)
    failed_until: float = -1.0  # a failed rough-road test: holds until then (§8.2)
    day_path: list[str] = field(default_factory=list)  # junctions reached today
    day_legs: list[bool] = field(default_factory=list)  # each leg: a fall back or return?
    last_order: tuple | None = None
    last_order_t: float = -1.0
    guns: tuple[str, float] | None = None  # a "to the guns" order: (junction, its time)
    tested: tuple | None = None  # its last rough-road test: (t, origin, destination, passed)
    leg_special: bool = False  # its last march a fall back or a return after a draw
    replanned: bool = False  # an order with a logged re-plan trigger since it last arrived


class CampaignReferee(LogTruths):
    """Audits one campaign at a time (see the module docstring); the log's truths are
    checked by :class:`log_truths.LogTruths`."""

    def __init__(self, m: MapData) -> None:
        self.m = m

    # ------------------------------------------------------------------ helpers
    def bad(self, e: dict, rule: str, what: str) -> None:
        self.r.departures.append(f"{self.when(e['t'])} {e['type']}: {rule} {what}")

    def odd(self, name: str, e: dict, what: str) -> None:
        self.r.glitches[name].append(f"{self.when(e['t'])}: {what}")

    @staticmethod
    def when(t: float) -> str:
        day, minute = divmod(int(t), DAY)
        return f"day {day + 1} {6 + minute // 60:02d}:{minute % 60:02d}"

    def daylight(self, t: float) -> bool:
        return t % DAY < self.m.daylight

    def at(self, junction: str) -> dict[str, list[Div]]:
        """The divisions of each side standing at ``junction``."""
        out: dict[str, list[Div]] = {s: [] for s in SIDES}
        for d in self.divs.values():
            if not d.gone and d.place == junction:
                out[d.side].append(d)
        return out

    def enemy(self, side: str) -> str:
        return SIDES[1 - SIDES.index(side)]

    # ------------------------------------------------------------------ the audit
    def audit(self, events: list[dict]) -> Report:
        """Every departure and glitch found in one campaign's events."""
        self.r = Report()
        self.divs: dict[str, Div] = {}
        self.owner: dict[str, str | None] = {}
        self.last_holder: dict[str, str] = {}
        self.ever_held: dict[str, set[str]] = {s: set() for s in SIDES}
        self.ever_lost: dict[str, set[str]] = {s: set() for s in SIDES}
        self.start_owner: dict[str, str | None] | None = None
        self.battles: list[dict] = []  # every battle so far, with its end
        self.boxes = {s: 0 for s in SIDES}  # the §7.6 casualty base
        self.hits = {s: 0 for s in SIDES}
        self.surrendered_boxes = {s: 0.0 for s in SIDES}
        self.lost_divisions = {s: 0 for s in SIDES}
        self.beaten = {s: 0 for s in SIDES}
        self.onto_base = {s: 0 for s in SIDES}
        self.batteries = {s: 0 for s in SIDES}
        self.dawns: list[float] = []
        self.ended = False
        self.day_entered: dict[str, float] = {}  # division -> when it entered the enemy base
        self.base_held: tuple[str | None, float] | None = None
        self.shared: set[tuple[str, str]] = set()  # §8.4 meetings missed, told once each
        self.truth_start()
        now = None
        for e in events:
            t = e["t"]
            if now is not None and t < now:
                self.bad(e, "§8.3", f"goes back in time from {self.when(now)}")
            if now is not None and t > now:
                self.minute_over(now, t)
            now = t
            handler = getattr(self, "on_" + e["type"], None)
            if handler is not None:
                try:
                    handler(e)
                except KeyError as missing:
                    self.bad(e, "", f"names {missing}, unknown at this point")
        if now is not None:
            self.minute_over(now, now + 1)  # the stream's last minute is over too
        return self.r

    # ------------------------------------------------------------------ minute by minute
    def minute_over(self, t: float, next_t: float) -> None:
        """The minute ``t`` is over: §8.4 meetings at junctions, and each dawn passed before
        ``next_t`` (enemies who shared a junction through the night meet at dawn)."""
        if self.start_owner is None:
            self.start_owner = dict(self.owner)
        held = self.base_held
        if held is not None and next_t > held[1]:
            self.base_held = None
            if not self.ended:
                self.r.departures.append(
                    f"{self.when(held[1])}: §8.7 {held[0] or 'each side'} holds the enemy "
                    "base alone at nightfall, yet the campaign goes on"
                )
        self.meetings(t)
        self.truth_minute(t)
        dawn = (int(t) // DAY + 1) * DAY
        while dawn < next_t:
            self.meetings(dawn)
            dawn += DAY

    def meetings(self, t: float) -> None:
        """RULES.md §8.4: enemies at one junction in daylight are fighting there. A draw's
        attacker waiting to go back whence it came (§8.5; after a failed rough-road test it
        holds there, §8.2) is not met again: the draw's rule placed it there."""
        if not self.daylight(t) or self.ended:
            return
        places = {d.place for d in self.divs.values() if not d.gone and isinstance(d.place, str)}
        for j in sorted(places):
            here = self.at(j)
            if not all(any(not d.returning for d in here[s]) for s in SIDES):
                continue
            if any(b["place"] == j and b["t"] <= t <= b["end"] for b in self.battles):
                continue
            names = ", ".join(d.id for s in SIDES for d in here[s])
            if (j, names) in self.shared:
                continue  # the same meeting missed: told once
            self.shared.add((j, names))
            self.r.departures.append(
                f"{self.when(t)}: §8.4 enemies share {j} in daylight without a battle ({names})"
            )

    def control(self, junction: str) -> None:
        """RULES.md §7.2: one side alone there controls it; both there contest it (the last
        holder counts it lost); nobody there changes nothing."""
        here = self.at(junction)
        red, blue = bool(here["red"]), bool(here["blue"])
        if red != blue:
            self.take(junction, "red" if red else "blue")
        elif red:
            holder = self.owner.get(junction)
            if holder is not None:
                self.last_holder[junction] = holder
                self.ever_lost[holder].add(junction)
            self.owner[junction] = None

    def take(self, junction: str, side: str) -> None:
        previous = self.owner.get(junction)
        if previous == side:
            return
        if previous is None:
            previous = self.last_holder.get(junction)
        if previous is not None and previous != side:
            self.ever_lost[previous].add(junction)
        self.owner[junction] = side
        self.last_holder.pop(junction, None)
        self.ever_held[side].add(junction)

    def move(self, d: Div, place: Any) -> None:
        old = d.place
        d.place = place
        for j in (old, place):
            if isinstance(j, str):
                self.control(j)

    # ------------------------------------------------------------------ events
    def on_CampaignStarted(self, e: dict) -> None:
        for side in SIDES:
            if e["bases"][side] != self.m.bases[side]:
                self.bad(e, "§8.1", f"{side}'s base is {e['bases'][side]}, the map's is "
                         f"{self.m.bases[side]}")  # fmt: skip
            self.take(self.m.bases[side], side)

    def on_DivisionRaised(self, e: dict) -> None:
        units = {u[0]: 0 for u in e["units"]}
        d = Div(e["division"], e["side"], units, {u[0]: u[1] for u in e["units"]})
        d.day_path = [e["junction"]]
        self.divs[d.id] = d
        self.boxes[d.side] += 10 * len(units)
        if e["t"] > 0 and not any(
            s == d.side and j == e["junction"] and t == e["t"] for s, j, t in self.m.reinforcements
        ):
            self.bad(e, "§8.9", f"{d.id} raised at {e['junction']}, which no reinforcement names")
        self.move(d, e["junction"])

    def on_RoughRoadTest(self, e: dict) -> None:
        d = self.divs[e["division"]]
        kind = self.m.roads.get((e["origin"], e["destination"]), ("", 0))[0]
        if kind != "rough":
            self.bad(e, "§8.2", f"{d.id} tests for {e['origin']}-{e['destination']}, not rough")
        if e["passed"] != (e["roll"] <= e["target"]):
            self.bad(e, "§8.2", f"{d.id} rolled {e['roll']} against {e['target']}: misjudged")
        d.tested = (e["t"], e["origin"], e["destination"], e["passed"])
        if not e["passed"]:
            d.failed_until = e["t"] + self.m.rough_wait

    def on_MarchBegun(self, e: dict) -> None:
        d = self.divs[e["division"]]
        a, b, t = e["origin"], e["destination"], e["t"]
        road = self.m.roads.get((a, b))
        if road is None:
            self.bad(e, "§8.1", f"{d.id} marches {a}-{b}, which is no road")
            return
        if d.place != a and not d.gone:  # (one destroyed later in a battle it joins)
            self.bad(e, "§8.1", f"{d.id} sets off from {a} but stands at {d.place}")
        falling_back = bool(d.falling_back) and d.falling_back[0] == b
        returning = d.returning == b
        if not falling_back:
            d.falling_back = []  # no fall back, or one given up (caught, or a new order)
            d.retreating = False
        if not falling_back:
            if road[0] == "rough" and d.tested != (t, a, b, True):
                why = "a return after a draw " if returning else ""
                self.bad(e, "§8.2", f"{d.id} takes the rough road {a}-{b} {why}without a test")
            if t < d.failed_until:
                self.bad(e, "§8.2", f"{d.id} sets off before its wait after a failed test")
            if not self.daylight(t):
                self.bad(e, "§8.3", f"{d.id} sets off at night ({a}-{b})")
            elif (
                t % DAY + road[1] * 60 > self.m.daylight + 1e-6 and road[1] * 60 <= self.m.daylight
            ):
                self.bad(e, "§8.3", f"{d.id} sets off on {a}-{b} ({road[1]} h), too late to "
                         "finish it by nightfall")  # fmt: skip
        else:
            d.falling_back.pop(0)
        self.truth_march(d, e, returning)
        d.returning = None
        d.came_from = a
        for battle in reversed(self.battles):  # a late arrival comes by the road it marches now
            if battle["place"] == b and d.id in battle["joined"] and t < battle["end"]:
                battle["came"][d.id] = a
                break
        d.leg_special = falling_back or returning
        entered = (
            self.day_entered.pop(d.id, None) if a == self.m.bases[self.enemy(d.side)] else None
        )
        if entered is not None and entered // DAY == t // DAY:
            if falling_back:  # beaten there: RULES.md §8.5 sends it back, no general's choice
                self.odd(
                    "base_lost", e, f"{d.id} falls back from the enemy base {a} the day it took it"
                )
            else:
                self.odd("base_left", e, f"{d.id} leaves the enemy base {a} the day it took it")
        self.move(d, ("road", a, b))

    def on_MarchArrived(self, e: dict) -> None:
        d = self.divs[e["division"]]
        j, t = e["junction"], e["t"]
        if isinstance(d.place, tuple) and j not in d.place[1:]:  # (back, after a road battle)
            self.bad(e, "§8.1", f"{d.id} arrives at {j} from the road {d.place[1]}-{d.place[2]}")
        self.truth_arrival(d, e)
        if not d.falling_back:
            d.retreating = False
        self.move(d, j)
        if j == self.m.bases[self.enemy(d.side)]:
            self.day_entered[d.id] = t
        special = d.leg_special
        back = len(d.day_path) >= 2 and d.day_path[-2] == j
        if back and not special and not d.day_legs[-1]:
            self.odd("aba", e, f"{d.id} {j}→{d.day_path[-1]}→{j}")
            if d.replanned:
                self.odd("aba_trigger", e, f"{d.id} {j}→{d.day_path[-1]}→{j}, re-planned")
        d.replanned = False
        d.day_path.append(j)
        d.day_legs.append(special)
        if d.guns is not None and d.guns[0] == j:
            ends = [b["end"] for b in self.battles if b["place"] == j and b["t"] <= d.guns[1]]
            if ends and max(ends) < t:
                self.odd("guns_late", e, f"{d.id} reaches {j} after its battle ended")
            d.guns = None

    def on_Halted(self, e: dict) -> None:
        pass

    def on_Ordered(self, e: dict) -> None:
        d = self.divs[e["division"]]
        t = e["t"]
        order = (e["junction"], e["code"], e["goal"], e["step"], e.get("aim"))
        for other in (*e.get("enemies", ()), *e.get("friends", ())):
            o = self.divs.get(other)
            if o is not None and o.gone and t >= o.gone_t:
                self.odd("destroyed_named", e, f"{d.id}'s order names {other}, {o.gone}")
        if d.last_order is not None and d.last_order_t == t and d.last_order != order:
            self.odd("two_orders", e, f"{d.id} ordered twice at one minute")
        elif d.last_order == order and d.last_order_t // DAY == t // DAY:
            self.odd("repeated", e, f"{d.id} given '{e['code']}' to {e['goal']} again")
        d.last_order, d.last_order_t = order, t
        if e.get("trigger"):
            d.replanned = True
        if e["code"] == "guns" and e["goal"]:
            self.r.glitches["guns"].append(f"{self.when(t)}: {d.id} to the guns at {e['goal']}")
            d.guns = (e["goal"], t)

    def on_BattleFought(self, e: dict) -> None:
        t, place = e["t"], e["place"]
        b = dict(place=None if e.get("road") else place, t=t, end=t + e["minutes"])
        self.r.glitches["battles"].append(f"{self.when(t)}: at {place}")
        if not self.daylight(t):
            self.bad(e, "§8.3", f"a battle starts at {place} at night")
        fought = {s: sorted(e["divisions"][s]) for s in SIDES}
        joined = {j[0] if isinstance(j, list) else j["division"] for j in e.get("joined", ())}
        if b["place"] is not None:
            for s in SIDES:
                for d in self.at(place)[s]:
                    if d.id not in fought[s]:
                        self.bad(e, "§8.4", f"{d.id} stands at {place} but is left out")
        for other in self.battles:
            if other["place"] == b["place"] and b["place"] and other["t"] <= t < other["end"]:
                self.bad(e, "§8.4", f"a second battle at {place} while one is fought")
            if other["fought"] == fought and other["t"] // DAY == t // DAY:
                self.odd("rematch", e, f"{'+'.join(fought['red'])} against "
                         f"{'+'.join(fought['blue'])} again at {place}")  # fmt: skip
        self.truth_battle(e, fought, joined)
        for div_id in fought[e["attacker"]]:
            d = self.divs[div_id]
            if d.retreating and div_id not in joined:
                self.odd("attacker_falling_back", e, f"{div_id}, falling back, is the attacker")
        b["fought"] = fought
        b["attacker"] = e["attacker"]
        b["winner"] = e["winner"]
        b["came"] = {div_id: self.divs[div_id].came_from for s in SIDES for div_id in fought[s]}
        b["joined"] = joined
        self.battles.append(b)
        if b["place"] is not None:  # the battle decides: a draw's attacker waiting there to go
            for s in SIDES:  # back fights in it (§8.4) and goes back only if this one says so
                for div_id in fought[s]:
                    self.divs[div_id].returning = None
        for s in SIDES:
            for div_id in fought[s]:
                d = self.divs[div_id]
                if d.retreating:
                    self.odd("caught", e, f"{div_id} caught at {place} on its fall back")
                    d.falling_back, d.retreating = [], False
        # losses (RULES.md §7.6: hits into the casualty fraction; units destroyed are in it)
        for u in e["units"]:
            uid, side, kind, state, _before, taken, total = u[:7]
            d = self.unit_division(uid)
            if d is None:
                continue
            self.hits[side] += taken
            if state == "destroyed" or total >= 10:
                d.units.pop(uid, None)
                if kind == "artillery":
                    self.batteries[side] += 1
            elif uid in d.units:  # (a late arrival's battle is read at its start: one
                d.units[uid] = total  # destroyed in it is not brought back by a later one)
        for s in SIDES:
            for div_id in fought[s]:
                d = self.divs[div_id]
                if not d.units and not d.gone:
                    self.truth_destroyed(e, div_id, fought)
                    d.gone = f"destroyed at {place}"
                    d.gone_t = b["end"]  # (the event comes at the start; the end is later)
                    self.lost_divisions[s] += 1
                    where = d.place
                    d.place = None
                    if isinstance(where, str):
                        self.control(where)
        if e["winner"] is not None:
            self.beaten[self.enemy(e["winner"])] += len(fought[self.enemy(e["winner"])])
        elif b["place"] is not None:
            for div_id in fought[e["attacker"]]:  # (late arrivals: log_truths.py)
                d = self.divs[div_id]
                if not d.gone and b["came"][div_id] and div_id not in joined:
                    d.returning = b["came"][div_id]

    def unit_division(self, uid: str) -> Div | None:
        for d in self.divs.values():
            if uid in d.kinds:
                return d
        return None

    def on_FellBack(self, e: dict) -> None:
        d = self.divs[e["division"]]
        path = list(e["path"])
        self.r.glitches["fall_backs"].append(f"{self.when(e['t'])}: {d.id}")
        battle = next((b for b in reversed(self.battles) if d.id in b["fought"][d.side]), None)
        if len(path) > 3:
            self.bad(e, "§8.5", f"{d.id} falls back {len(path) - 1} junctions, not 2")
        for a, b in itertools.pairwise(path):
            if a == b:
                self.bad(e, "§8.5", f"{d.id} falls back from {a} onto itself")
            elif (a, b) not in self.m.roads:
                self.bad(e, "§8.5", f"{d.id} falls back {a}-{b}, which is no road")
        # the enemy "came by" a road when it moved in: it was the attacker (§6.9)
        came_in = battle is not None and battle["attacker"] == self.enemy(d.side)
        if battle is not None and battle["place"] is not None and len(path) > 1 and came_in:
            steps = set(itertools.pairwise(path))
            for w in battle["fought"][self.enemy(d.side)]:
                came = battle["came"].get(w)
                if (
                    came
                    and came != battle["place"]
                    and ((battle["place"], came) in steps or (came, battle["place"]) in steps)
                ):
                    self.bad(e, "§8.5", f"{d.id} falls back by the road {w} came by "
                             f"({battle['place']}-{came})")  # fmt: skip
        if e["onto_base"] != (path[-1] == self.m.bases[d.side]):
            self.bad(e, "§7.6", f"{d.id}'s fall back onto its base is told {e['onto_base']}")
        if e["onto_base"]:
            self.onto_base[d.side] += 1
        self.truth_fell_back(d, e)
        d.falling_back = path[1:]
        d.retreating = len(path) > 1 or d.place != path[0]
        d.returning = None

    def on_Surrendered(self, e: dict) -> None:
        d = self.divs[e["division"]]
        self.truth_surrendered(d, e)
        boxes = sum(10 - h for h in d.units.values())
        self.surrendered_boxes[d.side] += 0.25 * boxes
        self.lost_divisions[d.side] += 1
        self.onto_base[d.side] += 1  # cut off: "retreating off the table" (§7.6)
        d.gone = f"surrendered at {e['junction']}"
        where = d.place
        d.place = None
        if isinstance(where, str):
            self.control(where)

    def on_Reinforced(self, e: dict) -> None:
        pass

    # ------------------------------------------------------------------ evening
    def objective_values(self, side: str) -> int:
        return sum(v for j, v in self.m.objectives.items() if self.owner.get(j) == side)

    def lost(self, side: str) -> set[str]:
        enemy = self.enemy(side)
        return {
            j
            for j in self.m.objectives
            if (self.owner.get(j) == enemy and j in self.ever_held[side])
            or (self.owner.get(j) is None and self.last_holder.get(j) == side)
        }

    def gained(self, side: str) -> set[str]:
        start = self.start_owner or {}
        return {
            j
            for j in self.m.objectives
            if self.owner.get(j) == side and (start.get(j) != side or j in self.ever_lost[side])
        }

    def weight(self, junctions: set[str], side: str) -> int:
        """§7.2/§7.6: each objective counts 1, the junction of ``side``'s primary road 4,
        once."""
        road = set(self.m.primary[side] or ())
        primary = junctions & road
        return len(junctions - road) + (4 if primary else 0)

    def on_DayEnded(self, e: dict) -> None:
        for s in SIDES:
            want = self.objective_values(s)
            if e["objectives"][s] != want:
                self.bad(e, "§7.2", f"{s} holds objectives worth {e['objectives'][s]}, the "
                         f"referee counts {want}")  # fmt: skip
        self.day_end = e["t"]
        for d in self.divs.values():
            d.day_path = [d.place] if isinstance(d.place, str) else []
            d.day_legs = []
        self.nightfall_bases(e)

    def nightfall_bases(self, e: dict) -> None:
        """§8.7: a side alone on the enemy base at nightfall wins."""
        self.base_held = None
        holders = []
        for s in SIDES:
            here = self.at(self.m.bases[self.enemy(s)])
            if here[s] and not here[self.enemy(s)]:
                holders.append(s)
        if holders:  # both: each holds the other's base, a draw
            self.base_held = (holders[0] if len(holders) == 1 else None, e["t"])

    def casualty_percent(self, side: str) -> float:
        base = self.boxes[side]
        return 100.0 * (self.hits[side] + self.surrendered_boxes[side]) / base if base else 0.0

    def on_WithdrawalCheck(self, e: dict) -> None:
        s = e["side"]
        pct = self.casualty_percent(s)
        if e["casualty_percent"] is not None and abs(pct - e["casualty_percent"]) > 0.01:
            self.bad(e, "§7.6", f"{s}'s casualties {e['casualty_percent']}%, the referee "
                     f"counts {pct:.3f}%")  # fmt: skip
        if pct < 25.0:
            self.bad(e, "§7.6", f"{s} checks at {pct:.1f}% casualties, under 25%")
        rows = {f[0] if isinstance(f, list) else f["row"]: f[1] if isinstance(f, list)
                else f["factors"] for f in e["factors"]}  # fmt: skip
        own = rows.get("objectives lost", 0) + rows.get("primary road lost", 0)
        captured = rows.get("objectives captured", 0) + rows.get("primary road captured", 0)
        want_own = self.weight(self.lost(s), s)
        want_captured = -self.weight(self.gained(s), self.enemy(s))
        if (own, captured) != (want_own, want_captured):
            self.bad(e, "§7.6", f"{s}'s objective factors {own:+d}/{captured:+d}, the referee "
                     f"counts {want_own:+d}/{want_captured:+d} (lost {sorted(self.lost(s))}, "
                     f"gained {sorted(self.gained(s))})")  # fmt: skip
        flags = rows.get("divisions lost", 0), rows.get("enemy divisions lost", 0)
        want_flags = self.lost_divisions[s], -self.lost_divisions[self.enemy(s)]
        if flags != want_flags:
            self.bad(e, "§7.6", f"{s}'s division factors {flags}, the referee counts "
                     f"{want_flags}")  # fmt: skip
        if (sum(e["rolls"]) >= e["success_total"]) != e["withdraws"]:
            self.bad(e, "§7.3", f"{s} rolled {e['rolls']}: misjudged")

    def on_CampaignEnded(self, e: dict) -> None:
        held = self.base_held
        if held is not None and held[1] == e["t"] and e["winner"] != held[0]:
            self.bad(e, "§8.7", f"{held[0]} holds the enemy base alone at nightfall, yet the "
                     f"winner is {e['winner']}")  # fmt: skip
        self.ended = True


def merge(reports: list[Report]) -> dict[str, int]:
    """Glitch counts summed over campaigns."""
    out: dict[str, int] = dict.fromkeys(GLITCHES, 0)
    for r in reports:
        for k, v in r.glitches.items():
            out[k] = out.get(k, 0) + len(v)
    return out
