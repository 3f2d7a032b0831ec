"""Options and helpers shared by the sub-commands."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer

from battle.errors import ConfigError
from campaign.errors import split_pair
from campaign.tabletop.policy import FORMS, choice_list

__all__ = [
    "caused_by_ctrl_c",
    "check_seed",
    "exit_interrupted",
    "fresh_seed",
    "parse_overrides",
    "parse_pairs",
    "run_and_analyse",
]

T = TypeVar("T")


def caused_by_ctrl_c(exc: BaseException) -> bool:
    """Whether ``exc`` is a :class:`KeyboardInterrupt` or was raised because of one.

    Ctrl-C while a compiled battle runs reaches Python as numba's ``SystemError`` ("returned
    a result with an exception set"), with the interrupt as its cause; click's ``Abort``
    carries it as its context. The chain is followed to its end (it cannot loop: each link
    is visited once).
    """
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


def fresh_seed() -> int:
    """A new seed from the operating system's entropy, short enough to type back."""
    import numpy as np  # here, not at the top: campaign.cli's error path imports this module

    entropy = np.random.SeedSequence().entropy  # an int when no entropy is given
    assert isinstance(entropy, int)
    return entropy % 1_000_000_000


def check_seed(seed: int | None) -> int:
    """The ``--seed`` given, or a fresh one when omitted.

    Raises
    ------
    ConfigError
        If the seed is negative (numpy seeds are non-negative integers).
    """
    if seed is None:
        return fresh_seed()
    if seed < 0:
        raise ConfigError(
            f"a seed cannot be negative (got {seed})",
            key="--seed",
            fix="Give a whole number of 0 or more, e.g. --seed 42, or leave --seed out for a "
            "fresh one.",
        )
    return seed


def parse_pairs(
    items: list[str] | None, flag: str, example: str = "battle.hit_dice=3d10"
) -> dict[str, str]:
    """``KEY=VALUE`` strings into a dict (for --set, --road-kind).

    ``example`` is a well-formed item for ``flag``, shown in the error's fix.

    Raises
    ------
    ConfigError
        If an item has no ``=`` or an empty key, or a key is given twice with two values
        (which one was meant?).
    """
    out: dict[str, str] = {}
    for item in items or []:
        fix = f"Write it as {flag} {example} (a key, '=', a value)."
        key, value = split_pair(item, ConfigError, flag, "KEY=VALUE", fix)
        value = value.strip()
        if out.get(key, value) != value:
            raise ConfigError(
                f"{key} is given twice, as {out[key]} and as {value}",
                key=flag,
                fix=f"Give {flag} {key}=VALUE once, with the value you mean.",
            )
        out[key] = value
    return out


def parse_overrides(items: list[str] | None) -> dict[str, Any]:
    """``--set key=value`` items into dotted-key overrides; values read as YAML scalars."""
    import yaml

    from battle.yamlfile import TAG_FIX, YamlTagRefused, YamlTooLarge, safe_load_text

    out: dict[str, Any] = {}
    for key, value in parse_pairs(items, "--set").items():
        try:
            out[key] = safe_load_text(value) if value else value
        except YamlTooLarge as exc:
            raise ConfigError(
                str(exc), key=f"--set {key}", fix="Write the value out without aliases."
            ) from None
        except YamlTagRefused as exc:
            raise ConfigError(
                str(exc).replace(f" at {exc.path}", ""),
                key=f"--set {key}" + (f"[{exc.path}]" if exc.path else ""),
                fix=TAG_FIX,
            ) from None
        except yaml.YAMLError:
            raise ConfigError(
                f"cannot read the value {value!r}",
                key=f"--set {key}",
                fix="Quote strings with spaces, e.g. --set 'battle.hit_dice=20 + d20'.",
            ) from None
    return out


@contextmanager
def batch_interrupt_exits(out: Path) -> Iterator[None]:
    """Turn a batch stopped by Ctrl-C into one line on stderr and exit code 130.

    The runs that finished are already stored in ``out``; the message says how to resume.
    """
    from campaign.batch.runner import BatchInterrupted

    try:
        yield
    except BatchInterrupted as stop:
        o = stop.outcome
        exit_interrupted(
            f"interrupted: {o.already_done + o.done_now} of {o.total_runs} runs are stored in "
            f"{out}; run the same command again to resume"
        )


