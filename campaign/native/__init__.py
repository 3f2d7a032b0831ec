"""The campaign loop's hot modules, compiled with mypyc from their own source (issue 15).

The same Python files are the rules whichever way they run: :data:`MODULES` are compiled by
``make native`` (``python -m campaign.native build``, see :mod:`campaign.native.build`) into
``build/native/`` beside the package, and imported from there instead of from their ``.py``
files, about twice as fast. The build is stamped with a hash of the sources it was made from
(all of ``battle/`` and ``campaign/``); when any has changed since (or the Python differs),
the compiled modules are not used, a one-line notice says so on a terminal, and everything
runs as plain Python, with the same results. ``CAMPAIGN_NATIVE=0`` runs plain Python on
purpose (debugging, profiling).

:func:`activate` runs once, from ``campaign/__init__.py``, before any of these modules is
imported; :func:`status` then says what happened.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

__all__ = ["MODULES", "STAMP_NAME", "activate", "native_dir", "source_hash", "status"]

#: The modules compiled, by import name: the campaign loop, its battle desk and its strategy
#: doctrines, everything a campaign runs through thousands of times (profiled, issue 15).
MODULES: tuple[str, ...] = (
    "campaign.army",
    "campaign.battle_record",
    "campaign.battles",
    "campaign.clock",
    "campaign.endgame",
    "campaign.engine",
    "campaign.fallback",
    "campaign.ledger",
    "campaign.lookups",
    "campaign.meetings",
    "campaign.orders",
    "campaign.maps.routes",
    "campaign.reinforcements",
    "campaign.schedule",
    "campaign.setting",
    "campaign.sightings",
    "campaign.strategy.choosing",
    "campaign.strategy.doctrine",
    "campaign.strategy.gather",
    "campaign.strategy.knowledge",
    "campaign.strategy.mind",
    "campaign.strategy.plan",
    "campaign.strategy.routing",
    "campaign.strategy.targets",
    "campaign.strategy.triggers",
    "campaign.telling",
)
#: The build's record: source hash, Python, and the file of every compiled module.
STAMP_NAME = "native.json"
#: set in the environment once the stale-build notice is printed: processes started from
#: this one (batch workers) do not print it again
_NOTICE_SHOWN = "CAMPAIGN_NATIVE_NOTICE_SHOWN"
_state = {"status": "not activated"}


def status() -> str:
    """``"compiled"`` when the compiled modules are in use, else why not (one line)."""
    return _state["status"]


_ROOT = Path(__file__).resolve().parent.parent.parent  # the project (the folder of campaign/)


def native_dir() -> Path:
    """Where ``make native`` puts the compiled modules: ``build/native`` in the project."""
    return _ROOT / "build" / "native"


def source_path(module: str) -> Path:
    """The ``.py`` file of ``module`` (one of :data:`MODULES`) in this project."""
    return _ROOT.joinpath(*module.split(".")).with_suffix(".py")


def source_files() -> list[Path]:
    """Every source a build depends on: all of ``battle/`` and ``campaign/`` (mypyc compiles
    the modules against the types of everything they import), sorted."""
    return sorted(
        path
        for package in ("battle", "campaign")
        for path in (_ROOT / package).rglob("*.py")
        if "native" not in path.relative_to(_ROOT).parts and path.name != "conftest.py"
    )


def source_hash() -> str:
    """SHA-256 (hex) of :func:`source_files` with the Python version: what a build is stamped
    with and checked against (about 2 ms).

    Raises ``OSError`` if a source file cannot be read.
    """
    digest = hashlib.sha256(sys.implementation.cache_tag.encode())
    for path in source_files():
        digest.update(path.relative_to(_ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


class _NativeFinder(importlib.abc.MetaPathFinder):
    """Finds each compiled module (and mypyc's shared library) at its file in the build."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def _plan(build: Path) -> tuple[dict[str, Path] | None, str]:
    """The compiled files to import (module name -> file) and the status, or ``None`` and
    why the build is not used."""
    stamp = build / STAMP_NAME
    if not stamp.is_file():
        return None, "missing (make native builds the compiled campaign modules)"
    try:
        record = json.loads(stamp.read_text(encoding="utf-8"))
        files = {name: build / rel for name, rel in record["files"].items()}
        built_hash = str(record["source_hash"])
        modules = {str(m) for m in record.get("modules", ())}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return None, f"unreadable build record {stamp} ({exc}): make native rebuilds it"
    if modules != set(MODULES):
        return None, "built for another list of modules: make native rebuilds them"
    try:
        current = source_hash()
    except OSError as exc:
        return None, f"a compiled module's source is unreadable ({exc})"
    if built_hash != current:
        return None, "stale (a source changed since the build): make native rebuilds them"
    missing = [str(f) for f in files.values() if not f.is_file()]
    if missing:
        return None, f"incomplete build ({missing[0]} is missing): make native rebuilds it"
    return files, "compiled"


def activate(env: Mapping[str, str] | None = None, build: Path | None = None) -> str:
    """Import :data:`MODULES` from the compiled build when it is there and up to date.

    Sets and returns :func:`status`. ``CAMPAIGN_NATIVE=0`` in ``env`` (default:
    ``os.environ``) keeps plain Python. A stale or broken build is reported once on stderr
    and left unused (the notice goes to a terminal only, never into captured output; ``make
    native``, about to rebuild, silences it with ``CAMPAIGN_NATIVE_BUILDING=1``); without a
    build the plain modules run silently. Never raises for a bad build: the plain modules
    are always there.
    """
    variables = os.environ if env is None else env
    if variables.get("CAMPAIGN_NATIVE", "1") == "0":
        _state["status"] = "off (CAMPAIGN_NATIVE=0)"
        return status()
    files, why = _plan(native_dir() if build is None else build)
    _state["status"] = why
    if files is None:
        quiet = variables.get("CAMPAIGN_NATIVE_BUILDING") == "1" or not sys.stderr.isatty()
        quiet = quiet or variables.get(_NOTICE_SHOWN) == why
        if not why.startswith("missing") and not quiet:
            print(f"campaign: compiled modules {why}; running plain Python", file=sys.stderr)
            if env is None:  # once per run: batch workers started from here stay quiet
                os.environ[_NOTICE_SHOWN] = why
        return status()
    loaded = [name for name in MODULES if name in sys.modules]
    if loaded:  # too late to swap modules already imported as Python
        _state["status"] = f"not used: {loaded[0]} was imported before campaign.native.activate"
        return status()
    if not any(isinstance(f, _NativeFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _NativeFinder(files))
    return status()
