"""The ``campaign`` command line (Typer + Rich).

Sub-commands live in their own modules and are registered here:
``battle`` (battle_cmd), ``run`` (run_cmd), ``map`` (map_cmd), ``batch`` (batch_cmd),
``report`` (report_cmd), ``replay`` (replay_cmd). Exit codes: 0 ok, 2 bad input (a
:class:`SimulatorError` or a usage error), 1 an environment failure (disk full, network), 130
Ctrl-C; see :func:`main`.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
from typing import Any, NamedTuple

import typer
import typer.main
from typer.core import TyperArgument, TyperCommand, TyperGroup, _TyperParameter

from battle.errors import SimulatorError, plain_message

__all__ = ["COMMANDS", "app", "main"]


class Command(NamedTuple):
    """A sub-command as the top-level help lists it, before its module is imported."""

    module: str  #: the module under campaign.cli that registers it
    short_help: str  #: its line in ``campaign --help`` (the module's decorator uses it)
    fights: bool  #: whether it fights battles (its module imports the battle engine)


#: Every sub-command, in the order ``campaign --help`` lists them. A command's module is
#: imported only when the command line names it: ``campaign --help`` and ``--version`` import
#: no sub-command (neither numpy nor numba), ``campaign map`` not the battle kernel.
COMMANDS: dict[str, Command] = {
    "battle": Command(
        "battle_cmd", "Fight one quick battle: its log and result, or its odds.", True
    ),
    "run": Command("run_cmd", "Play one whole campaign on a map and print its log.", True),
    "report": Command("report_cmd", "Write a printable diary of a saved campaign.", False),
    "replay": Command(
        "replay_cmd", "Write an interactive replay of a saved campaign (HTML).", True
    ),
    "odds": Command("odds_cmd", "Exact odds of every dice mechanic of the rules.", False),
    "tournament": Command("tournament_cmd", "Rate strategy doctrines against each other.", True),
    "sensitivity": Command(
        "sensitivity_cmd", "Which rule parameters move the outcomes most.", True
    ),
    "briefing": Command(
        "tabletop_cmd", "A printable briefing to fight a logged battle on the table.", True
    ),
    "result-sheet": Command("tabletop_cmd", "The result sheet (YAML) of a logged battle.", True),
    "result-check": Command(
        "tabletop_cmd", "Check a tabletop result against the abstract odds.", True
    ),
    "resume": Command("save_cmd", "Go on with a saved campaign (campaign run --save).", True),
    "fork": Command(
        "save_cmd", "Fork a saved campaign: its future under other rules or dice.", True
    ),
    "map": Command("map_cmd", "Inspect and convert campaign maps.", False),
    "batch": Command("batch_cmd", "Run many campaigns over a grid; report, export.", True),
}


class _NotImported(TyperCommand):
    """A sub-command whose module is not imported yet: its name and short help only."""


class LazyCommands(TyperGroup):
    """The top-level group: every sub-command of :data:`COMMANDS` is listed (help, the
    "did you mean" of a mistyped command) from the table, and its module imported only when
    the command is run or its own help is asked for."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        loaded = dict(self.commands)
        self.commands.clear()  # in the order of COMMANDS, whichever were imported first
        for name, command in COMMANDS.items():
            if name in loaded:
                self.commands[name] = loaded.pop(name)
            else:
                self.commands[name] = _NotImported(name, short_help=command.short_help)
        self.commands.update(loaded)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = self.commands.get(cmd_name)
        if isinstance(found, _NotImported):
            _import_commands((cmd_name,))
            group = typer.main.get_command(app)
            assert isinstance(group, TyperGroup)
            found = group.commands[cmd_name]
            self.commands[cmd_name] = found
        return found

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The ``Commands`` section of the help, without importing any sub-command."""
        shown = {name: cmd for name, cmd in self.commands.items() if not cmd.hidden}
        if shown:
            limit = formatter.width - 6 - max(len(name) for name in shown)  # as click's own
            rows = [(name, cmd.get_short_help_str(limit)) for name, cmd in shown.items()]
            with formatter.section("Commands"):
                formatter.write_dl(rows)


app = typer.Typer(
    cls=LazyCommands,
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


def _usage_display_name(self: TyperArgument) -> str:
    """An argument in the usage line as command lines write it: ``SPEC`` when required,
    ``[MAP]`` when optional, ``FILE...`` when repeated (Typer 0.29 writes ``{SPEC}``)."""
    name = str(self.display_name_raw)
    if not self.required:
        name = f"[{name}]"
    return name + ("..." if self.nargs != 1 else "")


if hasattr(TyperArgument, "_usage_display_name"):  # Typer 0.29's hook for the usage line
    TyperArgument._usage_display_name = _usage_display_name  # type: ignore[method-assign]


def _register(names: tuple[str, ...] | None = None) -> None:
    """Import the modules of the sub-commands ``names`` (every one by default; each adds
    itself to ``app``): what :func:`main` does before it parses the command line."""
    _import_commands(tuple(COMMANDS) if names is None else names)


def _import_commands(names: tuple[str, ...]) -> None:
    """Import the modules of the sub-commands ``names`` (each adds itself to ``app``); before
    one that fights battles, the battle engine, with only what its compiled kernel needs
    (:mod:`campaign.batch.kernel_load`: no ``scipy.linalg``, no numba compiler registries to
    load machine code from the cache; about 0.2 s of CPU less)."""
    import importlib

    wanted = [COMMANDS[n] for n in names if n in COMMANDS]
    if any(command.fights for command in wanted):
        from campaign.batch.kernel_load import import_battle_engine

        import_battle_engine(lean_for_good=True)
    for command in wanted:
        importlib.import_module(f"campaign.cli.{command.module}")


def _named_command(args: list[str]) -> tuple[str, ...]:
    """The sub-command the command line ``args`` names (its first word when that is one of
    :data:`COMMANDS`; none for ``--help``, ``--version`` or a mistyped command)."""
    return (args[0],) if args and args[0] in COMMANDS else ()


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


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _plain_usage(exc: Exception) -> str:
    """A usage error's text; a flag's value that Typer's pydantic refused, in plain words
    (:func:`battle.errors.plain_message`): ``Invalid value for '--seed': expected a whole
    number (found 'abc')``."""
    from pydantic import ValidationError

    cause = exc.__cause__ or exc.__context__
    param = getattr(exc, "param", None)
    if isinstance(cause, ValidationError) and param is not None and cause.errors():
        flag = getattr(exc, "param_hint", None) or "/".join(getattr(param, "opts", ()) or ())
        name = flag or getattr(param, "name", "value")
        words = "; ".join(plain_message(err, found=True) for err in cause.errors())
        return f"Invalid value for '{name}': {words}"
    return _one_line(exc.format_message()).replace("Value error, ", "")  # type: ignore[attr-defined]


def _click_error(exc: Exception) -> int:
    """Print a Typer/Click usage error as one ``error:`` line; return its exit code (2)."""
    ctx = getattr(exc, "ctx", None)
    command = getattr(ctx, "command_path", None) or "campaign"
    if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
        typer.echo(ctx.get_help(), err=True)  # a bare group: its help, as before
        return 2
    typer.echo(
        f"error: {command}: {_plain_usage(exc)} (see '{command} --help')",
        err=True,
    )
    return int(getattr(exc, "exit_code", 2))


def _is_interrupt(exc: BaseException) -> bool:
    """Ctrl-C, DuckDB's ``InterruptException`` ("Query interrupted") that Ctrl-C causes, or
    an error caused by Ctrl-C (:func:`campaign.cli.common.caused_by_ctrl_c`: numba's
    ``SystemError`` when the signal lands in compiled code)."""
    from campaign.cli.common import caused_by_ctrl_c

    if caused_by_ctrl_c(exc):
        return True
    if isinstance(exc, RuntimeError) and str(exc).strip() == "Query interrupted":
        return True  # DuckDB, interrupted while scanning an Arrow table
    module = type(exc).__module__.lstrip("_")
    return module.startswith("duckdb") and "Interrupt" in type(exc).__name__


#: The exit status of a command whose reader went away (``campaign run | head``): 128 + SIGPIPE,
#: what the shell reports for ``git log | head`` (141 on Linux and macOS).
PIPE_CLOSED = 128 + int(getattr(signal, "SIGPIPE", 13))

#: Sub-command groups: an interrupted ``campaign batch report`` names both words.
_GROUPS = ("batch", "map")


class _PipeClosed(Exception):
    """stdout's reader has gone; raised past click, which would exit 1 on its own."""


