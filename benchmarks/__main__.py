"""Run every benchmark, or those named: ``python -m benchmarks [battle] [campaign] [scale] ...``
(``scale`` runs only when named: it takes minutes)."""

from __future__ import annotations

import importlib
import sys

from benchmarks import MODULES, NAMED_ONLY


def _resolve(name: str) -> str:
    for module in MODULES + NAMED_ONLY:
        if name in (module, module.removesuffix("_speed")):
            return module
    choices = ", ".join(MODULES + NAMED_ONLY)
    raise SystemExit(f"error: no benchmark named {name!r}; choose from: {choices}")


def main(argv: list[str]) -> int:
    """Run the chosen benchmarks and print their lines; returns the exit code."""
    if any(a in ("-h", "--help") for a in argv):
        default = ", ".join(m.removesuffix("_speed") for m in MODULES)
        named = ", ".join(m.removesuffix("_speed") for m in NAMED_ONLY)
        print(f"{__doc__.strip()}\n\nrun by default: {default}; only when named: {named}")
        return 0
    chosen = [_resolve(a) for a in argv] or list(MODULES)
    import campaign.native

    # the campaign figures depend on it: say which modules ran (make native, issue 15)
    print(f"compiled campaign modules: {campaign.native.status()}", flush=True)
    for name in chosen:
        try:
            module = importlib.import_module(f"benchmarks.{name}")
        except ModuleNotFoundError as exc:  # a benchmark not written yet
            if exc.name != f"benchmarks.{name}":
                raise
            print(f"{name}: not built yet", flush=True)
            continue
        for line in module.run():
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
