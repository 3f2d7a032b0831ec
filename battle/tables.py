"""Battle rules flattened into plain Python values.

:func:`compile_rules` reads a :class:`~battle.rules.BattleRules` once and caches the result
per rules object; :mod:`battle.kernel.pack` turns it into the compiled kernel's arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from battle.dice import DiceExpression, parse_dice
from battle.formation import change_cost as total_of_change
from battle.rules import BattleRules, DoctrineRules
from battle.withdrawal import WithdrawalTable, withdrawal_table

__all__ = ["FormationNumbers", "Tables", "TypeNumbers", "compile_rules"]

_CACHE: dict[int, tuple[BattleRules, Tables]] = {}


class TypeNumbers(NamedTuple):
    """A unit type's flags, compiled from ``battle.units.<type>`` (RULES.md §1, §1.6, §7.2)."""

    name: str
    letter: str  # force-flag letter (6i1c1a)
    id_prefix: str  # unit ids R-I1
    default_formation: str
    battery: bool  # §7.2 counts as a battery, not a flag, when eliminated
    mounted: bool  # §1.6 cavalry rules; the threat squares form against (§6.7)
    foot: bool  # §1.6 a mounted charger doubles its bonus on it unless it is in square
    light: bool  # §5.2 reforming from skirmish: light +1, other +2
    vs_square_x: int  # §1.6 CD multiplier in melee against a square
    charge_vs_foot_x: int  # §1.6 charge-bonus multiplier against foot not in square
    formations: tuple[str, ...]
    deploys_to: str  # §6.7 the formation a doctrine deploys it into ("" if none)
    square_formation: str  # §1.6 its square formation ("" if it has none)


class FormationNumbers(NamedTuple):
    """One formation of one type, compiled (RULES.md §1.1, §1.6, §1.7, §6.4, §6.6).

    ``fire_cd`` is 0 for a formation that cannot fire; ``reach`` (move + the §6.4 charge
    reach bonus, inches) is 0 for one that cannot move.
    """

    fire_cd: int
    melee_cd: int
    fire_range: float
    move: float
    reach: float
    fired_at_x: int  # §1.7 CD multiplier of fire at a unit in this formation
    may_charge: bool  # §6.4 the type charges and this formation may
    square: bool  # §1.6
    may_not_form: frozenset[str]  # §1.7 formations it may not change to directly


@dataclass(frozen=True, slots=True)
class Tables:
    """Everything the engine needs, as dicts and numbers."""

    rules: BattleRules
    hit_dice: DiceExpression
    morale: dict[str, int]
    #: frozenset({from, to}) -> §5.2 formation cost
    change_cost: dict[frozenset[str], int]
    #: (type, from, to) -> the change's own §5.2 total, with the reforming-from-skirmish row
    #: (battle.formation.change_cost, compiled once); a change not listed cannot be made
    change_totals: dict[tuple[str, str, str], int]
    default_formation: dict[str, str]
    #: name -> the tactical doctrine (RULES.md §6.7; packed for the kernel by
    #: battle.kernel.pack.doctrine_arrays)
    doctrines: dict[str, DoctrineRules]
    #: §6.4 a unit may charge an enemy within its move + this many inches
    reach_bonus: float
    #: §6.4 ordinary advances stop this many inches short of contact
    stop_short: float
    #: §6.1 depth of the ground in inches
    depth: float
    #: unit type name -> its compiled flags (RULES.md §1)
    unit_types: dict[str, TypeNumbers]
    #: (type, formation) -> its numbers (RULES.md §1.1, §1.6, §1.7, §6.4, §6.6)
    formations: dict[tuple[str, str], FormationNumbers]
    #: force-flag letter -> unit type name
    letters: dict[str, str]
    #: (type, formation) pairs in skirmish order (RULES.md §1.7, §5.2)
    skirmish: frozenset[tuple[str, str]]
    #: the numbers a bound reads, copied out of the pydantic model once: reading a model's
    #: attribute is several times slower than a plain one (see config/rules.yaml for each)
    initiative_roll: bool  # §6.2 variant roll-initiative
    cumulative_morale: bool  # §4.3 variant cumulative
    shaken_penalty: int  # §1.5
    destroyed_at: int  # §1.2
    half_strength_at: int  # §6.3 step 6
    casualty_per_morale_hit: int  # §4.4
    hits_on_pass: int  # §4.4
    hits_on_fail: int  # §4.4
    lose_at_cards: int  # §3.4
    deck_draw: str  # §3.2 reshuffle | draw-through
    deck_removal: str  # §3.3 highest | random
    deploy: float  # §6.1 (house)
    fall_back: float  # §6.5
    reaction_die: int  # §0.3
    initiative_die: int  # §6.2 (house)
    charge_bonus: int  # §6.4
    charge_weak_target_bonus: int  # §6.4 (house)
    failed_charge_drop_back: float  # §6.4
    fire_and_charge: bool  # §4.6 variant
    withdrawal_threshold: float  # §7.2
    withdrawal: WithdrawalTable  # §7.2
    withdrawal_die: int  # §0.4
    withdrawal_success_total: int  # §0.4
    bound_minutes: int  # §6.2
    max_turns: int  # §6.8 (d)
    turns_from_first_check: bool  # §6.8 variant fifteen-after-check
    max_turns_cap: int  # (house) the hard cap of every battle
    light_from_skirmish: int  # §5.2
    other_from_skirmish: int  # §5.2
    no_charge_after_fail: bool  # §6.4 variant
    countercharge: bool  # §6.10 variants ...
    pursuit: bool
    pursuit_x: int
    free_attack: bool
    free_attack_x: int
    move_and_fire: bool
    move_and_fire_x: int
    move_and_fire_fraction: float
    max_units_per_force: int  # (house)


