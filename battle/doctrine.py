"""Tactical doctrines (RULES.md §6.7): data in config, read by these small functions.

A doctrine answers two questions for the engine each bound: which units to activate (at most
the card's value, RULES.md §6.3 step 1) and what each activated unit does. It never rolls dice;
every choice is deterministic given the state, and ties are broken by unit id (§6.9).
"""

from __future__ import annotations

from dataclasses import dataclass

from battle.rules import DoctrineRules
from battle.tables import Tables
from battle.units import Unit

__all__ = ["Order", "charge_target", "choose_orders"]


@dataclass(slots=True)
class Order:
    """What an activated unit means to do this bound.

    ``action`` is ``rally``, ``charge`` (``target`` set), ``form`` (``formation`` set) or
    ``advance`` (``to_gap`` set: the distance in inches to the nearest enemy to stop at).
    """

    unit: Unit
    action: str
    target: Unit | None = None
    formation: str = ""
    to_gap: float = 0.0


def charge_target(
    u: Unit,
    enemies: list[Unit],
    doc: DoctrineRules,
    t: Tables,
    depth: float,
    nearest: float = 0.0,
) -> Unit | None:
    """The enemy ``u`` would charge now under doctrine ``doc``, or None (RULES.md §6.4).

    Only an infantry or cavalry unit that is not shaken, disordered or in melee may charge,
    and only an enemy not already in melee or charged, within its move + 3 inches. It charges
    a target whose state is listed in ``charge_when``, or one at most 1/ratio of its strength.
    Preference: disordered/shaken first, then most hits, then nearest, then lowest id.
    """
    if u.kind == "artillery" or u.shaken or u.disordered or u.melee is not None:
        return None
    reach = t.move[(u.kind, u.formation)] + t.reach_bonus
    if reach <= t.reach_bonus or nearest > reach:  # square, or none near
        return None
    best = None
    best_key = None
    mine = 10 - u.hits_before - u.hits
    ratio = doc.charge_min_strength_ratio
    charge_when = doc.charge_when
    for e in enemies:
        if e.melee is not None or e.charged_by is not None:
            continue
        gap = depth - u.pos - e.pos
        if gap > reach:
            continue
        if (
            u.kind == "cavalry"
            and e.kind == "infantry"
            and e.formation == "square"
            and not doc.cavalry_charges_infantry_in_square
        ):
            continue
        state = "disordered" if e.disordered else "shaken" if e.shaken else "steady"
        if not (state in charge_when or mine >= ratio * (10 - e.hits_before - e.hits)):
            continue
        key = (not (e.disordered or e.shaken), -(e.hits_before + e.hits), gap, e.id)
        if best_key is None or key < best_key:
            best, best_key = e, key
    return best


def choose_orders(
    own: list[Unit],
    enemies: list[Unit],
    card: int,
    doc: DoctrineRules,
    t: Tables,
    attacking: bool,
) -> list[Order]:
    """Pick at most ``card`` units to activate and their orders (RULES.md §6.3 step 1, §6.7).

    Units that have an enemy in range and a ``hold_in_range`` doctrine are left to fire
    (activated units may not fire, §6.3 step 3). Order of preference follows the doctrine's
    ``activation_order`` categories, then unit id: the units are walked in that order and
    the walk stops once ``card`` of them have an order.

    Parameters
    ----------
    own, enemies
        The units of each side still on the field, in id order.
    card
        The movement card drawn: the most units to activate (RULES.md §3.2).
    doc
        The side's doctrine.
    t
        The compiled rules.
    attacking
        True for the attacker (it advances; a defender only if its doctrine says so).

    Returns
    -------
    list of Order
        At most ``card`` orders, in activation order.
    """
    if card <= 0 or not enemies:
        return []
    plan = _plan(doc)
    depth = t.depth
    advancing = attacking or doc.advance_when_defending
    # The nearest enemy is the one furthest forward. Who could be charged at all this bound
    # (not in melee, not already charged), and the weakest of them: most units can then rule
    # out a charge without scanning the enemy.
    front = enemies[0].pos
    open_targets = []
    weak_target = False
    min_strength = 99
    for e in enemies:
        if e.pos > front:  # noqa: PLR1730 - hot loop: a comparison is cheaper than max()
            front = e.pos
        if e.melee is not None or e.charged_by is not None:
            continue
        open_targets.append(e)
        if not weak_target:
            if e.disordered or e.shaken:
                weak_target = (e.disordered and plan.charge_disordered) or (
                    e.shaken and plan.charge_shaken
                )
            else:
                weak_target = plan.charge_steady
        strength = 10 - e.hits_before - e.hits
        if strength < min_strength:  # noqa: PLR1730 - same
            min_strength = strength
    rank = plan.rank
    unranked = plan.unranked
    keyed = [
        (rank.get("shaken" if u.shaken else u.kind, unranked), u.id, u)
        for u in own
        if u.melee is None and u.charged_by is None
    ]
    keyed.sort()
    ratio = doc.charge_min_strength_ratio
    threatened: set[str] | None = None
    orders: list[Order] = []
    for _, uid, u in keyed:
        is_threatened = False
        if u.kind == "infantry" and doc.square_vs_cavalry:
            if threatened is None:
                threatened = _square_candidates(own, enemies, t, depth)
            is_threatened = uid in threatened
        chargeable = open_targets and (
            weak_target or 10 - u.hits_before - u.hits >= ratio * min_strength
        )
        order = _order_for(
            u,
            open_targets if chargeable else _NONE,
            depth - u.pos - front,
            is_threatened,
            doc,
            t,
            advancing,
            depth,
        )
        if order is not None:
            orders.append(order)
            if len(orders) >= card:
                break
    return orders


