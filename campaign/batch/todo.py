"""The runs a batch still has to do, kept as what is done (never as a list of every run).

A batch of 900 cells × 10,000,000 runs would need 9 billion list entries to name its missing
runs; :class:`MissingRuns` holds only the run indices already stored and yields the missing
ones lazily, so planning and resuming take memory in proportion to the stored results only.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
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
    upto : dict of int to int or None
        Only runs below ``upto[cell]`` count (``campaign batch --precision`` runs cells
        in stages); None → all ``runs``.

    Examples
    --------
    >>> todo = MissingRuns(4, {0: {1, 2}, 1: set()})
    >>> todo.count, list(todo.runs_of(0)), todo.cells()
    (6, [0, 3], [0, 1])
    >>> staged = todo.first({0: 3, 1: 1})
    >>> staged.count, list(staged.runs_of(0)), list(staged.runs_of(1))
    (2, [0], [0])
    """

    runs: int
    done: dict[int, set[int]]
    upto: dict[int, int] | None = None

    def _end(self, cell: int) -> int:
        return self.runs if self.upto is None else min(self.runs, self.upto.get(cell, 0))

    def first(self, runs_per_cell: Mapping[int, int]) -> MissingRuns:
        """Only runs ``0 .. runs_per_cell[cell] - 1`` of each cell (0 for a cell not named)."""
        return MissingRuns(self.runs, self.done, dict(runs_per_cell))

    def _done_below(self, cell: int) -> int:
        end = self._end(cell)
        done = self.done[cell]
        return len(done) if end >= self.runs else sum(1 for r in done if r < end)

    @property
    def count(self) -> int:
        """Missing runs in all cells."""
        return sum(self._end(c) - self._done_below(c) for c in self.done)

    def cells(self) -> list[int]:
        """The cells with at least one missing run, in order."""
        return [c for c in sorted(self.done) if self._done_below(c) < self._end(c)]

    def runs_of(self, cell: int) -> Iterator[int]:
        """The missing run indices of ``cell``, ascending, generated one at a time."""
        done = self.done[cell]
        return (r for r in range(self._end(cell)) if r not in done)
