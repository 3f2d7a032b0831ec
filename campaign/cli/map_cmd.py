"""``campaign map info`` and ``campaign map convert``: inspect and convert campaign maps."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from campaign.cli import COMMANDS, app, fail
from campaign.errors import MapError, split_pair
from campaign.maps import CampaignMap, MapOptions, load_map, write_map
from campaign.maps.summary import summarize_map
from campaign.printers.phrases import figures

__all__ = ["map_app"]

map_app = typer.Typer(
    help="Inspect campaign maps (project YAML, neutral YAML, GraphML, node-link JSON) and "
    "convert them to the project's format.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(map_app, name="map", short_help=COMMANDS["map"].short_help)

MapArg = Annotated[str, typer.Argument(metavar="MAP", help="A map file or a shipped map's name.")]
ContractOpt = Annotated[
    bool,
    typer.Option(
        "--contract",
        help="Prune dead-end spurs and merge pass-through junctions into longer roads "
        "(objectives, bases and starts stay; march hours between them are unchanged).",
    ),
]
RoadKindOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--road-kind", metavar="KIND=MAPPED", help="Treat a road kind as normal|rough|impassable."
    ),
]
HoursOpt = Annotated[
    float | None,
    typer.Option("--hours-per-length", help="March hours per unit of a road's length."),
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of automatic bases and layout.")]
BaseOpt = Annotated[
    str | None, typer.Option(metavar="JUNCTION", help="Base junction id (overrides the map).")
]
StartOpt = Annotated[
    list[str] | None,
    typer.Option(metavar="JUNCTION", help="A start junction id (repeatable)."),
]


def _road_kinds(pairs: list[str] | None) -> dict[str, str]:
    kinds = {}
    for pair in pairs or []:
        kind, mapped = split_pair(
            pair, MapError, "--road-kind", "KIND=MAPPED", "Write e.g. --road-kind river=normal."
        )
        kinds[kind] = mapped.strip()
    return kinds


def _options(
    contract: bool,
    road_kind: list[str] | None,
    hours_per_length: float | None,
    seed: int,
    **sides: str | list[str] | None,
) -> MapOptions:
    return MapOptions(
        road_kinds=_road_kinds(road_kind),
        hours_per_length=hours_per_length,
        contract=contract,
        seed=seed,
        **{k: v or None for k, v in sides.items()},  # type: ignore[arg-type]
    )


def _add_row(table: Table, fact: str, value: str) -> None:
    """A row of plain text: ids and names such as ``[x]`` are not read as rich markup."""
    table.add_row(Text(fact), Text(value))


def _contract_text(full: CampaignMap, contracted: CampaignMap) -> str:
    """What ``--contract`` does (did) to the map: sizes before and after, and why, in plain
    counts (``prunes no dead-end spur``, ``merges 3 pass-through junctions``)."""
    done = contracted.contraction
    spurs = done.spurs if done else 0
    merged = done.merged if done else 0
    pruned = (
        f"prunes {figures(spurs, 'dead-end spur junction')} (not objectives, bases or starts)"
        if spurs
        else "prunes no dead-end spur"
    )
    merges = (
        f"merges {figures(merged, 'pass-through junction')} (two roads) into longer roads"
        if merged
        else "merges no pass-through junction"
    )
    return (
        f"{figures(done.junctions_before if done else full.graph.number_of_nodes(), 'junction')}, "
        f"{figures(done.roads_before if done else full.graph.number_of_edges(), 'road')} → "
        f"{figures(contracted.graph.number_of_nodes(), 'junction')}, "
        f"{figures(contracted.graph.number_of_edges(), 'road')}: {pruned}, then {merges}; "
        "march hours between the kept junctions are unchanged"
    )


def _shown(items: list[str], limit: int = 12) -> str:
    return ", ".join(items[:limit]) + (f", … ({len(items)} in all)" if len(items) > limit else "")


@map_app.command("info", short_help="Junctions, roads, parts and dead ends of a map.")
def info(
    map_file: MapArg,
    contract: ContractOpt = False,
    road_kind: RoadKindOpt = None,
    hours_per_length: HoursOpt = None,
    seed: SeedOpt = 0,
) -> None:
    """Print a map's junctions, roads by kind, parts, dead ends, objectives and sides."""
    reading = (road_kind, hours_per_length, seed)
    # with --contract the map is read once, contracted: one too big to play uncontracted
    # (more than MAX_JUNCTIONS) is still shown; its size before comes from the contraction
    full = None if contract else load_map(map_file, _options(False, *reading))
    contracted = load_map(map_file, _options(True, *reading))
    full = full or contracted
    shown = contracted if contract else full
    facts = summarize_map(shown)
    console = Console()
    table = Table(title=escape(f"{shown.name} ({shown.source})"), show_header=False)
    table.add_column("fact", style="bold")
    table.add_column("value")
    _add_row(table, "junctions", str(facts.junctions))
    ids = sorted(map(str, shown.graph))  # every id: what --red-base and others accept
    _add_row(table, "junction ids", ", ".join(ids))
    _add_row(table, "roads", f"{facts.roads} ({facts.total_hours:g} march hours in all)")
    for (source_kind, kind), count in facts.road_kinds.items():
        kind_said = source_kind if source_kind == kind else f"{source_kind} (as {kind})"
        _add_row(table, "  road kind", f"{kind_said}: {count}")
    sizes = facts.component_sizes
    _add_row(table, "parts", f"{len(sizes)} (sizes {', '.join(map(str, sizes))})")
    _add_row(table, "roads per junction", f"{facts.degree_range[0]}–{facts.degree_range[1]}")
    dead = f"{len(facts.dead_ends)}: {_shown(facts.dead_ends)}" if facts.dead_ends else "none"
    _add_row(table, "dead ends", dead)
    objectives = [f"{n} ({v})" for n, v in facts.objectives]
    _add_row(table, "objectives", f"{len(objectives)}: {_shown(objectives)}")
    origin = "" if shown.sides_origin == "file" else f" [{shown.sides_origin}]"
    if shown.sides_origin == "automatic":
        origin = " [none in the map: automatic]"
    for side, setup in shown.sides.items():
        primary = "–".join(setup.primary_road) if setup.primary_road else "none"
        _add_row(
            table,
            f"{side} side{origin}",
            f"{setup.name}: base {setup.base}; starts {', '.join(setup.starts)}; "
            f"primary road {primary}",
        )
    _add_row(table, "--contract", _contract_text(full, contracted))
    console.print(table)
    for note in shown.notes:
        console.print(f"note: {note}", highlight=False, markup=False)


