"""``python -m campaign.native build|ensure|status``.

``build`` compiles the campaign modules (exit 2 if it cannot); ``ensure`` builds them only
when the build is missing or stale, and only warns when it cannot (``make`` runs it before
``run``, ``test`` and ``bench``: the campaign then runs as plain Python, with the same
results); ``status`` says whether they are in use (exit 0) or why not (exit 1)."""

from __future__ import annotations

import sys

from campaign import native


def main(argv: list[str]) -> int:
    """Run the command in ``argv`` (``build`` or ``status``); returns the exit code."""
    command = argv[0] if argv else "status"
    if command in ("build", "ensure"):
        if command == "ensure" and native.status().startswith(("compiled", "off")):
            return 0
        from campaign.native.build import BuildError, build

        print("compiling the campaign modules with mypyc (about 40 s, once)…", file=sys.stderr)
        try:
            build(quiet=False)
        except BuildError as exc:
            level = "warning" if command == "ensure" else "error"
            print(f"{level}: {exc}\nThe campaign still runs, as plain Python.", file=sys.stderr)
            return 0 if command == "ensure" else 2
        return 0
    if command == "status":
        print(f"compiled campaign modules: {native.status()}")
        return 0 if native.status() == "compiled" else 1
    print(
        f"error: unknown command {command!r}; expected build, ensure or status "
        "(python -m campaign.native build)",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
