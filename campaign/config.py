"""The full rules (battle + campaign) and how they are loaded (RULES.md §8, §9)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from battle.configload import RULES_FILE, load_rules_document, rules_hash, validate
from battle.errors import ConfigError
from battle.forces import UNIT_CEILING
from battle.rules import BattleRules

__all__ = ["CampaignRules", "LoadedRules", "Rules", "StrategyDoctrine", "load_rules"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class InfantryRoll(_Strict):
    max_roll: int = Field(ge=1, le=100)
    infantry: int = Field(ge=0, le=UNIT_CEILING)


class StrategyDoctrine(_Strict):
    """RULES.md §8.8 a strategy doctrine as data (read by campaign/strategy/doctrine.py).

    Hours are expected march hours (rough roads priced in); ratios are own boxes over the
    enemy's estimated boxes. Each field's one-line meaning is in config/rules.yaml.
    """

    attack_ratio: float = Field(ge=0, le=100)
    seek_hours: float = Field(ge=0, le=1000)
    guard_hours: float = Field(ge=0, le=1000)
    concentrate: bool
    concentrate_hours: float = Field(ge=0, le=1000)
    flank: bool
    rough_risk_weight: float = Field(ge=0, le=100)
    pursue_hours: float = Field(ge=0, le=1000)
    regroup: bool
    objectives_first: bool
    advance_on_base: bool
    plan_slack_hours: float = Field(ge=0, le=1000)
    guns_hours: float = Field(ge=0, le=1000)


#: a share of a distance, 0 to 1
_Fraction = Annotated[float, Field(ge=0, le=1)]


class CampaignRules(_Strict):
    """Every number of the campaign (RULES.md §2, §7.6, §8); defaults in config/rules.yaml."""

    divisions_per_side: int = Field(ge=1, le=50)
    division_infantry_table: list[InfantryRoll]
    division_cavalry: int = Field(ge=0, le=UNIT_CEILING)
    division_artillery: int = Field(ge=0, le=UNIT_CEILING)
    division_light_infantry: int = Field(default=0, ge=0, le=UNIT_CEILING)
    rough_road_pass: float = Field(ge=0, le=100)
    rough_road_retry_minutes: int = Field(ge=1)
    day_start_minutes: int = Field(ge=0, le=1440)
    day_end_minutes: int = Field(ge=0, le=1440)
    time_limit_days: int = Field(ge=1, le=365)
    fall_back_junctions: int = Field(ge=0)
    fog_sight_junctions: int = Field(ge=0)
    withdrawal_threshold_percent: float = Field(ge=0, le=100)
    withdrawal_scale: Literal["division", "unit"]
    batteries_per_factor: int = Field(ge=1, le=100)
    max_events: int = Field(ge=100)
    hold_minutes: int = Field(ge=1)
    opening_waypoint_window: tuple[_Fraction, _Fraction]
    battle_doctrine: str
    doctrines: dict[Literal["aggressive", "cautious", "balanced", "raider"] | str, StrategyDoctrine]

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
    # (a division larger than battle.max_units_per_force is refused by the battle engine)

    def fail(keys: tuple[str, ...], what: str, fix: str) -> None:
        sources = sorted({s for k, v in origins.items() if k.startswith(keys) for s in v})
        raise ConfigError(
            what, source=", ".join(sources or [str(RULES_FILE)]), key=keys[0], fix=fix
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
