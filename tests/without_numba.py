"""Run the test suite with numba hidden from the import system (issue 27): ``python
tests/without_numba.py [pytest arguments]``. Every ``import numba`` (and llvmlite) raises
ImportError in this process and in the processes it starts (PYTHONPATH carries a
sitecustomize that hides them), so battles run on the reference engine; the conftest.py
files of tests/battle, tests/batch and tests/referee leave out the compiled kernel's own tests."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

HIDE = '''
import sys


class _HideNumba:
    """numba and llvmlite are not installed, as far as this process can tell."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("numba", "llvmlite"):
            raise ImportError(f"No module named {name!r} (hidden: tests/without_numba.py)")
        return None


sys.meta_path.insert(0, _HideNumba())
'''


def main() -> int:
    """Run pytest on ``sys.argv[1:]`` with numba hidden; returns its exit code."""
    place = Path(tempfile.mkdtemp(prefix="without-numba-"))
    (place / "sitecustomize.py").write_text(HIDE)
    root = Path(__file__).resolve().parents[1]
    paths = [str(place), str(root), os.environ.get("PYTHONPATH", "")]
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    os.execv(sys.executable, [sys.executable, "-m", "pytest", *sys.argv[1:]])
    return 0  # pragma: no cover - execv does not return


if __name__ == "__main__":
    sys.exit(main())
