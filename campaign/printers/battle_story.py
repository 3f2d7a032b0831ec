"""A campaign battle's details in the diary (RULES.md §8.4–§8.5): the odds before it, how it
ended, the hits and movement cards each side lost, late arrivals, units destroyed, the
withdrawal checks, and the table of its units; a battle fought on the table (issue 28) is
marked so, with where its result falls among the simulated battles.

The narrator (:class:`campaign.printers.narrative.Narrator`) writes the battle's opening
sentence and calls these for the rest.
"""

from __future__ import annotations

from campaign.events import BattleFought
from campaign.printers.namer import Namer
from campaign.printers.odds import Odds, odds_phrase
from campaign.printers.phrases import checks_phrase, side_noun, verb
from campaign.printers.phrases import count as _count
from campaign.printers.phrases import hits as _hits

__all__ = ["REASONS", "battle_details", "faced_overnight", "unit_table"]

#: How a battle ended (its ``reason``), as the diary says it; ``{loser}`` is the beaten side
REASONS = {
    "cards": "{loser} {was} down to {its} last movement card",
    "both-cards": "both sides reached their last movement card together",
    "withdrawal": "{loser} withdrew after a withdrawal check",
    "both-withdrew": "both sides withdrew",
    "no-units": "{loser} had no unit left on the field",
    "turn-limit": "the turn limit was reached",
    "nightfall": "nightfall ended it",
}


def faced_overnight(e: BattleFought) -> bool:
    """True for a battle that nightfall ended before a hit was taken or a movement card lost
    (RULES.md §8.3): by the rules a drawn battle, in a wargamer's words two forces that face
    each other overnight. Only the wording changes, never the rule."""
    return (
        e.winner is None
        and e.reason == "nightfall"
        and not any(e.hits.values())
        and not any(e.cards_lost.values())
        and all(u.state != "destroyed" for u in e.units)
    )


def battle_details(n: Namer, e: BattleFought) -> list[str]:
    """The battle's detail sentences, in the order the diary prints them, with side and
    division names from the narrator ``n`` (its view's odds, when it has them)."""
    h, m = divmod(e.minutes, 60)
    if e.on_table and faced_overnight(e):  # fought on the table, and nothing came of it
        return _table_lines(n, e, None)
    if faced_overnight(e):  # no odds line: with no daylight to fight in, a draw is certain
        return [
            f"Nightfall came after {_count(e.bounds, 'bound')} ({h} h {m:02d} min), before "
            "either side took a hit or lost a movement card: by the rules a draw."
        ]
    loser = None if e.winner is None else ("blue" if e.winner == "red" else "red")
    name = n.side(loser)
    why = REASONS.get(e.reason, e.reason).format(
        loser=side_noun(name), was=verb(name, "was", "were"), its=verb(name, "its", "their")
    )
    details: list[str] = []
    odds = n.odds(e) if n.odds else None
    if odds is not None:
        # what the estimate knew that the generals did not (campaign.printers.odds): a
        # battle that nightfall ended was simulated in the daylight left, and late arrivals
        # join the simulated fights at the bounds they joined this one (RULES.md §8.4)
        given = []
        if e.reason == "nightfall":
            given.append(f"with {e.bounds} bounds of daylight left")
        if e.joined:
            given.append("counting the late arrivals at the bounds they came")
        given_text = f", {' and '.join(given)}" if given else ""
        red, blue = n.noun("red"), n.noun("blue")
        details.append(
            f"Before the battle{given_text}: {red} would win {odds.chance('red'):.0%} of "
            f"such fights, {blue} {odds.chance('blue'):.0%}, "
            f"{odds.chance(None):.0%} drawn ({odds.n} simulated battles)."
        )
    if e.on_table:  # fought on the table (issue 28): how it ended and where that falls
        details += _table_lines(n, e, odds)
        return details + _joined_and_lost(n, e)
    outcome = f"{n.noun(e.winner)} won" if e.winner else "it was a draw"
    where = _where(n, e, odds)
    details.append(f"After {e.bounds} bounds ({h} h {m:02d} min) {outcome}: {why}{where}.")
    details.append(
        f"{n.noun('red', True)} took {_hits(e.hits.get('red', 0))} and lost "
        f"{_count(e.cards_lost.get('red', 0), 'movement card')}; {n.noun('blue')} took "
        f"{_hits(e.hits.get('blue', 0))} and lost "
        f"{_count(e.cards_lost.get('blue', 0), 'movement card')}."
    )
    details += _joined_and_lost(n, e)
    checks = checks_phrase(n.noun, e.withdrawal_checks)
    if checks:
        details.append(checks)
    return details


def _where(n: Namer, e: BattleFought, odds: Odds | None) -> str:
    """`` - Red won a fight it wins one time in four``: where the result falls among the
    odds' simulated battles (empty without odds)."""
    if odds is None:
        return ""
    if e.winner:
        wins = verb(n.side(e.winner), "it wins", "they win")
        return f" - {n.noun(e.winner)} won a fight {wins} {odds_phrase(odds.chance(e.winner))}"
    return f" - a draw comes {odds_phrase(odds.chance(None))}"


def _table_lines(n: Namer, e: BattleFought, odds: Odds | None) -> list[str]:
    """A battle fought on the table (issue 28): marked so, its length and winner, where that
    falls among the simulated battles, and the hits; its cards and withdrawal checks were
    the table's and are not recorded."""
    h, m = divmod(e.minutes, 60)
    outcome = f"{n.noun(e.winner)} won" if e.winner else "it was a draw"
    dusk = ", ended by nightfall" if e.reason == "nightfall" else ""
    return [
        f"Fought on the table: after {_count(e.bounds, 'bound')} ({h} h {m:02d} min) "
        f"{outcome}{dusk}{_where(n, e, odds)}.",
        f"{n.noun('red', True)} took {_hits(e.hits.get('red', 0))}; {n.noun('blue')} took "
        f"{_hits(e.hits.get('blue', 0))} (the result entered from the table).",
    ]


def _joined_and_lost(n: Namer, e: BattleFought) -> list[str]:
    """The late arrivals (RULES.md §8.4), with their generals where known, and each side's
    units destroyed."""
    details = []
    if e.joined:
        joined = ", ".join(
            f"{n.led(j.division)} ({_count(len(j.units), 'unit')}) at bound {j.bound}"
            for j in e.joined
        )
        details.append(f"Joined during the battle: {joined}.")
    for s in ("red", "blue"):
        lost = [u.id for u in e.units if u.side == s and u.state == "destroyed"]
        if lost:
            details.append(f"{n.adjective(s)} units destroyed: {', '.join(lost)}.")
    return details


def unit_table(n: Namer, e: BattleFought) -> list[tuple[str, ...]]:
    """The battle's units as rows (header first): id, side, type, state, hits before,
    taken and total (hits: RULES.md §4)."""
    table: list[tuple[str, ...]] = [
        ("unit", "side", "type", "state", "hits before", "taken", "total")
    ]
    table += [
        (
            u.id,
            n.side(u.side),
            u.kind,
            u.state,
            str(u.hits_before),
            str(u.hits_taken),
            str(u.total_hits),
        )
        for u in e.units
    ]
    return table
