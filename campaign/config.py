"""The full rules (battle + campaign) and how they are loaded (RULES.md §8, §9)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from battle.configload import RULES_FILE, load_rules_document, rules_hash, validate
from battle.errors import ConfigError
from battle.forces import UNIT_CEILING
from battle.ranges import Range
from battle.rules import BattleRules

__all__ = ["CampaignRules", "LoadedRules", "Rules", "StrategyDoctrine", "load_rules"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# Ranges (battle/ranges.py); every bound not stated by RULES.md is marked (house).
_Units = Annotated[int, Range(0, UNIT_CEILING)]  # (house) units of one arm in a division
_Hours = Annotated[float, Range(0, 1000)]  # (house) expected march hours
_Ratio = Annotated[float, Range(0, 100)]  # (house) own boxes over the enemy's, a weight
_Minutes = Annotated[int, Range(1, 1440)]  # (house) a wait of at most a day
_Junctions = Annotated[int, Range(0, 1000)]  # (house) a count of junctions along roads


class InfantryRoll(_Strict):
    max_roll: Annotated[int, Range(1, 100)]  # §2.1 a d100 roll
    infantry: _Units


class StrategyDoctrine(_Strict):
    """RULES.md §8.8 a strategy doctrine as data (read by campaign/strategy/doctrine.py).

    Hours are expected march hours (rough roads priced in); ratios are own boxes over the
    enemy's estimated boxes. Each field's one-line meaning is in config/rules.yaml.
    """

    attack_ratio: _Ratio
    seek_hours: _Hours
    guard_hours: _Hours
    concentrate: bool
    concentrate_hours: _Hours
    flank: bool
    rough_risk_weight: _Ratio
    pursue_hours: _Hours
    regroup: bool
    objectives_first: bool
    advance_on_base: bool
    plan_slack_hours: _Hours
    guns_hours: _Hours


#: a share of a distance, 0 to 1
_Fraction = Annotated[float, Range(0, 1)]


class CampaignRules(_Strict):
    """Every number of the campaign (RULES.md §2, §7.6, §8); defaults in config/rules.yaml."""

    divisions_per_side: Annotated[int, Range(1, 50)]  # (house)
    division_infantry_table: list[InfantryRoll]
    division_cavalry: _Units
    division_artillery: _Units
    division_light_infantry: _Units = 0
    rough_road_pass: Annotated[float, Range(0, 100)]  # §8.2 percent
    rough_road_retry_minutes: _Minutes
    day_start_minutes: Annotated[int, Range(0, 1440)]  # §8.3 minutes after midnight
    day_end_minutes: Annotated[int, Range(0, 1440)]  # §8.3 minutes after midnight
    time_limit_days: Annotated[int, Range(1, 365)]  # (house)
    fall_back_junctions: _Junctions
    fog_sight_junctions: _Junctions
    withdrawal_threshold_percent: Annotated[float, Range(0, 100)]  # §7.6 percent
    withdrawal_scale: Literal["division", "unit"]
    batteries_per_factor: Annotated[int, Range(1, 100)]  # (house)
    max_events: Annotated[int, Range(100, 10_000_000)]  # (house)
    hold_minutes: _Minutes
    #: (house) RULES.md §8.4: the winner of a battle on a road re-forms this long before it
    #: marches on, so the beaten force, falling back down the same road, is not caught at
    #: its first junction back for arriving the same minute (0: it marches on at once)
    road_victor_rally_minutes: Annotated[int, Range(0, 240)] = 15
    opening_waypoint_window: tuple[_Fraction, _Fraction]
    battle_doctrine: str
    doctrines: dict[Literal["aggressive", "cautious", "balanced", "raider"] | str, StrategyDoctrine]
    # (house, optional) variant `terrain`: training grades the defender gains by a junction's
    # map terrain (campaign/terrain.py); none by default, and config/rules.yaml leaves it out
    # so that the default rules (and their hash) are as before
    terrain_grade_steps: dict[str, Annotated[int, Range(0, 3)]] = {}

    @property
    def daylight_hours(self) -> float:
        """Marching hours in a day (RULES.md §8.3), from ``day_start``/``day_end_minutes``."""
        return (self.day_end_minutes - self.day_start_minutes) / 60.0

    @field_validator("division_infantry_table")
    @classmethod
    def _table_covers_d100(cls, rows: list[InfantryRoll]) -> list[InfantryRoll]:
        """RULES.md §2.1: the rows' max_roll rise and the last is 100 (every d100 roll)."""
        if not rows:
            raise ValueError(
                "the table is empty; give rows such as [{max_roll: 33, infantry: 6}, "
                "{max_roll: 66, infantry: 5}, {max_roll: 100, infantry: 4}]"
            )
        rolls = [row.max_roll for row in rows]
        if any(b <= a for a, b in itertools.pairwise(rolls)):
            raise ValueError(f"the rows' max_roll must rise from row to row (found {rolls})")
        if rolls[-1] != 100:
            raise ValueError(
                f"the last row's max_roll is {rolls[-1]}, so a d100 roll above it has no row; "
                "end the table with max_roll: 100"
            )
        return rows

    @model_validator(mode="after")
    def _daylight(self) -> CampaignRules:
        """RULES.md §8.3: daylight starts before it ends."""
        if self.day_start_minutes >= self.day_end_minutes:
            raise ValueError(
                f"day_start_minutes ({self.day_start_minutes}) must be before day_end_minutes "
                f"({self.day_end_minutes}) (minutes after midnight, e.g. 360 and 1200)"
            )
        return self


