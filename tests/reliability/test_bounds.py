"""Sizes a user can type are refused before work starts (issue 12)."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest
import yaml

from battle.errors import ConfigError, ForceError
from battle.forces import UNIT_CEILING, make_force, parse_force_flag
from battle.yamlfile import MAX_YAML_NODES, check_file_size, read_yaml_file, safe_load_text
from campaign.batch.plan import MAX_TOTAL_RUNS, chunk_tasks, plan_batch
from campaign.batch.spec import MAX_CELLS, BatchSpec, count_cells
from campaign.batch.todo import MissingRuns
from campaign.errors import BatchSpecError, MapError

from .conftest import one_error_line, run_cli

BOMB = "\n".join(
    ["a: &a [x, x, x, x, x, x, x, x, x]"]
    + [f"{chr(98 + k)}: &{chr(98 + k)} [{', '.join([f'*{chr(97 + k)}'] * 9)}]" for k in range(8)]
)


def test_alias_bomb_is_refused_before_it_expands(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB, encoding="utf-8")  # 9**9 = 387 million values once expanded
    assert len(BOMB) < 1000
    with pytest.raises(ConfigError, match=f"more than {MAX_YAML_NODES:,} values"):
        read_yaml_file(path)


def test_a_recursive_alias_is_refused() -> None:
    with pytest.raises(yaml.YAMLError, match="expand"):
        safe_load_text("&a [*a]")


def test_ordinary_anchors_and_merge_keys_still_work() -> None:
    doc = safe_load_text("base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  y: 3\nlist: [*b, *b]")
    assert doc["other"] == {"x": 1, "y": 3} and doc["list"] == [{"x": 1, "y": 2}] * 2


@pytest.mark.parametrize(
    "argv",
    [
        ["battle", "--forces", "{file}"],
        ["run", "--variant", "{file}", "--seed", "1"],
        ["map", "info", "{file}"],
        ["batch", "{file}", "-q"],
    ],
)
def test_every_yaml_the_user_gives_refuses_an_alias_bomb(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB, encoding="utf-8")
    code, _, err = run_cli([a.format(file=path) for a in argv], capsys)
    assert code == 2
    assert "aliases" in one_error_line(err)


def test_set_values_refuse_alias_bombs(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["battle", "--set", "battle.hit_dice=&a [*a, *a]"], capsys)
    assert code == 2 and "--set battle.hit_dice" in one_error_line(err)


def test_an_oversized_file_is_refused_with_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("x" * 2048, encoding="utf-8")
    with pytest.raises(MapError, match=r"2,048 bytes, more than the limit of 1,024 bytes"):
        check_file_size(path, MapError, limit=1024, what="map file")


def test_a_huge_force_flag_is_refused_before_any_unit_is_built() -> None:
    tracemalloc.start()
    start = time.perf_counter()
    with pytest.raises(ForceError, match="more than the limit of 200"):
        parse_force_flag("99999999999i", "Red", "R", max_units=200)
    with pytest.raises(ForceError, match="more than 10"):
        parse_force_flag("9" * 5000 + "c", "Red", "R", max_units=200)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 5_000_000  # bytes: nothing close to a unit list was built
    assert time.perf_counter() - start < 5  # a guard against building, not a benchmark


def test_no_rules_value_lifts_the_unit_ceiling() -> None:
    with pytest.raises(ForceError, match=f"at most {UNIT_CEILING:,}"):
        make_force(
            "Red", "R", [("infantry", UNIT_CEILING + 1, "regular", 0)], "--red", max_units=10**9
        )


def test_the_cli_names_the_rule_for_a_huge_force(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["battle", "--red", "99999999999i", "--seed", "1"], capsys)
    assert code == 2 and "battle.max_units_per_force" in one_error_line(err)


def test_odds_has_an_upper_bound(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["battle", "--odds", "99999999999", "--seed", "1"], capsys)
    assert code == 2 and "--odds" in one_error_line(err) and "1,000,000" in err


def test_missing_runs_are_generated_lazily() -> None:
    todo = MissingRuns(10_000_000, {c: set() for c in range(900)})
    assert todo.count == 9_000_000_000
    first = todo.runs_of(3)
    assert [next(first) for _ in range(3)] == [0, 1, 2]
    done = MissingRuns(5, {0: {0, 2, 4}, 1: {0, 1, 2, 3, 4}})
    assert done.cells() == [0] and list(done.runs_of(0)) == [1, 3] and done.count == 2


def test_chunks_of_a_huge_batch_cost_no_memory() -> None:
    plan = plan_batch(BatchSpec(runs=1000))
    todo = MissingRuns(10_000_000, {0: set()})
    tracemalloc.start()
    tasks = chunk_tasks(plan, 7, todo, 50)
    chunks = [next(tasks) for _ in range(3)]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert [c.runs[0] for c in chunks] == [0, 50, 100]
    assert peak < 2_000_000


def test_chunks_cover_the_missing_runs_once() -> None:
    plan = plan_batch(BatchSpec(runs=7, set={"campaign.rough_road_pass": [60, 70]}))
    todo = MissingRuns(7, {0: {1, 5}, 1: set()})
    got = sorted((t.cell, r) for t in chunk_tasks(plan, 1, todo, 3) for r in t.runs)
    assert got == [(0, r) for r in (0, 2, 3, 4, 6)] + [(1, r) for r in range(7)]


def test_too_many_campaigns_are_refused_before_planning() -> None:
    spec = BatchSpec(runs=10_000_000, set={"campaign.rough_road_pass": list(range(11))})
    start = time.perf_counter()
    with pytest.raises(BatchSpecError, match=f"limit of {MAX_TOTAL_RUNS:,}"):
        plan_batch(spec)
    assert time.perf_counter() - start < 5


def test_too_many_cells_are_refused_before_the_grid_is_built() -> None:
    spec = BatchSpec(set={"campaign.rough_road_pass": list(range(101)), "x.y": list(range(200))})
    with pytest.raises(BatchSpecError, match=f"limit of {MAX_CELLS:,}"):
        count_cells(spec)


def test_a_tab_in_the_indentation_is_named_with_its_fix(tmp_path: Path) -> None:
    """A sheet indented with a tab (an editor's habit) is refused at its line with the fix,
    not only PyYAML's 'found character that cannot start any token' (found by a fresh-eyes
    run on a result sheet)."""
    path = tmp_path / "sheet.yaml"
    path.write_text("battle: 5\nunits:\n\tR1-A1: {hits: 0, status: in}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        read_yaml_file(path, ConfigError)
    assert exc.value.key == "line 3, column 1"
    assert "a tab" in exc.value.what and "Indent with spaces" in (exc.value.fix or "")
    path.write_text("battle: [5\n", encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        read_yaml_file(path, ConfigError)
    assert exc.value.fix == "Fix the YAML syntax at that place."