@dataclass(frozen=True, slots=True)
class _Plan:
    """A doctrine's lists turned into look-ups (built once per doctrine object)."""

    rank: dict[str, int]
    unranked: int
    charge_disordered: bool
    charge_shaken: bool
    charge_steady: bool


_NONE: list[Unit] = []
_PLANS: dict[int, tuple[DoctrineRules, _Plan]] = {}


def _plan(doc: DoctrineRules) -> _Plan:
    hit = _PLANS.get(id(doc))
    if hit is not None and hit[0] is doc:
        return hit[1]
    plan = _Plan(
        rank={name: i for i, name in enumerate(doc.activation_order)},
        unranked=len(set(doc.activation_order)),
        charge_disordered="disordered" in doc.charge_when,
        charge_shaken="shaken" in doc.charge_when,
        charge_steady="steady" in doc.charge_when,
    )
    if len(_PLANS) > 64:
        _PLANS.clear()
    _PLANS[id(doc)] = (doc, plan)
    return plan


def _square_candidates(own: list[Unit], enemies: list[Unit], t: Tables, depth: float) -> set[str]:
    """Ids of infantry units that an enemy cavalry unit would charge next (one per cavalry).

    Only the battalion an enemy cavalry unit threatens forms square (RULES.md §6.7), chosen
    as a charger would choose (§6.9): disordered/shaken first, most hits, nearest, lowest id.
    """
    ids: set[str] = set()
    reach_bonus = t.reach_bonus
    for e in enemies:
        if e.kind != "cavalry" or e.shaken or e.melee is not None:
            continue
        reach = t.move[(e.kind, e.formation)] + reach_bonus
        best_key = None
        best = None
        for u in own:
            if u.kind != "infantry" or u.melee is not None:
                continue
            gap = depth - u.pos - e.pos
            if gap > reach:
                continue
            key = (not (u.disordered or u.shaken), -(u.hits_before + u.hits), gap, u.id)
            if best_key is None or key < best_key:
                best, best_key = u, key
        if best is not None:
            ids.add(best.id)
    return ids


def _order_for(
    u: Unit,
    enemies: list[Unit],
    nearest: float,
    threatened: bool,
    doc: DoctrineRules,
    t: Tables,
    advancing: bool,
    depth: float,
) -> Order | None:
    if u.shaken:
        return Order(u, "rally") if doc.rally_shaken else None
    if u.disordered:
        return None  # still completing a formation change
    key = (u.kind, u.formation)
    rng = t.fire_range[key]
    if u.kind == "artillery":
        if u.formation == "limbered":
            if nearest <= doc.unlimber_within_inches:
                return Order(u, "form", formation="unlimbered")
            if advancing:
                return Order(u, "advance", to_gap=doc.unlimber_within_inches)
        return None
    if u.kind == "infantry":
        if threatened and u.formation != "square":
            return Order(u, "form", formation="square")
        if u.formation == "square" and not threatened:
            return Order(u, "form", formation=doc.advance_formation)
    move = t.move[key]
    if enemies:
        # charge_target's own first test, made here so most units skip the call (§6.4)
        reach = move + t.reach_bonus
        if reach > t.reach_bonus and nearest <= reach:
            target = charge_target(u, enemies, doc, t, depth, nearest)
            if target is not None:
                return Order(u, "charge", target=target)
    if rng > 0 and nearest <= rng and doc.hold_in_range:
        return None  # stays to fire
    if u.kind == "infantry" and u.formation == "column" and nearest <= doc.form_line_within_inches:
        return Order(u, "form", formation="line")
    if not advancing or move <= 0:
        return None
    if u.kind == "cavalry":
        wait = doc.cavalry_wait_inches
        stop = t.stop_short if t.stop_short > wait else wait
    elif doc.hold_in_range and rng > 0:
        stop = rng
    else:
        stop = t.stop_short
    if nearest <= stop:
        return None
    return Order(u, "advance", to_gap=stop)