def run_and_analyse(
    plan: Any, out: Path, spec: Any, quiet: bool, analyse: Callable[[Any, Any], T]
) -> T:
    """Run a planned batch into ``out`` and analyse its store (``tournament``, ``sensitivity``).

    ``plan`` is a :class:`campaign.batch.spec.BatchPlan`; ``spec`` gives ``workers``,
    ``backend`` and ``scheduler``; progress goes to stderr unless ``quiet``. ``analyse`` is
    called with the store's DuckDB connection and the
    :class:`campaign.batch.runner.BatchOutcome`, the store open only while it runs. Ctrl-C
    exits as :func:`batch_interrupt_exits` says.
    """
    from campaign.batch.runner import run_batch
    from campaign.batch.store import open_results

    with batch_interrupt_exits(out):
        outcome = run_batch(
            plan,
            out,
            workers=spec.workers,
            backend=spec.backend,
            scheduler=spec.scheduler,
            progress=not quiet,
        )
    store = open_results(out)
    try:
        return analyse(store.con, outcome)
    finally:
        store.close()


def exit_interrupted(message: str) -> NoReturn:
    """Print a command's own line about what Ctrl-C stopped and kept, and exit with 130.

    Raised as ``SystemExit``, which Typer passes through untouched: an interrupt Typer
    catches itself comes back as exit code 130 with nothing said, and
    :func:`campaign.cli.main` then prints the plain ``interrupted``.
    """
    typer.echo(message, err=True)
    raise SystemExit(130)


#: the batch options every batch-driven command shares (``batch``, ``tournament``,
#: ``sensitivity``), declared once
WorkersOption = Annotated[
    int | None, typer.Option(help="Worker processes (default: every CPU; 0 = inline).")
]
BackendOption = Annotated[
    str | None,
    typer.Option(metavar="local|dask", help="Local worker processes or a Dask cluster."),
]
SchedulerOption = Annotated[
    str | None, typer.Option(metavar="URL", help="An existing Dask scheduler, tcp://HOST:8786.")
]


def results_option(default: str = "") -> Any:
    """``-o/--output``: the DuckDB file a batch-driven command stores its runs in (``batch
    run``, ``tournament``, ``sensitivity``); ``default`` says which file without it, when
    the help cannot show a plain default (``"the spec's output:, else results.duckdb"``)."""
    where = f"  [default: {default}]" if default else ""  # as Typer writes its defaults
    return typer.Option("--output", "-o", help=f"DuckDB results file.{where}")


#: the charts of a batch-driven command (``batch run``, ``batch report``, ``tournament``,
#: ``sensitivity``): each written as a .png and an .svg
PlotOption = Annotated[
    Path | None,
    typer.Option(metavar="DIR", help="Write PNG and SVG charts to this folder."),
]
#: ``tournament`` and ``sensitivity``: no progress bar
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress.")]

#: the seed of a single campaign or battle (``run``, ``battle``)
SeedOption = Annotated[
    int | None, typer.Option(help="Seed; a fresh one is drawn and printed when omitted.")
]
#: the saved event stream ``report`` and ``replay`` read, and the map it was run on
EventsArgument = Annotated[
    Path,
    typer.Argument(metavar="EVENTS.jsonl", help="Event stream (JSON lines) of a campaign run."),
]
StreamMapOption = Annotated[
    str | None,
    typer.Option(
        "--map", metavar="MAP", help="The campaign's map file, if not at the path in the stream."
    ),
]


def repeatable(metavar: str, help: str, *flags: str, how: str = "") -> Any:
    """A list option given once for each value, e.g. ``--variant A --variant B``; its help
    ends in "(repeatable)", ``how`` saying more, e.g. ``", applied in order"``. ``flags`` are
    its names when not the parameter's (``--set`` for ``set_``)."""
    return typer.Option(*flags, metavar=metavar, help=f"{help} (repeatable{how}).")


def side_option(side: str, metavar: str, what: str) -> Any:
    """One side's option of a ``--red-…``/``--blue-…`` pair: its help is "``side``'s
    ``what``." (``side``: Red or Blue)."""
    return typer.Option(metavar=metavar, help=f"{side}'s {what}.")


#: the strategy doctrines of the shipped rules (config/rules.yaml ``campaign.doctrines``,
#: RULES.md §8.8), as help lists them
STRATEGY_DOCTRINES = ("aggressive", "cautious", "balanced", "raider")


