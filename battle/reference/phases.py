"""The phases of one bound (RULES.md §6.3 steps 2–6), as functions of the battle state.

:class:`battle.reference.state.BattleState` keeps the units and decks; the rules it is
changed by are functions (:mod:`battle.reference.hits`, :mod:`battle.reference.losses`,
:mod:`battle.reference.ending`); these functions run a bound's phases with them, in the
order :func:`battle.reference.engine._bound` calls them. Each takes the state as its first
argument (typed, so that mypy checks every attribute it reads).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from battle.events import FormationChanged, MeleeResolved, Moved, StateChanged, TestRolled
from battle.formation import completion_total
from battle.reference.doctrine import Order
from battle.reference.hits import hit_filter, morale_test
from battle.reference.losses import bad_thing, drop_back, fall_back
from battle.reference.unit import Unit
from battle.units import ID as _ID

if TYPE_CHECKING:
    from battle.reference.state import BattleState

__all__ = [
    "completion_tests",
    "declare_charges",
    "end_bound",
    "fire_phase",
    "half_strength_checks",
    "manoeuvre_phase",
    "melee_phase",
    "resolve_melee",
    "stand_tests",
]


def stand_tests(st: BattleState, side: int) -> None:
    """Units an enemy charge reached last bound test to stand (RULES.md §6.4), by id.

    The charge is met here (its charger may be activated again, §6.4). A unit that stands is
    in melee with its charger and may give defensive fire this bound only (§6.9); one that
    fails falls back without fighting (§6.5) and, under ``pursuit`` (§6.10), its charger may
    follow it and fight at once.
    """
    charged = st.charged[side]
    if not charged:
        return
    if len(charged) > 1:
        charged.sort(key=_ID)
    t = st.t
    for u in charged:
        c = u.charged_by
        if c is None or u.out:
            continue
        c.charging = None  # the charge is met: the charger has no charge pending any more
        if c.out:
            u.charged_by = None
            continue
        if morale_test(st, u, 0, "stand") and not u.out:
            u.melee, c.melee = c, u
            u.stood_vs, c.stood_by = c, u
            u.charged_by = None
            continue
        u.charged_by = None
        bonus = c.charge_bonus
        c.charge_bonus = 0
        if u.out:
            continue
        if t.no_charge_after_fail:
            u.no_charge = True
        fall_back(st, u, t.fall_back, "fall-back")
        if t.pursuit and not u.out and not c.out:
            _pursue(st, c, u, bonus)
    charged.clear()


def _pursue(st: BattleState, c: Unit, u: Unit, bonus: int) -> None:
    """Variant ``pursuit`` (RULES.md §6.10): charger ``c`` follows ``u``, which failed to
    stand, with the rest of its charge reach, and fights it at once, ``u`` at CD x2."""
    t = st.t
    used = c.pos - c.charge_from
    gap = t.depth - c.pos - u.pos
    if gap <= 0.0 or c.reach - used < gap or c.melee is not None or u.melee is not None:
        return
    before = c.pos
    c.pos += gap
    if st.record:
        st.emit(Moved(st.turn, st.bounds, c.id, "pursue", before, c.pos, u.id))
    c.melee, u.melee = u, c
    resolve_melee(st, c, u, _charge_bonus(c, u, bonus), 0, 1, t.pursuit_x, "pursuit")


def completion_tests(st: BattleState, side: int) -> None:
    """Disordered units test to complete their formation change (RULES.md §5.2–§5.3), by id;
    a unit that fails is frozen for the bound and tests again next bound.

    The retest adds nothing for the failure itself (§5.3): only the unit's own state.
    """
    changing = st.changing[side]
    if not changing:
        return
    if len(changing) > 1:
        changing.sort(key=_ID)
    fc = st.r.formation_change
    die = st.t.reaction_die
    for u in changing:
        if not u.disordered or u.out:
            continue
        total = completion_total(
            fc,
            u.change_cost,
            grade=u.grade,
            irregular=u.irregular,
            shaken=u.shaken,
            hit_by_fire=u.hit_by_fire,
            charge_target=u.charge_target_flag,
        )
        roll = st.dice.d(die)
        passed = roll > total  # reaction test (RULES.md §0.3)
        if st.record:
            st.emit(
                TestRolled(
                    st.turn,
                    st.bounds,
                    "completion",
                    u.id,
                    f"d{die}",
                    roll,
                    total,
                    passed,
                    f"to complete forming {u.formation}",
                )
            )
        if passed:
            u.disordered = u.failed_change = False
            if st.record:
                st.emit(StateChanged(st.turn, st.bounds, u.id, "steady", f"formed {u.formation}"))
        else:
            u.failed_change = True
            u.frozen = True
    changing[:] = [u for u in changing if u.disordered and not u.out]


def declare_charges(st: BattleState, side: int, orders: list[Order]) -> list[Order]:
    """Activated units declare charges; each charger tests morale to go in (RULES.md §6.4).

    At most one charge at a time per unit and one charger per target: a unit with a charge
    pending, or a target already charged or declared on this bound, is refused. A charger
    that fails drops back (and leaves the table past its baseline).
    """
    charges = []
    t = st.t
    declared: set[str] = set()
    for o in orders:
        u, target = o.unit, o.target
        if o.action != "charge" or target is None:
            continue
        if u.out or u.frozen or u.shaken or u.disordered or u.melee is not None:
            continue
        if not u.may_charge or u.no_charge or u.charging is not None:
            continue
        if target.out or target.melee is not None or target.charged_by is not None:
            continue
        if target.id in declared:
            continue
        bonus = t.charge_weak_target_bonus if (target.disordered or target.shaken) else 0
        if morale_test(st, u, 0, "charge", bonus, reason=target.id if st.record else ""):
            u.charge_declared = True
            declared.add(target.id)
            charges.append(o)
        elif not u.out:
            if t.no_charge_after_fail:
                u.no_charge = True
            drop_back(st, u)
    return charges


def fire_phase(st: BattleState, side: int, charges: list[Order]) -> None:
    """Fire (RULES.md §6.3 step 3, §6.9 targets: nearest, most hits, lowest id).

    A unit that stood against a charge this bound fires at its charger unless it is
    disordered or cannot fire, and never later for that charge (§6.9).
    """
    t = st.t
    fire_and_charge = t.fire_and_charge
    move_and_fire = t.move_and_fire
    enemies = st.field[1 - side]
    target = None  # the enemy every firer aims at (found when first needed)
    depth = t.depth
    # Own units cannot leave the field while their side fires, so the live list is safe.
    for u in st.field[side]:
        if u.stood_vs is not None:
            stood = u.stood_vs
            u.stood_vs = None  # defensive fire happens in this bound or not at all (§6.9)
            if not (u.disordered or u.cd_fire == 0 or stood.out):
                hit_filter(st, u, stood, "defensive-fire")
                stood.hit_by_fire = True
                st.flagged[stood.side].append(stood)
            continue
        if u.disordered or u.cd_fire == 0 or u.melee is not None or u.charging is not None:
            continue  # a unit whose charge is pending is charging: it may not fire (§4.6)
        moving = False
        if u.activated:
            if move_and_fire and u.advancing:
                moving = True  # §6.10: fires with CD x2, then moves half
            elif not (fire_and_charge and u.charge_declared):
                continue
        if target is None or target.out:
            target = _fire_target(enemies)
            if target is None:
                continue
        if target.pos >= depth - u.pos - u.fire_range:  # in range
            if moving:
                hit_filter(st, u, target, "move-and-fire", 0, t.move_and_fire_x)
                u.half_move = True
            else:
                hit_filter(st, u, target, "fire")
            target.hit_by_fire = True
            st.flagged[target.side].append(target)


def melee_phase(st: BattleState) -> None:
    """Every pair in contact fights, both at once (RULES.md §4.5)."""
    pairs = []
    for u in st.sides[0]:
        if u.melee is not None and not u.out and not u.melee.out:
            pairs.append((u, u.melee))
    for a, b in pairs:
        if a.melee is not b:  # contact ended earlier this phase
            continue
        bonus_a = _charge_bonus(a, b, a.charge_bonus)
        bonus_b = _charge_bonus(b, a, b.charge_bonus)
        a.charge_bonus = b.charge_bonus = 0
        resolve_melee(st, a, b, bonus_a, bonus_b)


def resolve_melee(
    st: BattleState,
    a: Unit,
    b: Unit,
    bonus_a: int,
    bonus_b: int,
    x_a: int = 1,
    x_b: int = 1,
    how: str = "melee",
) -> None:
    """One round of melee between ``a`` and ``b`` (RULES.md §4.5): both apply the hit filter
    (charge bonuses added to D, CD multiplied by ``x_a`` / ``x_b``), then the outcome.

    The unit that inflicted fewer actual hits loses: a bad thing, and it falls back (after
    the ``free-attack`` of §6.10). A unit routed or destroyed by the melee has lost it,
    whatever the hits: one bad thing for its side, and its opponent holds. If both went,
    nobody lost. A tie leaves them in melee.
    """
    hits_by_a = hit_filter(st, a, b, how, bonus_a, x_a)
    hits_by_b = hit_filter(st, b, a, how, bonus_b, x_b)
    loser = None
    if a.out and b.out:
        outcome = "ended"
    elif a.out or b.out:
        outcome = "broken"
        loser = a if a.out else b
    elif hits_by_a == hits_by_b:
        outcome = "tie"
    else:
        outcome = "decided"
        loser = a if hits_by_a < hits_by_b else b
    if st.record:
        st.emit(
            MeleeResolved(
                st.turn,
                st.bounds,
                a.id,
                b.id,
                hits_by_a,
                hits_by_b,
                loser.id if loser else "",
                outcome,
            )
        )
    if loser is None:
        return
    bad_thing(st, loser.side, f"{loser.id} lost a melee" if st.record else "")
    if loser.out:
        return
    winner = b if loser is a else a
    t = st.t
    if t.free_attack and not winner.out:
        hit_filter(st, winner, loser, "free-attack", 0, t.free_attack_x)
        if loser.out:
            return
    fall_back(st, loser, t.fall_back, "fall-back")


def _charge_bonus(u: Unit, other: Unit, bonus: int) -> int:
    """``u``'s charge bonus against ``other`` (RULES.md §6.4, §1.6: a mounted charger
    multiplies it against foot not in square)."""
    if bonus and u.charge_vs_foot_x != 1 and other.foot and not other.square:
        bonus *= u.charge_vs_foot_x
    return bonus


def manoeuvre_phase(st: BattleState, side: int, orders: list[Order], charges: list[Order]) -> None:
    """Activated units move, charge, change formation or rally (RULES.md §6.3 step 5)."""
    for o in orders:
        u = o.unit
        if u.out or u.frozen or u.melee is not None:
            continue
        action = o.action
        if action == "charge":
            if u.charge_declared:
                _charge_move(st, u, o.target)
        elif action == "rally":
            if u.shaken and morale_test(st, u, 0, "rally"):
                u.shaken = False
                if st.record:
                    st.emit(StateChanged(st.turn, st.bounds, u.id, "rallied"))
        elif action == "form":
            _change_formation(st, u, o.formation)
        elif action == "advance":
            # the enemy's furthest-forward position now: a countercharge earlier in this
            # phase may have moved it up (RULES.md §6.10), and an advance still stops short
            # of it (§6.4)
            front = max([e.pos for e in st.field[1 - side]], default=-1.0)
            _advance(st, u, o.to_gap, front)


def _charge_move(st: BattleState, u: Unit, target: Unit | None) -> None:
    """Move a charger into contact (RULES.md §6.4); under ``countercharge`` (§6.10) a mounted
    target that is neither disordered nor shaken meets it halfway, both count as chargers."""
    if target is None or target.out or target.melee is not None:
        return
    if target.charged_by is not None:
        return
    t = st.t
    before = u.pos
    if t.countercharge and target.mounted and not (target.disordered or target.shaken):
        half = (t.depth - u.pos - target.pos) / 2
        u.pos += half
        other_before = target.pos
        target.pos += half
        u.melee, target.melee = target, u
        u.charge_bonus = target.charge_bonus = t.charge_bonus
        if st.record:
            st.emit(Moved(st.turn, st.bounds, u.id, "charge", before, u.pos, target.id))
            st.emit(
                Moved(
                    st.turn, st.bounds, target.id, "countercharge", other_before, target.pos, u.id
                )
            )
        return
    u.charge_from = before
    u.pos = t.depth - target.pos
    target.charged_by, u.charging = u, target
    st.charged[target.side].append(target)
    target.charge_target_flag = True
    st.flagged[target.side].append(target)
    u.charge_bonus = t.charge_bonus
    if st.record:
        st.emit(Moved(st.turn, st.bounds, u.id, "charge", before, u.pos, target.id))


def _change_formation(st: BattleState, u: Unit, formation: str) -> None:
    """Begin a formation change (RULES.md §5.1): at once in the new formation, disordered.

    Its completion total starts from the pair's cost (§5.2), plus the reforming row when it
    leaves skirmish order (light infantry +1, other infantry +2; §1.7). A change the type
    cannot make (no cost for the pair, or ``may_not_form``) is not made; one ``may_not_form``
    forbids (§1.7: no square straight from skirmish order) is logged as refused.
    """
    t = st.t
    cost = t.change_totals.get((u.kind, u.formation, formation))
    if cost is None:
        if formation in u.may_not_form and st.record:
            reason = f"may not form {formation} directly"
            st.emit(StateChanged(st.turn, st.bounds, u.id, "refused", reason))
        return
    numbers = t.formations[(u.kind, formation)]
    if st.record:
        st.emit(FormationChanged(st.turn, st.bounds, u.id, u.formation, formation))
    u.set_formation(formation, numbers)
    u.change_cost = cost
    u.disordered = True
    st.changing[u.side].append(u)


def _advance(st: BattleState, u: Unit, to_gap: float, front: float) -> None:
    """Move up to ``u.move`` inches (half of it after moving fire, §6.10), stopping
    ``to_gap`` (at least ``stop_short``) inches from the enemy's furthest-forward unit at
    position ``front`` (< 0: no enemy left)."""
    t = st.t
    stop = t.stop_short if t.stop_short > to_gap else to_gap
    room = (0.0 if front < 0 else t.depth - u.pos - front) - stop
    move = u.move * t.move_and_fire_fraction if u.half_move else u.move
    step = room if room < move else move
    if step <= 0.0:
        return
    before = u.pos
    u.pos += step
    if st.record:
        st.emit(Moved(st.turn, st.bounds, u.id, "advance", before, u.pos))


def half_strength_checks(st: BattleState) -> None:
    """A unit first reduced to 6+ actual hits takes a morale test (RULES.md §6.3 step 6)."""
    if not st.half_pending:
        return
    pending = sorted(st.half_pending, key=lambda u: (u.side, u.id))
    st.half_pending.clear()
    for u in pending:
        if not u.out:
            morale_test(st, u, 0, "half-strength")


def end_bound(st: BattleState, side: int, orders: list[Order]) -> None:
    """Clear the side's per-bound flags: activation, charges declared, frozen, moving fire,
    and hit by fire or charged since its last bound (used by completion tests, §5.2)."""
    for o in orders:
        u = o.unit
        u.activated = u.charge_declared = False
        if u.advancing:
            u.advancing = u.half_move = False
    for u in st.changing[side]:
        u.frozen = False
    flagged = st.flagged[side]
    for u in flagged:
        u.hit_by_fire = u.charge_target_flag = False
    flagged.clear()


def _fire_target(enemies: list[Unit]) -> Unit | None:
    """The enemy unit every firer aims at (RULES.md §6.9): the nearest, then most hits, then
    lowest id; units in melee are not fired on.

    The gap to an enemy depends only on its position, so every firer ranks the enemy units
    the same way and the nearest is the one furthest forward. Only the unit fired on takes
    hits during the fire phase, so the ranking stays as it was when the phase began.
    """
    best = None
    for e in enemies:
        if e.melee is not None:
            continue
        if best is not None:  # keep best unless e is further forward, or level with more hits
            if e.pos < best.pos:
                continue
            if e.pos == best.pos:
                if e.total_hits < best.total_hits:
                    continue
                if e.total_hits == best.total_hits and e.id > best.id:
                    continue
        best = e
    return best
