"""A division's orders in the campaign (RULES.md §8.8): what a free division at a junction
does next, from its side's strategy doctrine (:meth:`OrderBook.decide`: march, or hold and
think again), and what the log tells of it: each order once (:meth:`OrderBook.tell`, the
flank marches counted), each halt once while its reason stays (:meth:`OrderBook.halt`).
The campaign's processes (:mod:`campaign.engine`) carry the orders out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign.army import Division
from campaign.events import Halted, Ordered
from campaign.schedule import now_of
from campaign.sightings import decision_view
from campaign.strategy import Order

if TYPE_CHECKING:
    from campaign.engine import Campaign

__all__ = ["HOLDING", "LONG_HOLDS", "OrderBook"]

#: a division's ``halted_reason`` while it holds on its doctrine's order (``held_for``)
HOLDING = "holds on its doctrine's order"
#: holds a division thinks again about after twice ``hold_minutes``: a turn back refused
#: (nothing new until a trigger), a taken enemy base held until nightfall (RULES.md §8.7) and
#: the base's guard on it (§8.8 *(house)*); each is woken early to march with others, like
#: any hold
LONG_HOLDS = ("no_turn_back", "hold_base", "guard_hold")


class OrderBook:
    """The orders of one campaign's divisions: decided, told once each, halts told.

    Attributes
    ----------
    last_order
        Division id -> (code, goal) of its last order (a flank march counted once).
    given
        Division id -> its last order told: (junction, code, goal, step, aim, day).
    """

    def __init__(self, camp: Campaign) -> None:
        self.camp = camp
        self.last_order: dict[str, tuple[str, str | None]] = {}
        self.given: dict[str, tuple[object, ...]] = {}

    def decide(self, div: Division) -> tuple[str | None, Any, bool]:
        """What a free division at a junction does next (RULES.md §8.8): ``(junction, 0,
        False)`` to march there (its friends woken to come along), or ``(None, minutes,
        hold)`` to wait, ``hold`` when its doctrine holds it (it may be woken to march with
        others). Minutes typed Any: an int stays an int on SimPy's clock."""
        camp = self.camp
        env = camp.env
        at = div.location
        assert at is not None
        side = div.side
        view = decision_view(camp, side, at)
        if view is None:
            # an enemy reached this junction this minute: the contact check comes first (§8.4).
            # An enemy with orders (a beaten division falling back, an attacker going back
            # after a draw) fights nobody here (BattleDesk.check_contact): waiting for it cost
            # the side woken first after a battle a minute (issue 10, item 4)
            return None, 1, False
        order = camp.strategists[side].decide(div.id, at, view)
        dest = order.step
        if dest is None:
            key = (order.code, order.goal, order.enemy_at, order.friends)
            if div.halted_reason != HOLDING or div.held_for != key:  # logged once (§8.8)
                div.halted_reason, div.held_for = HOLDING, key
                self.tell(div, at, order, "")
            if order.code in LONG_HOLDS:  # (fewer decisions that would only hold again)
                return None, 2 * camp.hold_minutes, True
            return None, camp.hold_minutes, True
        hours, kind = camp.roads_from[at][dest]
        minutes = hours * 60.0
        now = now_of(env)
        nightfall = camp.clock.nightfall(now)
        if now + minutes > nightfall and minutes <= camp.clock.daylight_minutes:
            # the log names the leg it would not start (the reason the halt is kept by stays
            # the bare words: said once a day, as before); with events off nothing is logged
            # and the words are not put together
            leg = ""
            if camp.record:
                to = camp.map.graph.nodes[dest].get("name", dest)
                march = f"{hours:g} hour's" if hours == 1 else f"{hours:g} hours'"
                leg = f" for {to} ({march} march)"
            self.halt(div, at, "too late in the day to set off", leg)
            return None, camp.clock.next_dawn(nightfall) - now, False
        self.tell(div, at, order, kind)
        if order.friends and camp.holding:
            for other in camp.divisions:  # divisions counted in the order march with it (§8.8)
                if other.id in order.friends and other.id in camp.holding:
                    camp.holding.discard(other.id)  # woken once: never again mid-march
                    camp.wake(other)
        return dest, 0, False

    def tell(self, div: Division, at: str, order: Order, road_kind: str) -> None:
        """Log a strategy decision with its reason (RULES.md §8.8); count flank marches. An
        order the division already has (the same at the same junction, the same day: a
        retry after a failed rough-road test, say) is kept, not given again."""
        camp = self.camp
        key = (order.code, order.goal)  # counted as count_flank_marches counts them
        if order.code == "flank" and self.last_order.get(div.id) != key:
            camp.counts["flank"] += 1
        self.last_order[div.id] = key
        now = now_of(camp.env)
        given = (at, order.code, order.goal, order.step, order.aim, now // 1440)
        if self.given.get(div.id) == given:
            return
        self.given[div.id] = given
        if not camp.event_wanted():
            return
        camp.emit(
            Ordered(
                int(now_of(camp.env)),
                div.side,
                div.id,
                at,
                order.code,
                order.goal,
                order.step,
                road_kind,
                order.enemy_at,
                order.enemies,
                order.friends,
                order.aim,
                order.trigger,
                order.cause,
                seen_by=(div.side,),
            )
        )

    def halt(self, div: Division, at: str, why: str, detail: str = "") -> None:
        """Log that ``div`` holds at ``at`` (once while ``why`` stays the same); ``detail``
        follows ``why`` in the logged reason (the leg it would not start)."""
        camp = self.camp
        if div.halted_reason != why:
            div.halted_reason = why
            if not camp.event_wanted():
                return
            reason = why + detail
            camp.emit(
                Halted(int(now_of(camp.env)), div.side, div.id, at, reason, seen_by=(div.side,))
            )
