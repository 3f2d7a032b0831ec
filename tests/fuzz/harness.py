"""Run the real ``campaign`` command line in this process under a per-case time limit.

Each fuzz case calls :func:`campaign.cli.main` (the console script's entry point, so the
exit codes are the ones a user sees) with stdout and stderr captured, under a ``SIGALRM``
timer: a case that has used ``limit`` seconds of CPU (``ITIMER_PROF``: the process's own
time, so a busy machine does not turn a slow case into a "hang"), or ``WALL_FACTOR`` times
that of wall-clock time (a case blocked on something), is stopped and counted as a hang.
Outcomes are classified by :func:`classify`; with ``FUZZ_CENSUS=FILE`` every outcome is also
appended to FILE as one JSON line, and the tests record instead of failing (used to count
crashes and hangs before and after a change; see tests/fuzz/census.py).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import resource
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from campaign.cli import main

__all__ = ["CASE_LIMIT", "Outcome", "check", "run_cli_timed"]

#: CPU seconds one fuzz case may take (a campaign on a small map takes well under one second).
CASE_LIMIT = float(os.environ.get("FUZZ_CASE_LIMIT", "20"))
#: Wall-clock limit of a case, as a multiple of its CPU limit: a case waiting on nothing
#: (a lock, a socket) uses no CPU, and is stopped by this one.
WALL_FACTOR = float(os.environ.get("FUZZ_WALL_FACTOR", "6"))
#: Bytes of address space one case may add (beyond it, an allocation raises MemoryError and
#: the case counts as a crash: a size that was not bounded before work started).
CASE_MEMORY = int(float(os.environ.get("FUZZ_CASE_MEMORY_GB", "1.5")) * 2**30)


def _address_space() -> int:
    with open("/proc/self/statm", encoding="ascii") as fh:
        return int(fh.read().split()[0]) * resource.getpagesize()


class CaseTimeout(BaseException):
    """Raised by the alarm in the main thread when a case runs past its limit."""


@dataclass
class Outcome:
    """How one command ended: its exit code (None: it raised or hung) and its output."""

    argv: list[str]
    code: int | None
    out: str
    err: str
    hung: bool = False
    raised: str | None = None
    cpu: float = 0.0  # CPU seconds the case used (in-process runs)

    @property
    def verdict(self) -> str:
        """``ok`` (exit 0), ``refused`` (a clean exit 2), ``hang`` or ``crash``."""
        if self.hung:
            return "hang"
        if self.raised is not None or "Traceback (most recent call last)" in self.err:
            return "crash"
        if self.code == 0:
            return "ok"
        if self.code == 2 and self.err.strip():
            return "refused"
        return "crash"


@contextlib.contextmanager
def _alarm(limit: float) -> Iterator[None]:
    def _stop(signum: int, frame: object) -> None:
        raise CaseTimeout

    previous = signal.signal(signal.SIGALRM, _stop)
    previous_prof = signal.signal(signal.SIGPROF, _stop)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = _address_space() + CASE_MEMORY
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    signal.setitimer(signal.ITIMER_PROF, limit)
    signal.setitimer(signal.ITIMER_REAL, limit * WALL_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGALRM, previous)
        signal.signal(signal.SIGPROF, previous_prof)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _limiter(cpu: float) -> Callable[[], None]:
    def limit() -> None:  # in the child, before exec
        resource.setrlimit(resource.RLIMIT_AS, (_address_space() + 4 * CASE_MEMORY, -1))
        seconds = max(1, math.ceil(cpu))
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))  # then SIGXCPU

    return limit


def run_cli_isolated(argv: list[str], limit: float = CASE_LIMIT) -> Outcome:
    """Run ``python -m campaign ARGV`` in a child process with the same time limits.

    Its address space is capped at 4 × ``CASE_MEMORY`` (the interpreter and its libraries
    take some); a child that dies of it, or of the time limit, is killed and counted.
    """
    try:
        done = subprocess.run(
            [sys.executable, "-m", "campaign", *argv],
            capture_output=True,
            text=True,
            timeout=limit * WALL_FACTOR,
            preexec_fn=_limiter(limit),
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        err = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else ""
        return Outcome(argv, None, "", err, hung=True)
    if done.returncode == -signal.SIGXCPU:  # its CPU limit
        return Outcome(argv, None, done.stdout, done.stderr, hung=True)
    raised = None
    if done.returncode < 0 or "MemoryError" in done.stderr:
        raised = f"killed by signal {-done.returncode}" if done.returncode < 0 else "MemoryError"
    return Outcome(argv, done.returncode, done.stdout, done.stderr, raised=raised)


def run_cli_timed(argv: list[str], limit: float = CASE_LIMIT) -> Outcome:
    """Run ``campaign ARGV`` in this process; stop it after ``limit`` seconds.

    The case may also add at most ``CASE_MEMORY`` bytes of address space (Linux). With
    ``FUZZ_ISOLATE=1`` each case runs in a child process instead (:func:`run_cli_isolated`:
    slower, but a case that eats memory cannot hurt the test process).
    """
    if os.environ.get("FUZZ_ISOLATE") == "1":
        return run_cli_isolated(argv, limit)
    out, err = io.StringIO(), io.StringIO()
    start = time.process_time()
    code: int | None = None
    hung = False
    raised = None
    try:
        with _alarm(limit), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(argv)
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except CaseTimeout:
        hung = True
    except Exception as exc:
        raised = "".join(traceback.format_exception_only(exc)).strip()
        raised += "\n" + "".join(traceback.format_tb(exc.__traceback__)[-3:])
    cpu = time.process_time() - start
    return Outcome(argv, code, out.getvalue(), err.getvalue(), hung, raised, cpu)


def _record(kind: str, outcome: Outcome) -> None:
    census = os.environ.get("FUZZ_CENSUS")
    if census:
        row = {"kind": kind, "verdict": outcome.verdict, **asdict(outcome)}
        row["out"] = row["out"][-300:]
        row["err"] = row["err"][-600:]
        with Path(census).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def check(kind: str, outcome: Outcome, *, must_succeed: bool = False) -> None:
    """Assert that a fuzz case ended with exit 0 or a clean exit 2 within its limit.

    ``must_succeed``: only exit 0 passes (a refusal counts as a crash in the census).
    With ``FUZZ_CENSUS`` set the outcome is recorded and nothing is asserted.
    """
    if must_succeed and outcome.verdict == "refused":
        outcome.raised = f"refused: {outcome.err.strip()[:300]}"
    _record(kind, outcome)
    if os.environ.get("FUZZ_CENSUS"):
        return
    assert outcome.verdict in ("ok", "refused"), (
        f"campaign {outcome.argv!r}: {outcome.verdict} (exit {outcome.code})\n"
        f"raised: {outcome.raised}\nstderr: {outcome.err[-2000:]}"
    )
    if outcome.code == 2:
        assert outcome.err.lstrip().startswith(("error:", "seed ")), outcome.err
