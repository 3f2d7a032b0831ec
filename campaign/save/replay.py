"""Write a running campaign's save, and build a campaign again from a save (issue 28, item 3).

A save is event-sourced: :func:`replay` loads the map and rules the save names (checking
their fingerprints), builds the campaign from its seed and doctrines, runs it applying each
fork at its minute (:mod:`campaign.save.fork`), stops at the save's stop point and checks
that it is in exactly the saved state. From there it runs on as the campaign that was saved
would have: its log is the log of a campaign never stopped.

A save written by other code (``written_by.code`` differs from this code's hash) is replayed
all the same: if it reaches the saved state, only its future may differ and it goes on; if
not, it is refused with the field that differs and the commit that wrote it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any, Unpack

from campaign.config import LoadedRules, load_rules
from campaign.engine import Campaign, Recording
from campaign.maps import CampaignMap, MapOptions, load_map
from campaign.maps.loader import resolve_map_path
from campaign.paths import PROJECT_ROOT, display_path
from campaign.resume import first_difference, new_campaign
from campaign.save.fork import apply_fork
from campaign.save.format import (
    Fork,
    MapInput,
    RulesInput,
    Save,
    SaveError,
    SaveInputs,
    WrittenBy,
)
from campaign.save.when import Stop
from campaign.state import CampaignState
from campaign.table_battle import BattleStart
from campaign.table_result import TableResult
from campaign.versions import code_hash, versions

__all__ = [
    "build",
    "continue_from",
    "git_commit",
    "load_inputs",
    "map_input",
    "replay",
    "rules_input",
    "run_forks",
    "run_on",
    "run_to",
    "run_until_policy",
    "save_of",
    "state_at_stop",
    "written_by",
]


def git_commit() -> str:
    """The git commit of the code running (``unknown`` outside a git checkout)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(PROJECT_ROOT), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    out = done.stdout.strip()
    return out if done.returncode == 0 and out else "unknown"


def written_by() -> WrittenBy:
    """This code's fingerprint: its source hash, commit and the versions a log records."""
    return WrittenBy(code_hash(), git_commit(), dict(versions()))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def map_input(cmap: CampaignMap, options: MapOptions) -> MapInput:
    """The save's record of ``cmap`` read with ``options``: its file (relative to the project
    when inside it, else absolute), the file's SHA-256 and the options."""
    path = resolve_map_path(cmap.source)
    shown = display_path(path)
    source = shown if not Path(shown).is_absolute() else str(path.resolve())
    return MapInput(cmap.name, source, _sha256(path), dataclasses.asdict(options))


def rules_input(loaded: LoadedRules) -> RulesInput:
    """The save's record of ``loaded``: variants, overrides, hash."""
    return RulesInput(tuple(loaded.variants), dict(loaded.overrides), loaded.hash)


def load_rules_of(rules: RulesInput, key: str) -> LoadedRules:
    """The rules ``rules`` names, checked against its hash.

    Raises
    ------
    SaveError
        If they come to another hash now (``config/rules.yaml`` or a variant changed).
    """
    loaded = load_rules(list(rules.variants), dict(rules.overrides))
    if loaded.hash != rules.hash:
        raise SaveError(
            f"the rules ({loaded.label}) come to hash {loaded.hash} here, not {rules.hash} as "
            "when the campaign was saved: config/rules.yaml or a variant has changed",
            key=f"{key}.hash",
            fix="Resume it with the rules files it was saved with (the commit in "
            "written_by.commit has them).",
        )
    return loaded


def load_inputs(inputs: SaveInputs) -> tuple[CampaignMap, LoadedRules]:
    """The map and rules of ``inputs``, checked against their fingerprints.

    Raises
    ------
    SaveError
        If the map file is missing or changed, its options are not options, or the rules
        come to another hash.
    """
    m = inputs.map
    path = resolve_map_path(m.source)
    if not path.is_file():
        raise SaveError(
            f"the campaign's map file {m.source} is not there",
            key="inputs.map.source",
            fix="Put the map back where it was when the campaign was saved.",
        )
    if _sha256(path) != m.sha256:
        raise SaveError(
            f"the map file {m.source} has changed since the campaign was saved",
            key="inputs.map.sha256",
            fix="Resume it with the map file as it was (restore it from version control).",
        )
    try:
        options = MapOptions(**m.options)
    except TypeError as exc:
        raise SaveError(
            f"not map options ({exc})", key="inputs.map.options", fix="Do not edit a save."
        ) from None
    loaded = load_rules_of(inputs.rules, "inputs.rules")
    return load_map(path, options), loaded


#: the campaign of a save's inputs, started (nothing run yet)
build = new_campaign


def run_to(camp: Campaign, stop: Stop, forks: tuple[Fork, ...] = ()) -> bool:
    """Run ``camp`` (started, at minute 0) to ``stop``, applying each of ``forks`` at its
    minute (a fork at the stop's minute is applied before the stop); True if it stopped
    there (False: the campaign ended first). Run on from a stop with :func:`run_on`."""
    return run_forks(camp, forks) and run_on(camp, stop)


