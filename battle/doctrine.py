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


def _strength(u: Unit) -> int:
    return 10 - u.hits_before - u.hits


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
    reach = t.move[(u.kind, u.formation)] + t.rules.charge.reach_bonus_inches
    if reach <= t.rules.charge.reach_bonus_inches or nearest > reach:  # square, or none near
        return None
    best = None
    best_key = None
    mine = _strength(u)
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
        weak = e.disordered or e.shaken
        state = "disordered" if e.disordered else "shaken" if e.shaken else "steady"
        if not (state in doc.charge_when or mine >= doc.charge_min_strength_ratio * _strength(e)):
            continue
        key = (not weak, -(e.hits_before + e.hits), gap, e.id)
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
    ``activation_order`` categories, then unit id.
    """
    if card <= 0 or not enemies:
        return []
    depth = t.rules.ground_depth_inches
    advancing = attacking or doc.advance_when_defending
    front = max(e.pos for e in enemies)  # the nearest enemy is the one furthest forward
    threatened = _square_candidates(own, enemies, t, depth) if doc.square_vs_cavalry else set()
    # Who could be charged at all this bound (not in melee, not already charged), and the
    # weakest of them: most units can then rule out a charge without scanning the enemy.
    open_targets = [e for e in enemies if e.melee is None and e.charged_by is None]
    weak_target = any(
        (e.disordered and "disordered" in doc.charge_when)
        or (e.shaken and "shaken" in doc.charge_when)
        or (not (e.disordered or e.shaken) and "steady" in doc.charge_when)
        for e in open_targets
    )
    min_strength = min((_strength(e) for e in open_targets), default=99)
    wanted: list[tuple[int, str, Order]] = []
    order_rank = {name: i for i, name in enumerate(doc.activation_order)}
    for u in own:
        if u.melee is not None or u.charged_by is not None:
            continue
        nearest = depth - u.pos - front
        chargeable = open_targets and (
            weak_target or _strength(u) >= doc.charge_min_strength_ratio * min_strength
        )
        order = _order_for(
            u,
            open_targets if chargeable else [],
            nearest,
            u.id in threatened,
            doc,
            t,
            advancing,
            depth,
        )
        if order is None:
            continue
        category = "shaken" if u.shaken else u.kind
        wanted.append((order_rank.get(category, len(order_rank)), u.id, order))
    wanted.sort(key=lambda w: (w[0], w[1]))
    return [w[2] for w in wanted[:card]]


def _square_candidates(own: list[Unit], enemies: list[Unit], t: Tables, depth: float) -> set[str]:
    """Ids of infantry units that an enemy cavalry unit would charge next (one per cavalry).

    Only the battalion an enemy cavalry unit threatens forms square (RULES.md §6.7), chosen
    as a charger would choose (§6.9): disordered/shaken first, most hits, nearest, lowest id.
    """
    ids: set[str] = set()
    reach_bonus = t.rules.charge.reach_bonus_inches
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
    rng = t.fire_range[(u.kind, u.formation)]
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
    if enemies:
        target = charge_target(u, enemies, doc, t, depth, nearest)
        if target is not None:
            return Order(u, "charge", target=target)
    if rng > 0 and nearest <= rng and doc.hold_in_range:
        return None  # stays to fire
    if u.kind == "infantry" and u.formation == "column" and nearest <= doc.form_line_within_inches:
        return Order(u, "form", formation="line")
    if not advancing or t.move[(u.kind, u.formation)] <= 0:
        return None
    if u.kind == "cavalry":
        stop = max(doc.cavalry_wait_inches, t.rules.advance_stop_short_inches)
    elif doc.hold_in_range and rng > 0:
        stop = rng
    else:
        stop = t.rules.advance_stop_short_inches
    if nearest <= stop:
        return None
    return Order(u, "advance", to_gap=stop)
