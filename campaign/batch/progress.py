"""Progress display of a batch: a Rich bar with runs/s and ETA, or plain lines off a TTY."""

from __future__ import annotations

import time
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

__all__ = ["BatchProgress"]


class _RateColumn(ProgressColumn):
    """Campaigns per second (Rich's speed estimate over the last half minute)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} runs/s" if speed else "– runs/s", style="cyan")


class BatchProgress:
    """Count finished runs; show a bar on a terminal, a line every few seconds otherwise.

    Parameters
    ----------
    total : int
        Runs to do in this session (already stored runs excluded).
    console : Console or None
        Where to draw (default: stderr).
    enabled : bool
        False → silent.
    every_seconds : float
        Interval of the plain progress lines (seconds).
    """

    def __init__(
        self,
        total: int,
        console: Console | None = None,
        *,
        enabled: bool = True,
        every_seconds: float = 5.0,
    ) -> None:
        self.total = total
        self.done = 0
        self.console = console or Console(stderr=True)
        self.enabled = enabled
        self.every = every_seconds
        self.start = time.perf_counter()
        self.last_line = self.start
        self.bar: Progress | None = None
        if enabled and self.console.is_terminal:
            self.bar = Progress(
                TextColumn("[bold]batch"),
                BarColumn(),
                MofNCompleteColumn(),
                _RateColumn(),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=self.console,
                speed_estimate_period=30.0,
            )
            self.task = self.bar.add_task("runs", total=total)

    def __enter__(self) -> BatchProgress:
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.bar is not None:
            self.bar.stop()
        elif self.enabled and exc_type is None and self.total:
            self._line()

    @property
    def rate(self) -> float:
        """Mean runs per second so far."""
        elapsed = time.perf_counter() - self.start
        return self.done / elapsed if elapsed > 0 else 0.0

    def advance(self, runs: int) -> None:
        """Count ``runs`` more finished campaigns."""
        self.done += runs
        if self.bar is not None:
            self.bar.update(self.task, advance=runs)
        elif self.enabled and time.perf_counter() - self.last_line >= self.every:
            self._line()

    def _line(self) -> None:
        self.last_line = time.perf_counter()
        rate = self.rate
        # no run finished yet: no rate to tell the time left from (the workers are starting)
        eta = f"ETA {(self.total - self.done) / rate:,.0f} s" if rate else "starting"
        self.console.print(
            f"batch: {self.done}/{self.total} runs, {rate:,.1f} runs/s, {eta}",
            highlight=False,
            soft_wrap=True,
        )
