"""A side's army-level plan (RULES.md §8.8 *(house)*): its aim, one rendezvous per group of
divisions, and each division's order kept until it is done or a named trigger fires.

- The **aim** is what the army is about: the defence of its base while a guard is posted,
  else the enemy group its divisions march on, else an objective, else the enemy base
  (:meth:`ArmyPlan.aim`).
- A **rendezvous** is the one junction where divisions concentrating against an enemy group
  meet (:meth:`ArmyPlan.rendezvous_for`): chosen once, kept until a trigger fires for the
  division that chose it, so two divisions never march to join each other.
- A division's **kept order** (:class:`Kept`) is the march it was given. A later decision
  that would send it elsewhere is followed only when the kept order is done (its goal
  reached) or a trigger of :mod:`campaign.strategy.triggers` fired; otherwise the division
  marches on for the kept goal. A change for a trigger is told with the order
  (``Order.trigger``), so no division turns about for no reason a reader can see.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from campaign.strategy.knowledge import GUARD_CODES, EnemyGroup, Memory, Order
from campaign.strategy.triggers import TIMEOUT_MINUTES, Snapshot, balance_changed

__all__ = [
    "DAY_MINUTES",
    "TURN_BACK_DETOUR_HOURS",
    "ArmyPlan",
    "Asked",
    "Kept",
    "back_for_the_same_reason",
    "base_in_danger",
    "may_turn_back",
    "not_fought_today",
    "note_arrival",
]

DAY_MINUTES = 1440.0
#: codes that march on an enemy: void when that enemy has left or is gone
ENEMY_CODES = frozenset(("attack", "pursue"))
#: holds that keep a plan (wait for friends before attacking an enemy; no road past a
#: stronger enemy): the march that ends one is told with the trigger that fired, if any
PLANNED_HOLDS = frozenset(("wait", "no_way"))


#: a division that would turn back the same day for a weak reason takes another way to its
#: goal if it is at most this many hours longer, else holds *(house)*
TURN_BACK_DETOUR_HOURS = 3.0
#: codes that may turn a division back the way it came the same day, whatever the trigger:
#: the base in danger (a beaten division rejoining friends who moved takes another way, or
#: waits for them where it is, *(house)*)
TURN_BACK_CODES = frozenset(("guard",))


def may_turn_back(order: Order) -> bool:
    """Whether ``order`` may send a division back the same day to the junction it came from
    (no A→B→A the same day without a strong reason, RULES.md §8.8 *(house)*): to guard the
    base; or for a stronger enemy now at its goal (a ``sighting``
    with a cause). An aim gone void (the enemy it marched on has moved) is no reason to
    march back the way it came: the division makes for its new goal another way, or holds
    and thinks again (a general does not chase a moving enemy up and down one road)."""
    if order.code in TURN_BACK_CODES:
        return True
    return order.trigger == "sighting" and bool(order.cause)


def base_in_danger(
    from_base: dict[str, float], groups: Mapping[str, EnemyGroup], held: int, hours_left: float
) -> bool:
    """Whether a known enemy group stronger than the ``held`` boxes on a captured enemy base
    can reach it within ``hours_left`` (to nightfall): ``from_base`` maps junction -> hours
    from the base (RULES.md §8.7, §8.8 *(house)*: the base is held through nightfall
    unless a stronger enemy is about to take it back)."""
    for j, g in groups.items():
        if g.boxes > held and from_base.get(j, math.inf) <= hours_left:
            return True
    return False


def note_arrival(m: Memory, at: str) -> None:
    """The march of its last order reached ``at`` (it was not held up by a failed
    rough-road test): that is the last march it made."""
    came = m.came
    # (``m.came`` again, not ``came``: compiled, the tuple checked is unboxed, and boxing it
    # again would make a new tuple, never the one ``m.arrived`` holds)
    if came is not None and came[1] == at and m.arrived is not m.came:
        m.arrived, m.arrived_order, m.arrived_t = m.came, m.came_order, m.came_t


def back_for_the_same_reason(
    order: Order, at: str, came: tuple[str, str], came_order: tuple[str, str | None] | None
) -> bool:
    """Whether ``order`` sends a division at ``at`` straight back down the road ``came`` it
    came by, for the same reason and goal as it came (RULES.md §8.8: no oscillation)."""
    return (
        order.step is not None
        and came[0] == order.step
        and came[1] == at
        and came_order is not None
        and came_order[0] == order.code
        and came_order[1] == order.goal
    )


def not_fought_today(m: Memory, groups: dict[str, EnemyGroup], now: float) -> dict[str, EnemyGroup]:
    """``groups`` without those made only of enemies the division fought today (no same-day
    rematch of the same forces, RULES.md §8.8 *(house)*); ``groups`` itself if none is."""
    day, fought = m.fought
    if (
        fought
        and day == int(now // DAY_MINUTES)
        and any(fought.issuperset(g.divisions) for g in groups.values())
    ):
        return {j: g for j, g in groups.items() if not fought.issuperset(g.divisions)}
    return groups


class Kept:
    """A division's kept order: the :class:`Order` given, its minute ``t`` and what the
    division knew of the enemy then (``snapshot``). Read-only."""

    __slots__ = ("order", "snapshot", "t")

    def __init__(self, order: Order, t: float, snapshot: Snapshot) -> None:
        self.order = order
        self.t = t
        self.snapshot = snapshot


#: march for a goal: (code, at, goal, enemy_at, enemies, friends, aim) -> Order
Go = Callable[[str, str, str, str | None, tuple[str, ...], tuple[str, ...], str | None], Order]


class Asked:
    """What :meth:`ArmyPlan.settle` may ask about the division it settles: what it knows of
    the enemy now (:meth:`snap`) and a march for a goal around the stronger enemies
    (:meth:`go`). This one answers with the functions it is given; the strategist's own
    (``doctrine._Asked``) is a subclass that works each answer out when first asked.
    (An object rather than two callables: compiled, its methods are called directly.)"""

    __slots__ = ("_go_by", "_snap_by")

    def __init__(self, snap: Callable[[], Snapshot], go: Go) -> None:
        self._snap_by = snap
        self._go_by = go

    def snap(self) -> Snapshot:
        """What the division knows of the enemy now (:class:`Snapshot`)."""
        return self._snap_by()

    def go(
        self, code: str, at: str, goal: str, enemy_at: str | None,
        enemies: tuple[str, ...], friends: tuple[str, ...], aim: str | None,
    ) -> Order:  # fmt: skip
        """March for ``goal`` around the stronger enemies (:data:`Go`)."""
        return self._go_by(code, at, goal, enemy_at, enemies, friends, aim)


class ArmyPlan:
    """One side's plan (see the module docstring): kept orders, rendezvous, battles seen,
    and the enemy divisions known to be gone."""

    def __init__(self) -> None:
        self.kept: dict[str, Kept] = {}
        #: divisions holding for a plan (:data:`PLANNED_HOLDS`): the hold and when it began
        self.held: dict[str, Kept] = {}
        #: enemy group junction -> (rendezvous junction, the division that chose it)
        self.rendezvous: dict[str, tuple[str, str]] = {}
        self.gone: set[str] = set()  # divisions (either side's) destroyed or surrendered
        self.battle_t = -1.0  # the end of the side's last battle, in campaign minutes
        self.battle_at: str | None = None  # where that battle was fought

    def aim(self) -> tuple[str, str | None]:
        """The army's aim now: ``(kind, junction)`` with kind ``defend``, ``enemy``,
        ``objective`` or ``base`` (the enemy base; junction None: the order's own aim)."""
        codes = {k.order.code: k.order.goal for k in self.kept.values()}
        for code, kind in (("guard", "defend"), ("attack", "enemy"), ("objective", "objective")):
            if code in codes:
                return kind, codes[code]
        return "base", None

    def rendezvous_for(self, enemy_at: str, chosen: str, div: str) -> str:
        """The rendezvous against the enemy group at ``enemy_at``: the one already chosen
        while it stands (:meth:`standing_rendezvous`), else ``chosen`` (chosen by ``div``)."""
        found = self.standing_rendezvous(enemy_at)
        if found is not None:
            return found
        self.rendezvous[enemy_at] = (chosen, div)
        return chosen

    def standing_rendezvous(self, enemy_at: str) -> str | None:
        """The rendezvous chosen against the enemy group at ``enemy_at`` while it stands
        (its chooser not gone), else None."""
        found = self.rendezvous.get(enemy_at)
        if found is not None and found[1] not in self.gone:
            return found[0]
        return None

    def battle_seen(self, t_end: float, place: str | None) -> None:
        """The side fought a battle ending at ``t_end``: every kept order may be revised,
        and the rendezvous are chosen again."""
        self.battle_t = t_end
        self.battle_at = place
        self.rendezvous.clear()

    def forget(self, div: str) -> None:
        """``div`` is destroyed or surrendered: orders naming it are void."""
        self.gone.add(div)
        self.kept.pop(div, None)
        self.held.pop(div, None)
        for enemy_at, (_, chooser) in list(self.rendezvous.items()):
            if chooser == div:
                del self.rendezvous[enemy_at]

    def alive(self, ids: tuple[str, ...]) -> tuple[str, ...]:
        """``ids`` without the divisions known to be gone."""
        gone = self.gone
        if not gone or not ids:
            return ids
        return tuple(d for d in ids if d not in gone)

    # ------------------------------------------------------------------ keeping orders
    def trigger(
        self, kept: Kept, now: float, snapshot: Snapshot, enemy_positions: dict[str, str]
    ) -> tuple[str, str] | None:
        """The first trigger that fired since ``kept`` was given (``(code, detail)``), or
        None (:mod:`campaign.strategy.triggers`)."""
        order = kept.order
        if order.code in GUARD_CODES:  # a guard marches on to the base, come what may
            return None
        if self.battle_t > kept.t:
            return "battle", self.battle_at or ""
        if now // DAY_MINUTES != kept.t // DAY_MINUTES:
            return "nightfall", ""
        if order.enemies:
            left = self.alive(order.enemies)  # (no list built while none is gone)
            if not left:
                return "void", ",".join(order.enemies)
            at = order.enemy_at
            if order.code in ENEMY_CODES and at and all(enemy_positions.get(e) != at for e in left):
                return "void", "at:" + at
        elif (
            order.code == "wait"  # (it names no division: the junction it would attack)
            and order.enemy_at
            and order.enemy_at not in enemy_positions.values()
        ):
            return "void", "at:" + order.enemy_at
        if balance_changed(kept.snapshot, snapshot):
            return "sighting", ""
        stronger = snapshot.stronger
        goal = order.goal
        if goal is not None and goal in stronger and goal not in kept.snapshot.stronger:
            return "sighting", goal
        if now - kept.t >= TIMEOUT_MINUTES:
            return "timeout", ""
        return None

    def settle(
        self, div: str, at: str, now: float, new: Order, asked: Asked,
        enemy_positions: dict[str, str], came_from: str | None = None,
    ) -> Order:  # fmt: skip
        """The order ``div`` at ``at`` follows (RULES.md §8.8 *(house)*): ``new`` when it
        keeps to the kept order, or when the kept order is done and ``new`` does not turn
        back to ``came_from`` the same day, or when a trigger fired (then ``new`` carries
        the trigger); else the kept order's next step, or a hold when the kept order is done
        and ``new`` would turn back for no reason. ``asked`` gives what the division knows
        of the enemy now and marches for a goal (:class:`Asked`)."""
        kept = self.kept.get(div)
        if kept is not None:
            old = kept.order
            same = old.code == new.code and old.goal == new.goal
            back = came_from is not None and new.step == came_from
            if not same and (old.goal != at or back):
                new = self._keep(div, kept, at, now, new, asked, enemy_positions)
                return self._end_hold(div, now, new, asked, enemy_positions)
        new = self._end_hold(div, now, new, asked, enemy_positions)
        if new.step is not None and (
            kept is None or kept.order.code != new.code or kept.order.goal != new.goal
        ):
            self.kept[div] = Kept(new, now, asked.snap())
        return new

    def _end_hold(
        self, div: str, now: float, new: Order, asked: Asked, enemy_positions: dict[str, str]
    ) -> Order:
        """``new``, with the trigger that ended the planned hold ``div`` kept, if ``new``
        ends it and one fired (every change of plan told with its reason, RULES.md §8.8
        *(house)*); a new planned hold is remembered from its first minute."""
        held = self.held.get(div)
        if new.step is None:
            if new.code in PLANNED_HOLDS:
                old = held.order if held is not None else None
                if old is None or (old.code, old.enemy_at) != (new.code, new.enemy_at):
                    self.held[div] = Kept(new, now, asked.snap())
            else:
                self.held.pop(div, None)
            return new
        if held is None:
            return new
        del self.held[div]
        if new.trigger:
            return new
        fired = self.trigger(held, now, asked.snap(), enemy_positions)
        # (the two fields named, not ``*fired``: compiled, that is a direct call)
        return new if fired is None else new.with_trigger(fired[0], fired[1])

    def _keep(
        self, div: str, kept: Kept, at: str, now: float, new: Order, asked: Asked,
        enemy_positions: dict[str, str],
    ) -> Order:  # fmt: skip
        """:meth:`settle` when ``new`` differs from the kept order (and the kept order is
        not done, or ``new`` turns back): the kept order's next step, or a hold, when no
        trigger fired; else ``new`` with its trigger, kept in turn when it marches."""
        old = kept.order
        fired = self.trigger(kept, now, asked.snap(), enemy_positions)
        if fired is None and new.code in GUARD_CODES:
            fired = ("threat", new.enemy_at or "")  # the base comes first
        if fired is None and new.code == "hold_base":
            fired = ("base", at)  # the enemy base is taken: held until nightfall
        if fired is None and old.goal != at:
            on = asked.go(old.code, at, old.goal or at, old.enemy_at,
                    self.alive(old.enemies), self.alive(old.friends), old.aim)  # fmt: skip
            if on.step is not None:
                return on
            fired = ("no_way", old.goal or "")
        if fired is None:
            return Order("no_turn_back", None, None, aim=new.goal)
        new = new.with_trigger(fired[0], fired[1])
        if new.step is None:
            del self.kept[div]  # given up for a hold: nothing kept to fire again
        else:
            self.kept[div] = Kept(new, now, asked.snap())
        return new
