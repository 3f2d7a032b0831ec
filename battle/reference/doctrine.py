"""Tactical doctrines (RULES.md §6.7): data in config, read by a small compiled object.

A doctrine answers two questions for the engine each bound: which units to activate (at most
the card's value, RULES.md §6.3 step 1) and what each activated unit does. It never rolls dice;
every choice is deterministic given the state, and ties are broken by unit id (§6.9).

:class:`TacticalDoctrine` is a :class:`~battle.rules.DoctrineRules` (the YAML) turned into
plain attributes once per rules object (:func:`battle.tables.compile_rules`), so the engine's
hot loop reads no pydantic model.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from battle.reference.unit import Unit
from battle.rules import DoctrineRules

if TYPE_CHECKING:
    from battle.tables import TypeNumbers

__all__ = ["ADVANCE", "CHARGE", "FORM", "RALLY", "Order", "TacticalDoctrine"]

RALLY, CHARGE, FORM, ADVANCE = "rally", "charge", "form", "advance"


@dataclass(slots=True)
class Order:
    """What an activated unit means to do this bound.

    ``action`` is ``rally``, ``charge`` (``target`` set), ``form`` (``formation`` set) or
    ``advance`` (``to_gap`` set: the distance in inches to the nearest enemy to stop at).
    The doctrine builds orders with positional arguments only: a class called with keyword
    arguments is about three times slower to build, and a battle builds dozens.
    """

    unit: Unit
    action: str
    target: Unit | None = None
    formation: str = ""
    to_gap: float = 0.0


_NO_IDS: frozenset[str] = frozenset()  # no battalion threatened


@dataclass(slots=True)
class _Seen:
    """What one bound's orders read of the field (:meth:`TacticalDoctrine.choose_orders`)."""

    front: float  # the position of the enemy furthest forward (the nearest one)
    open_targets: list[Unit]  # enemies not in melee and not already charged (§6.4)
    threatened: Collection[str]  # ids of own units to form square against cavalry
    advancing: bool  # attacker, or a defender whose doctrine advances
    #: (any state charged, strength ratio) of the open targets, worked out when first needed
    odds: tuple[bool, float] | None = None
    #: charge targets picked this bound: units alike (type, position, reach, hits) pick alike
    picked: dict[tuple[str, float, float, int], Unit | None] = field(default_factory=dict)


