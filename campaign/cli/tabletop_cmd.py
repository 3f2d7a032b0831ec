"""Tabletop commands (issue 28): a logged battle's briefing and result sheet, and a result
fought on the table checked and set beside the abstract battle's odds.

- ``campaign briefing --from LOG.jsonl --battle N [-o FILE.html] [--odds K]``
- ``campaign result-sheet --from LOG.jsonl --battle N [-o FILE.yaml]``
- ``campaign result-check --from LOG.jsonl --battle N --result FILE.yaml|QUICK``
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from battle.errors import ConfigError
from battle.log import plural
from campaign.analysis.refight import BattleSetup, refight_odds
from campaign.cli import COMMANDS, app
from campaign.cli.refight_cmd import choose_battle
from campaign.clock import Clock
from campaign.errors import MapError, SimulatorError
from campaign.events import SIDES, CampaignStarted
from campaign.outfile import write_text_whole
from campaign.printers.odds import odds_phrase
from campaign.tabletop.briefing import briefing_html, briefing_of
from campaign.tabletop.sheet import (
    TableResult,
    parse_quick_result,
    read_result,
    result_sheet,
)

__all__ = ["briefing", "result_check", "result_sheet_cmd"]

FromOption = Annotated[
    Path,
    typer.Option(
        "--from", metavar="LOG.jsonl", help="The campaign's log (campaign run --format jsonl)."
    ),
]
BattleOption = Annotated[
    int | None, typer.Option("--battle", metavar="N", help="The log's battle N (1 = the first).")
]


def _output_option(metavar: str) -> Any:
    """``-o/--output FILE``: where a tabletop command writes its page (stdout without)."""
    return typer.Option("-o", "--output", metavar=metavar, help="Write it here.")


BriefingOutput = Annotated[Path | None, _output_option("FILE.html")]
SheetOutput = Annotated[Path | None, _output_option("FILE.yaml")]
#: the most abstract battles a briefing's odds line fights
MAX_BRIEFING_ODDS = 100_000


def _graph(header: CampaignStarted):  # type: ignore[no-untyped-def]
    """The map the log was run on (for terrain and objective values), or None if it cannot
    be loaded as it was."""
    from campaign.maps import load_map

    try:
        return load_map(header.map_source).graph
    except (SimulatorError, MapError, OSError):
        return None


def _check_output(output: Path | None, from_log: Path) -> None:
    """Refuse ``-o`` naming the log itself, before any work: the page or sheet written over
    it would lose the campaign (the standard: bad input loses nothing)."""
    if output is None or not output.exists():
        return
    try:
        same = output.samefile(from_log)
    except OSError:
        return
    if same:
        raise ConfigError(
            "this is the campaign's log given to --from; writing there would replace it",
            source=str(output),
            key="--output",
            fix="Name another file, e.g. -o battle.html or -o battle.yaml.",
        )


def _write(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text)
    else:
        write_text_whole(output, text, "--output")
        typer.echo(f"written to {output}", err=True)


@app.command("briefing", short_help=COMMANDS["briefing"].short_help)
def briefing(
    from_log: FromOption,
    battle: BattleOption = None,
    output: BriefingOutput = None,
    odds: Annotated[
        int,
        typer.Option(metavar="K", help="Abstract battles fought for the odds line (0: none)."),
    ] = 1000,
) -> None:
    """Write the battle briefing (HTML, one or two A4 pages): both forces unit by unit,
    attacker, late arrivals, daylight, decks, the abstract odds and the result sheet."""
    if not 0 <= odds <= MAX_BRIEFING_ODDS:
        raise ConfigError(
            f"expected 0..{MAX_BRIEFING_ODDS:,} (found {odds:,})",
            key="--odds",
            fix="1,000 abstract battles give the odds within about 3 points.",
        )
    _check_output(output, from_log)
    header, rules, setup = choose_battle(from_log, battle)
    tally = refight_odds(setup, rules, header.seed, odds) if odds else None
    page = briefing_of(
        setup,
        header.side_names,
        Clock(header.day_start, header.day_end),
        rules.battle,
        campaign=f"{header.map_name}, seed {header.seed}, rules {header.rules}",
        graph=_graph(header),
        odds=tally,
    )
    _write(briefing_html(page), output)


@app.command("result-sheet", short_help=COMMANDS["result-sheet"].short_help)
def result_sheet_cmd(
    from_log: FromOption,
    battle: BattleOption = None,
    output: SheetOutput = None,
) -> None:
    """Write the YAML sheet to fill in after fighting the battle on the table."""
    _check_output(output, from_log)
    header, rules, setup = choose_battle(from_log, battle)
    _write(result_sheet(setup, header.side_names, rules.battle.destroyed_at_hits), output)


def _entered(text: str, setup: BattleSetup, limit: int) -> TableResult:
    if "=" in text and not Path(text).exists():
        return parse_quick_result(text, setup, limit, bounds=max(1, setup.event.bounds))
    return read_result(Path(text), setup, limit)


@app.command("result-check", short_help=COMMANDS["result-check"].short_help)
def result_check(
    from_log: FromOption,
    result: Annotated[
        str,
        typer.Option(
            "--result",
            metavar="FILE.yaml|QUICK",
            help="A filled-in result sheet, or 'winner=red,red_losses=20%,blue_losses=45%'.",
        ),
    ],
    battle: BattleOption = None,
    odds: Annotated[
        int, typer.Option(metavar="K", help="Abstract battles to compare with.")
    ] = 2000,
) -> None:
    """Check a result fought on the table and say where it falls among the abstract battle's
    outcomes ("Red won a fight it wins one time in four")."""
    if not 1 <= odds <= MAX_BRIEFING_ODDS:
        raise ConfigError(
            f"expected 1..{MAX_BRIEFING_ODDS:,} (found {odds:,})",
            key="--odds",
            fix="2,000 abstract battles give the odds within about 2 points.",
        )
    header, rules, setup = choose_battle(from_log, battle)
    entered = _entered(result, setup, rules.battle.destroyed_at_hits)
    tally = refight_odds(setup, rules, header.seed, odds)
    names = header.side_names
    taken = entered.hits_taken(setup)
    who = "drawn" if entered.winner is None else f"{names.get(entered.winner)} won"
    typer.echo(
        f"Battle {setup.number}, {setup.event.place_name}: {who} after "
        f"{plural(entered.bounds, 'bound')}; "
        + ", ".join(f"{names.get(s, s)} took {taken[s]} hits" for s in SIDES)
    )
    if entered.winner is None:
        typer.echo(f"  A draw, which the abstract battle gives {odds_phrase(tally.chance(None))}.")
    else:
        typer.echo(
            f"  {names.get(entered.winner)} won a fight it wins "
            f"{odds_phrase(tally.chance(entered.winner))} "
            f"({tally.chance(entered.winner):.0%} of {tally.n:,} abstract battles)."
        )
