"""Battle rules flattened into plain Python values for the hot loop.

:func:`compile_rules` reads a :class:`~battle.rules.BattleRules` once and caches the result
per rules object; the engine then does dictionary look-ups instead of walking pydantic models.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from battle.deck import deck_composition
from battle.dice import DiceExpression, parse_dice
from battle.rules import BattleRules, DoctrineRules

__all__ = ["Tables", "compile_rules"]

_CACHE: dict[int, tuple[BattleRules, Tables]] = {}


@dataclass(frozen=True)
class Tables:
    """Everything the engine needs, as dicts and numbers."""

    rules: BattleRules
    hit_dice: DiceExpression
    #: (kind, formation) -> combat divisor for fire (None: cannot fire) (RULES.md §1.1, §1.6)
    cd_fire: dict[tuple[str, str], int | None]
    #: (kind, formation) -> combat divisor in melee
    cd_melee: dict[tuple[str, str], int]
    #: (kind, formation) -> fire range in inches (0: cannot fire) (§6.6)
    fire_range: dict[tuple[str, str], float]
    #: (kind, formation) -> move per bound in inches (§6.6)
    move: dict[tuple[str, str], float]
    morale: dict[str, int]
    #: frozenset({from, to}) -> §5.2 formation cost
    change_cost: dict[frozenset[str], int]
    default_formation: dict[str, str]
    doctrines: dict[str, DoctrineRules]
    #: §6.4 a unit may charge an enemy within its move + this many inches
    reach_bonus: float = 3.0
    #: §6.4 ordinary advances stop this many inches short of contact
    stop_short: float = 1.0
    #: §6.1 depth of the ground in inches
    depth: float = 24.0
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
    tables = Tables(
        rules=rules,
        hit_dice=parse_dice(rules.hit_dice),
        cd_fire=cd_fire,
        cd_melee=cd_melee,
        fire_range=fire_range,
        move=move,
        morale=morale,
        change_cost=change_cost,
        default_formation={k: v.default_formation for k, v in rules.units.items()},
        doctrines=dict(rules.doctrines),
        reach_bonus=rules.charge.reach_bonus_inches,
        stop_short=rules.advance_stop_short_inches,
        depth=rules.ground_depth_inches,
    )
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[id(rules)] = (rules, tables)
    return tables
