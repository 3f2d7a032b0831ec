"""The campaign referee's checks that the log tells the truth (issue 31, item 3), read from the
event stream alone as the rest of the referee is (campaign_referee.py):

- **every move is logged**: a return after a draw (RULES.md §8.5: the attacker goes back to
  the junction it came from; after a draw on a road both go back, §8.4) is told before the
  division sets off (its rough-road test follows, §8.2); the winner of a road battle is told
  marching on; no division reaches a junction it never set off for;
- **every division's end is logged**: a division whose last unit is destroyed in a battle is
  told destroyed at the battle's end, where it fought and by the enemy divisions of that
  battle; a surrender names the divisions that beat it;
- **a fall back caught is told so**: a division caught in mid fall back (§8.4: every division
  at the junction fights) is told caught there, with the junction it was falling back toward,
  before its battle; the log never leaves it "falling back to X";
- **the pursuer attacks**: a battle whose every division on one side was caught falling back
  names the other side the attacker.

Each finding is a departure whose sentence carries ``§log`` (the section the referee's tests
file it under). :class:`LogTruths` is a part of :class:`campaign_referee.CampaignReferee`,
which calls the ``truth_*`` hooks from its own handlers.
"""

from __future__ import annotations

from typing import Any

__all__ = ["LOG", "LogTruths"]

#: the tag of every finding of this module (as "§8.2" tags the rough-road checks)
LOG = "§log"


def _road(place: Any) -> frozenset[str] | str:
    """A place compared either way round: a junction id, or a road's two junctions."""
    return frozenset(place) if isinstance(place, list | tuple) else place