class TacticalDoctrine:
    """One side's tactical doctrine, ready for the engine (RULES.md §6.7).

    Parameters
    ----------
    rules
        The doctrine as configured (``battle.doctrines.<name>`` in config/rules.yaml).
    depth
        Depth of the ground in inches (§6.1): the gap between two units is
        ``depth - own.pos - enemy.pos``.
    stop_short
        Inches an ordinary advance stops short of contact (§6.4).
    full_strength
        Hits that destroy a unit (10, §1.2): a unit's strength is this minus its actual hits.
    unit_types
        The compiled unit types (RULES.md §1): the doctrine reads their flags, never names.
    skirmish
        The (type, formation) pairs in skirmish order (RULES.md §1.7).
    """

    __slots__ = (
        "advance_formation",
        "advance_when_defending",
        "cavalry_charges_square",
        "cavalry_stop",
        "charge_disordered",
        "charge_shaken",
        "charge_steady",
        "depth",
        "fire_formation",
        "form_line_within",
        "forms_fire",
        "full_strength",
        "hold_in_range",
        "leave_skirmish_within",
        "limber_beyond",
        "rally_shaken",
        "rank",
        "ratio",
        "rules",
        "skirmish",
        "square_from_skirmish",
        "square_vs_cavalry",
        "stop_short",
        "types",
        "unlimber_within",
    )

    def __init__(
        self,
        rules: DoctrineRules,
        *,
        depth: float,
        stop_short: float,
        full_strength: int,
        unit_types: Mapping[str, TypeNumbers],
        skirmish: Collection[tuple[str, str]] = frozenset(),
    ) -> None:
        self.rules = rules
        self.depth = depth
        self.stop_short = stop_short
        self.full_strength = full_strength
        #: activation preference: "shaken" or a unit type -> its place in the order
        given = {name: i for i, name in enumerate(rules.activation_order)}
        self.rank = {
            name: given.get(name, len(given))  # categories not listed come last
            for name in ("shaken", *unit_types)
        }
        self.types = dict(unit_types)
        self.fire_formation = rules.fire_formation
        #: unit type -> whether it has the fire formation (foot forms it near the enemy)
        self.forms_fire = {k: rules.fire_formation in t.formations for k, t in unit_types.items()}
        self.charge_disordered = "disordered" in rules.charge_when
        self.charge_shaken = "shaken" in rules.charge_when
        self.charge_steady = "steady" in rules.charge_when
        self.ratio = rules.charge_min_strength_ratio
        self.cavalry_charges_square = rules.cavalry_charges_infantry_in_square
        self.square_vs_cavalry = rules.square_vs_cavalry
        self.hold_in_range = rules.hold_in_range
        self.advance_when_defending = rules.advance_when_defending
        self.rally_shaken = rules.rally_shaken
        self.advance_formation = rules.advance_formation
        self.form_line_within = rules.form_line_within_inches
        self.unlimber_within = rules.unlimber_within_inches
        #: cavalry waits this far off for a chance to charge, never closer than stop_short
        self.cavalry_stop = max(stop_short, rules.cavalry_wait_inches)
        self.skirmish = frozenset(skirmish)
        #: RULES.md §1.7, §5.2: skirmishers form the fire formation this close (None: never)
        self.leave_skirmish_within = rules.leave_skirmish_within_inches
        #: RULES.md §1.7: order a square §1.7 refuses (a drill for the referee)
        self.square_from_skirmish = rules.square_from_skirmish
        #: RULES.md §5.2, §6.7: a deployed battery limbers up past this gap (None: never)
        self.limber_beyond = rules.limber_beyond_inches

    # ------------------------------------------------------------------ orders
    def choose_orders(
        self, own: list[Unit], enemies: list[Unit], card: int, attacking: bool
    ) -> list[Order]:
        """Pick at most ``card`` units to activate and their orders (RULES.md §6.3 step 1).

        Units are taken in the doctrine's ``activation_order`` categories, then by unit id,
        until ``card`` of them have an order. Units in melee or charged last bound are not
        activated. A unit with an enemy in range under ``hold_in_range``
        gets no order, so that it may fire (activated units may not fire, §6.3 step 3).

        Parameters
        ----------
        own, enemies
            The units of each side still on the field, in id order.
        card
            The movement card drawn: the most units to activate (RULES.md §3.2).
        attacking
            True for the attacker (it advances; a defender only if the doctrine says so).

        Returns
        -------
        list of Order
            At most ``card`` orders, in activation order.
        """
        if card <= 0 or not enemies:
            return []
        seen = self._look_at(own, enemies, attacking)
        # Each unit's order depends only on the unit and the enemy, never on another unit's
        # order: work them all out in id order, then take the first ``card`` in activation
        # order, which is what walking the units in that order and stopping at ``card`` gives.
        chosen: list[tuple[int, str, Order]] = []  # (activation rank, unit id, order)
        for u in own:
            order = self._unit_order(u, seen)
            if order is not None:
                rank = self.rank["shaken"] if order.action == RALLY else self.rank[u.kind]
                chosen.append((rank, u.id, order))
        if not chosen:
            return []
        chosen.sort()  # (rank, id) pairs are unique: orders are never compared
        orders = [c[2] for c in chosen[:card]]
        targets = [o.target for o in orders if o.action == CHARGE]
        if len(set(map(id, targets))) < len(targets):  # two chargers, one target (§6.4)
            return self._one_charger_per_target(
                chosen, card, seen.open_targets, seen.front, seen.advancing
            )
        return orders

    def _look_at(self, own: list[Unit], enemies: list[Unit], attacking: bool) -> _Seen:
        """What this bound's orders read of the enemy (RULES.md §6.7): the front (the nearest
        enemy is the one furthest forward), who could be charged at all (not in melee, not
        already charged, §6.4), and which own units should form square against cavalry that
        could charge next bound."""
        front = max(e.pos for e in enemies)
        open_targets = [e for e in enemies if e.melee is None and e.charged_by is None]
        cavalry = [e for e in enemies if e.melee is None and e.mounted and not e.shaken]
        threatened: Collection[str] = _NO_IDS
        if cavalry and self.square_vs_cavalry:
            threatened = self._square_candidates(own, cavalry)
        advancing = attacking or self.advance_when_defending
        return _Seen(front, open_targets, threatened, advancing)

    def _unit_order(self, u: Unit, seen: _Seen) -> Order | None:
        """The order of one own unit this bound, or None if it is not activated: a unit in
        melee, charged last bound or with its charge not yet met (RULES.md §6.4: one charge at
        a time) is not; a shaken one rallies if the doctrine says so; a disordered one is
        still completing a formation change (§5.3)."""
        if u.melee is not None or u.charged_by is not None or u.charging is not None:
            return None
        if u.shaken:
            return Order(u, RALLY) if self.rally_shaken else None
        if u.disordered:
            return None
        nearest = self.depth - u.pos - seen.front
        return self._order_for(
            u,
            nearest,
            self._may_charge(u, nearest, seen),
            u.id in seen.threatened,
            seen.advancing,
            seen.picked,
        )

    def _may_charge(self, u: Unit, nearest: float, seen: _Seen) -> list[Unit] | None:
        """The enemies ``u`` may charge (RULES.md §6.4, §6.7), or None: a unit that may charge,
        within reach of the nearest enemy, strong enough for the doctrine's strength ratio or
        facing a target in a state its doctrine charges."""
        targets = seen.open_targets
        if not targets or not u.may_charge or u.no_charge or not 0.0 < u.reach >= nearest:
            return None
        if seen.odds is None:
            seen.odds = self._charge_odds(targets)
        any_state, strength = seen.odds
        return targets if any_state or self.full_strength - u.total_hits >= strength else None

    def _one_charger_per_target(
        self,
        chosen: list[tuple[int, str, Order]],
        card: int,
        open_targets: list[Unit],
        front: float,
        advancing: bool,
    ) -> list[Order]:
        """The first ``card`` orders with at most one charger per target (RULES.md §6.4).

        Walks the orders in activation order; a unit whose target an earlier charger took
        picks again among the targets left (another target or another order; no order: it
        is not activated and the next unit is). ``open_targets``: the enemies not in melee
        and not charged already.
        """
        taken: set[str] = set()
        orders: list[Order] = []
        for _, _, first_choice in chosen:
            order = first_choice
            if len(orders) >= card:
                break
            if order.action == CHARGE and order.target is not None:
                if order.target.id in taken:
                    u = order.unit
                    left = [e for e in open_targets if e.id not in taken]
                    again = self._order_for(
                        u,
                        self.depth - u.pos - front,
                        left or None,
                        False,
                        advancing,
                        {},
                    )
                    if again is None:
                        continue
                    order = again
                if order.action == CHARGE and order.target is not None:
                    taken.add(order.target.id)
            orders.append(order)
        return orders

    def _order_for(
        self,
        u: Unit,
        nearest: float,
        targets: list[Unit] | None,
        threatened: bool,
        advancing: bool,
        picked: dict[tuple[str, float, float, int], Unit | None],
    ) -> Order | None:
        """The order of a steady unit ``nearest`` inches from the nearest enemy, or None.

        ``targets``: the enemies it might charge, not in melee and not already charged (None:
        it may not charge this bound); ``picked``: charge targets already worked out this
        bound, by (type, position, reach, actual hits), which is all the choice depends on.
        """
        if u.deploys_to:
            return self._battery_order(u, nearest, advancing)
        square = u.square_formation
        if square:
            if threatened:
                if u.formation != square and self._tries_square(u, square):
                    return Order(u, FORM, None, square)
            elif u.square:
                return Order(u, FORM, None, self.advance_formation)
        if targets is not None:
            key = (u.kind, u.pos, u.reach, u.total_hits)
            if key in picked:
                target = picked[key]
            else:
                target = picked[key] = self.charge_target(u, targets)
            if target is not None:
                return Order(u, CHARGE, target)
        if self.leave_skirmish_within is not None and self._leaves_skirmish(u, nearest):
            return Order(u, FORM, None, self.fire_formation)
        in_range = u.fire_range > 0.0 and nearest <= u.fire_range
        if in_range and self.hold_in_range:
            return None  # stays to fire
        if (
            u.foot
            and u.formation == self.advance_formation
            and nearest <= self.form_line_within
            and self.forms_fire[u.kind]
        ):
            return Order(u, FORM, None, self.fire_formation)
        if not advancing or u.move <= 0.0:
            return None
        if u.mounted:
            stop = self.cavalry_stop
        elif self.hold_in_range and u.fire_range > 0.0:
            stop = u.fire_range
        else:
            stop = self.stop_short
        if nearest <= stop:
            return None
        return Order(u, ADVANCE, None, "", stop)

    def _battery_order(self, u: Unit, nearest: float, advancing: bool) -> Order | None:
        """The order of a unit that deploys to fire, e.g. a battery (RULES.md §6.7): it
        deploys (unlimbers) once an enemy is within ``unlimber_within_inches``, else
        advances if its side advances; deployed, it limbers up again (§5.2 unlimber ->
        limber: back to its type's default formation) when its side advances and no enemy
        is within ``limber_beyond_inches``, if the doctrine sets it."""
        deploys_to = u.deploys_to
        if u.formation == deploys_to:
            beyond = self.limber_beyond
            if beyond is not None and advancing and nearest > beyond:
                return Order(u, FORM, None, self.types[u.kind].default_formation)
            return None
        if nearest <= self.unlimber_within:
            return Order(u, FORM, None, deploys_to)
        if advancing:
            return Order(u, ADVANCE, None, "", self.unlimber_within)
        return None

    def _tries_square(self, u: Unit, square: str) -> bool:
        """Whether ``u``, threatened by cavalry, is ordered into ``square``: only from a
        formation that may form it directly (RULES.md §1.7: not from skirmish order), unless
        the doctrine is the ``square_from_skirmish`` drill, whose order §1.7 then refuses."""
        return self.square_from_skirmish or square not in u.may_not_form

    def _leaves_skirmish(self, u: Unit, nearest: float) -> bool:
        """Whether ``u``, in skirmish order, forms the doctrine's fire formation: an enemy is
        within ``leave_skirmish_within_inches`` and its type has that formation (RULES.md
        §1.7; the change costs §5.2's reforming row: light infantry +1, other +2)."""
        within = self.leave_skirmish_within
        return (
            within is not None
            and nearest <= within
            and (u.kind, u.formation) in self.skirmish
            and self.forms_fire[u.kind]
        )

    def charge_target(self, u: Unit, targets: list[Unit]) -> Unit | None:
        """The enemy ``u`` would charge now, or None (RULES.md §6.4, §6.9).

        Only a unit whose type and formation may charge (RULES.md §1, §1.7: not artillery,
        not skirmishers) and that is not shaken, disordered or in melee may charge, and only
        an enemy within its move + 3 inches. It charges a target in a state
        listed in ``charge_when``, or one with at most 1/ratio of its strength. Preference:
        disordered or shaken first, then most hits, then nearest, then lowest id.

        ``targets`` are the enemies not in melee and not already charged.
        """
        if not u.may_charge or u.no_charge or u.shaken or u.disordered or u.melee is not None:
            return None
        reach = u.reach
        if reach <= 0.0:  # a square, or a unit that cannot move
            return None
        full, ratio = self.full_strength, self.ratio
        mine = full - u.total_hits
        no_squares = u.mounted and not self.cavalry_charges_square
        base = self.depth - u.pos  # the gap to an enemy is base - enemy.pos
        disordered, shaken, steady = self.charge_disordered, self.charge_shaken, self.charge_steady
        best = best_key = None
        for e in targets:
            gap = base - e.pos
            if gap > reach:
                continue
            if no_squares and e.square:
                continue
            in_state = disordered if e.disordered else shaken if e.shaken else steady
            if not (in_state or mine >= ratio * (full - e.total_hits)):
                continue
            key = (not (e.disordered or e.shaken), -e.total_hits, gap, e.id)
            if best_key is None or key < best_key:
                best, best_key = e, key
        return best

    def _charge_odds(self, targets: list[Unit]) -> tuple[bool, float]:
        """What a charger needs this bound: (is any target in a state ``charge_when`` lists,
        the strength to charge on the odds: ratio x the weakest target's boxes left)."""
        disordered, shaken, steady = self.charge_disordered, self.charge_shaken, self.charge_steady
        any_in_state = False
        weakest = full = self.full_strength
        for e in targets:
            if disordered if e.disordered else shaken if e.shaken else steady:
                any_in_state = True
            strength = full - e.total_hits
            if strength < weakest:  # noqa: PLR1730 - hot loop: a comparison is cheaper than min()
                weakest = strength
        return any_in_state, self.ratio * weakest

    def _square_candidates(self, own: list[Unit], cavalry: list[Unit]) -> set[str]:
        """Ids of own infantry that an enemy cavalry unit would charge next (one per cavalry).

        Only the battalion an enemy cavalry unit threatens forms square (RULES.md §6.7, house),
        chosen as a charger would choose (§6.9): disordered or shaken first, most hits,
        nearest, lowest id. ``cavalry`` are the enemy's unshaken cavalry not in melee.
        """
        ids = set()
        depth = self.depth
        for e in cavalry:
            reach = e.reach
            best = best_key = None
            for u in own:
                square = u.square_formation
                if not square or not self._tries_square(u, square) or u.melee is not None:
                    continue
                gap = depth - u.pos - e.pos
                if gap > reach:
                    continue
                key = (not (u.disordered or u.shaken), -u.total_hits, gap, u.id)
                if best_key is None or key < best_key:
                    best, best_key = u, key
            if best is not None:
                ids.add(best.id)
        return ids
