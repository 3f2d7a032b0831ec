"""Battles fought on the table in a saved campaign (issue 28, items 1 and 2): the policy of
``--tabletop`` (``ask`` asks on a terminal), the briefing and result sheet written at a stop,
and the result entered with ``campaign resume --result``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from battle.errors import ConfigError
from campaign.cli.common import RUN_TABLETOP
from campaign.engine import Campaign
from campaign.outfile import write_text_whole
from campaign.table_battle import BattleStart
from campaign.table_result import TableResult

__all__ = [
    "ASK_TRIES",
    "battle_setup",
    "entered_result",
    "policy_rule",
    "write_battle_papers",
]

#: how many times ``--tabletop ask`` asks again after an answer it cannot read
ASK_TRIES = 5
#: the abstract battles a stop's briefing fights for its odds line
BRIEFING_ODDS = 1000


def policy_rule(
    policy: str | None,
    camp: Campaign,
    *,
    choices: tuple[str, ...] = RUN_TABLETOP,
    interactive: bool | None = None,
) -> Callable[[BattleStart], bool] | None:
    """The stop rule of ``--tabletop POLICY`` (None for none, or ``off`` when ``choices``
    has it): ``all``, ``units>=N``, ``at=J[,J]`` (:func:`campaign.tabletop.policy.parse_policy`),
    or ``ask``, which asks at each battle on a terminal. ``choices`` are the policies the
    command accepts (:data:`~campaign.cli.common.RUN_TABLETOP`,
    :data:`~campaign.cli.common.RESUME_TABLETOP`), which an unknown one's error lists.

    Raises
    ------
    ConfigError
        An unknown policy; ``ask`` when stdin or stderr is not a terminal.
    """
    spec = None if policy is None else policy.strip()
    if spec is None or (spec == "off" and "off" in choices):
        return None
    if spec != "ask":
        from campaign.tabletop.policy import parse_policy

        names = {j: str(d.get("name", j)) for j, d in camp.map.graph.nodes(data=True)}
        return parse_policy(spec, names, choices=choices)
    terminal = sys.stdin.isatty() and sys.stderr.isatty() if interactive is None else interactive
    if not terminal:
        raise ConfigError(
            "--tabletop ask asks at each battle whether to fight it on the table, and needs a "
            "terminal to ask on (stdin is not one)",
            key="--tabletop",
            fix="Run it in a terminal, or choose the battles beforehand: --tabletop all, "
            "'units>=N' or at=JUNCTION.",
        )
    return lambda b: _ask(b, camp)


def _ask(b: BattleStart, camp: Campaign) -> bool:
    """Ask on the terminal whether to fight battle ``b`` on the table."""
    graph = camp.map.graph
    where = (
        str(graph.nodes[b.junction].get("name", b.junction))
        if b.junction is not None
        else "the road " + " - ".join(str(graph.nodes[j].get("name", j)) for j in b.road or ())
    )
    sides = {s: camp.map.sides[s].name for s in camp.map.sides}
    forces = ", ".join(f"{sides.get(s, s)} {n} units" for s, n in b.units.items())
    typer.echo(f"Battle {b.number} at {where}, {camp.clock.label(b.start)}: {forces}.", err=True)
    for _ in range(ASK_TRIES):
        answer = typer.prompt("Fight it on the table or let the engine fight it? [t/e]", err=True)
        word = answer.strip().lower()
        if word in ("t", "table"):
            return True
        if word in ("e", "engine"):
            return False
        typer.echo("Answer t (the table) or e (the engine).", err=True)
    raise ConfigError(
        f"no answer read after {ASK_TRIES} tries", key="--tabletop ask", fix="Answer t or e."
    )


def battle_setup(camp: Campaign) -> Any:
    """The :class:`campaign.analysis.refight.BattleSetup` of the battle ``camp`` stopped
    before (:meth:`Campaign.run_until_battle`)."""
    from campaign.analysis.refight import setup_on

    reached = camp.table.reached
    assert reached is not None
    sides = {s: camp.map.sides[s].name for s in camp.map.sides}
    return setup_on(reached.event, reached.number, camp.rules, camp.clock, sides)


def write_battle_papers(camp: Campaign, save: Path, seed: int) -> tuple[Path, Path]:
    """Write the briefing (HTML) and the result sheet (YAML) of the battle ``camp`` stopped
    before, beside the save: ``<save>-battle<N>.html`` and ``<save>-battle<N>.yaml``."""
    from campaign.analysis.refight import refight_odds
    from campaign.tabletop.briefing import briefing_html, briefing_of
    from campaign.tabletop.sheet import result_sheet

    setup = battle_setup(camp)
    names = {s: camp.map.sides[s].name for s in camp.map.sides}
    base = save.with_name(f"{save.stem}-battle{setup.number}")
    page = briefing_of(
        setup,
        names,
        camp.clock,
        camp.rules.battle,
        campaign=f"{camp.map.name}, seed {seed}, rules {camp.loaded.label}",
        graph=camp.map.graph,
        odds=refight_odds(setup, camp.rules, seed, BRIEFING_ODDS),
    )
    html, sheet = base.with_suffix(".html"), base.with_suffix(".yaml")
    write_text_whole(html, briefing_html(page), "--save")
    write_text_whole(sheet, result_sheet(setup, names, camp.rules.battle.destroyed_at_hits))
    return html, sheet


def entered_result(text: str, camp: Campaign) -> TableResult:
    """The result ``--result`` gives for the battle ``camp`` stopped before: a filled-in
    sheet's path, or the quick form ``winner=red,red_losses=20%,blue_losses=45%``.

    Raises
    ------
    ResultSheetError
        A result the battle could not have had (the key path and the fix; exit code 2).
    """
    from campaign.tabletop.sheet import parse_quick_result, read_result

    setup = battle_setup(camp)
    limit = camp.rules.battle.destroyed_at_hits
    if "=" in text and not Path(text).exists():
        return parse_quick_result(text, setup, limit, bounds=max(1, setup.max_bounds))
    return read_result(Path(text), setup, limit)
