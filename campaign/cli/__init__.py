"""The ``campaign`` command line (Typer + Rich).

Sub-commands live in their own modules and are registered here:
``battle`` (battle_cmd), ``run`` (run_cmd), ``map`` (map_cmd), ``batch`` (batch_cmd),
``report`` (report_cmd). Exit codes: 0 ok, 2 bad input (a :class:`SimulatorError`),
1 internal error.
"""

from __future__ import annotations

import sys

import typer

from battle.errors import SimulatorError

__all__ = ["app", "main"]

app = typer.Typer(
    name="campaign",
    help="Automated solo wargame campaigns: march two armies across a map, fight every meeting.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


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
