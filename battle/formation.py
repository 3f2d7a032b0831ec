"""Formation changes: the completion test's total (RULES.md §5).

Examples
--------
The worked check of RULES.md §5.5, with the default §5.2 costs:

>>> from battle.rules import FormationChangeRules
>>> fc = FormationChangeRules(costs={"line-column": 2}, hit_by_fire=2,
...     raw_irregular_or_shaken=2, charge_target=1, light_from_skirmish=1,
...     other_from_skirmish=2, veteran_or_elite=-1)
>>> completion_total(fc, 2, grade="veteran", hit_by_fire=True, charge_target=True)
4
>>> completion_total(fc, 2, grade="raw", hit_by_fire=True, charge_target=True)
7

Light infantry reforming from skirmish order to line (pair cost 0, house) adds +1 (§5.2):

>>> completion_total(fc, change_cost(fc, "skirmish", "line", {"skirmish-line": 0}, light=True))
1
"""

from __future__ import annotations

from battle.compiled import B1, I8, rule
from battle.rules import FormationChangeRules

__all__ = ["change_cost", "completion_sum", "completion_total"]


def change_cost(
    fc: FormationChangeRules,
    old: str,
    new: str,
    costs: dict[str, int] | None = None,
    *,
    from_skirmish: bool | None = None,
    light: bool = False,
) -> int:
    """The change's own part of the §5.2 total: the pair's cost (``fc.costs``, either way
    round), plus the reforming row when ``old`` is skirmish order (light infantry
    ``light_from_skirmish`` +1, other infantry ``other_from_skirmish`` +2; RULES.md §1.7).

    ``from_skirmish`` defaults to ``old == "skirmish"``; the engine passes its formation
    flag. Raises KeyError if the pair has no cost (the change cannot be made).
    """
    table = fc.costs if costs is None else costs
    cost = table.get(f"{old}-{new}", table.get(f"{new}-{old}"))
    if cost is None:
        raise KeyError(f"no formation change between {old} and {new}")
    if old == "skirmish" if from_skirmish is None else from_skirmish:
        cost += fc.light_from_skirmish if light else fc.other_from_skirmish
    return cost


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
        limber↔unlimber 0, plus the reforming-from-skirmish row (:func:`change_cost`).
    grade
        Training grade (§1.4): ``raw`` adds ``raw_irregular_or_shaken`` (+2), ``veteran`` or
        ``elite`` add ``veteran_or_elite`` (−1).
    irregular, shaken
        Either adds ``raw_irregular_or_shaken`` (+2) — once, however many apply.
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
    passes only on 5 or 6; the same unit raw: 2 + 2 + 1 + 2 = 7, cannot pass. A unit that
    failed its last completion test adds nothing for that failure (§5.3): pass ``shaken``
    only for a unit that is shaken.
    """
    return int(
        completion_sum(
            change_cost,
            grade == "raw" or irregular or shaken,
            grade in ("veteran", "elite"),
            hit_by_fire,
            charge_target,
            fc.hit_by_fire,
            fc.raw_irregular_or_shaken,
            fc.charge_target,
            fc.veteran_or_elite,
        )
    )


@rule(I8, I8, B1, B1, B1, B1, I8, I8, I8, I8, inline=True)
def completion_sum(
    cost: int,
    raw_irregular_or_shaken: bool,
    veteran_or_elite: bool,
    hit_by_fire: bool,
    charge_target: bool,
    hbf: int,
    raw: int,
    ct: int,
    vet: int,
) -> int:
    """The §5.2 sum (compiled; the kernel's completion test calls it): the change's own
    ``cost``, + ``hbf`` if hit by fire, + ``raw`` (once) if raw, irregular or shaken, + ``ct``
    if a charge target, + ``vet`` (negative) if veteran or elite."""
    total = cost
    if hit_by_fire:
        total += hbf
    if raw_irregular_or_shaken:
        total += raw
    if charge_target:
        total += ct
    if veteran_or_elite:
        total += vet
    return total
