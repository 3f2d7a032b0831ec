"""Battle rules flattened into plain Python values for the hot loop.

:func:`compile_rules` reads a :class:`~battle.rules.BattleRules` once and caches the result
per rules object; the engine then does dictionary look-ups instead of walking pydantic models.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from battle.deck import deck_composition
from battle.dice import DiceExpression, parse_dice
from battle.doctrine import TacticalDoctrine
from battle.rules import BattleRules
from battle.withdrawal import WithdrawalTable, withdrawal_table

__all__ = ["Tables", "compile_rules"]

_CACHE: dict[int, tuple[BattleRules, Tables]] = {}


@dataclass(frozen=True, slots=True)
class Tables:
    """Everything the engine needs, as dicts and numbers."""

    rules: BattleRules
    hit_dice: DiceExpression
    morale: dict[str, int]
    #: frozenset({from, to}) -> §5.2 formation cost
    change_cost: dict[frozenset[str], int]
    default_formation: dict[str, str]
    #: name -> the tactical doctrine, compiled (RULES.md §6.7)
    doctrines: dict[str, TacticalDoctrine]
    #: §6.4 a unit may charge an enemy within its move + this many inches
    reach_bonus: float
    #: §6.4 ordinary advances stop this many inches short of contact
    stop_short: float
    #: §6.1 depth of the ground in inches
    depth: float
    #: (kind, formation) -> (fire CD (0: cannot fire), melee CD, fire range in inches (0:
    #: cannot fire), move per bound in inches, charge reach in inches (move + reach_bonus;
    #: 0 for a unit that cannot move, e.g. a square)) (RULES.md §1.1, §1.6, §6.4, §6.6)
    formation_numbers: dict[tuple[str, str], tuple[int, int, float, float, float]]
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
    charge_bonus: int  # §6.4
    charge_weak_target_bonus: int  # §6.4 (house)
    failed_charge_drop_back: float  # §6.4
    fire_and_charge: bool  # §4.6 variant
    cavalry_vs_square_cd: int  # §1.6 (house)
    cavalry_charge_multiplier: int  # §1.6 (house)
    withdrawal_threshold: float  # §7.2
    withdrawal: WithdrawalTable  # §7.2
    withdrawal_die: int  # §0.4
    withdrawal_success_total: int  # §0.4
    bound_minutes: int  # §6.2
    max_turns: int  # §6.8 (d) the hard cap
    max_units_per_force: int  # (house)
    _decks: dict[int, tuple[int, ...]] = field(default_factory=dict, repr=False, compare=False)

    def deck_for(self, units: int) -> tuple[int, ...]:
        """The §3.1 deck of a force of ``units`` units (>= 1), highest card first (cached).

        Raises
        ------
        ValueError
            If ``units`` < 1.
        """
        cards = self._decks.get(units)
        if cards is None:
            cards = tuple(deck_composition(units, self.rules.deck.explicit))
            self._decks[units] = cards
        return cards


def compile_rules(rules: BattleRules) -> Tables:
    """The :class:`Tables` for ``rules`` (cached per rules object)."""
    hit = _CACHE.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    cd = rules.combat_divisor
    fx = rules.formation_effects
    cd_fire: dict[tuple[str, str], int | None] = {
        ("infantry", "line"): cd.infantry,
        ("infantry", "column"): cd.infantry * fx.column_fire_cd_multiplier,
        ("infantry", "square"): cd.infantry * fx.square_fire_cd_multiplier,
        ("cavalry", "line"): cd.cavalry,
        ("cavalry", "column"): cd.cavalry * fx.column_fire_cd_multiplier,
        ("artillery", "unlimbered"): cd.artillery_unlimbered,
        ("artillery", "limbered"): None,  # §1.6 limbered artillery cannot fire
    }
    cd_melee = {
        ("infantry", "line"): cd.infantry,
        ("infantry", "column"): cd.infantry,
        ("infantry", "square"): cd.infantry,
        ("cavalry", "line"): cd.cavalry,
        ("cavalry", "column"): cd.cavalry,
        ("artillery", "unlimbered"): cd.artillery_unlimbered,
        ("artillery", "limbered"): cd.artillery_limbered,
    }
    ranges = rules.ranges_inches
    fire_range = {("infantry", f): ranges["infantry"] for f in ("line", "column", "square")} | {
        ("cavalry", "line"): ranges["cavalry"],
        ("cavalry", "column"): ranges["cavalry"],
        ("artillery", "unlimbered"): ranges["artillery_unlimbered"],
        ("artillery", "limbered"): 0.0,
    }
    move = {
        (kind, formation): inches
        for kind, by_formation in rules.moves_inches.items()
        for formation, inches in by_formation.items()
    }
    morale = (
        {g: rules.morale.base for g in ("raw", "regular", "veteran", "elite")}
        if rules.morale.uniform
        else dict(rules.morale.by_grade)
    )
    fc = rules.formation_change
    change_cost = {
        frozenset(("line", "column")): fc.line_column,
        frozenset(("line", "square")): fc.line_square,
        frozenset(("column", "square")): fc.column_square,
        frozenset(("limbered", "unlimbered")): fc.limber_unlimber,
    }
    reach_bonus = rules.charge.reach_bonus_inches
    numbers = {
        key: (
            (cd_fire[key] or 0) if fire_range[key] > 0 else 0,
            cd_melee[key],
            fire_range[key],
            move[key],
            move[key] + reach_bonus if move[key] > 0 else 0.0,
        )
        for key in cd_melee
    }
    tables = Tables(
        rules=rules,
        hit_dice=parse_dice(rules.hit_dice),
        morale=morale,
        change_cost=change_cost,
        default_formation={k: v.default_formation for k, v in rules.units.items()},
        doctrines={
            name: TacticalDoctrine(
                doc,
                depth=rules.ground_depth_inches,
                stop_short=rules.advance_stop_short_inches,
                full_strength=rules.destroyed_at_hits,
            )
            for name, doc in rules.doctrines.items()
        },
        reach_bonus=reach_bonus,
        stop_short=rules.advance_stop_short_inches,
        depth=rules.ground_depth_inches,
        formation_numbers=numbers,
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
        charge_bonus=rules.charge.bonus,
        charge_weak_target_bonus=rules.charge.target_disordered_morale_bonus,
        failed_charge_drop_back=rules.charge.failed_drop_back_inches,
        fire_and_charge=rules.charge.fire_and_charge,
        cavalry_vs_square_cd=fx.cavalry_vs_square_cd_multiplier,
        cavalry_charge_multiplier=fx.cavalry_charge_bonus_multiplier,
        withdrawal_threshold=rules.withdrawal.threshold_percent,
        withdrawal=withdrawal_table(rules.withdrawal),
        withdrawal_die=rules.withdrawal_die,
        withdrawal_success_total=rules.withdrawal_success_total,
        bound_minutes=rules.bound_minutes,
        max_turns=rules.max_turns,
        max_units_per_force=rules.max_units_per_force,
    )
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[id(rules)] = (rules, tables)
    return tables
