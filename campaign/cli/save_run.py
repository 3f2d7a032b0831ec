"""``campaign run ... --until WHEN --save FILE``: play a campaign to a stop point and save it
(issue 28, item 3). The log so far is printed; ``campaign resume FILE`` goes on."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import typer

from battle.errors import ConfigError
from campaign.cli.save_common import print_log, write_save
from campaign.clock import Clock
from campaign.config import LoadedRules
from campaign.maps import CampaignMap, MapOptions
from campaign.outfile import check_distinct_files, check_output_file
from campaign.save.format import SaveInputs
from campaign.save.replay import build, map_input, rules_input, run_to, save_of
from campaign.save.when import Stop, parse_when, stop_label

__all__ = ["SavedRun", "clock_of_rules", "next_step", "run_and_save"]


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


def next_step(save: Path | None, stopped: bool, at: str) -> str:
    """The line that says where the campaign stopped and what to do next."""
    if not stopped:
        tail = f"; saved to {save}" if save is not None else ""
        return f"the campaign ended before {at}{tail}"
    if save is None:
        return f"stopped at {at} (nothing saved: add --save FILE to go on later)"
    return f"stopped at {at}; saved to {save}. Go on with: campaign resume {save}"


def run_and_save(
    run: SavedRun,
    until: str | None,
    save: Path | None,
    *,
    fmt: str,
    output: Path | None,
    verbose: bool,
    view: str,
    extras: dict[str, Path | None],
) -> None:
    """Play ``run`` to ``until`` (or its end), print its log so far, write the save.

    Raises
    ------
    ConfigError
        If ``until`` cannot be read, or a diary or replay is asked for (write them from the
        whole campaign: after ``campaign resume``), before anything is played or written.
    """
    for flag, path in extras.items():
        if path is not None:
            raise ConfigError(
                "a stopped campaign has no whole log to draw from",
                key=flag,
                fix=f"Leave {flag} out here and give it to 'campaign resume' at the end, or "
                "write it later with 'campaign report' / 'campaign replay'.",
            )
    clock = clock_of_rules(run.loaded)
    stop = Stop(minute=float("inf")) if until is None else parse_when(until, clock, "--until")
    if save is not None:
        check_output_file(save, "--save")
        check_distinct_files({"--save": save, "--output": output})
    inputs = run.inputs()
    camp = build(inputs, run.cmap, run.loaded, battle_logs=verbose)
    stopped = run_to(camp, stop) if until is not None else False
    if not stopped:
        camp.finish()
    at = stop_label(stop, clock) if until is not None else "its end"
    if not stopped:
        stop = Stop(minute=camp.env.now)  # the save holds the ended campaign
    print_log(
        camp.events,
        run.cmap,
        run.loaded,
        run.seed,
        fmt=fmt,
        output=output,
        verbose=verbose,
        view=view,
    )
    if save is not None:
        write_save(save_of(camp, inputs, stop, at if stopped else "the end"), save)
    typer.echo(next_step(save, stopped, at), err=True)
