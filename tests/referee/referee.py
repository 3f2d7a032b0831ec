"""An independent referee: audits a battle from its event stream and the rules config alone.

It reads JSON-ready event dicts (``campaign battle --events FILE`` writes them, one per line)
and the ``battle:`` section of ``config/rules.yaml`` with any variants applied, and re-derives
every die's verdict and target, every hit-filter total, every card lost, the phase order and
the end (RULES.md §0, §3, §4, §5, §6.3, §6.8, §7). It imports nothing from ``battle`` or
``campaign``: it is written from RULES.md, so that a mistake in the engine is not copied here.

Use::

    rules = load_battle_rules(["pursuit"])
    problems = Referee(rules).audit(events)   # [] when the battle was fought by the rules
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ending import Ending
from rulebook import FIRE_WAYS, MORALE_KINDS, PHASES, U, deck, dice_range, load_battle_rules

__all__ = ["Referee", "load_battle_rules"]


@dataclass
class Referee(Ending):
    """Audits one battle at a time (see the module docstring)."""

    rules: dict
    problems: list[str] = field(default_factory=list)

    # ------------------------------------------------------------------ helpers
    def bad(self, e: dict, what: str) -> None:
        self.problems.append(f"bound {e.get('bound')}, {e.get('type')}: {what}")

    def ftable(self, u: U) -> dict:
        return self.rules["units"][u.kind]["formations"][u.formation]

    def cd(self, a: U, b: U, how: str) -> int:
        """The combat divisor of ``a`` hitting ``b`` (RULES.md §1.1, §1.6, §1.7, §6.10)."""
        t, f = self.rules["units"][a.kind], self.ftable(a)
        base = f.get("combat_divisor") or t["combat_divisor"]
        opts = self.rules["options"]
        if how in FIRE_WAYS:
            cd = (
                base
                * f.get("fire_cd_multiplier", 1)
                * self.ftable(b).get("fired_at_cd_multiplier", 1)
            )
            if how == "move-and-fire":
                cd *= opts["move_and_fire_cd_multiplier"]
            return cd
        cd = base * f.get("melee_cd_multiplier", 1)
        if self.ftable(b).get("square", False):
            cd *= t.get("vs_square_melee_cd_multiplier", 1)
        if how == "free-attack":
            cd *= opts["free_attack_cd_multiplier"]
        if how == "pursuit" and self.pursued == a.id:
            cd *= opts["pursuit_target_cd_multiplier"]
        return cd

    def morale_of(self, u: U) -> int:
        return u.morale

    def ended_now(self) -> str | None:
        """The end RULES.md §6.8 (a, c) calls for now, or None."""
        lose = self.rules["deck"]["lose_at_cards"]
        out = [len(self.decks[s]) <= lose for s in (0, 1)]
        if all(out):
            return "both-cards"
        if any(out):
            return "cards"
        gone = [not any(u.side == s and not u.out for u in self.units.values()) for s in (0, 1)]
        if any(gone):
            return "no-units"
        return None

    def boundary(self, e: dict) -> None:
        """A phase boundary: every bad thing has lost its card, and the battle goes on only
        if no end condition holds (RULES.md §3.3, §6.8)."""
        for s in (0, 1):
            if self.owed[s] and self.decks[s]:
                self.bad(e, f"side {s} suffered {self.owed[s]} bad thing(s) without losing a card")
            self.owed[s] = 0
        why = self.ended_now()
        if why and e["type"] != "BattleEnded":
            self.bad(e, f"the battle should have ended ({why}) before this")

    # ------------------------------------------------------------------ the audit
    def audit(self, events: list[dict], arrivals: list[dict] | None = None) -> list[str]:
        """Every departure from the rules found in one battle's events, as sentences.

        ``arrivals``: the battle's late arrivals (RULES.md §8.4) as given to it, each
        ``{"bound", "side", "units": [{"id", "kind", "grade", "irregular", "formation",
        "hits"}]}`` (an event names an arriving unit only by its id).
        """
        self.problems = []
        self.arrivals = arrivals if arrivals is not None else _told_arrivals(events)
        #: arrivals read from the events group a side's arrivals of one bound together, so
        #: only the deck told last in that bound can be checked; given ones, every unit's
        self.derived = arrivals is None
        self.expected: dict[str, int] = {}  # unit -> deck size its arrival rebuilt (given)
        self.told: list[tuple[int, dict]] = []  # (side, event) of this bound's joining units
        self.cards_lost = [0, 0]
        self.units: dict[str, U] = {}
        self.decks: list[list[int]] = [[], []]
        self.owed = [0, 0]  # bad things not yet paid for with a card
        self.tally = [dict(flags=0, batteries=0, retiring_shaken=0, off_table=0) for _ in (0, 1)]
        self.lost = [0, 0]
        self.boxes = [0, 0]
        self.hit: dict | None = None  # the hit whose tests come next
        self.melee_hits: list[dict] = []
        self.phase = ""
        self.bound = 0
        self.turn = 0
        self.turn_sides: list[int] = []
        self.pursued = ""
        self.first_check: int | None = None
        self.checks: list[dict] = []
        self.charges: dict[str, str] = {}  # charged unit -> its charger, until it tests
        self.ended = False
        self.last_withdrew = -1
        self.off_due = ""
        self.stood: set[str] = set()  # units that stood against a charge this bound
        self.activated: set[str] = set()
        self.declared: set[str] = set()
        self.targets: set[str] = set()
        for e in events:
            if self.ended:
                self.bad(e, "an event after the battle ended")
                continue
            if self.off_due and not (e["type"] == "StateChanged" and e["state"] == "off-table"):
                self.bad(e, f"{self.off_due} fell back past its baseline but stayed (§6.5)")
            self.off_due = ""
            handler = getattr(self, "on_" + e["type"], None)
            if handler is None:
                self.bad(e, "unknown event type")
                continue
            try:
                handler(e)
            except KeyError as missing:  # a unit the battle never brought (or lost track of)
                self.bad(e, f"{missing.args[0]} is not in the battle")
        if not self.ended:
            self.problems.append("the battle never ended")
        return self.problems

    def on_BattleStarted(self, e: dict) -> None:
        r = self.rules
        grades = r["morale"]["by_grade"]
        for u in e["units"]:
            unit = U(
                u["id"],
                u["side"],
                u["kind"],
                u["grade"],
                u["irregular"],
                u["formation"],
                u["hits_before"],
                u["morale"],
                total=u["hits_before"],
            )
            unit.half_tested = unit.total >= r["half_strength_hits"]
            unit.pos = u["pos"]
            expected = r["morale"]["base"] if r["morale"]["uniform"] else grades[unit.grade]
            if unit.morale != expected:
                self.bad(e, f"{unit.id} starts at morale {unit.morale}, not {expected}")
            self.units[unit.id] = unit
            self.boxes[unit.side] += r["destroyed_at_hits"] - unit.hits_before
        for s in (0, 1):
            n = sum(1 for u in self.units.values() if u.side == s)
            self.decks[s] = deck(n, r["deck"]["explicit"])
            if list(e["decks"][s]) != self.decks[s]:
                self.bad(e, f"side {s} deck {e['decks'][s]}, §3.1 gives {self.decks[s]}")

    def on_BoundStarted(self, e: dict) -> None:
        self.check_decks_told()
        self.boundary(e)
        if self.phase == "withdrawal":
            why = self.close_withdrawal_phase(e)
            if why:
                self.bad(e, f"the battle should have ended ({why}) after the withdrawal phase")
        if self.phase not in ("", "checks", "withdrawal"):
            self.bad(e, f"a bound began after the {self.phase} phase")
        if e["bound"] != self.bound + 1:
            self.bad(e, f"bound {e['bound']} follows bound {self.bound}")
        self.bound = e["bound"]
        if e["turn"] != self.turn:
            if self.turn and len(self.turn_sides) != 2:
                self.bad(e, "a turn ended without two bounds")
            self.turn, self.turn_sides = e["turn"], []
            self.turn_limit(e)
        if e["side"] in self.turn_sides:
            self.bad(e, f"side {e['side']} has two bounds in turn {self.turn}")
        self.turn_sides.append(e["side"])
        d = self.decks[e["side"]]
        if e["card"] not in d or e["deck_size"] != len(d):
            self.bad(e, f"drew {e['card']} from a deck of {len(d)}: {d}")
        if len(e["activated"]) > e["card"]:
            self.bad(e, f"activated {len(e['activated'])} units on a {e['card']}")
        self.side = e["side"]
        self.activated = set(e["activated"])
        self.declared: set[str] = set()  # units that passed a charge test this bound
        self.targets: set[str] = set()  # ... and the units they declared on
        self.phase = "start"
        self.stood = set()

    def turn_limit(self, e: dict) -> None:
        r = self.rules
        limit = r["max_turns"]
        if r.get("turn_limit_from") == "first-check":
            over = self.first_check is not None and self.turn > self.first_check + limit
            over = over or self.turn > r["max_turns_cap"]
        else:
            over = self.turn > min(limit, r["max_turns_cap"])
        if over:
            self.bad(e, f"turn {self.turn} is past the turn limit")

    def on_PhaseStarted(self, e: dict) -> None:
        self.boundary(e)
        name = e["phase"]
        if name == "withdrawal":
            if self.phase != "checks" or len(self.turn_sides) != 2:
                self.bad(e, f"withdrawal phase after {self.phase}, bounds {self.turn_sides}")
            self.phase = name
            self.checks = []
            return
        if self.phase == "start":
            want = "response"
        elif self.phase in PHASES[:-1]:
            want = PHASES[PHASES.index(self.phase) + 1]
        else:
            want = "(none: a bound must begin first)"
        if name != want:
            self.bad(e, f"phase {name} after {self.phase}")
        if name == "checks":  # the side's bound is over: its §5.2 flags clear
            for u in self.units.values():
                if u.side == self.side:
                    u.hit_by_fire = u.charge_target = False
        self.phase = name

    # ------------------------------------------------------------------ tests and hits
    def on_TestRolled(self, e: dict) -> None:
        kind, r = e["kind"], self.rules
        if kind == "initiative":
            return
        u = self.units[e["unit"]]
        if kind == "completion":
            self.completion(e, u)
            return
        if kind == "casualty":
            self.casualty(e, u)
            return
        if kind not in MORALE_KINDS:
            self.bad(e, f"unknown test {kind}")
            return
        if e["roll"] < 1 or e["roll"] > r["percentage_dice"]:
            self.bad(e, f"d100 roll {e['roll']}")
        melee = False
        if kind == "morale":
            if self.hit is None or self.hit["target"] != u.id:
                self.bad(e, "a morale test with no hit before it")
                return
            h, melee = self.hit["morale_hits"], self.hit["how"] not in FIRE_WAYS
            if r["morale"]["model"] == "cumulative":
                u.morale -= h
                target = u.morale
            else:
                target = u.morale - h
        else:
            target = u.morale
        if kind == "charge":
            victim = self.units.get(e["reason"])
            if victim is None:
                self.bad(e, "a charge test that names no target")
            elif victim.id in self.charges or victim.id in self.targets or victim.melee:
                self.bad(e, f"{victim.id} is charged or in melee already (§6.4)")
            elif victim.disordered or victim.shaken:
                target += r["charge"]["target_disordered_morale_bonus"]
            if u.shaken or u.disordered:
                self.bad(e, f"{u.id} may not charge (shaken or disordered)")
        if kind == "half-strength":
            if u.half_tested or u.total < r["half_strength_hits"] or self.phase != "checks":
                self.bad(e, f"{u.id} half-strength test out of turn ({u.total} hits)")
            u.half_tested = True
        if kind == "rally" and not u.shaken:
            self.bad(e, f"{u.id} rallies but is not shaken")
        if u.shaken or (melee and u.failed_change):
            target -= r["morale"]["shaken_penalty"]
        if e["target"] != target:
            self.bad(e, f"{u.id} {kind} test at {e['target']}, the rules give {target}")
        if e["passed"] != (e["roll"] <= e["target"]):
            self.bad(e, f"{u.id} {kind} test: d100={e['roll']} vs {e['target']} misjudged")
        if kind == "stand" and e["passed"]:
            self.stood.add(u.id)
        if kind == "charge" and e["passed"]:
            self.declared.add(u.id)
            self.targets.add(e["reason"])
        if kind == "stand":  # the charge is met: stood, or its charger's bonus is kept only
            charger = self.units.get(self.charges.pop(u.id, ""))  # for a pursuit
            if charger is not None and not e["passed"]:
                charger.saved_bonus, charger.bonus = charger.bonus, 0
            elif charger is not None and not u.out:
                self.engage(u, charger)
        if not e["passed"]:
            self.owed[u.side] += 1
            u.failed_test = True

    def completion(self, e: dict, u: U) -> None:
        fc = self.rules["formation_change"]
        total = u.change_cost
        if u.hit_by_fire:
            total += fc["hit_by_fire"]
        if u.grade == "raw" or u.irregular or u.shaken:
            total += fc["raw_irregular_or_shaken"]
        if u.charge_target:
            total += fc["charge_target"]
        if u.grade in ("veteran", "elite"):
            total += fc["veteran_or_elite"]
        if not u.disordered or self.phase != "response":
            self.bad(e, f"{u.id} tests to complete a change it is not making")
        if e["target"] != total:
            self.bad(e, f"{u.id} completion total {e['target']}, the rules give {total}")
        if not 1 <= e["roll"] <= self.rules["reaction_die"]:
            self.bad(e, f"reaction die {e['roll']}")
        if e["passed"] != (e["roll"] > total):
            self.bad(e, f"{u.id} completion d6={e['roll']} vs >{total} misjudged")
        u.failed_change = not e["passed"]

    def casualty(self, e: dict, u: U) -> None:
        r, hit = self.rules, self.hit
        if hit is None or hit["target"] != u.id:
            self.bad(e, "a casualty test with no hit before it")
            return
        target = r["casualty_test_per_morale_hit"] * hit["morale_hits"]
        if e["target"] != target or e["passed"] != (e["roll"] <= target):
            self.bad(e, f"casualty test {e['roll']} vs {e['target']} (rules: {target})")
        hits = r["hits_on_casualty_pass"] if e["passed"] else r["hits_on_casualty_fail"]
        hits = max(0, min(hits, r["destroyed_at_hits"] - u.total))
        if hit["actual_hits"] != hits:
            self.bad(e, f"{u.id} took {hit['actual_hits']} actual hits, the filter gives {hits}")
        u.total += hits
        if not u.out:
            self.lost[u.side] += hits
        if hit["target_total_hits"] != u.total:
            self.bad(e, f"{u.id} now {hit['target_total_hits']} hits, not {u.total}")
        if hit["how"] in FIRE_WAYS:
            u.hit_by_fire = True
        self.hit = None

    def on_HitResolved(self, e: dict) -> None:
        r = self.rules
        a, b = self.units[e["attacker"]], self.units[e["target"]]
        last = self.melee_hits[-1] if self.melee_hits else None
        answer = (  # both hit each other at once in a melee (§4.5): the second may be gone
            e["how"] in ("melee", "pursuit")
            and last is not None
            and (last["attacker"], last["target"]) == (b.id, a.id)
        )
        if (a.out and not answer) or b.out:
            self.bad(e, "a unit off the field hits or is hit")
        low, high, const, step = dice_range(r["hit_dice"])
        d = e["d_roll"]
        if not (low <= d <= high and (d - const) % step == 0):
            self.bad(e, f"D={d} is not a roll of {r['hit_dice']}")
        cd = self.cd(a, b, e["how"])
        if e["divisor"] != cd:
            self.bad(e, f"{a.id} on {b.id} ({e['how']}) used CD {e['divisor']}, rules give {cd}")
        bonus = 0
        if e["how"] in ("melee", "pursuit") and a.bonus:
            bonus = a.bonus
            mult = r["units"][a.kind].get("charge_bonus_vs_foot_multiplier", 1)
            if r["units"][b.kind].get("foot") and not self.ftable(b).get("square"):
                bonus *= mult
            a.bonus = 0
        if e["bonus"] != bonus:
            self.bad(e, f"{a.id} charge bonus {e['bonus']}, the rules give {bonus}")
        h = -(-(d + e["bonus"]) // e["divisor"])
        if e["morale_hits"] != h:
            self.bad(e, f"{e['morale_hits']} morale hits, ceil(D / CD) gives {h}")
        if e["how"] in ("fire", "move-and-fire"):
            self.check_fire(e, a, b)
        if e["how"] == "defensive-fire":
            if a.id not in self.stood or self.phase != "fire":
                self.bad(e, f"{a.id} gives defensive fire outside the bound it stood (§6.9)")
            self.stood.discard(a.id)
        if e["how"] in ("melee", "pursuit"):
            self.melee_hits.append(e)
        self.hit = e

    def engage(self, a: U, b: U) -> None:
        """``a`` and ``b`` are in melee (a stand, a countercharge or a pursuit)."""
        a.melee, b.melee = b.id, a.id

    def disengage(self, u: U) -> None:
        """Contact ends for ``u`` (it fell back or left the field)."""
        if u.melee:
            other = self.units[u.melee]
            if other.melee == u.id:
                other.melee = ""
        u.melee = ""

    def check_fire(self, e: dict, a: U, b: U) -> None:
        """RULES.md §4.6, §6.3 step 3, §6.9: who may fire, and at whom.

        Not an activated unit (unless it moves and fires, §6.10, or charges under
        ``fire-and-charge``, §4.6), not a disordered one, not one in melee; the target is in
        range, not in melee, and the nearest enemy: furthest forward, then most actual hits,
        then lowest id.
        """
        r = self.rules
        moving = e["how"] == "move-and-fire"
        if self.phase != "fire" or a.side != self.side:
            self.bad(e, f"{a.id} fires outside its side's fire phase")
        if moving != (a.id in self.activated) and not (
            r["charge"].get("fire_and_charge") and a.id in self.declared
        ):
            self.bad(e, f"{a.id} fires though {'not ' if moving else ''}activated (§6.3)")
        if a.disordered or a.melee or b.melee:
            self.bad(e, f"{a.id} fires though it or {b.id} is disordered or in melee (§6.9)")
        t, f = r["units"][a.kind], self.ftable(a)
        reach = f["range_inches"] if f.get("range_inches") is not None else t["range_inches"]
        if r["ground_depth_inches"] - a.pos - b.pos > reach + 1e-9:
            self.bad(e, f'{a.id} fires at {b.id} out of its {reach}" range')
        enemies = [u for u in self.units.values() if u.side == b.side and not u.out]
        best = min((u for u in enemies if not u.melee), key=lambda u: (-u.pos, -u.total, u.id))
        if best.id != b.id:
            self.bad(e, f"{a.id} fires at {b.id}, the nearest enemy is {best.id} (§6.9)")

    def on_MeleeResolved(self, e: dict) -> None:
        hits = self.melee_hits[-2:]
        self.melee_hits = []
        if len(hits) != 2 or {hits[0]["attacker"], hits[1]["attacker"]} != {
            e["unit_a"],
            e["unit_b"],
        }:
            self.bad(e, "a melee without both hit filters")
            return
        by = {h["attacker"]: h["actual_hits"] for h in hits}
        if (by[e["unit_a"]], by[e["unit_b"]]) != (e["hits_by_a"], e["hits_by_b"]):
            self.bad(e, "melee hits do not match the hit filters")
        a, b = self.units[e["unit_a"]], self.units[e["unit_b"]]
        if a.out and b.out:
            want = ("ended", "")
        elif a.out or b.out:
            want = ("broken", a.id if a.out else b.id)
        elif e["hits_by_a"] == e["hits_by_b"]:
            want = ("tie", "")
        else:
            want = ("decided", a.id if e["hits_by_a"] < e["hits_by_b"] else b.id)
        if (e["outcome"], e["loser"]) != want:
            self.bad(e, f"melee {e['outcome']} {e['loser']!r}; §4.5 gives {want}")
        if want[1]:
            self.owed[self.units[want[1]].side] += 1
        if want[0] != "tie":
            self.disengage(a)
            self.disengage(b)

    # ------------------------------------------------------------------ cards and states
    def on_CardLost(self, e: dict) -> None:
        s, d = e["side"], self.decks[e["side"]]
        if self.owed[s] <= 0:
            self.bad(e, f"side {s} lost a card without a bad thing")
        self.owed[s] -= 1
        if not d:
            return
        if self.rules["deck"]["removal"] == "highest" and e["card"] != d[0]:
            self.bad(e, f"lost a {e['card']}, the highest card is {d[0]}")
        if e["card"] in d:
            d.remove(e["card"])
            self.cards_lost[s] += 1
        else:
            self.bad(e, f"lost a {e['card']} it does not have")
        if e["cards_left"] != len(d):
            self.bad(e, f"{e['cards_left']} cards left, not {len(d)}")

    def join(self, e: dict) -> None:
        """Late arrivals join at the start of their bound (RULES.md §8.4): deployed at their
        baseline, and "the side's deck is rebuilt for the number of units it has brought to
        the battle, the arrivals and its destroyed or departed units included (§3.1) ... less
        one highest card for each bad thing it has already suffered (§3.3)"."""
        if e["bound"] != self.bound + 1:
            self.bad(e, f"{e['unit']} joins other than at the start of a bound (§8.4)")
        if e["unit"] in self.units:  # joined with the first unit of its arrival
            self.tell(self.units[e["unit"]].side, e)
            return
        if self.phase == "withdrawal":  # the last turn's checks, on the boxes before they came
            self.boundary(e)
            why = self.close_withdrawal_phase(e)
            if why:
                self.bad(e, f"the battle should have ended ({why}) after the withdrawal phase")
            self.phase = "checks"  # closed: the next bound may begin
        r = self.rules
        arrival = next(
            (a for a in self.arrivals if e["unit"] in [u["id"] for u in a["units"]]), None
        )
        if arrival is None or arrival["bound"] > e["bound"]:
            self.bad(
                e,
                f"{e['unit']} joins the battle but no late arrival due by bound "
                f"{e['bound']} brings it",
            )
            return
        s = arrival["side"]
        grades = r["morale"]["by_grade"]
        for spec in arrival["units"]:
            if spec["hits"] >= r["destroyed_at_hits"]:
                continue  # a destroyed unit does not come (§1.2)
            formation = spec["formation"] or r["units"][spec["kind"]]["default_formation"]
            morale = r["morale"]["base"] if r["morale"]["uniform"] else grades[spec["grade"]]
            unit = U(spec["id"], s, spec["kind"], spec["grade"], spec["irregular"], formation,
                     spec["hits"], morale, total=spec["hits"])  # fmt: skip
            unit.half_tested = unit.total >= r["half_strength_hits"]
            unit.pos = r["deploy_inches"]
            self.units[unit.id] = unit
            self.boxes[s] += r["destroyed_at_hits"] - unit.hits_before
        brought = sum(1 for u in self.units.values() if u.side == s)
        self.decks[s] = deck(brought, r["deck"]["explicit"])[self.cards_lost[s] :]
        for spec in arrival["units"]:
            self.expected[spec["id"]] = len(self.decks[s])
        self.tell(s, e)

    def tell(self, s: int, e: dict) -> None:
        """A joining unit's event tells its side's rebuilt deck: checked at once against its
        own arrival's deck when the arrivals were given, else at the next bound's start."""
        if self.derived:
            self.told.append((s, e))
            return
        said = re.search(r"deck rebuilt to (\d+) cards", e.get("reason", ""))
        want = self.expected.get(e["unit"], len(self.decks[s]))
        if said is None or int(said.group(1)) != want:
            self.bad(e, f"side {s}'s deck rebuilt to {said and said.group(1)} cards, §8.4 "
                        f"gives {want} ({self.cards_lost[s]} cards lost)")  # fmt: skip

    def check_decks_told(self) -> None:
        """Once this bound's arrivals have joined, each side's deck is the one its last
        joining unit said it was rebuilt to (RULES.md §8.4; two arrivals of a side in one bound
        rebuild it twice)."""
        last = {s: e for s, e in self.told}
        for s, e in last.items():
            said = re.search(r"deck rebuilt to (\d+) cards", e.get("reason", ""))
            if said is None or int(said.group(1)) != len(self.decks[s]):
                brought = sum(1 for u in self.units.values() if u.side == s)
                self.bad(e, f"side {s}'s deck rebuilt to {said and said.group(1)} cards, §8.4 "
                            f"gives {len(self.decks[s])} ({brought} units brought, "
                            f"{self.cards_lost[s]} cards lost)")  # fmt: skip
        self.told = []

    def on_StateChanged(self, e: dict) -> None:
        if e["state"] == "in the battle":
            self.join(e)
            return
        u, state = self.units[e["unit"]], e["state"]
        r = self.rules
        if state in ("routed", "destroyed", "off-table"):
            self.disengage(u)
        if state in ("routed", "destroyed", "off-table"):  # a charge on it has nothing to hit
            charger = self.units.get(self.charges.pop(u.id, ""))
            if charger is not None:
                charger.bonus = 0
        if state == "shaken":
            if u.shaken or not u.failed_test:
                self.bad(e, f"{u.id} shaken without failing a test (or shaken already)")
            u.shaken, u.failed_test = True, False
        elif state == "routed":
            if not (u.shaken and u.failed_test):
                self.bad(e, f"{u.id} routs but was not shaken when it failed")
            u.failed_test = False
            self.lost[u.side] += r["destroyed_at_hits"] - u.total
            u.out = "routed"
        elif state == "destroyed":
            if u.total < r["destroyed_at_hits"]:
                self.bad(e, f"{u.id} destroyed at {u.total} hits")
            key = "batteries" if r["units"][u.kind]["lost_as"] == "battery" else "flags"
            self.tally[u.side][key] += 1
            u.out = "destroyed"
        elif state == "off-table":
            self.tally[u.side]["off_table"] += 1
            u.out = "off-table"
        elif state == "rallied":
            u.shaken = False
        elif state == "refused":
            self.refused(e, u)
        elif state == "steady":
            u.disordered = False

    def refused(self, e: dict, u: U) -> None:
        """A formation change refused (RULES.md §1.7): an activated unit, in the manoeuvre
        phase, ordered into a formation its own formation may not form directly."""
        if u.id not in self.activated or self.phase != "manoeuvre":
            self.bad(e, f"{u.id} refused a formation change though not activated (§5.1)")
        wanted = re.fullmatch(r"may not form (\S+) directly", e.get("reason", ""))
        if wanted is None or wanted.group(1) not in self.ftable(u).get("may_not_form", []):
            self.bad(e, f"{u.id} in {u.formation} refused {e.get('reason')!r}: §1.7 allows it")

    def on_FormationChanged(self, e: dict) -> None:
        u = self.units[e["unit"]]
        if u.id not in self.activated or self.phase != "manoeuvre":
            self.bad(e, f"{u.id} changes formation though not activated (§5.1)")
        fc = self.rules["formation_change"]
        pair = fc["costs"].get(f"{e['from_formation']}-{e['to_formation']}")
        if pair is None:
            pair = fc["costs"].get(f"{e['to_formation']}-{e['from_formation']}")
        if pair is None or e["to_formation"] in self.ftable(u).get("may_not_form", []):
            self.bad(e, f"{u.id} may not change {e['from_formation']} -> {e['to_formation']}")
            pair = 0
        if self.ftable(u).get("skirmish"):
            light = self.rules["units"][u.kind].get("light", False)
            pair += fc["light_from_skirmish"] if light else fc["other_from_skirmish"]
        u.formation, u.change_cost, u.disordered = e["to_formation"], pair, True

    def on_Moved(self, e: dict) -> None:
        u, r = self.units[e["unit"]], self.rules
        action, moved = e["action"], e["from_inches"] - e["to_inches"]
        if abs(e["from_inches"] - u.pos) > 1e-9:
            self.bad(e, f'{u.id} moves from {e["from_inches"]}", but it stood at {u.pos}"')
        u.pos = e["to_inches"]
        if action in ("advance", "charge") and (
            u.id not in self.activated or self.phase != "manoeuvre"
        ):
            self.bad(e, f"{u.id} {action}s though not activated (§6.3 step 5)")
        if action == "advance":
            front = max(
                (v.pos for v in self.units.values() if v.side != u.side and not v.out),
                default=None,
            )
            short = r["advance_stop_short_inches"]
            if front is not None and r["ground_depth_inches"] - u.pos - front < short - 1e-9:
                self.bad(e, f'{u.id} advances to closer than {short}" of the enemy (§6.4)')
        if action == "fall-back":
            self.disengage(u)
        if action in ("fall-back", "drop-back") and e["from_inches"] < (
            r["fall_back_inches"]
            if action == "fall-back"
            else r["charge"]["failed_drop_back_inches"]
        ):
            self.off_due = u.id  # past its baseline: it must leave the table next (§6.5)
        if action in ("fall-back", "drop-back"):
            inches = (
                r["fall_back_inches"]
                if action == "fall-back"
                else r["charge"]["failed_drop_back_inches"]
            )
            if abs(moved - min(inches, e["from_inches"])) > 1e-9:
                self.bad(e, f"{u.id} {action} of {moved} inches, not {inches}")
            if action == "fall-back" and u.shaken and not u.retired_shaken:
                u.retired_shaken = True
                self.tally[u.side]["retiring_shaken"] += 1
            u.bonus = 0  # contact ends: no charge bonus is left (RULES.md §6.5)
        elif action == "charge":
            if u.id in self.charges.values():
                self.bad(e, f"{u.id} charges with a charge still pending (§6.4)")
            if e["target"] in self.charges:
                self.bad(e, f"{e['target']} is charged twice (§6.4: one charger per target)")
            u.bonus = r["charge"]["bonus"]
            victim = self.units[e["target"]]
            victim.charge_target = True
            self.charges[victim.id] = u.id
        elif action == "countercharge":  # it meets the charge: no stand test (§6.10)
            u.bonus = r["charge"]["bonus"]
            self.engage(u, self.units[e["target"]])
            u.charge_target = False
            self.charges.pop(u.id, None)
        elif action == "pursue":
            self.pursued = e["target"]
            self.engage(u, self.units[e["target"]])
            u.bonus, u.saved_bonus = u.saved_bonus, 0


def _told_arrivals(events: list[dict]) -> list[dict]:
    """The late arrivals as the battle's events tell them, when the caller did not give them:
    ``BattleStarted.arrivals`` lists every arriving unit; the units of one side that join in
    the same bound (their "in the battle" events) came as one arrival (RULES.md §8.4)."""
    listed = next((e.get("arrivals", []) for e in events if e["type"] == "BattleStarted"), [])
    joined = {
        e["unit"]: e["bound"]
        for e in events
        if e["type"] == "StateChanged" and e["state"] == "in the battle"
    }
    groups: dict[tuple[int, int], list[dict]] = {}
    for u in listed:
        if u["id"] not in joined:
            continue  # never joined (the battle ended first)
        spec = {k: u[k] for k in ("id", "kind", "grade", "irregular", "formation")}
        spec["hits"] = u["hits_before"]
        groups.setdefault((joined[u["id"]], u["side"]), []).append(spec)
    return [
        {"bound": bound, "side": side, "units": units}
        for (bound, side), units in sorted(groups.items())
    ]
