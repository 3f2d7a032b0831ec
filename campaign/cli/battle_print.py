"""The result table of one quick battle, as ``campaign battle`` prints it (RULES.md §6.8, §7)."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table

from battle.log import plural, reason_text
from battle.result import BattleResult

__all__ = ["print_result"]


def print_result(out: Console, result: BattleResult) -> None:
    """Print ``result``'s unit table, winner, length, cards, casualties and withdrawal checks."""
    names = result.names
    table = Table(
        title="Result (actual hits: before the battle + taken = total)",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
        show_edge=False,
    )  # fits 80 columns: the longest type, formation and state are shown whole
    for col in ("side", "unit", "type", "grade", "formation", "state"):
        table.add_column(col, no_wrap=True)
    table.add_column("actual hits", justify="right", no_wrap=True)
    for u in result.units:
        style = "red" if u.state in ("routed", "destroyed", "off-table") else None
        table.add_row(
            names[u.side],
            u.id,
            u.kind.replace("_", " "),
            u.grade,
            u.formation,
            u.state,
            f"{u.hits_before} + {u.hits_taken} = {u.total_hits}",
            style=style,
        )
    out.print(table)
    out.print()
    who = f"{result.winner_name} wins" if result.winner is not None else "Draw"
    loser_cards = None if result.winner is None else result.cards_left[1 - result.winner]
    out.print(
        f"[bold]{who}[/bold]: {reason_text(result.reason, names, result.winner, loser_cards)}"
    )
    out.print(f"{result.bounds} bounds ({result.turns} turns), {result.minutes} minutes of battle")
    for i, name in enumerate(names):
        out.print(
            f"{name}: {plural(result.cards_left[i], 'card')} left, {result.cards_lost[i]} lost; "
            f"casualties {result.casualty_percent[i]:.1f}%; "
            f"{result.hits_taken(i)} actual hits taken",
            highlight=False,
        )
    if not result.withdrawal_checks:
        out.print("withdrawal checks: none made (a side checks at the end of a turn, §7.2)")
    for w in result.withdrawal_checks:
        rows = ", ".join(f"{f.row} {f.factors:+d}" for f in w.factors) or "no factors"
        verdict = "withdraws" if w.withdraws else "holds"
        dice = f"{w.total}d{w.die}: {'+'.join(map(str, w.rolls))} = {sum(w.rolls)}"
        out.print(
            f"withdrawal check turn {w.turn}: {names[w.side]} at {w.casualty_percent:.0f}%: "
            f"{rows}; {dice if w.total > 0 else 'no dice'}: {verdict}",
            highlight=False,
        )
