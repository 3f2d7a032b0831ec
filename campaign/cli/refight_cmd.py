"""``campaign battle --from LOG.jsonl --battle N``: fight battle N of a logged campaign again
(issue 28 item 4), alone with its log, or ``--odds K`` times to see how lucky it was.

The set-up and the fighting are :mod:`campaign.analysis.refight`'s; this module reads the
log, checks the choice and prints.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console

from battle.errors import ConfigError
from battle.log import format_events
from campaign.analysis.refight import (
    MAX_REFIGHTS,
    BattleSetup,
    logged_battles,
    refight,
    refight_odds,
    same_outcome,
    setup_of,
)
from campaign.cli.battle_print import print_result
from campaign.clock import Clock
from campaign.config import Rules
from campaign.errors import SimulatorError
from campaign.events import SIDES, BattleFought, CampaignStarted
from campaign.printers.jsonl import read_jsonl
from campaign.printers.odds import odds_phrase, rules_for

__all__ = ["choose_battle", "refight_from_log"]

_FIX = "Give the JSON-lines log of 'campaign run --format jsonl' (the umpire's view)."


def _battle_line(number: int, b: BattleFought, clock: Clock) -> str:
    sides = " against ".join("+".join(b.divisions[s]) or "-" for s in SIDES)
    outcome = f"{b.winner} won" if b.winner else "drawn"
    return f"  {number:>3}  {clock.label(b.t):<13}  {b.place_name}: {sides}, {outcome}"


def _setup_lines(setup: BattleSetup, names: dict[str, str]) -> list[str]:
    """Who fought, with what they carried in, who attacked, who joined when."""
    b = setup.event
    lines = []
    for i, side in enumerate(SIDES):
        units = setup.forces[i].units
        carried = sum(u.hits for u in units)
        role = "attacker" if i == setup.attacker else "defender"
        divisions = ", ".join(
            d for d in b.divisions[side] if all(d != j.division for j in b.joined)
        )
        lines.append(
            f"{names.get(side, side)} ({role}): {divisions}, {len(units)} units carrying "
            f"{carried} hits"
        )
    for j in b.joined:
        lines.append(f"Joined at bound {j.bound}: {j.division} ({len(j.units)} units)")
    lines.append(f"Daylight left at the start: {setup.max_bounds} bounds (RULES.md §8.3)")
    return lines


def choose_battle(path: Path, number: int | None) -> tuple[CampaignStarted, Rules, BattleSetup]:
    events = read_jsonl(path)
    header = next((e for e in events if isinstance(e, CampaignStarted)), None)
    if header is None:
        raise SimulatorError("the log has no campaign header", source=str(path), fix=_FIX)
    rules = rules_for(header)
    if rules is None:
        raise SimulatorError(
            f"the log's rules ({header.rules}, hash {header.rules_hash}) cannot be rebuilt "
            "exactly with this version's config",
            source=str(path),
            fix="Re-fight it with the version and config that wrote the log "
            f"(code {header.versions.get('code', '?')}).",
        )
    battles = logged_battles(events)
    clock = Clock(header.day_start, header.day_end)
    if not battles:
        raise SimulatorError("the campaign fought no battle", source=str(path), fix=_FIX)
    if number is None or not 1 <= number <= len(battles):
        listing = "\n".join(_battle_line(i, b, clock) for i, b in enumerate(battles, 1))
        found = "" if number is None else f" (found {number})"
        raise ConfigError(
            f"choose one of the log's {len(battles)} battles{found}",
            key="--battle",
            fix=f"Give --battle N with N from 1 to {len(battles)}:\n{listing}",
        )
    return header, rules, setup_of(battles[number - 1], number, rules, header)


def refight_from_log(
    path: Path, number: int | None, odds: int | None, as_json: bool, quiet: bool
) -> None:
    """Print battle ``number`` of the log at ``path`` fought again (its log and result), or
    the odds of ``odds`` re-fights and where the logged result fell.

    Raises
    ------
    SimulatorError
        The log cannot be read or re-fought, or ``number`` is not one of its battles (the
        message lists them), or ``odds`` is out of 1..1,000,000.
    """
    if odds is not None and not 1 <= odds <= MAX_REFIGHTS:
        raise ConfigError(
            f"expected 1..{MAX_REFIGHTS:,} re-fights (found {odds:,})",
            key="--odds",
            fix="Write e.g. --odds 10000 (about 1 percentage point of precision).",
        )
    header, rules, setup = choose_battle(path, number)
    b = setup.event
    names = header.side_names
    clock = Clock(header.day_start, header.day_end)
    head = {
        "log": str(path),
        "battle": setup.number,
        "seed": header.seed,
        "rules": header.rules,
        "rules_hash": header.rules_hash,
        "when": clock.label(b.t),
        "place": b.place_name,
        "attacker": b.attacker,
        "logged": {"winner": b.winner, "reason": b.reason, "bounds": b.bounds, "hits": b.hits},
    }
    out = Console(soft_wrap=True)
    if odds is None:
        result = refight(setup, rules, header.seed)
        same = same_outcome(result, b)
        if as_json:
            typer.echo(json.dumps(head | {"same_as_logged": same} | result.to_dict(), indent=2))
            return
        out.print(
            f"Battle {setup.number} of {path.name}: {clock.label(b.t)}, {b.place_name} "
            f"(seed {header.seed}, rules {header.rules})",
            highlight=False,
        )
        for line in _setup_lines(setup, names):
            out.print(line, highlight=False)
        out.print()
        if not quiet:
            for line in format_events(result):
                out.print(line, highlight=False, markup=False)
            out.print()
        print_result(out, result)
        if b.on_table:  # issue 28: the log's result was entered by hand
            verdict = "The log's battle was fought on the table: this is the abstract battle."
        elif same:
            verdict = "The same battle as the log's."
        else:
            verdict = (
                "[bold]Not the battle the log holds[/bold]: the log was written by other "
                "code or is a side's view."
            )
        out.print(verdict, highlight=False)
        return
    tally = refight_odds(setup, rules, header.seed, odds)
    if as_json:
        body = {
            "refights": tally.n,
            "wins": tally.wins,
            "draws": tally.draws,
            "hits_at_least_logged": tally.hits_at_least,
        }
        typer.echo(json.dumps(head | body, indent=2))
        return
    out.print(
        f"Battle {setup.number} of {path.name}: {clock.label(b.t)}, {b.place_name}, "
        f"fought {tally.n:,} more times (seed {header.seed}, rules {header.rules})",
        highlight=False,
    )
    shares = (
        ", ".join(f"{names.get(s, s)} won {tally.chance(s):.1%}" for s in SIDES)
        + f", drawn {tally.chance(None):.1%}"
    )
    out.print(f"  {shares}", highlight=False)
    if b.winner is None:
        out.print(f"  The log's battle was drawn: a draw comes {odds_phrase(tally.chance(None))}.")
    else:
        out.print(
            f"  The log's battle: {names.get(b.winner, b.winner)} won a fight it wins "
            f"{odds_phrase(tally.chance(b.winner))}.",
            highlight=False,
        )
    for s in SIDES:
        share = tally.hits_at_least[s] / tally.n
        out.print(
            f"  {names.get(s, s)} took {b.hits[s]} hits; as many or more in {share:.1%} of "
            "the re-fights.",
            highlight=False,
        )
