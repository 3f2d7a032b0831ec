"""Formation changes: the completion test's total (RULES.md §5).

Examples
--------
The worked check of RULES.md §5.5, with the default §5.2 costs:

>>> from battle.rules import FormationChangeRules
>>> fc = FormationChangeRules(line_column=2, line_square=2, column_square=1,
...     limber_unlimber=0, hit_by_fire=2, raw_irregular_or_shaken=2, charge_target=1,
...     light_from_skirmish=1, other_from_skirmish=2, veteran_or_elite=-1)
>>> completion_total(fc, 2, grade="veteran", hit_by_fire=True, charge_target=True)
4
>>> completion_total(fc, 2, grade="raw", hit_by_fire=True, charge_target=True)
7
"""

from __future__ import annotations

from battle.rules import FormationChangeRules

__all__ = ["completion_total"]


def completion_total(
    fc: FormationChangeRules,
    change_cost: int,
    *,
    grade: str = "regular",
    irregular: bool = False,
    shaken: bool = False,
    hit_by_fire: bool = False,
    charge_target: bool = False,
) -> int:
    """The reaction-test total T to complete a formation change (RULES.md §5.2).

    The unit completes the change when ``d6 > T`` (§0.3, §5.3).

    Parameters
    ----------
    fc
        The §5.2 table (``battle.formation_change`` in config/rules.yaml).
    change_cost
        The change's own cost: line↔column 2, line↔square 2, column↔square 1,
        limber↔unlimber 0 (from ``fc``, looked up by the caller).
    grade
        Training grade (§1.4): ``raw`` adds ``raw_irregular_or_shaken`` (+2), ``veteran`` or
        ``elite`` add ``veteran_or_elite`` (−1).
    irregular, shaken
        Either adds ``raw_irregular_or_shaken`` (+2) — once, however many apply. A unit
        that failed its last completion test counts as shaken (§5.3).
    hit_by_fire
        Hit by enemy fire last bound: ``hit_by_fire`` (+2).
    charge_target
        Target of an enemy charge: ``charge_target`` (+1).

    Returns
    -------
    int
        T; ``T <= 0`` always passes, ``T >= 6`` never does (§0.3).

    Raises
    ------
    AttributeError
        If ``fc`` is not a §5.2 table.

    Notes
    -----
    RULES.md §5.5: veteran line→column, hit by fire, charge target: 2 + 2 + 1 − 1 = 4,
    passes only on 5 or 6; the same unit raw: 2 + 2 + 1 + 2 = 7, cannot pass. Skirmish
    order (light +1, other +2) is not modelled by the quick battle.
    """
    total = change_cost
    if hit_by_fire:
        total += fc.hit_by_fire
    if grade == "raw" or irregular or shaken:
        total += fc.raw_irregular_or_shaken
    if charge_target:
        total += fc.charge_target
    if grade in ("veteran", "elite"):
        total += fc.veteran_or_elite
    return total
