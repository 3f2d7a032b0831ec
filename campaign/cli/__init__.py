"""The ``campaign`` command line (Typer + Rich).

Sub-commands live in their own modules and are registered here:
``battle`` (battle_cmd), ``run`` (run_cmd), ``map`` (map_cmd), ``batch`` (batch_cmd),
``report`` (report_cmd). Exit codes: 0 ok, 2 bad input (a :class:`SimulatorError`),
1 internal error.
"""

from __future__ import annotations

import sys
from typing import Any

import typer
from typer.core import TyperArgument, _TyperParameter

from battle.errors import SimulatorError

__all__ = ["app", "main"]

app = typer.Typer(
    name="campaign",
    help="Automated solo wargame campaigns: march two armies across a map, fight every meeting.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: flags without metavars, fits 80 columns
)


#: How help shows a value's type: upper-case names, one style for every command.
_METAVARS = {"int": "N", "float": "NUMBER", "str": "TEXT", "path": "FILE", "bool": ""}


def _display_type(self: _TyperParameter, ctx: Any) -> str:
    """Help metavar of a parameter: ``N``, ``NUMBER``, ``TEXT``, ``FILE`` or the choices
    ``a|b|c`` (lists show their item's type; repeatable options say so in their help)."""
    if isinstance(self, TyperArgument) and self.metavar:
        return ""  # the argument's own name (MAP, SPEC.yaml) says it
    label = _typer_display_type(self, ctx).strip("<>")
    inner = label[5:-1] if label.startswith("list[") else label
    return _METAVARS.get(inner, inner)


_typer_display_type = _TyperParameter.display_type
_TyperParameter.display_type = _display_type  # type: ignore[method-assign]


def _register() -> None:
    """Import the sub-command modules (each adds itself to ``app``)."""
    import importlib

    for name in (
        "battle_cmd",
        "run_cmd",
        "map_cmd",
        "batch_cmd",
        "report_cmd",
        "odds_cmd",
        "tournament_cmd",
        "sensitivity_cmd",
    ):
        try:
            importlib.import_module(f"campaign.cli.{name}")
        except ModuleNotFoundError as exc:  # a sub-command not built yet
            if exc.name != f"campaign.cli.{name}":
                raise


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"campaign (solo-campaign) {version('solo-campaign')}")
        raise typer.Exit()


@app.callback()
def _main(
    show_version: bool = typer.Option(
        False, "--version", is_eager=True, callback=_version, help="Print the version and exit."
    ),
) -> None:
    """Automated solo wargame campaigns: march two armies across a map, fight every meeting."""


def fail(message: str) -> None:
    """Print a one-paragraph error to stderr and exit with code 2 (bad input)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``campaign`` console script."""
    _register()
    try:
        app(args=argv, standalone_mode=True)
    except SimulatorError as exc:
        typer.echo(f"error: {exc.message}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
