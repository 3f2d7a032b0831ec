"""``campaign run ... --until WHEN | --tabletop POLICY --save FILE``: play a campaign to a stop
point and save it (issue 28, items 1 and 3). The log so far is printed; at a battle to fight
on the table its briefing and result sheet are written beside the save; ``campaign resume
FILE`` goes on."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import typer

from battle.errors import ConfigError
from campaign.cli.save_common import LogOptions, print_log, write_save
from campaign.clock import Clock
from campaign.config import LoadedRules
from campaign.engine import Campaign
from campaign.maps import CampaignMap, MapOptions
from campaign.outfile import check_distinct_files, check_output_file
from campaign.save.fork import with_forks
from campaign.save.format import Fork, SaveInputs
from campaign.save.replay import (
    build,
    load_rules_of,
    map_input,
    rules_input,
    run_on,
    run_until_policy,
    save_of,
    state_at_stop,
)
from campaign.save.when import Stop, parse_when, stop_label
from campaign.table_battle import BattleStart

__all__ = ["LogOptions", "SavedRun", "clock_of_rules", "play_on", "run_and_save", "stop_here"]


@dataclass(frozen=True)
class SavedRun:
    """A campaign to start: map (and the options it was read with), rules, seed, doctrines."""

    cmap: CampaignMap
    options: MapOptions
    loaded: LoadedRules
    seed: int
    doctrines: dict[str, str]

    def inputs(self) -> SaveInputs:
        """The save's inputs of this campaign (no result entered, no fork)."""
        return SaveInputs(
            seed=self.seed,
            map=map_input(self.cmap, self.options),
            rules=rules_input(self.loaded),
            doctrines=dict(self.doctrines),
        )


def clock_of_rules(loaded: LoadedRules) -> Clock:
    """The campaign clock of ``loaded`` (RULES.md §8.3)."""
    cr = loaded.rules.campaign
    return Clock(cr.day_start_minutes, cr.day_end_minutes)


def play_on(
    camp: Campaign, until: Stop | None, rule: Callable[[BattleStart], bool] | None
) -> Stop | None:
    """Run ``camp`` on to ``until``, else to the first battle ``rule`` stops for, else to
    its end; the stop reached (None: the campaign ended, its final record not yet made:
    :func:`stop_here` makes it)."""
    if until is not None and run_on(camp, until):
        return until
    if until is None and rule is not None:
        reached = run_until_policy(camp, rule)
        if reached is not None:
            return reached
    camp.run_to_end()
    return None


def rules_over_time(
    camp: Campaign, inputs: SaveInputs
) -> tuple[LoadedRules, list[tuple[Fork, LoadedRules]]]:
    """The rules ``camp`` began under and each fork of ``inputs`` (``campaign fork``) with
    the rules from its minute on: what each battle of its log was fought under (its odds,
    :func:`campaign.cli.save_common.print_log`). Without forks, the campaign's rules and
    none."""
    if not inputs.forks:
        return camp.loaded, []
    forks = [(f, load_rules_of(f.rules, "inputs.forks.rules")) for f in inputs.forks]
    return load_rules_of(inputs.rules, "inputs.rules"), forks


def stop_here(
    camp: Campaign,
    inputs: SaveInputs,
    reached: Stop | None,
    save: Path | None,
    policy: str | None,
    log: LogOptions,
) -> None:
    """Print the log so far, write the save (and a battle's briefing and result sheet), and
    say where the campaign stopped and what to do next."""
    clock = camp.clock
    state = None
    if reached is None:
        stop, at = Stop(minute=camp.env.now), "the end"
        state = camp.state()  # as a replay run to the end has it, before the final record
        camp.finish()
        events, until = camp.events, camp.env.now
    else:
        stop, at = reached, stop_label(reached, clock)
        here = state_at_stop(camp)
        events, until = camp.events[: here.events], here.time
    loaded, forks = rules_over_time(camp, inputs)
    told = with_forks(events, inputs, forks, until)
    changes = [(fork.minute, rules) for fork, rules in forks]
    print_log(told, camp.map, loaded, inputs.seed, log, forks=changes)
    if save is not None:
        write_save(save_of(camp, inputs, stop, at, policy, state), save)
    if reached is None:
        tail = f"; saved to {save}" if save is not None else ""
        typer.echo(f"the campaign is over{tail}", err=True)
    elif save is None:
        typer.echo(f"stopped at {at} (nothing saved: add --save FILE to go on later)", err=True)
    elif reached.battle is not None:
        _battle_steps(camp, save, inputs.seed, reached.battle)
    else:
        typer.echo(
            f"stopped at {at}; saved to {save}. Go on with: campaign resume {save}", err=True
        )


def _battle_steps(camp: Campaign, save: Path, seed: int, number: int) -> None:
    from campaign.cli.save_table import battle_setup, write_battle_papers

    html, sheet = write_battle_papers(camp, save, seed)
    place = battle_setup(camp).event.place_name
    typer.echo(
        f"stopped before battle {number} at {place} ({camp.clock.label(state_at_stop(camp).time)})"
        f"; saved to {save}.\n"
        f"  1. Print the briefing {html} and set the battle up on the table.\n"
        f"  2. Fight it; fill in the result sheet {sheet}.\n"
        f"  3. Go on with: campaign resume {save} --result {sheet}\n"
        f"     (or --result 'winner=red,red_losses=20%,blue_losses=45%'; with no --result the "
        "engine fights it)",
        err=True,
    )


def _refuse_extras(extras: dict[str, Path | None]) -> None:
    for flag, path in extras.items():
        if path is not None:
            raise ConfigError(
                "a stopped campaign has no whole log to draw from",
                key=flag,
                fix=f"Leave {flag} out here and give it to 'campaign resume' at the end, or "
                "write it later with 'campaign report' / 'campaign replay'.",
            )


def run_and_save(
    run: SavedRun,
    until: str | None,
    save: Path | None,
    policy: str | None,
    log: LogOptions,
    extras: dict[str, Path | None],
) -> None:
    """Play ``run`` to ``until``, or to the first battle of the tabletop ``policy``, or to its
    end; print its log so far; write the save (and a battle's papers).

    Raises
    ------
    ConfigError
        Before anything is played or written: ``until`` or ``policy`` cannot be read, both
        are given, a policy without ``--save``, or a diary or replay asked for.
    """
    from campaign.cli.save_table import policy_rule

    _refuse_extras(extras)
    if until is not None and policy is not None:
        raise ConfigError(
            "--until and --tabletop both say where to stop",
            key="--until",
            fix="Give one: --tabletop stops before the first battle its policy chooses.",
        )
    if policy is not None and save is None:
        raise ConfigError(
            "stops before a battle to fight on the table, and needs a save to go on from",
            key="--tabletop",
            fix="Add --save FILE (e.g. --save campaign.yaml).",
        )
    stop = None if until is None else parse_when(until, clock_of_rules(run.loaded), "--until")
    if save is not None:
        check_output_file(save, "--save")
        check_distinct_files({"--save": save, "--output": log.output})
    inputs = run.inputs()
    camp = build(inputs, run.cmap, run.loaded, battle_logs=log.verbose)
    rule = policy_rule(policy, camp)
    reached = play_on(camp, stop, rule)
    stop_here(camp, inputs, reached, save, policy, log)
