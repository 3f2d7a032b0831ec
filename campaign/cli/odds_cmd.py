"""``campaign odds``: exact probabilities of every dice mechanic, and the reference card."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from campaign.cli import COMMANDS, app
from campaign.cli.common import SetOption, VariantOption, parse_overrides

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
    from campaign.analysis.card import pct as _pct
    from campaign.analysis.card import span, write_card
    from campaign.analysis.odds import SITUATIONS, odds_sheet
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
    probe = Console()
    # a terminal's own width, at most 100; 80 columns when piped (every table fits 80)
    console = Console(width=min(probe.width, 100)) if probe.is_terminal else Console(width=80)
    console.print(
        f"Exact odds — rules {sheet.rules_label} ({sheet.rules_hash}); percentages",
        highlight=False,
    )
    d = sheet.d_distribution
    console.print(
        f"D = {sheet.hit_dice}: {min(d)}..{max(d)} over {len(d)} values (RULES.md §4.1)",
        highlight=False,
    )
    morales = sorted({m for h in sheet.hit_filter for m in h.morale_fail})
    hits_pass = loaded.rules.battle.hits_on_casualty_pass  # §4.4 the casualty filter's pass
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
            *(_pct(h.morale_fail[m]) for m in morales),
            _pct(h.three_hits),
            f"{float(h.expected_hits):.2f}",
        )
    console.print(t)
    t = _table("Combat divisors (CD) and bonuses (+D) used by")
    t.add_column("CD", justify="right", no_wrap=True)
    t.add_column("+D", justify="right", no_wrap=True)
    t.add_column("used by", overflow="fold")
    for h in sheet.hit_filter:
        t.add_row(str(h.divisor), str(h.bonus or ""), "; ".join(h.uses))
    console.print(t)
    t = _table("Reaction test passes (§0.3)")
    for total in sheet.reaction:
        t.add_column(f"T={total}", justify="right", no_wrap=True)
    t.add_row(*(_pct(p) for p in sheet.reaction.values()))
    console.print(t)
    t = _table("Formation completion (§5.2): T and chance")
    t.add_column("change", no_wrap=True)
    t.add_column("grade", no_wrap=True)
    for name in SITUATIONS:  # "hit and charged" on two lines: the table fits 80 columns
        t.add_column(textwrap.fill(name, 9), justify="right", no_wrap=True)
    for change, grade, cells in sheet.formation_changes:
        t.add_row(change, grade, *(f"T{c[0]} {_pct(c[1])}" for c in cells.values()))
    console.print(t)
    t = _table(f"Withdrawal roll succeeds (§0.4): {sheet.withdrawal_dice}")
    for f in sheet.withdrawal:
        t.add_column(f"F={f}", justify="right", no_wrap=True)
    t.add_row(*(_pct(p) for p in sheet.withdrawal.values()))
    console.print(t)
    doc = sheet.document()
    wait = doc["rough_road"]["expected_wait_minutes"]
    console.print(
        f"Rough road (§8.2): passes {_pct(sheet.rough_road_pass)}%; expected wait "
        + (f"{wait:.0f} minutes" if wait is not None else "for ever"),
        highlight=False,
    )
    console.print(
        "Division sizes (§2.1): "
        + ", ".join(
            f"{n} infantry ({units} units) {_pct(p)}%" for n, p, units in sheet.division_sizes
        ),
        highlight=False,
    )
    for note in sheet.notes:
        console.print(f"note: {note}", style="dim", highlight=False)
    if card is not None:
        console.print(f"wrote {card}", highlight=False)
