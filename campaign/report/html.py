"""Write a campaign diary: one self-contained HTML file, or Markdown with PNG pictures.

:func:`write_report` is the entry point used by ``campaign run --report FILE`` and
``campaign report EVENTS.jsonl -o FILE``. The layout lives in the Jinja2 templates
``campaign/templates/diary.html.j2`` (autoescaped; maps and charts inline as SVG) and
``diary.md.j2`` (pictures as PNG files in a folder beside the ``.md``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import jinja2
from markupsafe import Markup, escape

from campaign.config import Rules
from campaign.errors import SimulatorError
from campaign.events import (
    BattleFought,
    CampaignEvent,
    CampaignStarted,
    DivisionRaised,
    MarchBegun,
    Sighted,
)
from campaign.maps.model import CampaignMap
from campaign.printers.battle_story import faced_overnight
from campaign.printers.narrative import OddsSource
from campaign.report.battle_maps import battle_map, falls_of
from campaign.report.charts import (
    battle_timeline,
    division_timeline,
    objective_chart,
    strength_chart,
)
from campaign.report.context import diary_context
from campaign.report.days import Diary, build_diary
from campaign.report.maps import campaign_map, day_map, figure_png, figure_svg, side_styles
from campaign.report.request import DiaryRequest
from campaign.report.view import check_view

__all__ = [
    "DETAILS",
    "check_detail",
    "check_map",
    "render_html",
    "render_markdown",
    "rules_of_stream",
]

#: How much of each battle a diary prints: ``summary`` gives each battle's account, odds and
#: sides (a page or less a day, to read in an evening); ``full`` adds the units table and the
#: bound-by-bound dice log (to check a battle against RULES.md §3-§7).
DETAILS = ("summary", "full")


def check_detail(detail: str, flag: str = "--detail") -> str:
    """``detail`` if it is one of :data:`DETAILS`.

    Raises
    ------
    SimulatorError
        On any other value (names the flag and the choices).
    """
    if detail not in DETAILS:
        raise SimulatorError(
            f"unknown diary detail {detail!r}",
            key=flag,
            fix=f"Give one of: {', '.join(DETAILS)} (summary leaves out the bound-by-bound "
            "logs and unit tables).",
        )
    return detail


def _environment(autoescape: bool) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("campaign", "templates"),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["cell"] = lambda v: str(v).replace("|", "\\|").replace("\n", " ")
    env.filters["keep_ids"] = _keep_ids
    env.filters["css_string"] = _css_string
    return env


def _css_string(value: object) -> Markup:
    """``value`` as a quoted CSS string for a ``content:`` in the page's style sheet: every
    character but plain letters, digits, spaces and ``.,:;·-()'`` is a CSS escape, so a map
    name cannot close the string or the ``<style>`` element."""
    out = []
    for ch in str(value):
        if ch.isalnum() or ch in " .,:;·-()'":
            out.append(ch)
        else:
            out.append(f"\\{ord(ch):x} ")
    return Markup('"' + "".join(out) + '"')


_UNIT_ID = re.compile(r"\b[A-Z]\d*-[A-Z]+\d+\b")


def _keep_ids(line: str) -> Markup:
    """A log line, escaped, with every unit id (``R2-I1``) kept on one line in print."""
    text = str(escape(line))
    return Markup(_UNIT_ID.sub(lambda m: f'<span class="nw">{m.group(0)}</span>', text))


def check_map(events: Sequence[CampaignEvent], cmap: CampaignMap) -> None:
    """Check that every junction the events name is on ``cmap``.

    Raises
    ------
    SimulatorError
        If a junction is missing (the events come from a campaign on another map).
    """
    names: set[str] = set()
    for e in events:
        if isinstance(e, DivisionRaised | Sighted):
            names.add(e.junction)
        elif isinstance(e, MarchBegun):
            names.update((e.origin, e.destination))
        elif isinstance(e, BattleFought):
            names.update(e.road or (e.place,))  # ids are free text: never split
    missing = sorted(names - set(cmap.graph.nodes))
    if missing:
        raise SimulatorError(
            f"the map {cmap.source} has no junction {', '.join(missing[:5])} named in the "
            "event stream",
            key="--map",
            fix="Give --map the map file the campaign was run on.",
        )


def rules_of_stream(
    events: Sequence[CampaignEvent], rules: Rules | None = None, *, source: str | None = None
) -> Rules:
    """``rules`` if given, else the rules the stream's CampaignStarted header names, rebuilt
    (:func:`campaign.printers.odds.rules_for`). ``source`` names the stream in errors.

    Raises
    ------
    SimulatorError
        If ``rules`` is None and the header is missing or its rules cannot be rebuilt with
        its ``rules_hash`` (the diary's strengths in boxes need ``battle.destroyed_at_hits``).
    """
    if rules is not None:
        return rules
    from campaign.printers.odds import rules_for

    header = next((e for e in events if isinstance(e, CampaignStarted)), None)
    found = rules_for(header)
    if found is None:
        label = getattr(header, "rules", None)
        raise SimulatorError(
            "the event stream's rules cannot be rebuilt"
            + (f" from its header ({label!r}, hash {header.rules_hash})" if header else "")
            + ": the diary's strengths need battle.destroyed_at_hits (RULES.md §1.2)",
            source=source,
            key="CampaignStarted.rules",
            fix="Write the diary with the run (campaign run --report PATH) under the same "
            "--variant and --set options, or use the stream of an unedited run.",
        )
    return found


def _diary(
    events: Sequence[CampaignEvent], cmap: CampaignMap, view: str, rules: Rules | None
) -> Diary:
    check_view(view)
    check_map(events, cmap)
    destroyed_at = rules_of_stream(events, rules).battle.destroyed_at_hits
    return build_diary(events, view, destroyed_at=destroyed_at)


def _battle_caption(cmap: CampaignMap, diary: Diary, number: int, b: BattleFought) -> str:
    """``#3 Mont Fère (hill), day 1 19:30: Red won; R2 fell back toward Vauclair.`` (the
    site's terrain as the map gives it)."""
    won = f"{diary.side_name(b.winner)} won" if b.winner else "a draw"
    if faced_overnight(b):
        won = "they faced each other overnight"
    falls = [
        f"{f.division} fell back"
        + (f" toward {cmap.graph.nodes[f.path[-1]].get('name', f.path[-1])}" if f.path else "")
        for f in falls_of(diary, b)
    ]
    tail = "; " + ", ".join(falls) if falls else ""
    ground = "" if b.road else cmap.graph.nodes[b.place].get("terrain")
    place = f"{b.place_name} ({ground})" if ground else b.place_name
    return f"#{number} {place}, {diary.clock.label(b.t)}: {won}{tail}."


def render_html(
    events: Sequence[CampaignEvent],
    cmap: CampaignMap,
    view: str = "umpire",
    odds: OddsSource | None = None,
    rules: Rules | None = None,
    detail: str = "full",
    pages: Callable[[str], int | None] | None = None,
) -> str:
    """The diary of ``view`` as one self-contained HTML document (maps and charts inline).

    ``rules`` are those the campaign was fought under; None rebuilds them from the stream's
    header (:func:`rules_of_stream`, which raises SimulatorError when it cannot).
    ``detail`` is one of :data:`DETAILS`. ``pages`` (``anchor -> printed page or None``, from
    :func:`campaign.report.pdf.render_pdf`) puts page numbers in the contents; None links
    only.
    """
    diary = _diary(events, cmap, view, rules)
    ctx: dict[str, Any] = diary_context(diary, cmap, odds, check_detail(detail))
    if pages is not None:
        for row in ctx["contents"]:
            for entry in (row, *row["battles"]):
                entry["page"] = pages(entry["anchor"]) or ""
    for day, row in zip(diary.days, ctx["days"], strict=True):
        row["svg"] = Markup(figure_svg(day_map(cmap, diary, day), f"{view}-day{day.number}"))
    ctx["final_svg"] = Markup(figure_svg(campaign_map(cmap, diary), f"{view}-final"))
    styles = side_styles(cmap)  # the map's colours (campaign.maps.naming)
    ctx["strength_svg"] = Markup(figure_svg(strength_chart(diary, styles), f"{view}-strength"))
    ctx["timeline_svg"] = Markup(figure_svg(battle_timeline(diary, styles), f"{view}-timeline"))
    ctx["battle_maps"] = [
        {
            "number": n,
            "svg": Markup(figure_svg(battle_map(cmap, diary, b), f"{view}-battle{n}")),
            "caption": _battle_caption(cmap, diary, n, b),
        }
        for n, b in enumerate(diary.battles, start=1)
    ]
    ctx["objective_svg"] = Markup(figure_svg(objective_chart(diary), f"{view}-objectives"))
    ctx["divisions_svg"] = Markup(figure_svg(division_timeline(diary), f"{view}-divisions"))
    return _environment(True).get_template("diary.html.j2").render(ctx)


def render_markdown(r: DiaryRequest) -> str:
    """The Markdown diary text; writes its PNG pictures to ``<stem>-images/`` beside ``r.path``.

    ``r.rules`` and ``r.detail`` as for :func:`render_html`.
    """
    cmap = r.cmap
    diary = _diary(r.events, cmap, r.view, r.rules)
    ctx: dict[str, Any] = diary_context(diary, cmap, r.odds, check_detail(r.detail))
    folder = r.path.parent / f"{r.path.stem}-images"
    folder.mkdir(parents=True, exist_ok=True)
    for day, row in zip(diary.days, ctx["days"], strict=True):
        name = f"day-{day.number}.png"
        figure_png(day_map(cmap, diary, day), folder / name)
        row["image"] = f"{folder.name}/{name}"
    figure_png(campaign_map(cmap, diary), folder / "campaign.png")
    ctx["final_image"] = f"{folder.name}/campaign.png"
    styles = side_styles(cmap)
    figure_png(strength_chart(diary, styles), folder / "strength.png")
    figure_png(battle_timeline(diary, styles), folder / "battles.png")
    figure_png(objective_chart(diary), folder / "objectives.png")
    figure_png(division_timeline(diary), folder / "divisions.png")
    ctx["battle_maps"] = []
    for n, b in enumerate(diary.battles, start=1):
        figure_png(battle_map(cmap, diary, b), folder / f"battle-{n}.png")
        ctx["battle_maps"].append(
            {
                "number": n,
                "image": f"{folder.name}/battle-{n}.png",
                "caption": _battle_caption(cmap, diary, n, b),
            }
        )
    ctx["objective_image"] = f"{folder.name}/objectives.png"
    ctx["divisions_image"] = f"{folder.name}/divisions.png"
    ctx["strength_image"] = f"{folder.name}/strength.png"
    ctx["timeline_image"] = f"{folder.name}/battles.png"
    return _environment(False).get_template("diary.md.j2").render(ctx)
