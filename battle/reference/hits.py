"""RULES.md §4: the 4-step hit filter and the tests and hits it brings, one function a step.

:func:`hit_filter` rolls D (§4.1), works out morale hits (§4.2, with :func:`combat_divisor`,
§1.1, §1.6, §1.7), has the target take a morale test (:func:`morale_test`, §4.3) and the
casualty filter (:func:`casualty_filter`, §4.4), and the hits taken (:func:`take_hits`, §1.2,
§6.3 step 6, §7.1). Each reads and changes one :class:`~battle.reference.state.BattleState`.
"""

from __future__ import annotations

from battle.events import HitResolved, StateChanged, TestRolled
from battle.fire import morale_hits
from battle.reference.losses import fail_morale, gone, leave_contact
from battle.reference.state import BattleState
from battle.reference.unit import Unit

__all__ = ["casualty_filter", "combat_divisor", "hit_filter", "morale_test", "take_hits"]

#: the ways of hitting that use the fire combat divisor (RULES.md §4, §6.10); others are melee
_FIRE = frozenset(("fire", "defensive-fire", "move-and-fire"))


def morale_test(
    st: BattleState,
    u: Unit,
    minus: int,
    kind: str,
    bonus: int = 0,
    in_melee: bool = False,
    reason: str = "",
) -> bool:
    """A morale test (RULES.md §4.3, §0.2); a failure is a bad thing and shakes or routs.

    ``minus``: morale hits (§4.3); ``bonus``: the §6.4 charge bonus to the test (house);
    ``reason``: kept in the event (a charge test names its target).
    A shaken unit tests at −10 (§1.5); so does, in melee, a unit that failed to complete
    a formation change (§5.3: it counts as shaken in melee).
    """
    if st.t.cumulative_morale and minus:
        u.morale -= minus
        minus = 0
    target = u.morale - minus + bonus
    if u.shaken or (in_melee and u.failed_change):
        target -= st.t.shaken_penalty
    roll = st.dice.d(st.pct_die)  # a percentage test (§0.2): passes on roll <= target
    passed = roll <= target
    if st.record:
        st.emit(
            TestRolled(st.turn, st.bounds, kind, u.id, st.pct_name, roll, target, passed, reason)
        )
    if not passed:
        fail_morale(st, u, kind)
    return passed


def take_hits(st: BattleState, u: Unit, hits: int) -> int:
    """``u`` takes ``hits`` actual hits, at most up to destruction; returns those taken.

    They count toward its side's casualties (§7.1) unless it routed; a unit first at 6+
    hits owes a half-strength test in the checks phase (§6.3 step 6); at 10 it is
    destroyed (§1.2) and is a flag, or a battery, lost for §7.2.
    """
    total = u.total_hits
    room = st.t.destroyed_at - total
    if hits > room:
        hits = room if room > 0 else 0
    u.hits += hits
    total += hits
    u.total_hits = total
    if not u.routed:  # a routed unit's remaining boxes were all counted when it routed
        st.lost[u.side] += hits
    if not u.half_tested and total >= st.t.half_strength_at:
        u.half_tested = True
        st.half_pending.append(u)
    if total >= st.t.destroyed_at and not u.destroyed:
        if u.routed:
            u.routed = False
        else:
            gone(st, u)
        u.destroyed = True
        if u.battery:
            st.tally[u.side].batteries += 1
        else:
            st.tally[u.side].flags += 1
        leave_contact(st, u)
        if st.record:
            st.emit(
                StateChanged(
                    st.turn,
                    st.bounds,
                    u.id,
                    "destroyed",
                    f"{st.t.destroyed_at} actual hits",
                )
            )
    return hits


def hit_filter(st: BattleState, a: Unit, b: Unit, how: str, bonus: int = 0, cd_x: int = 1) -> int:
    """The 4-step hit filter of ``a`` on ``b`` (RULES.md §4.1–§4.4); returns actual hits.

    ``how``: ``fire``, ``defensive-fire`` or ``move-and-fire`` use ``a``'s fire CD,
    ``melee``, ``free-attack`` and ``pursuit`` its melee CD (:meth:`combat_divisor`).
    ``bonus`` is added to D (§6.4); ``cd_x`` multiplies the CD (§6.10 options). The
    HitResolved event goes before the events of the tests it caused.
    """
    mark = len(st.events)
    d_roll = st.t.hit_dice.roll(st.dice)  # §4.1 D, e.g. 20 + 2*d10
    melee = how not in _FIRE
    cd = combat_divisor(a, b, melee) * cd_x
    h = morale_hits(d_roll + bonus, cd)  # §4.2 h = ceil(D / CD)
    morale_test(st, b, h, "morale", 0, melee)  # §4.3
    hits = take_hits(st, b, casualty_filter(st, b, h))  # §4.4
    if st.record:
        event = HitResolved(
            st.turn, st.bounds, how, a.id, b.id, melee, d_roll, bonus, cd, h, hits,
            b.total_hits,
        )  # fmt: skip
        st.events.insert(mark, event)
    return hits


def combat_divisor(a: Unit, b: Unit, melee: bool) -> int:
    """``a``'s combat divisor against ``b`` (RULES.md §1.1, §1.6, §1.7): in melee its
    formation's melee CD, times its type's multiplier against a square (cavalry ×3);
    in fire its formation's fire CD times ``b``'s fired-at multiplier (skirmishers ×2)."""
    if melee:
        return a.cd_melee * (a.vs_square_x if b.square else 1)
    return a.cd_fire * b.fired_at_x


def casualty_filter(st: BattleState, b: Unit, h: int) -> int:
    """The casualty filter (RULES.md §4.4): a percentage test at 10 × ``h``; pass: 3
    actual hits, fail: 1."""
    roll = st.dice.d(st.pct_die)
    target = st.t.casualty_per_morale_hit * h
    passed = roll <= target
    if st.record:
        st.emit(TestRolled(st.turn, st.bounds, "casualty", b.id, st.pct_name, roll, target, passed))
    return st.t.hits_on_pass if passed else st.t.hits_on_fail