class Rules(_Strict):
    """The whole rules document: ``battle`` (RULES.md §0–§7) and ``campaign`` (§8)."""

    battle: BattleRules
    campaign: CampaignRules


@dataclass(frozen=True)
class LoadedRules:
    """Validated rules plus where they came from (for log headers and batch results)."""

    rules: Rules
    variants: tuple[str, ...]
    overrides: tuple[tuple[str, Any], ...]
    hash: str

    @property
    def label(self) -> str:
        """A short human label: ``default``, ``two-dice`` or ``two-dice+2 overrides``."""
        name = "+".join(self.variants) or "default"
        if self.overrides:
            name += "+" + ",".join(f"{k}={v}" for k, v in self.overrides)
        return name


def _cross_check(rules: Rules, origins: Mapping[str, list[str]]) -> None:
    """Rules that tie the campaign's keys to the battle's (after both validated).

    Raises
    ------
    ConfigError
        If ``campaign.battle_doctrine`` is not a tactical doctrine of ``battle.doctrines``.
    """
    c, b = rules.campaign, rules.battle
    # a division that could never fight (larger than a battle's force may be) is refused
    # before thousands of units are raised and marched (issue 32)
    largest = (
        max(row.infantry for row in c.division_infantry_table)
        + c.division_cavalry
        + c.division_artillery
        + c.division_light_infantry
    )

    def fail(keys: tuple[str, ...], what: str, fix: str, shown: str | None = None) -> None:
        sources = sorted({s for k, v in origins.items() if k.startswith(keys) for s in v})
        raise ConfigError(
            what, source=", ".join(sources or [str(RULES_FILE)]), key=shown or keys[0], fix=fix
        )

    if largest > b.max_units_per_force:
        fail(
            ("campaign.division_", "battle.max_units_per_force"),
            f"a division may have up to {largest} units (division_infantry_table, "
            "division_cavalry, division_artillery, division_light_infantry), more than a "
            f"force may bring to a battle (battle.max_units_per_force: {b.max_units_per_force})",
            "Give divisions fewer units, or raise battle.max_units_per_force.",
            shown="campaign.division_*",
        )
    if c.battle_doctrine not in b.doctrines:
        fail(
            ("campaign.battle_doctrine", "battle.doctrines"),
            f"no tactical doctrine named {c.battle_doctrine!r}",
            f"Choose one of: {', '.join(sorted(b.doctrines))} (battle.doctrines).",
        )


def load_rules(
    variants: list[str] | tuple[str, ...] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> LoadedRules:
    """Load config/rules.yaml with named variants and dotted overrides applied, validated.

    Raises
    ------
    ConfigError
        On an unknown variant, an unknown key (typo), a value of the wrong kind (true/false
        is not a number), daylight that ends before it starts, an infantry table that does
        not cover d100, an unknown ``campaign.battle_doctrine``, or division sizes over
        10,000 units (``battle.forces.UNIT_CEILING``).
    """
    variants = tuple(variants or ())
    document, origins = load_rules_document(list(variants), overrides)
    rules = validate(Rules, document, origins)
    _cross_check(rules, origins)
    return LoadedRules(
        rules=rules,
        variants=variants,
        overrides=tuple(sorted((overrides or {}).items())),
        hash=rules_hash(document),
    )
