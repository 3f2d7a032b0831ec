"""The batch's fork server: one process that loads and warms the battle engine for every worker.

Light on purpose (the standard library alone): ``campaign batch`` imports it and starts the
server (:func:`start_server`) before it imports the rest of the batch and plans the cells, so
the server's imports (numba and the compiled kernel, about 1.4 s of CPU) overlap all of that.
:func:`campaign.batch.runner.run_batch` starts it anyway when nobody has.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.context
import signal
import sys
import threading
import types
from collections.abc import Iterator

__all__ = ["SERVER_PRELOAD", "main_module_hidden", "mp_context", "start_server"]


@contextlib.contextmanager
def main_module_hidden() -> Iterator[None]:
    """While the pool starts its processes: hide this program's main module from
    :mod:`multiprocessing`, whose ``spawn`` otherwise runs it again in every worker (as
    ``__mp_main__``) before the worker does anything else.

    A worker needs none of it: it is sent only functions of :mod:`campaign.batch.worker`.
    The ``campaign`` command's main module imports the command line (Typer and the CLI,
    about 0.07 s of CPU a worker), and a script that calls ``run_batch`` without an
    ``if __name__ == "__main__":`` guard would start the batch again in every worker, which
    multiprocessing stops with an error. ``spawn`` reads ``sys.modules["__main__"]`` when it
    starts each process, so a bare module stands in for it until the processes have started.
    """
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if main is not None:
            sys.modules["__main__"] = main


#: the module the fork server imports before it forks workers (:mod:`campaign.batch.preload`)
SERVER_PRELOAD = ["campaign.batch.preload"]


def mp_context() -> multiprocessing.context.BaseContext:
    """``forkserver`` where the platform has it (Linux, macOS), else ``spawn``.

    The fork server is one process started from scratch (like a spawned one) that imports
    :data:`SERVER_PRELOAD` once: it loads and warms the battle engine for every worker
    (:func:`~campaign.batch.worker.prepare_server`), and each worker is then forked from it
    with all of that loaded, instead of importing it again (about 1.4 s of CPU a spawned
    worker). It serves every pool this process starts, and ends with this process. Workers
    still never inherit the coordinator's state (DuckDB, its threads, the command line).
    """
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(SERVER_PRELOAD)
    return ctx


def start_server() -> None:
    """Start the fork server now, if the platform has one (it loads and warms the battle
    engine in the background, about 1.4 s of CPU), so that the workers of a later
    :func:`~campaign.batch.runner.run_batch` fork from it at once. Optional: ``run_batch``
    starts it anyway.
    Returns at once; a no-op when it runs already."""
    ctx = mp_context()
    if ctx.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        with main_module_hidden(), _ctrl_c_not_inherited():
            forkserver.ensure_running()


@contextlib.contextmanager
def _ctrl_c_not_inherited() -> Iterator[None]:
    """While the fork server is started: SIGINT ignored, so that the server starts with it
    ignored (a disposition kept across ``exec``; Python keeps an ignored SIGINT ignored).
    Ctrl-C at a terminal reaches the whole process group: the server, still importing
    its preload (about half a second), would die of it with a traceback of its own beside
    the batch's one-line message; multiprocessing ignores SIGINT in the server only once
    that preload is done, and the workers forked from it ignore it anyway (they stop when
    the batch stops them). The batch's own handler is back as soon as the server is
    spawned (``ensure_running`` returns at once). Only from the main thread, where signal
    handlers can be set."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
