"""``campaign resume`` and ``campaign fork`` (issue 28, items 2 and 3).

- ``campaign resume FILE [--until WHEN] [--save NEXT] [--result RESULT.yaml|QUICK]
  [--tabletop POLICY]``: build the saved campaign again, check it against the save and go
  on — with the result of the battle it stopped before, fought on the table (checked first:
  a bad one exits 2 and nothing is written) — to ``--until``, the next battle its tabletop
  policy chooses (the save moves on), or its end; the log printed is the whole campaign's,
  the same as that of the campaign never stopped.
- ``campaign fork FILE [--at WHEN] --save NEW [--set k=v] [--variant V] [--red-doctrine D]
  [--blue-doctrine D] [--reseed | --future-seed N]``: a new save whose campaign, from ``--at``
  on, plays under other rules, doctrines or dice (:mod:`campaign.save.fork`); results
  entered for battles that begin after ``--at`` are dropped (the future's battles are
  other battles).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from battle.errors import ConfigError
from campaign.cli import COMMANDS, app
from campaign.cli.common import (
    RESUME_TABLETOP,
    SetOption,
    VariantOption,
    fresh_seed,
    log_format_option,
    parse_overrides,
    strategy_doctrine,
    tabletop_option,
)
from campaign.cli.save_common import write_save
from campaign.cli.save_run import LogOptions, clock_of_rules, play_on, stop_here
from campaign.cli.save_table import entered_result, policy_rule
from campaign.config import LoadedRules, load_rules
from campaign.engine import Campaign
from campaign.maps import CampaignMap
from campaign.outfile import check_distinct_files, check_output_file
from campaign.save.format import Fork, RulesInput, Save, SaveInputs, read_save
from campaign.save.replay import (
    build,
    continue_from,
    load_inputs,
    load_rules_of,
    replay,
    rules_input,
    run_to,
    save_of,
)
from campaign.save.when import Stop, parse_when, stop_label

__all__ = ["fork", "resume"]

SaveArgument = Annotated[
    Path, typer.Argument(metavar="FILE", help="A save (campaign run ... --save FILE).")
]
UntilOption = Annotated[
    str | None,
    typer.Option(
        metavar="WHEN",
        help='Stop again at a campaign time ("day 3 12:00") or before a battle (battle:5).',
    ),
]


def _check_save_target(target: Path | None, source: Path, flag: str) -> None:
    if target is not None:
        check_output_file(target, flag)
        check_distinct_files({flag: target, "--output": None})


@app.command("resume", short_help=COMMANDS["resume"].short_help)
def resume(
    save_file: SaveArgument,
    until: UntilOption = None,
    save: Annotated[
        Path | None,
        typer.Option(
            metavar="NEXT",
            help="Write a save where it stops again (at a battle to fight on the table: "
            "FILE itself unless NEXT is given).",
        ),
    ] = None,
    result: Annotated[
        str | None,
        typer.Option(
            metavar="RESULT.yaml|QUICK",
            help="The result of the battle the save stopped before, fought on the table: "
            "the filled-in sheet, or 'winner=red,red_losses=20%,blue_losses=45%'.",
        ),
    ] = None,
    tabletop: Annotated[
        str | None,
        tabletop_option("The battles to stop before", RESUME_TABLETOP, "; default: the save's"),
    ] = None,
    fmt: Annotated[str, log_format_option()] = "text",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the log here.")
    ] = None,
    full: Annotated[
        bool, typer.Option("--full", help="Print each battle's units and bound-by-bound log.")
    ] = False,
) -> None:
    """Go on with a saved campaign: its whole log, to --until, the next battle to fight on
    the table, or its end."""
    saved = read_save(save_file, flag="")  # an argument, no flag: its path names it
    _check_save_target(save, save_file, "--save")
    if output is not None:
        check_output_file(output, "--output")
    if result is not None and saved.stop.battle is None:
        raise ConfigError(
            f"the save stopped at {saved.at}, not before a battle, so there is no battle to "
            "enter a result for",
            key="--result",
            fix="Give --result to a save written at a tabletop stop (campaign run --tabletop).",
        )
    cmap, loaded = load_inputs(saved.inputs)
    stop = None if until is None else parse_when(until, clock_of_rules(loaded), "--until")
    camp = replay(saved, str(save_file), battle_logs=full, loaded_inputs=(cmap, loaded))
    if stop is not None and stop.minute is not None and stop.minute <= saved.state.time:
        raise ConfigError(
            f"{until!r} is not after the save's stop point ({saved.at})",
            key="--until",
            fix="Give a later time, or fork the campaign from an earlier one "
            "('campaign fork FILE --at WHEN').",
        )
    inputs = saved.inputs
    if saved.stop.battle is not None:  # a stop before a battle is final: build it again
        entered = () if result is None else (entered_result(result, camp),)
        if result is None:
            typer.echo(f"no --result: the engine fights battle {saved.stop.battle}", err=True)
        camp, inputs = continue_from(saved, entered, battle_logs=full, loaded_inputs=(cmap, loaded))
    policy = saved.policy if tabletop is None else (None if tabletop == "off" else tabletop)
    rule = None if stop is not None else policy_rule(policy, camp, choices=RESUME_TABLETOP)
    reached = play_on(camp, stop, rule)
    if reached is not None and reached.battle is not None and save is None:
        save = save_file  # the save moves on to the next battle (its result is kept in it)
    stop_here(camp, inputs, reached, save, policy, LogOptions(fmt, output, full))


def _kept(saved: Save, minute: float) -> tuple[Fork, ...]:
    """The save's forks before ``minute`` (those after it are in the new fork's future)."""
    return tuple(f for f in saved.inputs.forks if f.minute < minute)


@app.command("fork", short_help=COMMANDS["fork"].short_help)
def fork(
    save_file: SaveArgument,
    save: Annotated[Path, typer.Option(metavar="NEW", help="The new save.")],
    at: Annotated[
        str | None,
        typer.Option(
            metavar="WHEN",
            help='Fork at this campaign time ("day 2 06:00"); default: the save\'s stop.',
        ),
    ] = None,
    set_: SetOption = None,
    variant: VariantOption = None,
    red_doctrine: Annotated[str | None, strategy_doctrine("Red", " from the fork on")] = None,
    blue_doctrine: Annotated[str | None, strategy_doctrine("Blue", " from the fork on")] = None,
    reseed: Annotated[
        bool, typer.Option("--reseed", help="Other dice after the fork (a fresh seed, printed).")
    ] = False,
    future_seed: Annotated[
        int | None, typer.Option(metavar="N", help="The dice after the fork: those of seed N.")
    ] = None,
) -> None:
    """A new save whose campaign plays on from --at under other rules, doctrines or dice
    (with no change, it plays the original future exactly)."""
    saved = read_save(save_file, flag="")  # an argument, no flag: its path names it
    _check_save_target(save, save_file, "--save")
    _check_seeds(reseed, future_seed)
    cmap, loaded = load_inputs(saved.inputs)
    clock = clock_of_rules(loaded)
    stop = Stop(minute=saved.state.time) if at is None else parse_when(at, clock, "--at")
    if stop.minute is None:
        raise ConfigError(
            "a fork is at a campaign time", key="--at", fix='Give e.g. --at "day 2 06:00".'
        )
    # the save is checked first
    replay(saved, str(save_file), record_events=False, loaded_inputs=(cmap, loaded))
    kept = _kept(saved, stop.minute)
    new_rules = _fork_rules(kept[-1].rules if kept else saved.inputs.rules, set_, variant)
    doctrines = dict(kept[-1].doctrines if kept else saved.inputs.doctrines)
    doctrines["red"] = red_doctrine or doctrines["red"]
    doctrines["blue"] = blue_doctrine or doctrines["blue"]
    seed = fresh_seed() if reseed else future_seed
    label = stop_label(stop, clock)
    new_fork = Fork(stop.minute, label, rules_input(new_rules), doctrines, seed)
    inputs = replace(saved.inputs, forks=(*kept, new_fork))
    camp, inputs = _play_to_fork(inputs, stop, label, (cmap, loaded))
    write_save(save_of(camp, inputs, stop, label), save)
    dice = "the same dice" if seed is None else f"the dice of seed {seed}"
    typer.echo(
        f"forked at {label}: rules {new_rules.label}, doctrines Red {doctrines['red']}, "
        f"Blue {doctrines['blue']}, {dice}; saved to {save}. Go on with: campaign resume {save}",
        err=True,
    )


def _check_seeds(reseed: bool, future_seed: int | None) -> None:
    if reseed and future_seed is not None:
        raise ConfigError(
            "--reseed draws a fresh seed for the dice after the fork; --future-seed gives one",
            key="--future-seed",
            fix="Give one of them.",
        )
    if future_seed is not None and future_seed < 0:
        raise ConfigError(
            f"a seed cannot be negative (got {future_seed})",
            key="--future-seed",
            fix="Give a whole number of 0 or more.",
        )


def _fork_rules(base: RulesInput, set_: list[str] | None, variant: list[str] | None) -> LoadedRules:
    """The rules after the fork: ``base`` with ``--variant`` added and ``--set`` over it."""
    rules = load_rules_of(base, "inputs.rules")
    if not set_ and not variant:
        return rules
    overrides = {**dict(rules.overrides), **parse_overrides(set_)}
    return load_rules([*rules.variants, *(variant or [])], overrides)


def _play_to_fork(
    inputs: SaveInputs, stop: Stop, label: str, loaded_inputs: tuple[CampaignMap, LoadedRules]
) -> tuple[Campaign, SaveInputs]:
    """The campaign of ``inputs`` at the fork's ``stop``, and its inputs less the results
    entered for battles that begin after it (the future's battles are other battles).

    Raises
    ------
    ConfigError
        If the campaign ends before the fork.
    """
    cmap, loaded = loaded_inputs
    camp = build(inputs, cmap, loaded, record_events=False)
    if not run_to(camp, stop, inputs.forks):
        raise ConfigError(
            f"the campaign has ended before {label}",
            key="--at",
            fix=f"Fork it at an earlier time (it ended at {camp.clock.label(camp.env.now)}).",
        )
    begun = camp.desk.started
    if all(r.battle <= begun for r in inputs.table_results):
        return camp, inputs
    inputs = replace(
        inputs, table_results=tuple(r for r in inputs.table_results if r.battle <= begun)
    )
    camp = build(inputs, cmap, loaded, record_events=False)
    run_to(camp, stop, inputs.forks)
    return camp, inputs