def strategy_doctrine(side: str, when: str = "") -> Any:
    """``--red-doctrine``/``--blue-doctrine DOCTRINE`` of a campaign (``run``, ``fork``): the
    side's strategy doctrine (RULES.md §8.8), ``when`` saying from when, e.g.
    ``" from the fork on"``."""
    return side_option(
        side, "DOCTRINE", f"strategy doctrine{when}: {', '.join(STRATEGY_DOCTRINES)} (§8.8)"
    )


#: the ``--tabletop`` policies of ``campaign run``: those of :mod:`campaign.tabletop.policy`
#: and ``ask`` (asks at each battle, on a terminal: :func:`campaign.cli.save_table.policy_rule`)
RUN_TABLETOP = (*FORMS, "ask")
#: the ``--tabletop`` policies of ``campaign resume``: ``run``'s and ``off`` (no more stops)
RESUME_TABLETOP = (*RUN_TABLETOP, "off")
#: how ``--tabletop``'s help writes a policy, where more than its name
_TABLETOP_HELP = {
    "units>=N": "'units>=N'",
    "ask": "ask (asks at each battle, on a terminal)",
    "off": "off (no more stops)",
}


def tabletop_option(stops: str, choices: tuple[str, ...], then: str) -> Any:
    """``--tabletop POLICY`` (``run``, ``resume``): the battles to stop before, to fight them
    on the table (:func:`campaign.cli.save_table.policy_rule`). Its help is ``stops``, the
    policies ``choices`` (:data:`RUN_TABLETOP`, :data:`RESUME_TABLETOP`: those its errors
    list), then ``then``."""
    policies = choice_list([_TABLETOP_HELP.get(c, c) for c in choices])
    return typer.Option(metavar="POLICY", help=f"{stops}: {policies}{then}.")


def log_format_option() -> Any:
    """``--format NAME`` of a command that prints a campaign's log (``run``, ``resume``): the
    formats registered in :data:`campaign.printers.registry.FORMATS`, each with what it is."""
    from campaign.printers.registry import FORMATS

    return typer.Option(
        "--format",
        metavar="|".join(FORMATS),
        help="Log format: "
        + "; ".join(f"{f.name}: {f.description}" for f in FORMATS.values())
        + ".",
    )


#: the rules options of every command that plays the rules (``run``, ``battle``, ``odds``,
#: ``fork``)
VariantOption = Annotated[
    list[str] | None,
    repeatable(
        "NAME", "A named rules variant from config/variants", "--variant", how=", applied in order"
    ),
]
SetOption = Annotated[
    list[str] | None,
    repeatable("KEY=VALUE", "A dotted rules override, e.g. campaign.rough_road_pass=60", "--set"),
]
#: the battle engine of every command that fights battles (``run``, ``battle``, ``batch``)
EngineOption = Annotated[
    str | None,
    typer.Option(
        "--engine",
        metavar="kernel|reference",
        help="Battle engine: kernel (compiled, the default) or reference (plain Python, "
        "the same battles, slower); default: $BATTLE_ENGINE, else kernel.",
    ),
]


def map_of_stream(stream: list[Any], events: Path, map_path: str | None) -> Any:
    """The map a saved event stream was run on (``campaign report`` and ``campaign replay``):
    ``map_path`` when given, else the map its CampaignStarted header names, looked for as
    written and then beside the stream's file (a relative path). Returns a
    :class:`campaign.maps.CampaignMap`.

    Raises
    ------
    SimulatorError
        If the stream names no map and none is given, or the map it names is not there
        (the fix: ``--map PATH``), or the map file is invalid.
    """
    from battle.errors import SimulatorError
    from campaign.events import CampaignStarted
    from campaign.maps import load_map
    from campaign.maps.loader import resolve_map_path

    header = next((e for e in stream if isinstance(e, CampaignStarted)), None)
    source = map_path or (header.map_source if header is not None else None)
    if source is None:
        raise SimulatorError(
            "the event stream has no CampaignStarted header naming its map",
            source=str(events),
            fix="Give the map file with --map PATH.",
        )
    beside = Path(events).parent / source  # a relative map path, from the stream's folder
    if map_path is None and not resolve_map_path(source).exists() and beside.is_file():
        source = str(beside)
    if map_path is None and not resolve_map_path(source).exists():
        raise SimulatorError(
            f"the campaign's map file {source} is not there",
            source=str(events),
            fix=f"Give the map the campaign was run on with --map PATH (it was {source}).",
        )
    return load_map(source)
