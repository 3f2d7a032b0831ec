"""Start-up (issue 27 item 8): ``campaign --help`` and ``--version`` import no sub-command and
nothing heavy (neither numpy nor numba nor the battle kernel); a command imports its own
module only, and the battle kernel only when it fights battles. What is imported is checked,
not how long it takes (timings belong to the benchmarks)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]

#: what a command that fights no battle must not import
HEAVY = ("numpy", "numba", "llvmlite", "scipy", "networkx", "pydantic", "battle.kernel")

_IMPORTED = """
import json, sys
from campaign.cli import main
try:
    main({argv!r})
except SystemExit as exc:
    code = exc.code
print(json.dumps({{"code": code, "modules": sorted(sys.modules)}}), file=sys.stderr)
"""


def _imported(*argv: str) -> tuple[int, set[str]]:
    """The exit code of ``campaign *argv`` in a fresh process, and every module it imported."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(PROJECT) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(
        [sys.executable, "-c", _IMPORTED.format(argv=list(argv))],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    last = json.loads(done.stderr.strip().splitlines()[-1])
    return int(last["code"]), set(last["modules"])


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_import_nothing_heavy(flag: str) -> None:
    code, modules = _imported(flag)
    assert code == 0
    assert not sorted(m for m in modules if m.startswith(HEAVY))
    assert not [m for m in modules if m.startswith("campaign.cli.") and m.endswith("_cmd")]


def test_a_mistyped_command_is_told_without_importing_any() -> None:
    code, modules = _imported("bttle")
    assert code == 2  # "No such command 'bttle'. Did you mean 'battle'?"
    assert not [m for m in modules if m.startswith(("numpy", "numba", "battle.kernel"))]


def test_a_command_that_fights_no_battle_does_not_load_the_kernel() -> None:
    code, modules = _imported("map", "--help")
    assert code == 0
    assert "campaign.cli.map_cmd" in modules
    assert not [m for m in modules if m.startswith(("numba", "battle.kernel"))]
    assert not [
        m
        for m in modules
        if m.startswith("campaign.cli.") and m != "campaign.cli.map_cmd" and m.endswith("_cmd")
    ]


def test_a_command_imports_its_own_module_only() -> None:
    from campaign.cli import COMMANDS

    code, modules = _imported("battle", "--seed", "3", "--json")
    assert code == 0
    every = {f"campaign.cli.{command.module}" for command in COMMANDS.values()}
    assert every & modules == {"campaign.cli.battle_cmd"}
    assert "battle.engine" in modules


def test_the_help_lists_every_command_with_its_own_short_help() -> None:
    """The top-level help is made from campaign.cli.COMMANDS without importing a module; each
    module's command has that same short help once imported."""
    import typer.main

    from campaign.cli import COMMANDS, _register, app

    _register()
    group = typer.main.get_command(app)
    loaded = group.commands  # type: ignore[attr-defined]
    assert list(loaded) == list(COMMANDS)
    for name, command in COMMANDS.items():
        assert loaded[name].short_help == command.short_help, name
