"""Light infantry and skirmish order, the first unit type added as data (RULES.md §1, §1.7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from battle_helpers import rng

from battle.engine import fight
from battle.errors import ForceError
from battle.events import HitResolved
from battle.forces import load_forces_yaml, parse_force_flag
from battle.tables import Tables
from battle.units import Force, UnitSpec


def test_force_flag_letter_l_is_light_infantry() -> None:
    force = parse_force_flag("4i2l1c1a", "Red", "R")
    kinds = [(u.id, u.kind) for u in force.units if u.kind == "light_infantry"]
    assert kinds == [("R-L1", "light_infantry"), ("R-L2", "light_infantry")]
    assert len(force.units) == 8


def test_forces_file_names_light_infantry(tmp_path: Path) -> None:
    path = tmp_path / "forces.yaml"
    path.write_text(
        "red: {units: [{type: light_infantry, count: 2, grade: veteran}, {type: cavalry}]}\n"
        "blue: {units: 4i1c1a}\n"
    )
    red, _ = load_forces_yaml(path)
    assert [(u.id, u.kind, u.grade) for u in red.units][:2] == [
        ("R-L1", "light_infantry", "veteran"),
        ("R-L2", "light_infantry", "veteran"),
    ]


def test_unknown_unit_letter_names_the_flag_and_the_letters() -> None:
    with pytest.raises(ForceError) as err:
        parse_force_flag("4i2x", "Red", "R")
    assert "--red '4i2x'" in err.value.message and "l (light infantry)" in err.value.message


def test_skirmish_order_numbers(tables: Tables) -> None:
    """§1.7: normal CD for fire at up to 6"; fire at skirmishers CD x2; CD x2 in melee;
    no charge; no square directly; reforming costs +1 (light) or +2 (other infantry)."""
    s = tables.formations[("light_infantry", "skirmish")]
    assert (s.fire_cd, s.melee_cd, s.fire_range, s.fired_at_x, s.may_charge) == (5, 10, 6, 2, False)
    assert tables.unit_types["light_infantry"].default_formation == "skirmish"
    totals = tables.change_totals
    assert totals[("light_infantry", "skirmish", "line")] == 0 + 1
    assert totals[("infantry", "skirmish", "column")] == 0 + 2
    assert ("infantry", "skirmish", "square") not in totals
    assert totals[("infantry", "line", "skirmish")] == 0


def test_fire_at_skirmishers_uses_cd_x2() -> None:
    """In battles, every fire at a unit in skirmish order divides by twice the firer's CD."""
    from campaign.config import load_rules

    rules = load_rules().rules.battle
    red = Force("Red", (UnitSpec("R-L1", "light_infantry"), UnitSpec("R-L2", "light_infantry")))
    blue = parse_force_flag("4i1c1a", "Blue", "B")
    seen = 0
    for seed in range(40):
        result = fight(red, blue, rules, rng(seed), attacker=1)
        formation = {"R-L1": "skirmish", "R-L2": "skirmish"}
        for e in result.events:
            if type(e).__name__ == "FormationChanged" and e.unit in formation:  # type: ignore[attr-defined]
                formation[e.unit] = e.to_formation  # type: ignore[attr-defined]
            if isinstance(e, HitResolved) and not e.melee and formation.get(e.target) == "skirmish":
                seen += 1
                assert e.divisor in (2 * 4, 2 * 5, 2 * 10), e  # artillery 4, infantry 5 / 10
    assert seen > 20


def test_a_unit_of_unknown_type_is_refused_after_a_good_battle() -> None:
    """The engine remembers the last pair it checked; another pair is still checked."""
    from campaign.config import load_rules

    rules = load_rules().rules.battle
    red, blue = parse_force_flag("2i", "Red", "R"), parse_force_flag("2i", "Blue", "B")
    fight(red, blue, rules, rng(1))
    bad = Force("Red", (UnitSpec("R-D1", "dragoons"),))
    with pytest.raises(ForceError, match="unknown type 'dragoons'"):
        fight(bad, blue, rules, rng(1))
