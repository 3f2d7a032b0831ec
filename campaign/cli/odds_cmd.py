"""``campaign odds``: exact probabilities of every dice mechanic, and the reference card."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from campaign.cli import COMMANDS, app
from campaign.cli.common import SetOption, VariantOption, parse_overrides

if TYPE_CHECKING:
    from campaign.analysis.odds import OddsSheet

__all__ = ["odds"]


def _table(title: str) -> Table:
    """A compact table (a rule under the header, one space between columns): the odds'
    widest table, twelve columns of percentages, fits 80 columns."""
    return Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        collapse_padding=True,
        pad_edge=False,
        show_edge=False,
    )


@app.command("odds", short_help=COMMANDS["odds"].short_help)
def odds(
    variant: VariantOption = None,
    set_: SetOption = None,
    json_: Annotated[bool, typer.Option("--json", help="Print the exact odds as JSON.")] = False,
    card: Annotated[
        Path | None, typer.Option(help="Write the printable reference card (HTML) here.")
    ] = None,
) -> None:
    """Exact odds (by enumeration, not simulation) of every dice mechanic of RULES.md."""
    from campaign.analysis.card import write_card
    from campaign.analysis.odds import odds_sheet
    from campaign.config import load_rules

    loaded = load_rules(list(variant or []), parse_overrides(set_))
    sheet = odds_sheet(loaded)
    if card is not None:
        write_card(sheet, loaded, card)
    if json_:
        typer.echo(json.dumps(sheet.document(), indent=2))
        if card is not None:
            typer.echo(f"wrote {card}", err=True)
        return
    console = _odds_console()
    console.print(
        f"Exact odds — rules {sheet.rules_label} ({sheet.rules_hash}); percentages",
        highlight=False,
    )
    d = sheet.d_distribution
    console.print(
        f"D = {sheet.hit_dice}: {min(d)}..{max(d)} over {len(d)} values (RULES.md §4.1)",
        highlight=False,
    )
    # §4.4 the casualty filter's pass
    console.print(_hit_filter_table(sheet, loaded.rules.battle.hits_on_casualty_pass))
    console.print(_divisors_table(sheet))
    console.print(_reaction_table(sheet))
    console.print(_formation_table(sheet))
    console.print(_withdrawal_table(sheet))
    console.print(_rough_road_line(sheet), highlight=False)
    console.print(_sizes_line(sheet), highlight=False)
    for note in sheet.notes:
        console.print(f"note: {note}", style="dim", highlight=False)
    if card is not None:
        console.print(f"wrote {card}", highlight=False)


def _odds_console() -> Console:
    """A terminal's own width, at most 100; 80 columns when piped (every table fits 80)."""
    probe = Console()
    return Console(width=min(probe.width, 100)) if probe.is_terminal else Console(width=80)


def _hit_filter_table(sheet: OddsSheet, hits_pass: int) -> Table:
    """Per combat divisor and bonus: the morale hits' span, the morale test's failure at
    each morale, the chance of ``hits_pass`` actual hits and the expected actual hits
    (RULES.md §4.2-§4.4)."""
    from campaign.analysis.card import pct, span

    morales = sorted({m for h in sheet.hit_filter for m in h.morale_fail})
    t = _table("Hit filter (§4.2–§4.4)")
    t.caption = (
        f"h: morale hits; @M: the morale test fails at morale M; {hits_pass} hits: "
        f"{hits_pass} actual hits; E hits: expected actual hits"
    )
    t.caption_justify = "left"
    for name in ("CD", "+D", "h", *(f"@{m}" for m in morales), f"{hits_pass} hits", "E hits"):
        t.add_column(name, justify="right", no_wrap=True)
    for h in sheet.hit_filter:
        t.add_row(
            str(h.divisor),
            str(h.bonus or ""),
            span(h.morale_hits),
            *(pct(h.morale_fail[m]) for m in morales),
            pct(h.three_hits),
            f"{float(h.expected_hits):.2f}",
        )
    return t


def _divisors_table(sheet: OddsSheet) -> Table:
    """Which units and situations use each combat divisor and bonus."""
    t = _table("Combat divisors (CD) and bonuses (+D) used by")
    t.add_column("CD", justify="right", no_wrap=True)
    t.add_column("+D", justify="right", no_wrap=True)
    t.add_column("used by", overflow="fold")
    for h in sheet.hit_filter:
        t.add_row(str(h.divisor), str(h.bonus or ""), "; ".join(h.uses))
    return t


def _reaction_table(sheet: OddsSheet) -> Table:
    """The reaction test's pass chance per total (RULES.md §0.3)."""
    from campaign.analysis.card import pct

    t = _table("Reaction test passes (§0.3)")
    for total in sheet.reaction:
        t.add_column(f"T={total}", justify="right", no_wrap=True)
    t.add_row(*(pct(p) for p in sheet.reaction.values()))
    return t


def _formation_table(sheet: OddsSheet) -> Table:
    """Per formation change and grade, its T and chance in each situation (RULES.md §5.2)."""
    from campaign.analysis.card import pct
    from campaign.analysis.odds import SITUATIONS

    t = _table("Formation completion (§5.2): T and chance")
    t.add_column("change", no_wrap=True)
    t.add_column("grade", no_wrap=True)
    for name in SITUATIONS:  # "hit and charged" on two lines: the table fits 80 columns
        t.add_column(textwrap.fill(name, 9), justify="right", no_wrap=True)
    for change, grade, cells in sheet.formation_changes:
        t.add_row(change, grade, *(f"T{c[0]} {pct(c[1])}" for c in cells.values()))
    return t


def _withdrawal_table(sheet: OddsSheet) -> Table:
    """The withdrawal roll's success per withdrawal factor (RULES.md §0.4)."""
    from campaign.analysis.card import pct

    t = _table(f"Withdrawal roll succeeds (§0.4): {sheet.withdrawal_dice}")
    for f in sheet.withdrawal:
        t.add_column(f"F={f}", justify="right", no_wrap=True)
    t.add_row(*(pct(p) for p in sheet.withdrawal.values()))
    return t


def _rough_road_line(sheet: OddsSheet) -> str:
    """The rough road test's pass chance and expected wait (RULES.md §8.2)."""
    from campaign.analysis.card import pct

    wait = sheet.document()["rough_road"]["expected_wait_minutes"]
    return f"Rough road (§8.2): passes {pct(sheet.rough_road_pass)}%; expected wait " + (
        f"{wait:.0f} minutes" if wait is not None else "for ever"
    )


def _sizes_line(sheet: OddsSheet) -> str:
    """The chance of each division size (RULES.md §2.1)."""
    from campaign.analysis.card import pct

    return "Division sizes (§2.1): " + ", ".join(
        f"{n} infantry ({units} units) {pct(p)}%" for n, p, units in sheet.division_sizes
    )