def compile_rules(rules: BattleRules) -> Tables:
    """The :class:`Tables` for ``rules`` (cached per rules object)."""
    hit = _CACHE.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    reach_bonus = rules.charge.reach_bonus_inches
    unit_types: dict[str, TypeNumbers] = {}
    formations: dict[tuple[str, str], FormationNumbers] = {}
    for name, ut in rules.units.items():
        unit_types[name] = TypeNumbers(
            name,
            ut.letter,
            ut.id_prefix,
            ut.default_formation,
            ut.lost_as == "battery",
            ut.mounted,
            ut.foot,
            ut.light,
            ut.vs_square_melee_cd_multiplier,
            ut.charge_bonus_vs_foot_multiplier,
            tuple(ut.formations),
            ut.deploys_to or "",
            next((f for f, fr in ut.formations.items() if fr.square), ""),
        )
        for fname, f in ut.formations.items():
            cd = f.combat_divisor if f.combat_divisor is not None else ut.combat_divisor
            fire_range = f.range_inches if f.range_inches is not None else ut.range_inches
            fires = f.fires and fire_range > 0
            formations[(name, fname)] = FormationNumbers(
                cd * f.fire_cd_multiplier if fires else 0,
                cd * f.melee_cd_multiplier,
                fire_range if fires else 0.0,
                f.move,
                f.move + reach_bonus if f.move > 0 else 0.0,
                f.fired_at_cd_multiplier,
                ut.can_charge and f.can_charge,
                f.square,
                frozenset(f.may_not_form),
            )
    morale = (
        {g: rules.morale.base for g in ("raw", "regular", "veteran", "elite")}
        if rules.morale.uniform
        else dict(rules.morale.by_grade)
    )
    fc = rules.formation_change
    pair_costs = {frozenset(pair.split("-")): cost for pair, cost in fc.costs.items()}
    change_totals = {
        (name, old, new): total_of_change(
            fc, old, new, from_skirmish=ut.formations[old].skirmish, light=ut.light
        )
        for name, ut in rules.units.items()
        for old in ut.formations
        for new in ut.formations
        if old != new
        and new not in ut.formations[old].may_not_form
        and frozenset((old, new)) in pair_costs
    }
    tables = Tables(
        rules=rules,
        hit_dice=parse_dice(rules.hit_dice),
        morale=morale,
        change_cost=pair_costs,
        change_totals=change_totals,
        default_formation={k: v.default_formation for k, v in rules.units.items()},
        unit_types=unit_types,
        formations=formations,
        letters={t.letter: name for name, t in unit_types.items()},
        skirmish=frozenset(
            (name, fname)
            for name, ut in rules.units.items()
            for fname, f in ut.formations.items()
            if f.skirmish
        ),
        doctrines=dict(rules.doctrines),
        reach_bonus=reach_bonus,
        stop_short=rules.advance_stop_short_inches,
        depth=rules.ground_depth_inches,
        initiative_roll=rules.initiative == "roll",
        cumulative_morale=rules.morale.model == "cumulative",
        shaken_penalty=rules.morale.shaken_penalty,
        destroyed_at=rules.destroyed_at_hits,
        half_strength_at=rules.half_strength_hits,
        casualty_per_morale_hit=rules.casualty_test_per_morale_hit,
        hits_on_pass=rules.hits_on_casualty_pass,
        hits_on_fail=rules.hits_on_casualty_fail,
        lose_at_cards=rules.deck.lose_at_cards,
        deck_draw=rules.deck.draw,
        deck_removal=rules.deck.removal,
        deploy=rules.deploy_inches,
        fall_back=rules.fall_back_inches,
        reaction_die=rules.reaction_die,
        initiative_die=rules.initiative_die,
        charge_bonus=rules.charge.bonus,
        charge_weak_target_bonus=rules.charge.target_disordered_morale_bonus,
        failed_charge_drop_back=rules.charge.failed_drop_back_inches,
        fire_and_charge=rules.charge.fire_and_charge,
        withdrawal_threshold=rules.withdrawal.threshold_percent,
        withdrawal=withdrawal_table(rules.withdrawal),
        withdrawal_die=rules.withdrawal_die,
        withdrawal_success_total=rules.withdrawal_success_total,
        bound_minutes=rules.bound_minutes,
        max_turns=rules.max_turns,
        turns_from_first_check=rules.turn_limit_from == "first-check",
        max_turns_cap=rules.max_turns_cap,
        light_from_skirmish=fc.light_from_skirmish,
        other_from_skirmish=fc.other_from_skirmish,
        no_charge_after_fail=rules.charge.no_charge_after_fail,
        countercharge=rules.options.countercharge,
        pursuit=rules.options.pursuit,
        pursuit_x=rules.options.pursuit_target_cd_multiplier,
        free_attack=rules.options.free_attack,
        free_attack_x=rules.options.free_attack_cd_multiplier,
        move_and_fire=rules.options.move_and_fire,
        move_and_fire_x=rules.options.move_and_fire_cd_multiplier,
        move_and_fire_fraction=rules.options.move_and_fire_move_fraction,
        max_units_per_force=rules.max_units_per_force,
    )
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[id(rules)] = (rules, tables)
    return tables
