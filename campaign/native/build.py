"""Build the compiled campaign modules with mypyc (``make native``; issue 15).

mypyc turns the type-annotated source of :data:`campaign.native.MODULES` into one C extension
per module plus a shared library, through setuptools and the machine's C compiler. The build
goes to ``build/native/`` (``campaign/native/__init__.py`` finds it there) with a record,
``native.json``, of the source hash it was made from, so a later edit is noticed and the
plain modules are used until the next build. Needs the ``dev`` extras (mypy, which carries
mypyc) and a C compiler; without them the build stops with a clear message and the
campaign runs as plain Python.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from campaign.native import MODULES, STAMP_NAME, native_dir, source_hash, source_path

__all__ = ["GROUP", "BuildError", "build", "install"]

#: mypyc's name for the shared library of the group: ``campaign_native__mypyc``
GROUP = "campaign_native"


class BuildError(RuntimeError):
    """The compiled modules could not be built (no mypyc, no C compiler, a mypyc error)."""


def _mypy_config(project: Path, into: Path) -> Path:
    """The project's ``[tool.mypy]`` settings as a mypy.ini for mypyc (which reads its types
    with them), written to ``into``."""
    import tomllib

    data = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    mypy = data["tool"]["mypy"]
    lines = ["[mypy]"]
    for key, value in mypy.items():
        if key in ("overrides", "files"):
            continue
        lines.append(f"{key} = {_ini(value)}")
    for override in mypy.get("overrides", ()):
        modules = override["module"]
        names = modules if isinstance(modules, list) else [modules]
        lines.append(f"[mypy-{','.join(names)}]")
        lines += [f"{k} = {_ini(v)}" for k, v in override.items() if k != "module"]
    ini = into / "mypy.ini"
    ini.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ini


def _ini(value: object) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def build(out: Path | None = None, *, quiet: bool = True) -> Path:
    """Compile :data:`MODULES` into ``out`` (default ``build/native``) and stamp the build.

    Returns the build folder. Takes 30 s to a minute (mypyc, then the C compiler).

    Raises
    ------
    BuildError
        If mypyc is not installed, compiling fails (its output is in the message), or the
        build folder cannot be written.
    """
    try:
        from mypyc.build import mypycify
        from setuptools import setup
    except ImportError as exc:
        raise BuildError(
            f"mypyc is not installed ({exc}): install the dev extras "
            "(pip install -e '.[dev]', as make install does)"
        ) from exc
    out = (native_dir() if out is None else out).resolve()
    project = source_path(MODULES[0]).parents[1]
    digest = source_hash()  # before compiling: what the build is made from
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="campaign-native-") as tmp:
        work = Path(tmp)
        ini = _mypy_config(project, work)
        stage = work / "lib"
        sources = [str(source_path(m)) for m in MODULES]
        log = io.StringIO()
        cwd = Path.cwd()
        try:
            os.chdir(work)  # setuptools reads no pyproject.toml of ours from here
            with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
                extensions = mypycify(
                    [f"--config-file={ini}", *sources],
                    opt_level="3",
                    group_name=GROUP,
                    target_dir=str(work / "c"),
                )
                setup(
                    name="campaign-native",
                    ext_modules=extensions,
                    script_args=[
                        "--quiet",
                        "build_ext",
                        "--build-lib",
                        str(stage),
                        "--build-temp",
                        str(work / "tmp"),
                    ],
                )
        except (SystemExit, Exception) as exc:
            tail = "\n".join(log.getvalue().strip().splitlines()[-25:])
            message = f"mypyc could not compile the campaign modules: {exc}\n{tail}"
            raise BuildError(message) from exc
        finally:
            os.chdir(cwd)
        files = _collect(stage)
        record = {
            "source_hash": digest,
            "python": sys.version.split()[0],
            "modules": list(MODULES),
            "files": files,
            "seconds": round(time.perf_counter() - started, 1),
        }
        install(stage, out, record)
    if not quiet:
        print(
            f"compiled {len(MODULES)} campaign modules into {out} in {record['seconds']} s",
            file=sys.stderr,
        )
    return out


def install(stage: Path, out: Path, record: dict[str, object]) -> None:
    """Put the built extensions of ``stage`` in place at ``out`` (replacing an older build)
    with ``record`` as its ``native.json``.

    Raises
    ------
    BuildError
        If ``out`` cannot be written (a read-only folder, a file in the way).
    """
    try:
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(stage, out)
        (out / STAMP_NAME).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise BuildError(
            f"compiled, but could not write the build to {out} ({exc}): make that folder "
            "writable, or remove it and run make native again"
        ) from exc


def _collect(stage: Path) -> dict[str, str]:
    """Module name -> extension file (relative to ``stage``) of every module built."""
    files: dict[str, str] = {}
    for path in sorted(stage.rglob("*.so")) + sorted(stage.rglob("*.pyd")):
        rel = path.relative_to(stage)
        name = ".".join((*rel.parent.parts, rel.name.split(".", 1)[0]))
        files[name] = rel.as_posix()
    wanted = {*MODULES, f"{GROUP}__mypyc"}
    missing = sorted(wanted - set(files))
    if missing:
        raise BuildError(f"the build made no extension for {', '.join(missing)}")
    return {name: files[name] for name in sorted(wanted)}