def _pipe_closed(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) is a write to a pipe whose reader has gone."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        if isinstance(link, _PipeClosed | BrokenPipeError):
            return True
        if isinstance(link, OSError) and link.errno == errno.EPIPE:
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


def _command_words(argv: list[str]) -> str:
    """``campaign run``, ``campaign batch report``: the command a command line names (its
    leading words before the first option; ``campaign`` alone when none)."""
    words = ["campaign"]
    for arg in argv:
        if arg.startswith("-") or len(words) == (3 if words[1:2] and words[1] in _GROUPS else 2):
            break
        words.append(arg)
    return " ".join(words)


def _silence_stdout() -> None:
    """After a failed write to stdout, point it at /dev/null so the exit flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


#: ``campaign batch`` options after which the batch runs without local workers
_NO_LOCAL_WORKERS = ("--backend", "--scheduler", "--help", "-h")


def starts_local_batch(args: list[str]) -> bool:
    """Whether the command line ``args`` (without the program name) runs a batch on local
    workers: ``campaign batch SPEC`` or ``campaign batch run ...``, without ``--backend``,
    ``--scheduler``, ``--workers 0`` or ``--help``. A spec file that names another backend
    is not read here: its batch merely finds a fork server it does not use."""
    if len(args) < 2 or args[0] != "batch" or args[1] in ("report", "export"):
        return False
    for i, arg in enumerate(args[1:], start=1):
        name, _, value = arg.partition("=")
        if name in _NO_LOCAL_WORKERS:
            return False
        if name == "--workers" and (value or (args[i + 1] if i + 1 < len(args) else "")) == "0":
            return False
    return True


def _engine_early(args: list[str]) -> None:
    """A valid ``--engine NAME`` of the command line set in ``BATTLE_ENGINE`` before anything
    imports the battle engine or starts a batch's fork server (whose workers inherit it);
    the command's own option checks the name (battle.engine.use_engine)."""
    for i, arg in enumerate(args):
        name, eq, value = arg.partition("=")
        if name != "--engine":
            continue
        value = value if eq else (args[i + 1] if i + 1 < len(args) else "")
        if value in ("kernel", "reference"):
            os.environ["BATTLE_ENGINE"] = value


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``campaign`` console script.

    Exit codes: 0 done; 2 bad input (a :class:`SimulatorError` or a usage error such as
    ``--seed abc``, one ``error:`` line); 1 an environment failure (disk full, a scheduler
    nobody answers at: one line); 141 (:data:`PIPE_CLOSED`) the reader of the output went
    away (``campaign run | head``: nothing said, as ``git log | head``); 130 Ctrl-C, with
    what it stopped (a batch keeps every finished chunk and resumes). Never a traceback for
    any of these.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    what = _command_words(args)
    code = 0
    started = False
    try:
        # inside the try: Ctrl-C while the sub-commands import (numba, llvmlite: the first
        # half-second) is an interrupt like any other, not a traceback
        _engine_early(args)
        if starts_local_batch(sys.argv[1:] if argv is None else list(argv)):
            from campaign.batch.server import start_server

            start_server()  # the workers' fork server warms up while the commands import
        _register(_named_command(args))
        command = typer.main.get_command(app)
        started = True
        command.invoke = _closed_pipe_passes(command.invoke)  # type: ignore[method-assign]
        result = command.main(args=args, prog_name="campaign", standalone_mode=False)
        code = result if isinstance(result, int) else 0
        if code == 130:  # Ctrl-C that Typer caught and turned into its exit code, silently
            typer.echo(f"interrupted: {what} stopped before it finished", err=True)
        sys.stdout.flush()
    except SimulatorError as exc:
        typer.echo(f"error: {exc.message}", err=True)
        code = exc.exit_code
    except (_PipeClosed, BrokenPipeError):  # `campaign run | head`: the reader has gone
        _silence_stdout()
        code = PIPE_CLOSED
    except OSError as exc:  # disk full, device gone: an environment failure
        _silence_stdout()
        if exc.errno == errno.EPIPE:
            code = PIPE_CLOSED
        else:
            where = f" ({exc.filename})" if exc.filename else ""
            typer.echo(
                f"error: cannot write the output{where}: {exc.strerror or exc}. "
                "Free space or choose another place, then run the same command again.",
                err=True,
            )
            code = 1
    except Exception as exc:
        if _pipe_closed(exc):
            _silence_stdout()
            code = PIPE_CLOSED
        elif _is_interrupt(exc):
            typer.echo(_interrupted(what, started), err=True)
            code = 130
        elif type(exc).__module__.lstrip("_").startswith("duckdb") and type(exc).__name__ in (
            "IOException",
            "OutOfMemoryException",
        ):  # the results file's disk is full or gone: an environment failure
            typer.echo(
                f"error: the results file cannot be written ({_one_line(str(exc))[:300]}). "
                "Every finished chunk is kept: free space, then run the same command again.",
                err=True,
            )
            code = 1
        elif hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            code = _click_error(exc)
        elif type(exc).__name__ == "Exit" and hasattr(exc, "exit_code"):
            code = int(exc.exit_code)
        else:
            raise
    except KeyboardInterrupt:
        typer.echo(_interrupted(what, started), err=True)
        code = 130
    sys.exit(code)


def _interrupted(what: str, started: bool) -> str:
    """The line Ctrl-C prints when the command has no message of its own."""
    if not started:  # still importing: the command had not begun
        return f"interrupted while {what} was starting: nothing was run and no file was written"
    return f"interrupted: {what} stopped before it finished"


def _closed_pipe_passes(invoke: Any) -> Any:
    """``invoke`` with a write to a closed pipe raised as :class:`_PipeClosed`: click would
    catch the ``BrokenPipeError`` itself and exit 1, and Rich's console raises
    ``SystemExit(1)`` for it (an error status for ``| head``)."""

    def wrapped(ctx: Any) -> Any:
        try:
            return invoke(ctx)
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise _PipeClosed() from exc
            raise
        except SystemExit as exc:  # rich.console.Console.on_broken_pipe
            if exc.code == 1 and exc.__context__ is not None and _pipe_closed(exc.__context__):
                raise _PipeClosed() from exc
            raise

    return wrapped