def run_forks(camp: Campaign, forks: tuple[Fork, ...]) -> bool:
    """Run ``camp`` (started, at minute 0) to each of ``forks`` in turn and apply it; False
    if the campaign ended before the last."""
    for fork in forks:
        if fork.minute > camp.env.now and not camp.run_until(fork.minute):
            return False
        apply_fork(camp, fork)
    return True


def continue_from(
    save: Save,
    results: tuple[TableResult, ...] = (),
    *,
    loaded_inputs: tuple[CampaignMap, LoadedRules] | None = None,
    **recording: Unpack[Recording],
) -> tuple[Campaign, SaveInputs]:
    """The campaign of ``save`` built again with ``results`` added to its table results and
    its forks applied, to go on from a stop before a battle (which is final); and its
    inputs."""
    inputs = dataclasses.replace(save.inputs, table_results=(*save.inputs.table_results, *results))
    cmap, loaded = loaded_inputs or load_inputs(inputs)
    camp = build(inputs, cmap, loaded, **recording)
    run_forks(camp, inputs.forks)
    return camp, inputs


def run_on(camp: Campaign, stop: Stop) -> bool:
    """Run ``camp`` on to ``stop`` (not before where it is); True if it stopped there. A stop
    before a battle is final: the campaign is built again to go on (:func:`build`)."""
    if stop.minute is not None:
        if stop.minute > camp.env.now:
            return camp.run_until(stop.minute)
        return not camp.stopped
    number = stop.battle
    return camp.run_until_battle(lambda b: b.number == number) is not None


def run_until_policy(camp: Campaign, rule: Callable[[BattleStart], bool]) -> Stop | None:
    """Run ``camp`` until just before the first battle ``rule`` accepts that has no result
    entered (:meth:`Campaign.run_until_battle`); that battle's stop, or None if the campaign
    ended first."""
    reached = camp.run_until_battle(rule)
    return None if reached is None else Stop(battle=reached.number)


def state_at_stop(camp: Campaign) -> CampaignState:
    """The state of ``camp`` where it stopped: just before the battle it stopped for, else
    its clock's minute."""
    reached = camp.table.reached
    return camp.state() if reached is None else reached.state


def replay(
    save: Save,
    source: str,
    *,
    loaded_inputs: tuple[CampaignMap, LoadedRules] | None = None,
    **recording: Unpack[Recording],
) -> Campaign:
    """The campaign of ``save`` at its stop point, checked against its state.

    Raises
    ------
    SaveError
        If the map or rules are not those it was saved with, or the campaign rebuilt does not
        reach the saved state (an edited save, or code that replays it differently: the
        message names the first field that differs and the commit that wrote the save).

    ``loaded_inputs`` is :func:`load_inputs` of the save's inputs when the caller has it.
    """
    try:
        cmap, loaded = loaded_inputs or load_inputs(save.inputs)
        camp = build(save.inputs, cmap, loaded, **recording)
        if save.state.over:  # a save of the ended campaign: run it to its end again
            run_forks(camp, save.inputs.forks)
            camp.run_to_end()
        else:
            run_to(camp, save.stop, save.inputs.forks)
    except SaveError as exc:
        exc.source = exc.source or source
        raise SaveError(exc.what, source=exc.source, key=exc.key, fix=exc.fix) from None
    reached = state_at_stop(camp)
    if reached != save.state:
        raise _mismatch(save, reached, source)
    return camp


def _mismatch(save: Save, reached: Any, source: str) -> SaveError:
    where = first_difference(reached, save.state)
    mine = code_hash()
    if save.written_by.code != mine:
        commit = save.written_by.commit
        return SaveError(
            f"this code (source hash {mine}) replays the campaign differently from the code "
            f"that saved it (source hash {save.written_by.code}, commit {commit}): at the stop "
            f"point {where} differs",
            source=source,
            key=f"state.{where}",
            fix=f"Resume it with the code it came from: git worktree add ../at-save {commit} "
            "and run 'campaign resume' there (or start the campaign again with this code).",
        )
    return SaveError(
        f"the campaign rebuilt from the save's inputs is not in its saved state: {where} "
        "differs (the save was edited, or written by hand)",
        source=source,
        key=f"state.{where}",
        fix="Use the save as 'campaign run --save' wrote it; enter results with "
        "'campaign resume --result' rather than by editing the state.",
    )


def save_of(
    camp: Campaign,
    inputs: SaveInputs,
    stop: Stop,
    at: str,
    policy: str | None = None,
    state: CampaignState | None = None,
) -> Save:
    """The save of ``camp`` stopped at ``stop`` (shown as ``at``), with ``inputs`` (and the
    tabletop ``policy`` it plays by); ``state`` when taken before (an ended campaign's, before
    its final record: :func:`replay` runs it to its end, not further)."""
    return Save(written_by(), inputs, stop, at, state or state_at_stop(camp), policy)
