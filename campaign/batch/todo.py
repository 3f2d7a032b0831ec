"""The runs a batch still has to do, kept as what is done (never as a list of every run).

A batch of 900 cells × 10,000,000 runs would need 9 billion list entries to name its missing
runs; :class:`MissingRuns` holds only the run indices already stored and yields the missing
ones lazily, so planning and resuming take memory in proportion to the stored results only.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["MissingRuns"]


@dataclass(frozen=True)
class MissingRuns:
    """Runs ``0 .. runs - 1`` of each cell that are not stored yet.

    Parameters
    ----------
    runs : int
        Runs per cell.
    done : dict of int to set of int
        Cell → run indices (below ``runs``) already stored; every cell of the batch is a key.

    Examples
    --------
    >>> todo = MissingRuns(4, {0: {1, 2}, 1: set()})
    >>> todo.count, list(todo.runs_of(0)), todo.cells()
    (6, [0, 3], [0, 1])
    """

    runs: int
    done: dict[int, set[int]]

    @property
    def count(self) -> int:
        """Missing runs in all cells."""
        return sum(self.runs - len(d) for d in self.done.values())

    def cells(self) -> list[int]:
        """The cells with at least one missing run, in order."""
        return [c for c in sorted(self.done) if len(self.done[c]) < self.runs]

    def runs_of(self, cell: int) -> Iterator[int]:
        """The missing run indices of ``cell``, ascending, generated one at a time."""
        done = self.done[cell]
        return (r for r in range(self.runs) if r not in done)
