"""Strategy decisions as diary sentences (RULES.md §8.8): "R2 takes the rough road to
Saint-Fiacre to turn the Blue force at La Croisée, making for Steinbrück (the Blue base)".

One sentence per reason code of :data:`campaign.strategy.CODES`; the narrator decides
which orders are worth a line (see ``Narrator._ordered``).
"""

from __future__ import annotations

from campaign.events import Ordered
from campaign.printers.namer import Namer
from campaign.printers.phrases import side_noun, the_attributive

__all__ = ["order_sentence", "trigger_phrase"]


def order_sentence(n: Namer, e: Ordered) -> str:
    """The sentence of one order, with division and place names from the narrator ``n``."""
    enemy_side = "blue" if e.side == "red" else "red"
    j = n.j
    them = n.side(enemy_side)
    the_them = the_attributive(them)  # the Red force, the French force, the Allies' force

    def target(junction: str | None) -> str:
        if junction is None:
            return "?"
        if junction == n.bases.get(enemy_side):
            return f"{j(junction)} ({the_them} base)"
        if junction == n.bases.get(e.side):
            return f"{j(junction)} (its base)"
        return j(junction)

    road = "the rough road" if e.road_kind == "rough" else "the road"
    enemies = n.divs(e.enemies) or side_noun(them)
    friends = n.divs(e.friends)
    div = n.div(e.division)
    opens = "keeps to its opening plan" if e.division in n.opened else "opens the campaign"
    together = n.divs([e.division, *e.friends])
    many = bool(e.friends)
    texts = {
        "guard": f"{div} falls back on {j(e.goal or '')} to cover the base "
        f"({side_noun(them)} seen at {j(e.enemy_at or '')})",
        "guard_hold": f"{div} holds {j(e.junction)} to cover the base "
        f"({side_noun(them)} seen at {j(e.enemy_at or '')})",
        "regroup": f"{div}{', beaten,' if n.beaten(e.division) else ''} marches to rejoin "
        f"{friends} at {target(e.goal)}",
        "guns": f"{div} marches to the guns at {target(e.goal)}, where "
        f"{the_attributive(n.side(e.side))} army is fighting {enemies}",
        "pursue": f"{together} pursue{'' if many else 's'} {_beaten(n, e.enemies) or enemies} "
        f"to {target(e.goal)}",
        "attack": f"{together} march{'' if many else 'es'} on {enemies} at {target(e.goal)}",
        "concentrate": f"{div} marches to join {friends or 'the army'} at {target(e.goal)} "
        f"before attacking {the_them} force at {j(e.enemy_at or '')}",
        "wait": f"{div} waits at {j(e.junction)} for {friends} before attacking "
        f"{the_them} force at {j(e.enemy_at or '')}",
        "plan": f"{div} {opens} by way of {j(e.goal or '')}, making for {target(e.aim)}",
        "flank": f"{div} takes {road} to {j(e.step or '')} to turn {the_them} force at "
        f"{j(e.enemy_at or '')}, making for {target(e.goal)}",
        "objective": f"{div} makes for the objective {target(e.goal)}",
        "advance": f"{div} advances on {target(e.goal)}",
        "hold": f"{div} holds {j(e.junction)}: nothing to march for",
        "no_way": f"{div} holds {j(e.junction)}: every road to {target(e.aim)} runs "
        "through a stronger enemy",
        "no_turn_back": f"{div} holds {j(e.junction)}: no new reason to turn back",
        "hold_base": f"{div} holds {target(e.junction)} until nightfall: holding it wins",
    }
    text = texts.get(e.code, f"{div} at {j(e.junction)}: {e.code}")
    if e.code == "plan":  # a division opens the campaign once; later it keeps to the plan
        n.opened.add(e.division)
    if e.road_kind == "rough" and e.code != "flank":
        text += f", taking the rough road to {j(e.step or '')} as a short cut"
    if e.trigger:
        text += f" ({trigger_phrase(n, e)})"
    return text


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
