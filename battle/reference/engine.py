"""The abstract quick battle (RULES.md §3–§7): :func:`fight`.

A battle is a sequence of turns of two bounds each (§6.2). Each bound runs the phases of
RULES.md §6.3 for the active side; the battle ends at once when a side is down to its last
card, has no unit left, or withdraws — checked after every phase (§6.8) — or as a draw after
``max_turns`` turns (from the start, or from the first withdrawal check under
``fifteen-after-check``; ``max_turns_cap`` bounds every battle) or at nightfall
(``max_bounds``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from battle.arrivals import Arrival, due_arrivals
from battle.dice import Dice
from battle.reference import phases
from battle.reference.arrivals import join_due
from battle.reference.doctrine import ADVANCE, Order, TacticalDoctrine
from battle.reference.ending import check_end, finish, first_side, withdrawal_phase
from battle.reference.state import BattleState
from battle.refusals import refuse_doctrines, refuse_force, refuse_repeats, refuse_unit_type
from battle.result import BattleResult
from battle.rules import BattleRules
from battle.tables import Tables, compile_rules
from battle.units import Force

__all__ = ["fight"]

#: the last pair of forces checked for each compiled rules (id of Tables -> the pair): batch
#: runs and --odds fight the same frozen forces many times
_CHECKED: dict[int, tuple[Tables, Force, Force]] = {}


def fight(
    force_a: Force,
    force_b: Force,
    rules: BattleRules,
    rng: np.random.Generator,
    *,
    attacker: int = 0,
    doctrines: tuple[str, str] = ("steady", "steady"),
    max_bounds: int | None = None,
    record_events: bool = True,
    arrivals: Sequence[Arrival] = (),
    rewind: bool = True,
) -> BattleResult:
    """Fight one abstract battle between two forces (RULES.md §6) in plain Python: the
    reference engine. Parameters, result and errors as :func:`battle.engine.fight` (which
    picks the engine), but ``rewind``: True (the default) leaves ``rng`` at the end of the
    last block of 64 uniforms the battle read (:class:`battle.dice.Dice`); False, just after
    the last uniform used.
    """
    tables = compile_rules(rules)
    seen = _CHECKED.get(id(tables))
    if seen is None or seen[0] is not tables or seen[1] is not force_a or seen[2] is not force_b:
        _check_forces(tables, force_a, force_b)
        if len(_CHECKED) > 64:
            _CHECKED.clear()
        _CHECKED[id(tables)] = (tables, force_a, force_b)  # the same pair again: checked
    refuse_doctrines(tables, doctrines)
    docs = [_doctrine(tables, name) for name in doctrines]
    due = due_arrivals(arrivals, (force_a, force_b), tables.max_units_per_force)
    for a in due:
        for u in a.units:
            refuse_unit_type(tables, u)
    start = None if rewind else rng.bit_generator.state
    dice = _CountingDice(rng)
    result = _fight(tables, force_a, force_b, dice, attacker, docs, max_bounds, record_events, due)
    if start is not None:  # stand just after the last uniform used
        used = dice.used()
        rng.bit_generator.state = start
        if used:
            rng.random(used)
    return result


def _fight(
    tables: Tables,
    force_a: Force,
    force_b: Force,
    dice: Dice,
    attacker: int,
    docs: list[TacticalDoctrine],
    max_bounds: int | None,
    record_events: bool,
    due: list[Arrival],
) -> BattleResult:
    """The battle itself: turns of two bounds and a withdrawal phase (RULES.md §6.2, §7)."""
    st = BattleState(tables, (force_a, force_b), dice, attacker, record_events, due)
    st.changed = True
    if check_end(st):  # a side may start at its losing card count (arw-1998, one unit)
        return st.result()
    limit, cap, from_check = tables.max_turns, tables.max_turns_cap, tables.turns_from_first_check
    while not st.over:
        if from_check:
            first_check = st.first_check_turn
            ended = st.turn >= cap or (first_check is not None and st.turn >= first_check + limit)
        else:
            ended = st.turn >= limit or st.turn >= cap
        if ended:
            finish(st, None, "turn-limit")
            break
        st.turn += 1
        first = first_side(st)
        for side in (first, 1 - first):
            # (late arrivals that join a side do so here, at the start of its bound, §8.4)
            if max_bounds is not None and st.bounds >= max_bounds:
                finish(st, None, "nightfall")
                break
            if due:
                join_due(st, due)
            _bound(st, side, docs[side])
            if st.over:
                break
        if not st.over:
            withdrawal_phase(st)
    return st.result()


class _CountingDice(Dice):
    """Dice that know how many uniforms they handed out (for ``rewind=False``)."""

    __slots__ = ("blocks",)

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        self.blocks = 0

    def _refill(self) -> int:
        self.blocks += 1
        return super()._refill()

    def used(self) -> int:
        """Uniforms used so far."""
        return 0 if self.blocks == 0 else (self.blocks - 1) * 64 + self._i


_DOCTRINES: dict[tuple[int, str], tuple[Tables, TacticalDoctrine]] = {}


def _doctrine(t: Tables, name: str) -> TacticalDoctrine:
    """The tactical doctrine ``name`` of the rules ``t`` (RULES.md §6.7), made once per rules."""
    made = _DOCTRINES.get((id(t), name))
    if made is None or made[0] is not t:
        doctrine = TacticalDoctrine(
            t.doctrines[name],
            depth=t.depth,
            stop_short=t.stop_short,
            full_strength=t.destroyed_at,
            unit_types=t.unit_types,
            skirmish=t.skirmish,
        )
        if len(_DOCTRINES) > 256:
            _DOCTRINES.clear()
        made = _DOCTRINES[(id(t), name)] = (t, doctrine)
    return made[1]


def _check_forces(t: Tables, force_a: Force, force_b: Force) -> None:
    """Refuse forces the battle cannot fight (see :func:`fight`); raises ForceError."""
    destroyed_at = t.destroyed_at
    for force in (force_a, force_b):
        for u in force.units:
            refuse_unit_type(t, u)
        refuse_force(t, force, any(u.hits < destroyed_at for u in force.units))
    every = [u.id for f in (force_a, force_b) for u in f.units]
    if len(set(every)) != len(every):
        refuse_repeats(every)


def _bound(st: BattleState, side: int, doc: TacticalDoctrine) -> None:
    """One bound of ``side`` (RULES.md §6.3), with the end check after every phase (§6.8).

    ``st.changed`` says whether a card was lost or a unit left since the last end check:
    only then can the battle have ended (RULES.md §6.8 a, c).
    """
    st.bounds += 1
    record = st.record
    card = st.decks[side].draw(st.dice)
    orders: list[Order] = doc.choose_orders(
        st.field[side], st.field[1 - side], card, attacking=(side == st.attacker)
    )
    for o in orders:
        o.unit.activated = True
    if st.t.move_and_fire:  # §6.10: an advancing unit may fire as it moves
        for o in orders:
            if o.action == ADVANCE:
                o.unit.advancing = True
    if record:
        st.bound_started(side, card, orders)
        st.phase(side, "response")
    # 2. response: stand tests, formation completion, charge declarations
    phases.stand_tests(st, side)
    phases.completion_tests(st, side)
    charges = phases.declare_charges(st, side, orders)
    if st.changed and check_end(st):
        return
    # 3. fire
    if record:
        st.phase(side, "fire")
    phases.fire_phase(st, side, charges)
    if st.changed and check_end(st):
        return
    # 4. melee
    if record:
        st.phase(side, "melee")
    phases.melee_phase(st)
    if st.changed and check_end(st):
        return
    # 5. manoeuvre
    if record:
        st.phase(side, "manoeuvre")
    phases.manoeuvre_phase(st, side, orders, charges)
    if st.changed and check_end(st):
        return
    # 6. checks
    if record:
        st.phase(side, "checks")
    phases.half_strength_checks(st)
    phases.end_bound(st, side, orders)
    if st.changed:
        check_end(st)
