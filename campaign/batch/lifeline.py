"""A batch's processes die with their coordinator, kill -9 included (issue 32).

The chain: the coordinator (``campaign batch``) spawns the fork server, the fork server forks
the pool's workers. On Linux each of them asks the kernel, as it starts, for ``SIGKILL``
when its parent dies (``prctl(PR_SET_PDEATHSIG)``, through :mod:`ctypes`): a killed
coordinator takes the fork server with it at once, and the server its workers, even while
a worker is deep in the battle kernel and its watcher thread cannot run. Elsewhere (and as
a second line on Linux) the workers' watcher thread polls the parent
(:func:`campaign.batch.worker.init_worker`), and the fork server ends when its pipe from
the coordinator closes (:mod:`multiprocessing.forkserver`).

Standard library only: the fork server imports this first, before the battle engine.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys

__all__ = ["die_with_parent"]

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> bool:
    """Ask the kernel to ``SIGKILL`` this process when its parent dies (Linux).

    ``parent`` is the process id the caller expects as its parent (default: the parent
    now). If the parent has changed already (it died while this process started), exits at
    once with status 1. Returns whether the kernel took the request (False on other
    systems, or where libc cannot be loaded).
    """
    expected = os.getppid() if parent is None else parent
    armed = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    # checked after the request: a parent that died before it was made is seen here
    if os.getppid() != expected or expected == 1:
        os._exit(1)
    return armed