@map_app.command("convert", short_help="Write any supported map as the project's YAML.")
def convert(
    map_file: MapArg,
    out: Annotated[Path, typer.Option("-o", "--out", help="The YAML file to write.")],
    contract: ContractOpt = False,
    road_kind: RoadKindOpt = None,
    hours_per_length: HoursOpt = None,
    seed: SeedOpt = 0,
    red_base: BaseOpt = None,
    blue_base: BaseOpt = None,
    red_start: StartOpt = None,
    blue_start: StartOpt = None,
) -> None:
    """Write a map (any supported format) in the project's own YAML format."""
    if out.suffix.lower() not in (".yaml", ".yml"):
        fail(
            f"--out {out}: map convert writes the project's YAML format only, so the file "
            "must end in .yaml or .yml. Fix: give a name such as "
            f"{out.with_suffix('.yaml').name}."
        )
    from campaign.maps.loader import resolve_map_path

    source = resolve_map_path(map_file)  # a shipped map's name too
    if out.exists() and source.exists() and out.resolve() == source.resolve():
        fail(
            f"--out {out}: that is the map being converted; writing over it would lose its "
            "comments and layout. Fix: give another file name, e.g. "
            f"{out.with_name(out.stem + '-converted.yaml').name}."
        )
    from campaign.outfile import check_output_file

    check_output_file(out, "--out")  # an unwritable place is refused before the map is read
    options = _options(
        contract,
        road_kind,
        hours_per_length,
        seed,
        red_base=red_base,
        blue_base=blue_base,
        red_start=red_start,
        blue_start=blue_start,
    )
    cmap = load_map(map_file, options)
    write_map(cmap, out)
    typer.echo(
        f"wrote {out}: {cmap.graph.number_of_nodes()} junctions, "
        f"{cmap.graph.number_of_edges()} roads"
    )
