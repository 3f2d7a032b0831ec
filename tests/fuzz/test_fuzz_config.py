"""Fuzzed ``--set`` overrides and force flags through the real CLI: exit 0 or a clean 2."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from .conftest import fuzz_settings
from .harness import check, run_cli_timed
from .strategies import FORCE_FLAGS, override_items


@fuzz_settings(1.0)
@given(items=override_items, command=st.sampled_from(["run", "battle"]))
def test_fuzzed_overrides_end_cleanly(items: list[str], command: str) -> None:
    argv = [command, "--seed", "3"]
    if command == "battle":
        argv.append("--quiet")
    for item in items:
        argv += ["--set", item]
    check("config", run_cli_timed(argv))


@fuzz_settings(1.0)
@given(
    red=FORCE_FLAGS,
    blue=FORCE_FLAGS,
    odds=st.one_of(st.none(), st.sampled_from(["1", "3", "0", "-2", "10000000000000", "x"])),
)
def test_fuzzed_force_flags_end_cleanly(red: str, blue: str, odds: str | None) -> None:
    argv = ["battle", "--seed", "5", "--quiet", "--red", red, "--blue", blue]
    if odds is not None:
        argv += ["--odds", odds, "--json"]
    check("force", run_cli_timed(argv))
