"""Exact odds of every dice mechanic of RULES.md, by enumeration with ``fractions.Fraction``.

Nothing here simulates: each probability is a sum over the faces of the dice, read from the
chosen rules (``config/rules.yaml`` with variants and ``--set`` overrides applied). The test
suite uses these values as the yardstick for the engine's Monte Carlo frequencies.

Examples
--------
>>> from campaign.config import load_rules
>>> battle = load_rules().rules.battle
>>> withdrawal_chance(2, sides=battle.withdrawal_die, success_total=battle.withdrawal_success_total)
Fraction(1, 36)
>>> reaction_pass(4, sides=battle.reaction_die)
Fraction(1, 3)

The die sizes and totals are always passed in, read from the rules: this module keeps no
second copy of a rule number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from battle.dice import parse_dice
from battle.errors import ConfigError
from battle.formation import completion_total
from battle.tables import Tables, compile_rules
from campaign.config import LoadedRules

__all__ = [
    "MAX_ODDS_STEPS",
    "DivisorUse",
    "HitFilterOdds",
    "OddsSheet",
    "OddsTooCostly",
    "hit_filter_odds",
    "odds_sheet",
    "percentage_pass",
    "reaction_pass",
    "sum_distribution",
    "withdrawal_chance",
    "withdrawal_steps",
    "withdrawal_table",
]


def percentage_pass(percent: float, *, sides: int) -> Fraction:
    """P(a percentage test at ``percent`` passes) = P(dN <= P) (RULES.md §0.2).

    ``sides`` is the percentage die (``battle.percentage_dice``, 100).

    >>> [percentage_pass(p, sides=100) for p in (70, -5, 120)]
    [Fraction(7, 10), Fraction(0, 1), Fraction(1, 1)]
    """
    passing = min(max(int(percent // 1), 0), sides)
    return Fraction(passing, sides)


def reaction_pass(total: int, *, sides: int) -> Fraction:
    """P(a reaction test with total T passes) = P(dN > T) (RULES.md §0.3).

    ``sides`` is the reaction die (``battle.reaction_die``, 6): T <= 0 always passes,
    T >= ``sides`` never does.

    >>> reaction_pass(0, sides=6), reaction_pass(6, sides=6), reaction_pass(2, sides=6)
    (Fraction(1, 1), Fraction(0, 1), Fraction(2, 3))
    """
    return Fraction(min(max(sides - total, 0), sides), sides)


def sum_distribution(count: int, sides: int) -> dict[int, Fraction]:
    """Exact distribution of the sum of ``count`` dice with ``sides`` faces (by convolution).

    ``count`` <= 0 gives the point mass at 0. The single die's faces come from the project's
    dice-expression parser (``d6``).

    >>> sum_distribution(2, 6)[12]
    Fraction(1, 36)
    """
    die = parse_dice(f"d{sides}").distribution()
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(max(count, 0)):
        new: dict[int, Fraction] = {}
        for total, p in dist.items():
            for face, q in die.items():
                new[total + face] = new.get(total + face, Fraction(0)) + p * q
        dist = dict(sorted(new.items()))
    return dist


def withdrawal_chance(factors: int, *, sides: int, success_total: int) -> Fraction:
    """P(a withdrawal roll with F factors succeeds) = P(sum of F dN >= total) (RULES.md §0.4).

    ``sides`` and ``success_total`` are ``battle.withdrawal_die`` (6) and
    ``battle.withdrawal_success_total`` (12); no factors never succeed.

    >>> [withdrawal_chance(f, sides=6, success_total=12) for f in (0, 1, 2)]
    [Fraction(0, 1), Fraction(0, 1), Fraction(1, 36)]
    """
    if factors <= 0:
        return Fraction(0)
    return sum(
        (p for s, p in sum_distribution(factors, sides).items() if s >= success_total),
        Fraction(0),
    )


#: Most steps (one die face added to one partial sum) the exact odds may take: about ten
#: seconds of Python. Rules whose enumeration would take more are refused before it starts
#: (:class:`OddsTooCostly`); the shipped rules take a few thousand.
MAX_ODDS_STEPS = 10_000_000


class OddsTooCostly(ConfigError):
    """Exact odds whose enumeration would take more than :data:`MAX_ODDS_STEPS` steps."""


def withdrawal_steps(sides: int, success_total: int, factors: int) -> int:
    """Steps :func:`withdrawal_table` takes for F = 1..``factors`` (sums capped at the total)."""
    return sum(min(f * sides, success_total) * sides for f in range(1, factors + 1))


def withdrawal_table(sides: int, success_total: int, factors: range) -> dict[int, Fraction]:
    """P(a withdrawal roll succeeds) for every F in ``factors`` (RULES.md §0.4), exactly.

    One convolution chain over F (integer counts of each sum, sums at or above the success
    total kept together), so the whole table costs :func:`withdrawal_steps` steps; equal to
    :func:`withdrawal_chance` for each F (tests/analysis).

    Raises
    ------
    OddsTooCostly
        Before any work, when that is more than :data:`MAX_ODDS_STEPS`.

    >>> withdrawal_table(6, 12, range(1, 4))[2]
    Fraction(1, 36)
    """
    last = max(factors, default=0)
    steps = withdrawal_steps(sides, success_total, last)
    if steps > MAX_ODDS_STEPS:
        raise OddsTooCostly(
            f"the exact withdrawal odds of a d{sides} with a success total of {success_total} "
            f"take {steps:,} steps, more than the limit of {MAX_ODDS_STEPS:,}",
            key="battle.withdrawal_die, battle.withdrawal_success_total",
            fix="Use a smaller die or success total (the shipped rules: 6 and 12).",
        )
    counts = {0: 1}  # sum (capped at the success total) -> ways
    out: dict[int, Fraction] = {}
    for f in range(1, last + 1):
        new: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, sides + 1):
                key = min(total + face, success_total)
                new[key] = new.get(key, 0) + ways
        counts = new
        if f in factors:
            out[f] = Fraction(counts.get(success_total, 0), sides**f)
    return out


@dataclass(frozen=True)
class DivisorUse:
    """Who uses a combat divisor: ``infantry line fire``, ``cavalry melee vs square`` …"""

    text: str


@dataclass(frozen=True)
class HitFilterOdds:
    """The 4-step hit filter (RULES.md §4.1–§4.4) of one combat divisor and D bonus.

    Attributes
    ----------
    divisor
        The combat divisor CD (§1.1, with §1.6 formation multipliers applied).
    bonus
        Added to D before dividing (§6.4 the charge bonus in a charger's first melee).
    uses
        Which unit, formation and action use this divisor and bonus.
    morale_hits
        Exact distribution of h = ceil((D + bonus) / CD) (§4.2).
    morale_fail
        Morale in percent -> P(the target's morale test fails) (§4.3, per-test model).
    three_hits
        P(the casualty filter passes: 3 actual hits) (§4.4).
    expected_hits
        Expected actual hits on the target (before the 10-hit cap of §1.2).
    """

    divisor: int
    bonus: int
    uses: tuple[str, ...]
    morale_hits: dict[int, Fraction]
    morale_fail: dict[int, Fraction]
    three_hits: Fraction
    expected_hits: Fraction


def hit_filter_odds(
    d_dist: dict[int, Fraction],
    divisor: int,
    bonus: int,
    morales: list[int],
    *,
    casualty_per_hit: int,
    hits_pass: int,
    hits_fail: int,
    percentage_sides: int,
    uses: tuple[str, ...] = (),
) -> HitFilterOdds:
    """Exact odds of the hit filter for one divisor (RULES.md §4.1–§4.4).

    Parameters
    ----------
    d_dist
        The exact distribution of D (from the configured dice expression, §4.1).
    divisor
        The combat divisor, >= 1.
    bonus
        Added to D (the charge bonus, §6.4); 0 for fire.
    morales
        Morale levels in percent at which to give P(morale test fails).
    casualty_per_hit, hits_pass, hits_fail
        §4.4: casualty test at ``casualty_per_hit`` × h percent; pass → ``hits_pass``
        actual hits, fail → ``hits_fail``.
    percentage_sides
        The percentage die of §0.2 (``battle.percentage_dice``).

    Raises
    ------
    ValueError
        If ``divisor`` < 1.
    """
    if divisor < 1:
        raise ValueError(f"a combat divisor is 1 or more, not {divisor}")
    h_dist: dict[int, Fraction] = {}
    for d, p in d_dist.items():
        h = -(-(d + bonus) // divisor)
        h_dist[h] = h_dist.get(h, Fraction(0)) + p
    h_exact = dict(sorted(h_dist.items()))
    fail = {
        m: sum(
            (p * (1 - percentage_pass(m - h, sides=percentage_sides)) for h, p in h_exact.items()),
            Fraction(0),
        )
        for m in morales
    }
    three = sum(
        (
            p * percentage_pass(casualty_per_hit * h, sides=percentage_sides)
            for h, p in h_exact.items()
        ),
        Fraction(0),
    )
    expected = hits_fail + (hits_pass - hits_fail) * three
    return HitFilterOdds(divisor, bonus, uses, h_exact, fail, three, expected)


@dataclass
class OddsSheet:
    """Every exact chance of the chosen rules (see :func:`odds_sheet`)."""

    rules_label: str
    rules_hash: str
    hit_dice: str
    d_distribution: dict[int, Fraction]
    morale_levels: dict[str, int]
    morale_model: str
    hit_filter: list[HitFilterOdds]
    reaction: dict[int, Fraction]
    formation_changes: list[tuple[str, str, dict[str, tuple[int, Fraction]]]]
    withdrawal: dict[int, Fraction]
    withdrawal_dice: str
    rough_road_pass: Fraction
    rough_road_retry_minutes: int
    division_sizes: list[tuple[int, Fraction, int]]
    notes: list[str] = field(default_factory=list)

    def document(self) -> dict[str, Any]:
        """The sheet as plain data (``--json``); a chance is ``{"p": "7/20", "value": 0.35}``."""

        def fr(p: Fraction) -> dict[str, Any]:
            return {"p": f"{p.numerator}/{p.denominator}", "value": float(p)}

        return {
            "rules": {"label": self.rules_label, "hash": self.rules_hash},
            "hit_dice": {
                "expression": self.hit_dice,
                "distribution": {str(k): fr(v) for k, v in self.d_distribution.items()},
            },
            "morale_levels": self.morale_levels,
            "morale_model": self.morale_model,
            "hit_filter": [
                {
                    "divisor": h.divisor,
                    "bonus": h.bonus,
                    "uses": list(h.uses),
                    "morale_hits": {str(k): fr(v) for k, v in h.morale_hits.items()},
                    "morale_test_fails": {str(m): fr(p) for m, p in h.morale_fail.items()},
                    "three_actual_hits": fr(h.three_hits),
                    "expected_actual_hits": fr(h.expected_hits),
                }
                for h in self.hit_filter
            ],
            "reaction_test_passes": {str(t): fr(p) for t, p in self.reaction.items()},
            "formation_completion": [
                {
                    "change": change,
                    "grade": grade,
                    "situations": {
                        s: {"total": total, "completes": fr(p)} for s, (total, p) in cells.items()
                    },
                }
                for change, grade, cells in self.formation_changes
            ],
            "withdrawal_roll_succeeds": {
                "dice": self.withdrawal_dice,
                "by_factors": {str(f): fr(p) for f, p in self.withdrawal.items()},
            },
            "rough_road": {
                "passes": fr(self.rough_road_pass),
                "expected_wait_minutes": (
                    float((1 / self.rough_road_pass - 1) * self.rough_road_retry_minutes)
                    if self.rough_road_pass
                    else None
                ),
            },
            "division_sizes": [
                {"infantry": n, "probability": fr(p), "units": units}
                for n, p, units in self.division_sizes
            ],
            "notes": self.notes,
        }


#: the situations of a formation completion test on the card (RULES.md §5.2)
SITUATIONS: dict[str, dict[str, bool]] = {
    "quiet": {},
    "hit by fire": {"hit_by_fire": True},
    "charged": {"charge_target": True},
    "hit and charged": {"hit_by_fire": True, "charge_target": True},
}


def _divisor_uses(tables: Tables) -> dict[tuple[int, int], list[str]]:
    """(CD, D bonus) -> the unit, formation and action that use it (RULES.md §1.1, §1.6,
    §1.7, §6.4).

    Read from the engine's compiled tables (``Tables.unit_types`` / ``Tables.formations``),
    so every type and formation in config is listed and every formation multiplier is
    applied exactly as the engine applies it.
    """
    uses: dict[tuple[int, int], list[str]] = {}
    charge = tables.charge_bonus
    fired_at = sorted({f.fired_at_x for f in tables.formations.values() if f.fired_at_x > 1})
    for (kind, formation), f in sorted(tables.formations.items()):
        t = tables.unit_types[kind]
        who = f"{kind.replace('_', ' ')} {formation}"
        if f.fire_cd:
            uses.setdefault((f.fire_cd, 0), []).append(f"{who} fire")
            for x in fired_at:  # §1.7 fire at a dispersed target (skirmishers)
                uses.setdefault((f.fire_cd * x, 0), []).append(f"{who} fire at skirmishers")
        uses.setdefault((f.melee_cd, 0), []).append(f"{who} melee")
        if t.vs_square_x > 1:  # §1.6 cavalry against a square
            sq = f.melee_cd * t.vs_square_x
            uses.setdefault((sq, 0), []).append(f"{who} melee vs square")
            if f.may_charge and f.reach > 0:
                uses.setdefault((sq, charge), []).append(f"{who} charging a square (first melee)")
        if not (charge and f.may_charge and f.reach > 0):
            continue
        if t.charge_vs_foot_x > 1:  # §1.6 doubled bonus on foot not in square
            uses.setdefault((f.melee_cd, charge * t.charge_vs_foot_x), []).append(
                f"{who} charging foot not in square (first melee)"
            )
            uses.setdefault((f.melee_cd, charge), []).append(
                f"{who} charging horse or a battery (first melee)"
            )
        else:
            uses.setdefault((f.melee_cd, charge), []).append(f"{who} charging (first melee)")
    return uses


def odds_sheet(loaded: LoadedRules) -> OddsSheet:
    """Exact odds of every dice mechanic of RULES.md under ``loaded`` rules.

    Covers the hit filter for each combat divisor and formation (§4), reaction tests by total
    (§0.3), formation completion for common cases (§5.2), withdrawal rolls by number of
    factors (§0.4), the rough-road test (§8.2) and division sizes (§2.1).

    Raises
    ------
    DiceExpressionError
        If the hit dice expression has more than 10**6 outcomes to enumerate.
    OddsTooCostly
        If the withdrawal odds would take more than :data:`MAX_ODDS_STEPS` steps.
    """
    battle = loaded.rules.battle
    camp = loaded.rules.campaign
    wd = battle.withdrawal_die
    success = battle.withdrawal_success_total
    # every die shows 1 or more: from F = the success total on, a roll always succeeds
    withdrawal = withdrawal_table(
        battle.withdrawal_die,
        battle.withdrawal_success_total,
        range(1, battle.withdrawal_success_total + 1),
    )
    tables = compile_rules(battle)
    d_dist = tables.hit_dice.distribution()
    pct = battle.percentage_dice
    by_grade = dict(tables.morale)
    shaken = battle.morale.shaken_penalty
    morales = sorted({*by_grade.values(), *(m - shaken for m in by_grade.values())})
    hit_rows = [
        hit_filter_odds(
            d_dist,
            cd,
            bonus,
            morales,
            casualty_per_hit=battle.casualty_test_per_morale_hit,
            hits_pass=battle.hits_on_casualty_pass,
            hits_fail=battle.hits_on_casualty_fail,
            percentage_sides=pct,
            uses=tuple(who),
        )
        for (cd, bonus), who in sorted(_divisor_uses(tables).items())
    ]
    die = battle.reaction_die
    reaction = {t: reaction_pass(t, sides=die) for t in range(-1, die + 1)}
    fc = battle.formation_change
    changes = []
    for pair, cost in sorted(tables.change_cost.items(), key=lambda kv: sorted(kv[0])):
        a, b = sorted(pair)
        rows = [(f"{a}↔{b}", cost)]
        if "skirmish" in pair:  # §5.2 reforming from skirmish order adds to the pair's cost
            other = b if a == "skirmish" else a
            rows = [
                (f"skirmish→{other} (light)", cost + fc.light_from_skirmish),
                (f"skirmish→{other} (other foot)", cost + fc.other_from_skirmish),
                (f"{other}→skirmish", cost),
            ]
        for label, own in rows:
            for grade in ("regular", "raw", "veteran"):
                cells = {}
                for name, flags in SITUATIONS.items():
                    total = completion_total(fc, own, grade=grade, **flags)
                    cells[name] = (total, reaction_pass(total, sides=die))
                changes.append((label, grade, cells))
    sizes = []
    previous = 0
    for row in camp.division_infantry_table:
        top = min(row.max_roll, pct)
        p = Fraction(max(top - previous, 0), pct)
        previous = max(previous, top)
        units = row.infantry + camp.division_cavalry + camp.division_artillery
        sizes.append((row.infantry, p, units))
    notes = []
    if battle.morale.model == "cumulative":
        notes.append(
            "cumulative morale (§4.3): every morale hit lowers the target's morale for the "
            "rest of the battle; the morale column is the morale it has when hit"
        )
    notes.append(
        f"a shaken unit tests at −{shaken} (§1.5); a morale of M − {shaken} is the shaken column"
    )
    return OddsSheet(
        rules_label=loaded.label,
        rules_hash=loaded.hash,
        hit_dice=battle.hit_dice,
        d_distribution=d_dist,
        morale_levels=by_grade,
        morale_model=battle.morale.model,
        hit_filter=hit_rows,
        reaction=reaction,
        formation_changes=changes,
        withdrawal=withdrawal,
        withdrawal_dice=f"F d{wd} summed, success on {success}+",
        rough_road_pass=percentage_pass(camp.rough_road_pass, sides=pct),
        rough_road_retry_minutes=camp.rough_road_retry_minutes,
        division_sizes=sizes,
        notes=notes,
    )
