"""Bad input to ``campaign battle`` and the rules: one-paragraph errors, exit code 2."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from battle.configload import variant_overrides
from battle.engine import fight
from battle.errors import ConfigError, ForceError
from battle.forces import load_forces_yaml, parse_force_flag
from battle.log import a_number, plural
from campaign.cli import main
from campaign.config import load_rules


def _run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    done = capsys.readouterr()
    code = exc.value.code
    return (0 if code is None else int(code)), done.out, done.err


def _one_paragraph_error(code: int, err: str) -> str:
    assert code == 2, err
    assert err.startswith("error: ")
    assert "Traceback" not in err
    assert err.strip().count("\n") == 0, err
    return err


def test_negative_seed_is_refused(capsys):
    err = _one_paragraph_error(*_run(capsys, "battle", "--seed", "-1", "--quiet")[::2])
    assert "--seed" in err and "negative" in err


def test_binary_forces_file(capsys, tmp_path):
    path = tmp_path / "binary.yaml"
    path.write_bytes(b"\xff\xfe\x00\x81\x9c binary")
    err = _one_paragraph_error(*_run(capsys, "battle", "--forces", str(path))[::2])
    assert str(path) in err and "not a text file" in err


def test_malformed_forces_yaml_is_one_line(capsys, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("red:\n  units: [ {type: infantry ]\nblue: {units: 4i}\n", encoding="utf-8")
    err = _one_paragraph_error(*_run(capsys, "battle", "--forces", str(path))[::2])
    assert "line 2, column" in err and "not valid YAML" in err


def test_empty_forces_file_names_no_internal_class(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("", encoding="utf-8")
    with pytest.raises(ForceError) as exc:
        load_forces_yaml(path)
    assert "_ForcesFile" not in exc.value.message
    assert "expected a mapping of keys" in exc.value.message


def test_set_section_to_a_number_names_no_internal_class():
    with pytest.raises(ConfigError) as exc:
        load_rules([], {"campaign": 3})
    assert "CampaignRules" not in exc.value.message
    assert "campaign: expected a mapping of keys (found 3)" in exc.value.message


def test_hit_dice_accepts_a_bare_number():
    assert load_rules([], {"battle.hit_dice": 20}).rules.battle.hit_dice == "20"


@pytest.mark.parametrize("dice", ["1d6-20", "0", "d6-1"])
def test_hit_dice_that_can_roll_below_one_is_refused(dice):
    with pytest.raises(ConfigError) as exc:
        load_rules([], {"battle.hit_dice": dice})
    assert "battle.hit_dice" in exc.value.message and "at least 1" in exc.value.message


@pytest.mark.parametrize("name", ["../rules", "../config/rules", "/etc/passwd", "a/b", ".x"])
def test_variant_must_be_a_bare_name_or_a_yaml_path(name):
    with pytest.raises(ConfigError) as exc:
        variant_overrides(name)
    assert "no variant named" in exc.value.message


def test_variant_as_an_existing_yaml_path_is_accepted(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("battle.max_turns: 3\n", encoding="utf-8")
    assert variant_overrides(str(path)) == ({"battle.max_turns": 3}, str(path))
    assert variant_overrides("cumulative")[1].endswith("cumulative.yaml")


def test_force_larger_than_the_cap_is_refused_quickly(capsys):
    err = _one_paragraph_error(
        *_run(capsys, "battle", "--red", "100000i", "--seed", "1", "--quiet")[::2]
    )
    assert "100000 units" in err and "max_units_per_force" in err


def test_unit_cap_is_a_rule():
    # the battle's own cap (campaign rules refuse a cap below their divisions' size, so the
    # battle rules are changed here alone)
    rules = load_rules().rules.battle.model_copy(update={"max_units_per_force": 5})
    big, small = parse_force_flag("6i", "Red", "R"), parse_force_flag("5i", "Blue", "B")
    with pytest.raises(ForceError, match="'Red' has 6 units, more than the 5"):
        fight(big, small, rules, np.random.default_rng(1))
    fight(small, parse_force_flag("4i", "Red", "R"), rules, np.random.default_rng(1))


def test_articles_and_plurals():
    assert [a_number(n) for n in (1, 7, 8, 11, 18, 80, 110, 800, 11000)] == [
        "a 1", "a 7", "an 8", "an 11", "an 18", "an 80", "a 110", "an 800", "an 11000",
    ]  # fmt: skip
    assert plural(1, "card") == "1 card" and plural(2, "card") == "2 cards"


def test_battle_log_has_no_bad_articles(capsys):
    out = "".join(_run(capsys, "battle", "--seed", str(s))[1] for s in range(8))
    for bad in (" a 8", " a 11", " a 18", " 1 cards"):
        assert bad not in out


def test_forces_file_is_a_directory(tmp_path: Path):
    with pytest.raises(ForceError, match="cannot read the file"):
        load_forces_yaml(tmp_path)


def test_a_formation_without_a_move_is_refused(capsys):
    """Every formation needs a move (RULES.md §6.6); the error names the key path."""
    err = _one_paragraph_error(
        *_run(capsys, "battle", "--quiet", "--set", "battle.units.infantry.formations.line={}")[::2]
    )
    assert "battle.units.infantry.formations.line: missing move" in err


def test_a_negative_move_is_refused(capsys):
    err = _one_paragraph_error(
        *_run(capsys, "battle", "--quiet", "--set", "battle.units.cavalry.formations.line.move=-2")[
            ::2
        ]
    )
    assert "cavalry.formations.line.move" in err and "expected 0..10000" in err


@pytest.mark.parametrize(
    ("override", "words"),
    [
        ("battle.deck.explicit={8: []}", ["9 cards", "§3.1"]),
        ("battle.deck.explicit={8: [-5, 100, 3]}", ["9 cards", "1 to 8"]),
        ("battle.morale.by_grade={raw: 70}", ["regular, veteran, elite"]),
        ("battle.morale.by_grade.raw=500", ["by_grade.raw", "100"]),
        ("battle.units.infantry.default_formation=wedge", ["'wedge'", "formations"]),
        ("battle.units.infantry.formations=[line]", ["infantry", "formations"]),
        (
            "battle.units.dragoons={letter: d, id_prefix: D}",
            ["battle.units.dragoons", "missing stands, combat_divisor"],
        ),
        ("battle.units.infantry.formations.skirmish.move=x", ["infantry.formations.skirmish"]),
        ("battle.units.infantry.range_inches=-4", ["units.infantry.range_inches", "0"]),
        ("battle.units.cavalry.letter=i", ["letter 'i'", "units.infantry"]),
        ("battle.units.cavalry.formations={}", ["units.cavalry.formations", "at least 1"]),
        ("battle.units.infantry.formations.skirmish.may_not_form=[wedge]", ["'wedge'"]),
        ("battle.doctrines.steady.activation_order=[dragoons]", ["dragoons", "unit type"]),
        ("battle.deploy_inches=30", ["deploy_inches", "half", "§6.1"]),
        ("battle.ground_depth_inches=0.001", ["deploy_inches", "half"]),
        ("battle.percentage_dice=2", ["percentage_dice", "100"]),
        ("battle.casualty_test_per_morale_hit=-10", ["casualty_test_per_morale_hit"]),
        ("battle.half_strength_hits=50", ["half_strength_hits", "destroyed_at_hits"]),
        ("battle.withdrawal_success_total=-100", ["withdrawal_success_total"]),
        ("battle.doctrines={}", ["battle.doctrines", "at least 1"]),
    ],
)
def test_rules_that_cannot_work_are_refused(capsys, override, words):
    """Overrides the engine could not honour are errors, never a crash or silently ignored."""
    err = _one_paragraph_error(*_run(capsys, "battle", "--quiet", "--set", override)[::2])
    for word in words:
        assert word in err, (word, err)
    assert len(err) < 400, err  # the key and the fix, not a dump of the whole section


def test_forces_file_and_flags_together_are_refused(capsys, tmp_path):
    path = tmp_path / "forces.yaml"
    path.write_text("red: {units: 2i}\nblue: {units: 2i}\n", encoding="utf-8")
    err = _one_paragraph_error(
        *_run(capsys, "battle", "--forces", str(path), "--red", "3i", "--quiet")[::2]
    )
    assert "--forces" in err and "--red" in err


def test_ids_of_ten_or_more_units_sort_as_counted():
    force = parse_force_flag("12i2c", "Red", "R")
    ids = [u.id for u in force.units]
    assert ids[:3] == ["R-I01", "R-I02", "R-I03"] and ids[11] == "R-I12"
    assert ids[12:] == ["R-C1", "R-C2"]
    assert sorted(ids[:12]) == ids[:12]
