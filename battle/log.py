"""Plain-text formatting of battle events: a readable bound-by-bound log.

Printers only format; nothing here changes a battle. Dice are shown with their target,
e.g. ``d100=63 vs 74: passes``.
"""

from __future__ import annotations

from collections.abc import Iterator

from battle import events
from battle.result import BattleResult

__all__ = ["a_number", "format_event", "format_events", "plural", "reason_text"]

_REASONS = {
    "cards": "{loser} is down to its last movement card (RULES.md §3.4)",
    "both-cards": "both sides reached their last card in the same phase (§6.8)",
    "withdrawal": "{loser} withdrew after a withdrawal check (§7)",
    "both-withdrew": "both sides withdrew (§7.4)",
    "no-units": "{loser} has no unit left on the field (§6.8 c)",
    "turn-limit": "the turn limit was reached (§6.8 d)",
    "nightfall": "nightfall stopped the battle (§8.3)",
}


_HOW = {
    "fire": "fires at",
    "defensive-fire": "fires at its charger",
    "move-and-fire": "moves and fires at",
    "melee": "melee",
    "free-attack": "free attack on",
    "pursuit": "pursues and fights",
}


def a_number(n: int) -> str:
    """``n`` with its indefinite article as spoken: "a 7", "an 8", "an 11", "an 18", "a 100".

    >>> a_number(8), a_number(11), a_number(18), a_number(80), a_number(7)
    ('an 8', 'an 11', 'an 18', 'an 80', 'a 7')
    """
    s = str(abs(int(n)))
    spoken_eight = s.startswith("8")
    eleven_or_eighteen = len(s) % 3 == 2 and s[:2] in ("11", "18")
    return f"{'an' if spoken_eight or eleven_or_eighteen else 'a'} {n}"


def plural(n: int, word: str) -> str:
    """``"1 card"``, ``"2 cards"``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def reason_text(
    reason: str, names: tuple[str, str], winner: int | None, loser_cards: int | None = None
) -> str:
    """A sentence saying why a battle ended.

    ``loser_cards``: the cards the loser has left, which the sentence gives when it is not
    one (a variant may lose at more than one card, RULES.md §3.4).
    """
    loser = names[1 - winner] if winner is not None else "nobody"
    if reason == "cards" and loser_cards is not None and loser_cards != 1:
        return f"{loser} is down to {plural(loser_cards, 'movement card')} (RULES.md §3.4)"
    return _REASONS.get(reason, reason).format(loser=loser)


def _loser_cards(result: BattleResult) -> int | None:
    return None if result.winner is None else result.cards_left[1 - result.winner]


def _test(e: events.TestRolled) -> str:
    if e.kind == "completion":
        verdict = "completes" if e.passed else "fails, stays disordered"
        return f"{e.unit} reaction test {e.reason}: {e.dice}={e.roll} vs >{e.target}: {verdict}"
    if e.kind == "initiative":
        return f"initiative {e.dice}: {e.roll} vs {e.target}; {e.reason}"
    verdict = "passes" if e.passed else "fails"
    return f"{e.unit} {e.kind} test: {e.dice}={e.roll} vs {e.target}: {verdict}"


def format_event(
    e: events.BattleEvent, names: tuple[str, str], loser_cards: int | None = None
) -> str | None:
    """One event as one line of text (None for events printed elsewhere).

    ``loser_cards``: the loser's cards left at the end (see :func:`reason_text`).
    """
    if isinstance(e, events.BoundStarted):
        acts = ", ".join(e.activated) or "none"
        return (
            f"Turn {e.turn}, bound {e.bound}: {names[e.side]} draws {a_number(e.card)} "
            f"({plural(e.deck_size, 'card')}); activates {acts}"
        )
    if isinstance(e, events.TestRolled):
        return "  " + _test(e)
    if isinstance(e, events.HitResolved):
        how = _HOW.get(e.how, e.how)
        bonus = f"+{e.bonus}" if e.bonus else ""
        return (
            f"  {e.attacker} {how} {e.target}: D={e.d_roll}{bonus} / CD {e.divisor} = "
            f"{e.morale_hits} morale hits; {e.actual_hits} actual hit"
            f"{'s' if e.actual_hits != 1 else ''} ({e.target} now {e.target_total_hits})"
        )
    if isinstance(e, events.MeleeResolved):
        who = {
            "decided": f"{e.loser} loses",
            "broken": f"{e.loser} loses (routed or destroyed)",
            "tie": "tie, the melee goes on",
            "ended": "both are gone, nobody loses",
        }[e.outcome]
        return f"  melee {e.unit_a} {e.hits_by_a} - {e.hits_by_b} {e.unit_b}: {who}"
    if isinstance(e, events.CardLost):
        return (
            f"  bad thing for {names[e.side]} ({e.cause}): loses {a_number(e.card)}, "
            f"{plural(e.cards_left, 'card')} left"
        )
    if isinstance(e, events.StateChanged):
        why = f" ({e.reason})" if e.reason else ""
        return f"  {e.unit} is {e.state}{why}"
    if isinstance(e, events.Moved):
        tgt = f" on {e.target}" if e.target else ""
        return f'  {e.unit} {e.action}{tgt}: {e.from_inches:.0f}" -> {e.to_inches:.0f}"'
    if isinstance(e, events.FormationChanged):
        return f"  {e.unit} changes {e.from_formation} -> {e.to_formation} (disordered)"
    if isinstance(e, events.WithdrawalChecked):
        rows = ", ".join(f"{f.row} {f.factors:+d}" for f in e.factors) or "no factors"
        verdict = "WITHDRAWS" if e.withdraws else "holds"
        if e.total <= 0 or not e.rolls:  # the factors leave no die to roll (RULES.md §7.3)
            roll = f"{e.total} dice: nothing to roll"
        else:
            roll = f"{e.total}d{e.die}: {'+'.join(map(str, e.rolls))} = {sum(e.rolls)}"
        return (
            f"  withdrawal check {names[e.side]} at {e.casualty_percent:.0f}% losses: "
            f"{rows} = {roll} vs {e.success_total}+: {verdict}"
        )
    if isinstance(e, events.BattleEnded):
        who = names[e.winner] + " wins" if e.winner is not None else "Draw"
        why = reason_text(e.reason, names, e.winner, loser_cards)
        return f"End after bound {e.bound}: {who}: {why}"
    return None


def format_events(result: BattleResult) -> Iterator[str]:
    """The whole bound-by-bound log of a result recorded with events on."""
    loser_cards = _loser_cards(result)
    for e in result.events:
        line = format_event(e, result.names, loser_cards)
        if line is not None:
            yield line
