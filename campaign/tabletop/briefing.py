"""The battle briefing (issue 28 item 1): one printable HTML page to set a campaign battle up
on the table, and the sheet to write its result on.

It gives both forces unit by unit (type, grade, formation, the actual hits each carries in,
RULES.md §1.2), who attacks (§6.2), the late arrivals with the bound each joins (§8.4), the
bounds of daylight left (§8.3), the junction's name, terrain and objective value (§7.2), each
side's movement-card deck (§3.1), the odds of the abstract battle for comparison, and the
result sheet (:mod:`campaign.tabletop.sheet`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import jinja2
import networkx as nx

from battle.deck import deck_composition
from battle.rules import BattleRules
from battle.units import UnitSpec
from campaign.analysis.refight import BattleSetup, RefightOdds
from campaign.clock import Clock
from campaign.events import SIDES
from campaign.printers.odds import odds_phrase
from campaign.tabletop.sheet import result_sheet

__all__ = ["Briefing", "SideBrief", "UnitLine", "briefing_html", "briefing_of"]


@dataclass(frozen=True)
class UnitLine:
    """One unit as the briefing lists it; ``boxes`` are its boxes left (of ``limit``)."""

    id: str
    kind: str
    grade: str
    formation: str
    hits: int
    boxes: int
    joins: int | None  # the bound a late arrival joins, None if there from the start


@dataclass(frozen=True)
class SideBrief:
    """One side: its name, role, divisions, units and movement-card deck (RULES.md §3.1)."""

    name: str
    role: str
    divisions: tuple[str, ...]
    units: tuple[UnitLine, ...]
    deck: tuple[int, ...]
    chance: float | None


@dataclass(frozen=True)
class Briefing:
    """All one briefing shows (see the module's docstring)."""

    title: str
    when: str
    place: str
    terrain: str | None
    objective_value: int | None
    daylight_bounds: int
    bound_minutes: int
    sides: tuple[SideBrief, SideBrief]
    odds_line: str | None
    sheet: str
    campaign: str


def _line(u: UnitSpec, rules: BattleRules, joins: int | None) -> UnitLine:
    # a unit enters in its type's default formation unless the force says otherwise (§1.1)
    formation = u.formation or rules.units[u.kind].default_formation
    limit = rules.destroyed_at_hits
    return UnitLine(
        u.id, u.kind.replace("_", " "), u.grade, formation, u.hits, limit - u.hits, joins
    )


def briefing_of(
    setup: BattleSetup,
    names: Mapping[str, str],
    clock: Clock,
    rules: BattleRules,
    *,
    campaign: str,
    graph: nx.Graph | None = None,
    odds: RefightOdds | None = None,
) -> Briefing:
    """The :class:`Briefing` of ``setup``.

    Parameters
    ----------
    setup
        The battle (:func:`campaign.analysis.refight.setup_of`).
    names
        Side names by ``"red"``/``"blue"``.
    clock
        The campaign's clock (its day and time).
    rules
        The battle rules: boxes a unit has (``destroyed_at_hits``), the bound's minutes,
        explicit decks.
    campaign
        A line naming the campaign (map, seed).
    graph
        The map, for the junction's terrain and objective value (None: not shown).
    odds
        The abstract battle's odds (:func:`campaign.analysis.refight.refight_odds`), or None.
    """
    b = setup.event
    limit = rules.destroyed_at_hits
    sides = []
    for i, side in enumerate(SIDES):
        arrived = [(a.bound, u) for a in setup.arrivals if a.side == i for u in a.units]
        units = [_line(u, rules, None) for u in setup.forces[i].units]
        units += [_line(u, rules, bound) for bound, u in arrived]
        sides.append(
            SideBrief(
                names.get(side, side.title()),
                "attacker" if i == setup.attacker else "defender",
                tuple(b.divisions[side]),
                tuple(units),
                tuple(deck_composition(len(setup.forces[i].units), rules.deck.explicit)),
                None if odds is None else odds.chance(side),
            )
        )
    node = graph.nodes[b.place] if graph is not None and b.place in graph else None
    odds_line = None
    if odds is not None:
        shares = ", ".join(
            f"{s.name} wins {odds_phrase(s.chance or 0.0)} ({(s.chance or 0.0):.0%})" for s in sides
        )
        odds_line = f"{shares}; drawn {odds.chance(None):.0%} ({odds.n:,} abstract battles)"
    return Briefing(
        title=f"Battle {setup.number}: {b.place_name}",
        when=clock.label(b.t),
        place=b.place_name,
        terrain=None if node is None else node.get("terrain"),
        objective_value=None if node is None else int(node.get("value") or 0),
        daylight_bounds=setup.max_bounds,
        bound_minutes=rules.bound_minutes,
        sides=(sides[0], sides[1]),
        odds_line=odds_line,
        sheet=result_sheet(setup, names, limit),
        campaign=campaign,
    )


def briefing_html(briefing: Briefing) -> str:
    """The briefing as one self-contained HTML page (A4, prints on one or two pages)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("campaign", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    return env.get_template("briefing.html.j2").render(b=briefing)