class LogTruths:
    """The checks; the referee gives ``divs``, ``battles``, ``bad`` and ``enemy``."""

    divs: dict[str, Any]
    battles: list[dict]
    m: Any  # the map (campaign_referee.MapData)

    def bad(self, e: dict, rule: str, what: str) -> None:
        raise NotImplementedError

    def enemy(self, side: str) -> str:
        raise NotImplementedError

    # ------------------------------------------------------------------ state
    def truth_start(self) -> None:
        self.told_caught: set[tuple[str, float]] = set()  # (division, minute)
        self.told_return: set[str] = set()  # divisions told going back, not yet gone
        #: division -> (minute of its end, place, the enemy divisions that fought it)
        self.pending_end: dict[str, tuple[float, Any, set[str]]] = {}
        #: division held on a road by a battle there -> (winner or None, told to go on?)
        self.on_road: dict[str, list[Any]] = {}

    def truth_minute(self, t: float) -> None:
        """The minute ``t`` is over: every division destroyed in a battle that ended by then
        must have been told destroyed."""
        for div, (end, place, _) in list(self.pending_end.items()):
            if end <= t:
                del self.pending_end[div]
                self.bad({"t": end, "type": "BattleFought"}, LOG,
                         f"{div} is destroyed at {place}, and its end is never logged")  # fmt: skip

    # ------------------------------------------------------------------ hooks
    def truth_march(self, d: Any, e: dict, returning: bool) -> None:
        """A march begins: a return after a draw must have been told first."""
        if returning and d.id not in self.told_return:
            self.bad(e, LOG, f"{d.id} goes back to {e['destination']} after a draw at "
                     f"{e['origin']}, never told")  # fmt: skip
        self.told_return.discard(d.id)

    def truth_arrival(self, d: Any, e: dict) -> None:
        """An arrival: from a road it set off on, or walked back or on after a road battle."""
        j, t = e["junction"], e["t"]
        for b in self.battles:  # a late arrival on a drawn battle's attacking side (§8.4)
            late = b["place"] == j and b["t"] < t <= b["end"] and d.id in b["fought"][d.side]
            if late and b["winner"] is None and b["attacker"] == d.side and d.came_from:
                d.returning = d.came_from  # goes back whence it came, as the others (§8.5)
        if isinstance(d.place, str) and d.place != j:
            self.bad(e, LOG, f"{d.id} reaches {j} from {d.place} without a logged march")
        held = self.on_road.pop(d.id, None)
        if held is not None and not held[1]:
            drawn = "drawn " if held[0] is None else ""
            self.bad(e, LOG, f"{d.id} reaches {j} from its {drawn}road battle, never told "
                     "going on or back")  # fmt: skip

    def truth_battle(self, e: dict, fought: dict[str, list[str]], joined: set[str]) -> None:
        """A battle begins: fall backs it catches told so, the pursuer the attacker, and
        on a road every division held there until it is told going on or back."""
        t = e["t"]
        if e.get("road"):
            for ids in fought.values():
                for div in ids:
                    self.on_road[div] = [e["winner"], False]
            return
        caught: dict[str, bool] = {}
        for s, ids in fought.items():
            there = [div for div in ids if div not in joined]
            for div in there:
                d = self.divs[div]
                if d.retreating and (div, t) not in self.told_caught:
                    goal = d.falling_back[-1] if d.falling_back else e["place"]
                    self.bad(e, LOG, f"{div} is caught at {e['place']} on its fall back, yet "
                             f"the log still has it falling back toward {goal}")  # fmt: skip
            caught[s] = bool(there) and all((div, t) in self.told_caught for div in there)
        attacker = e["attacker"]
        if caught.get(attacker) and not caught.get(self.enemy(attacker)):
            self.bad(e, LOG, f"{'+'.join(fought[attacker])}, caught falling back, is named "
                     "the attacker (the pursuer attacks)")  # fmt: skip

    def truth_destroyed(self, e: dict, div: str, fought: dict[str, list[str]]) -> None:
        """``div`` lost its last unit in the battle ``e``: its end is due at the battle's end."""
        side = self.divs[div].side
        place = e.get("road") or e["place"]
        self.pending_end[div] = (e["t"] + e["minutes"], place, set(fought[self.enemy(side)]))

    # ------------------------------------------------------------------ events
    def on_DivisionDestroyed(self, e: dict) -> None:
        div = e["division"]
        due = self.pending_end.pop(div, None)
        if due is None:
            self.bad(e, LOG, f"{div} is told destroyed, but no battle destroyed it")
            return
        end, place, by = due
        if e["t"] != end or _road(e["place"]) != _road(place) or set(e["by"]) != by:
            self.bad(e, LOG, f"{div} is told destroyed at {e['place']} by {e['by']} at "
                     f"{e['t']}: its battle was at {place} against {sorted(by)}, "
                     f"ending {end}")  # fmt: skip

    def on_FallBackCaught(self, e: dict) -> None:
        d = self.divs[e["division"]]
        t, j = e["t"], e["junction"]
        joins = [b for b in self.battles if b["place"] == j and b["t"] < t <= b["end"]]
        if any(d.id in b["fought"][d.side] for b in joins):  # a late arrival caught (§8.4)
            self.told_caught.add((d.id, t))
            d.falling_back, d.retreating = [], False  # its fall back ends in that battle
            return
        goal = d.falling_back[-1] if d.falling_back else None
        if not d.retreating or d.place != e["junction"] or goal != e["toward"]:
            self.bad(e, LOG, f"{d.id} is told caught at {e['junction']} falling back toward "
                     f"{e['toward']}, but it stands at {d.place}, falling back toward "
                     f"{goal}")  # fmt: skip
        self.told_caught.add((d.id, e["t"]))

    def on_ReturnBegun(self, e: dict) -> None:
        d = self.divs[e["division"]]
        if e["t"] % 1440 >= self.m.daylight:  # only fall backs march at night
            self.bad(e, "§8.3", f"{d.id} goes back to {e['destination']} at night")
        if isinstance(e["origin"], str):
            if d.returning != e["destination"] or d.place != e["origin"]:
                self.bad(e, LOG, f"{d.id} is told going back to {e['destination']} from "
                         f"{e['origin']}, which no draw sends it to")  # fmt: skip
            self.told_return.add(d.id)
            return
        held = self.on_road.get(d.id)
        if held is None or held[0] is not None or e["destination"] not in e["origin"]:
            self.bad(e, LOG, f"{d.id} is told going back along {e['origin']}, but no draw "
                     "on that road holds it")  # fmt: skip
        else:
            held[1] = True

    def on_MarchResumed(self, e: dict) -> None:
        d = self.divs[e["division"]]
        held = self.on_road.get(d.id)
        if held is None or held[0] != d.side:
            self.bad(e, LOG, f"{d.id} is told marching on along {e['road']}, but it won no "
                     "battle there")  # fmt: skip
        else:
            held[1] = True

    def truth_fell_back(self, d: Any, e: dict) -> None:
        """A fall back from a road battle is the loser's way off the road (§8.4)."""
        held = self.on_road.get(d.id)
        if held is not None and e.get("from_road"):
            held[1] = True

    def truth_surrendered(self, d: Any, e: dict) -> None:
        """A surrender names the divisions of the battle that beat the division."""
        battle = next((b for b in reversed(self.battles) if d.id in b["fought"][d.side]), None)
        if battle is None:
            return
        by = set(battle["fought"][self.enemy(d.side)])
        if set(e.get("by", ())) != by:
            self.bad(e, LOG, f"{d.id} surrenders to {e.get('by', [])}, but was beaten by "
                     f"{sorted(by)}")  # fmt: skip
