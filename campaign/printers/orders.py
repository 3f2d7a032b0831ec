"""Strategy decisions as diary sentences (RULES.md §8.8): "R2 takes the rough road to
Saint-Fiacre to turn the Blue force at La Croisée, making for Steinbrück (the Blue base)".

One sentence per reason code of :data:`campaign.strategy.CODES`; the narrator decides
which orders are worth a line (see ``Narrator._ordered``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from campaign.events import Ordered
from campaign.printers.namer import Namer
from campaign.printers.phrases import side_noun, the_attributive

__all__ = ["Told", "order_sentence", "order_told", "told", "trigger_phrase"]


@dataclass(frozen=True)
class _Words:
    """The names an order's sentence is made of (from the narrator ``n``)."""

    n: Namer
    e: Ordered

    @property
    def enemy_side(self) -> str:
        return "blue" if self.e.side == "red" else "red"

    @property
    def them(self) -> str:
        return self.n.side(self.enemy_side)

    @property
    def the_them(self) -> str:
        """``the Red force``, ``the French force``, ``the Allies' force``."""
        return the_attributive(self.them)

    @property
    def div(self) -> str:
        return self.n.div(self.e.division)

    @property
    def friends(self) -> str:
        return self.n.divs(self.e.friends)

    @property
    def enemies(self) -> str:
        return self.n.divs(self.e.enemies) or side_noun(self.them)

    @property
    def together(self) -> str:
        """The division and the friends marching with it."""
        return self.n.divs([self.e.division, *self.e.friends])

    @property
    def many(self) -> bool:
        return bool(self.e.friends)

    @property
    def seen(self) -> str:
        """Where the enemy was seen (``enemy_at``)."""
        return self.n.j(self.e.enemy_at or "")

    def at(self, junction: str | None) -> str:
        """A junction's name ('' for None)."""
        return self.n.j(junction or "")

    def target(self, junction: str | None) -> str:
        """A goal's name, saying when it is the enemy's base or the division's own."""
        if junction is None:
            return "?"
        if junction == self.n.bases.get(self.enemy_side):
            return f"{self.n.j(junction)} ({self.the_them} base)"
        if junction == self.n.bases.get(self.e.side):
            return f"{self.n.j(junction)} (its base)"
        return self.n.j(junction)


def _plan(w: _Words) -> str:
    opens = "keeps to its opening plan" if w.e.division in w.n.opened else "opens the campaign"
    return f"{w.div} {opens} by way of {w.at(w.e.goal)}, making for {w.target(w.e.aim)}"


def _flank(w: _Words) -> str:
    road = "the rough road" if w.e.road_kind == "rough" else "the road"
    return (
        f"{w.div} takes {road} to {w.at(w.e.step)} to turn {w.the_them} force at "
        f"{w.seen}, making for {w.target(w.e.goal)}"
    )


#: One sentence per reason code of :data:`campaign.strategy.CODES` (RULES.md §8.8).
_SENTENCES: dict[str, Callable[[_Words], str]] = {
    "guard": lambda w: (
        f"{w.div} falls back on {w.at(w.e.goal)} to cover the base "
        f"({side_noun(w.them)} seen at {w.seen})"
    ),
    "guard_hold": lambda w: (
        f"{w.div} holds {w.n.j(w.e.junction)} to cover the base "
        f"({side_noun(w.them)} seen at {w.seen})"
    ),
    "regroup": lambda w: (
        f"{w.div}{', beaten,' if w.n.beaten(w.e.division) else ''} marches "
        f"to rejoin {w.friends} at {w.target(w.e.goal)}"
    ),
    "guns": lambda w: (
        f"{w.div} marches to the guns at {w.target(w.e.goal)}, where "
        f"{the_attributive(w.n.side(w.e.side))} army is fighting {w.enemies}"
    ),
    "pursue": lambda w: (
        f"{w.together} pursue{'' if w.many else 's'} "
        f"{_beaten(w.n, w.e.enemies) or w.enemies} to {w.target(w.e.goal)}"
    ),
    "attack": lambda w: (
        f"{w.together} march{'' if w.many else 'es'} on {w.enemies} at {w.target(w.e.goal)}"
    ),
    "concentrate": lambda w: (
        f"{w.div} marches to join {w.friends or 'the army'} at "
        f"{w.target(w.e.goal)} before attacking {w.the_them} force at {w.seen}"
    ),
    "wait": lambda w: (
        f"{w.div} waits at {w.n.j(w.e.junction)} for {w.friends} before "
        f"attacking {w.the_them} force at {w.seen}"
    ),
    "plan": _plan,
    "flank": _flank,
    "objective": lambda w: f"{w.div} makes for the objective {w.target(w.e.goal)}",
    "advance": lambda w: f"{w.div} advances on {w.target(w.e.goal)}",
    "hold": lambda w: f"{w.div} holds {w.n.j(w.e.junction)}: nothing to march for",
    "no_way": lambda w: (
        f"{w.div} holds {w.n.j(w.e.junction)}: every road to "
        f"{w.target(w.e.aim)} runs through a stronger enemy"
    ),
    "no_turn_back": lambda w: f"{w.div} holds {w.n.j(w.e.junction)}: no new reason to turn back",
    "hold_base": lambda w: (
        f"{w.div} holds {w.target(w.e.junction)} until nightfall: holding it wins"
    ),
    "let_go": lambda w: (
        f"{w.div} holds {w.n.j(w.e.junction)}, letting "
        f"{_beaten(w.n, w.e.enemies) or w.enemies} fall back: it will not fight them twice in a day"
    ),
}


