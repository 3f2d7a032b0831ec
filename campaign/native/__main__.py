"""``python -m campaign.native build|ensure|status``.

``build`` compiles the campaign modules (exit 2 if it cannot); ``ensure`` builds them only
when the build is missing or stale, and only warns when it cannot (``make`` runs it before
``run``, ``test`` and ``bench``: the campaign then runs as plain Python, with the same
results; a build that failed is not tried again by ``ensure`` until a source changes);
``status`` says whether they are in use (exit 0) or why not (exit 1)."""

from __future__ import annotations

import sys
from pathlib import Path

from campaign import native


def main(argv: list[str]) -> int:
    """Run the command in ``argv`` (``build`` or ``status``); returns the exit code."""
    command = argv[0] if argv else "status"
    if command in ("-h", "--help", "help"):
        print(__doc__)
        return 0
    if command in ("build", "ensure"):
        if command == "ensure" and native.status().startswith(("compiled", "off")):
            return 0
        from campaign.native.build import BuildError, build

        failed = native.native_dir().parent / "native.failed"  # sources a build failed for
        if command == "ensure" and _read(failed) == native.source_hash():
            print(
                "warning: the campaign modules could not be compiled from these sources "
                "before (python -m campaign.native build tries again); running plain Python",
                file=sys.stderr,
            )
            return 0

        print(
            "compiling the campaign modules with mypyc (30 s to a minute, once)…", file=sys.stderr
        )
        try:
            build(quiet=False)
        except BuildError as exc:
            level = "warning" if command == "ensure" else "error"
            print(f"{level}: {exc}\nThe campaign still runs, as plain Python.", file=sys.stderr)
            try:  # remembered, so that every make target does not try again
                failed.parent.mkdir(parents=True, exist_ok=True)
                failed.write_text(native.source_hash(), encoding="utf-8")
            except OSError:
                pass  # nowhere to remember it: the next make target tries again
            return 0 if command == "ensure" else 2
        failed.unlink(missing_ok=True)
        return 0
    if command == "status":
        if native.status() == "compiled":
            print(f"campaign modules: compiled, in use (from {native.native_dir()})")
            return 0
        print(f"campaign modules: plain Python; the compiled build is {native.status()}")
        return 1
    print(
        f"error: unknown command {command!r}; expected build, ensure or status "
        "(python -m campaign.native build)",
        file=sys.stderr,
    )
    return 2


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError:
        return None


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