def order_sentence(n: Namer, e: Ordered) -> str:
    """The sentence of one order, with division and place names from the narrator ``n``.

    A ``plan`` order marks its division as having opened the campaign (its next plan
    "keeps to its opening plan"); a rough road taken as a short cut and the trigger of a
    change of plan are added to the sentence."""
    w = _Words(n, e)
    sentence = _SENTENCES.get(e.code)
    text = sentence(w) if sentence else f"{w.div} at {n.j(e.junction)}: {e.code}"
    if e.code == "plan":  # a division opens the campaign once; later it keeps to the plan
        n.opened.add(e.division)
    if e.road_kind == "rough" and e.code != "flank":
        text += f", taking the rough road to {n.j(e.step or '')} as a short cut"
    if e.trigger:
        text += f" ({trigger_phrase(n, e)})"
    return text


#: an order as the narrator tells it (what it is), the junction it was given at and its road
Told = tuple[tuple[object, ...], str, str | None]


def told(e: Ordered) -> Told:
    """``e`` as :func:`order_told` compares it with the division's next order."""
    return (e.code, e.goal, e.enemy_at, e.friends, e.aim), e.junction, e.step


def order_told(n: Namer, e: Ordered, last: Told | None) -> str | None:
    """The sentence of ``e`` (:func:`order_sentence`) after ``last``, the division's order
    told before (:func:`told`), or None for the same order again on an ordinary road: the
    next road of the same march, said once. The same order from the same junction by
    another road (its rough road would not pass, RULES.md §8.2) is a new way: said, with
    the road it takes instead, for every move is told with its reason."""
    if last is None or last[0] != told(e)[0] or e.road_kind == "rough":
        return order_sentence(n, e)
    if last[1] == e.junction and last[2] != e.step:
        return f"{order_sentence(n, e)}, by way of {n.j(e.step or '')} instead"
    return None


def _beaten(n: Namer, enemies: tuple[str, ...]) -> str:
    """``the beaten R2 (Foy)``, ``the beaten R2 (Foy), with R4 (Pajol)``: "beaten" only for
    divisions whose last battle was lost ('' when none is named)."""
    lost = [d for d in enemies if n.beaten(d)]
    others = [d for d in enemies if not n.beaten(d)]
    if not lost:
        return n.divs(others)
    with_ = f", with {n.divs(others)}," if others else ""
    return f"the beaten {n.divs(lost)}{with_}"


def trigger_phrase(n: Namer, e: Ordered) -> str:
    """Why the division gave up the order it kept for this one (RULES.md §8.8, the re-plan
    triggers of :mod:`campaign.strategy.triggers`): "a change of plan: the battle at
    Ligny is over"."""
    them = side_noun(n.side("blue" if e.side == "red" else "red"))
    cause = e.cause
    phrases = {
        "battle": f"the battle at {n.j(cause)} is over" if cause else "a battle has been fought",
        "nightfall": "a new day, new orders",
        "void": f"{them} have left {n.j(cause[3:])}"
        if cause.startswith("at:")
        else f"{n.divs(cause.split(','))} destroyed or surrendered",
        "sighting": f"{them} at {n.j(cause)} are stronger than reported"
        if cause
        else f"new sightings of {them} change the balance",
        "timeout": "the old order has run its time",
        "no_way": f"every road to {n.j(cause)} is barred by a stronger enemy",
        "threat": f"{them} at {n.j(cause)} threaten the base",
        "base": f"the enemy base at {n.j(cause)} is taken",
    }
    return "a change of plan: " + phrases.get(e.trigger, e.trigger)
