"""The worker side of a batch: run one chunk of campaigns and return its rows as Arrow columns.

Everything here is safe to import in a spawned process or on a remote Dask worker: no
import-time side effects, no global random state. Maps and rules are cached per worker
process (keyed by path, content hash and options), so a map is loaded once per worker, not
once per run.
"""

from __future__ import annotations

import atexit
import gc
import hashlib
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from campaign.batch.columns import Column, encode_column, table_columns
from campaign.batch.kernel_load import NOT_FOR_THE_KERNEL, import_battle_engine
from campaign.batch.lifeline import die_with_parent
from campaign.streams import remember_keys, sequence_states, uint32_words

if TYPE_CHECKING:
    from campaign.config import LoadedRules
    from campaign.maps import CampaignMap

__all__ = [
    "BATTLE_COLUMNS",
    "CHARACTER_COLUMNS",
    "NOT_FOR_THE_KERNEL",
    "RUN_COLUMNS",
    "ChunkResult",
    "ChunkTask",
    "Preload",
    "file_sha",
    "init_worker",
    "run_chunk",
    "run_seed",
    "run_seeds",
    "warm_up",
]

#: whether this process has called the battle engine once (:func:`warm_up`)
_warm = {"done": False}

#: The campaign-character columns of a ``runs`` row (issue 10), last in table order.
CHARACTER_COLUMNS = (
    "rough_road_tests",
    "rough_road_failures",
    "battle_places",
    "marches",
    "flank_marches",
    "base_fell",
    "base_fell_day",
)

#: Columns of a ``runs`` row after (batch_id, cell, run), in table order.
RUN_COLUMNS = (
    "seed",
    "winner",
    "reason",
    "end_minutes",
    "days",
    "battles",
    "red_losses",
    "blue_losses",
    "red_divisions_left",
    "blue_divisions_left",
    "red_objective_value",
    "blue_objective_value",
    *CHARACTER_COLUMNS,
)

#: Columns of a ``battles`` row after (batch_id, cell, run), in table order.
BATTLE_COLUMNS = (
    "battle",
    "t",
    "day",
    "place",
    "road",
    "attacker",
    "winner",
    "reason",
    "bounds",
    "red_divisions",
    "blue_divisions",
    "red_units",
    "blue_units",
    "red_hits",
    "blue_hits",
    "red_cards_lost",
    "blue_cards_lost",
)


def run_seed(entropy: int, run: int) -> int:
    """The integer seed of run ``run`` (common to every cell), in ``[0, 2**63)``.

    Derived from ``SeedSequence(entropy, spawn_key=(run,))`` — exactly the sequence that
    ``SeedSequence(entropy).spawn(...)[run]`` gives — so it depends only on the batch's
    entropy and the run index, never on worker count, order or backend.

    Examples
    --------
    >>> run_seed(42, 0) == run_seed(42, 0)
    True
    """
    child = np.random.SeedSequence(entropy, spawn_key=(run,))
    return int(child.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def run_seeds(entropy: int, runs: Sequence[int]) -> list[int]:
    """:func:`run_seed` of each of ``runs``, worked out together (a chunk's seeds: about 1 us
    a seed instead of 10) by SeedSequence's steps on arrays
    (:func:`campaign.streams.sequence_states`): the same ints, checked against
    :func:`run_seed` in tests/campaign/test_batch_seeds.py. A few runs, or a run index
    of more than one 32-bit word, are left to :func:`run_seed`.

    Raises
    ------
    ValueError
        If ``entropy`` or a run index is negative (as :func:`run_seed`).
    """
    if len(runs) < _TOGETHER or entropy < 0 or min(runs) < 0 or max(runs) > 0xFFFFFFFF:
        return [run_seed(entropy, run) for run in runs]
    count = len(runs)
    words = uint32_words(entropy)
    words += [0] * (4 - len(words))  # as numpy pads the entropy before a spawn key
    entropy_words = [np.full(count, word, np.uint32) for word in words]
    low, high = sequence_states([*entropy_words, np.array(runs, np.uint32)], 2)
    both = low.astype(np.uint64) | high.astype(np.uint64) << np.uint64(32)
    seeds: list[int] = (both >> np.uint64(1)).tolist()
    return seeds


#: runs worked out together by :func:`run_seeds`, at the least (fewer do not pay)
_TOGETHER = 16


def file_sha(path: str | Path) -> str:
    """SHA-256 (hex, first 16 digits) of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


@dataclass(frozen=True)
class ChunkTask:
    """A chunk of runs of one cell (small and picklable; sent to a worker).

    Parameters
    ----------
    cell : int
        The cell index.
    map_path : str
        Absolute path of the map file (must exist at this path on every worker).
    map_sha : str
        The map file's content hash as seen by the coordinator (checked by the worker).
    variants : tuple of str
        Rule variants.
    overrides_json : str
        Dotted-key overrides as canonical JSON.
    doctrines : tuple of (str, str)
        Red's and blue's strategy doctrines.
    entropy : int
        The batch's root seed entropy.
    runs : tuple of int
        Run indices of this chunk.
    start : str or None
        A save's text: each run plays a future of that save under the cell's rules and the
        run's dice (:mod:`campaign.save.batch`); None: whole campaigns from the run's seed.
    """

    cell: int
    map_path: str
    map_sha: str
    variants: tuple[str, ...]
    overrides_json: str
    doctrines: tuple[str, str]
    entropy: int
    runs: tuple[int, ...]
    start: str | None = None


@lru_cache(maxsize=16)
def _cached_map(path: str, sha: str) -> CampaignMap:
    from campaign.errors import MapError
    from campaign.maps import MapOptions, load_map

    if file_sha(path) != sha:
        raise MapError(
            "the map file on this worker differs from the coordinator's",
            source=path,
            fix="Install the same map file at the same path on every machine.",
        )
    cmap = load_map(path, MapOptions())
    _ = cmap.routes  # build the route cache once, before the first run
    return cmap


@lru_cache(maxsize=64)
def _cached_rules(variants: tuple[str, ...], overrides_json: str) -> LoadedRules:
    from campaign.config import load_rules

    return load_rules(list(variants), json.loads(overrides_json))


@dataclass(frozen=True)
class ChunkResult:
    """What a worker returns for a chunk: its rows as Arrow column buffers, and its timings.

    Parameters
    ----------
    cell : int
        The chunk's cell.
    runs, battles : dict of str to Column
        The rows of the ``runs`` and ``battles`` tables, every column but ``batch_id``
        (:func:`campaign.batch.columns.record_batch` turns them into Arrow record batches).
    seconds : float
        Wall seconds the worker spent on the chunk.
    cpu_seconds : float
        CPU seconds (process time) of the chunk in the worker.
    campaign_seconds : float
        CPU seconds inside :func:`campaign.engine.run_campaign`; ``cpu_seconds`` minus it
        is what the batch adds around the campaigns (seeds, rows, encoding).
    """

    cell: int
    runs: dict[str, Column]
    battles: dict[str, Column]
    seconds: float
    cpu_seconds: float
    campaign_seconds: float

    @property
    def count(self) -> int:
        """Runs in the chunk."""
        return self.runs["run"].length


#: the battle columns of a :class:`~campaign.result.BattleRow`, after ``run``, in table order
_battle_values = attrgetter("index", *BATTLE_COLUMNS[1:])


@lru_cache(maxsize=1024)
def _run_reason(sentence: str) -> str:
    from campaign.batch.reasons import run_reason_code

    return run_reason_code(sentence)


@lru_cache(maxsize=64)
def _battle_reason_text(code: str) -> str:
    from campaign.batch.reasons import battle_reason_text

    return battle_reason_text(code)


def _encode(table: str, values: dict[str, Sequence[object]]) -> dict[str, Column]:
    return {name: encode_column(kind, values[name]) for name, kind in table_columns(table)}


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Run every campaign of a chunk.

    Returns
    -------
    ChunkResult
        The chunk's ``runs`` and ``battles`` rows (reason codes with their text beside
        them, :mod:`campaign.batch.reasons`) as Arrow column buffers, with its timings.

    Raises
    ------
    SimulatorError
        If the map or rules cannot be loaded on this worker.
    """
    from campaign.engine import run_campaign
    from campaign.save.batch import play_future

    warm_up()  # a Dask worker has no initializer: the first chunk warms it
    start, cpu_start = time.perf_counter(), time.process_time()
    cmap = _cached_map(task.map_path, task.map_sha)
    loaded = _cached_rules(task.variants, task.overrides_json)
    doctrines = {"red": task.doctrines[0], "blue": task.doctrines[1]}
    runs: list[tuple[object, ...]] = []
    battles: list[tuple[object, ...]] = []
    inside = 0.0
    clock = time.process_time
    # every seed of the chunk, and each one's key (campaign.streams), at once: about 1 us a
    # seed where one at a time, between two campaigns, took 10 to 45
    seeds = run_seeds(task.entropy, task.runs)
    remember_keys(seeds)
    for run, seed in zip(task.runs, seeds, strict=True):
        began = clock()
        if task.start is None:
            res = run_campaign(cmap, loaded, seed, doctrines, record_events=False)
        else:
            res = play_future(task.start, loaded, doctrines, seed)
        inside += clock() - began
        runs.append(
            (
                run,
                seed,
                res.winner,
                _run_reason(res.reason),
                res.end_minutes,
                res.days,
                res.battles,
                res.losses["red"],
                res.losses["blue"],
                res.divisions_left["red"],
                res.divisions_left["blue"],
                res.objective_value.get("red", 0),
                res.objective_value.get("blue", 0),
                res.reason,
                res.rough_road_tests,
                res.rough_road_failures,
                res.battle_places,
                res.marches,
                res.flank_marches,
                res.base_fell,
                res.base_fell_day,
            )
        )
        for b in res.battle_rows:
            battles.append((run, *_battle_values(b), _battle_reason_text(b.reason)))
    run_values: dict[str, Sequence[object]] = dict(
        zip(_RUN_ROW, _transpose(runs, len(_RUN_ROW)), strict=True)
    )
    battle_values: dict[str, Sequence[object]] = dict(
        zip(_BATTLE_ROW, _transpose(battles, len(_BATTLE_ROW)), strict=True)
    )
    run_values["cell"] = [task.cell] * len(runs)
    battle_values["cell"] = [task.cell] * len(battles)
    return ChunkResult(
        cell=task.cell,
        runs=_encode("runs", run_values),
        battles=_encode("battles", battle_values),
        seconds=time.perf_counter() - start,
        cpu_seconds=time.process_time() - cpu_start,
        campaign_seconds=inside,
    )


#: the order of a runs row and a battles row as :func:`run_chunk` builds them
_RUN_ROW = ("run", *RUN_COLUMNS[: -len(CHARACTER_COLUMNS)], "reason_text", *CHARACTER_COLUMNS)
_BATTLE_ROW = ("run", *BATTLE_COLUMNS, "reason_text")


def _transpose(rows: list[tuple[object, ...]], width: int) -> list[tuple[object, ...]]:
    """Rows of ``width`` values to ``width`` columns (empty ones for no rows)."""
    return list(zip(*rows, strict=True)) if rows else [()] * width


def warm_up() -> None:
    """Fight one small battle with :func:`battle.engine.fight` (6i1c1a against 4i1c1a,
    default rules, events off), once per process; later calls return at once.

    A worker calls it before its first chunk so that whatever the battle engine does on
    its first call (compiling or loading a compiled kernel, filling caches) is done once
    per worker, not timed inside a chunk; then it freezes what is loaded out of the garbage
    collector's passes (``gc.freeze``).
    """
    if _warm["done"]:
        return
    from battle.engine import fight
    from battle.forces import parse_force_flag
    from campaign.config import load_rules

    rules = load_rules().rules.battle
    red = parse_force_flag("6i1c1a", "Red", "R")
    blue = parse_force_flag("4i1c1a", "Blue", "B")
    fight(red, blue, rules, np.random.default_rng(0), record_events=False)
    # Everything loaded so far (modules, numba's compiled kernel, the map's tables) lives as
    # long as the worker: frozen out of the garbage collector's full passes, which otherwise
    # walk it again and again (measured: 0.24 -> 0.12 ms of collection per default campaign)
    gc.freeze()
    _warm["done"] = True


def _import_battle_engine() -> None:
    """Import the battle engine with only what its compiled kernel needs, and load every
    kernel function from the cache that way for the rest of the process
    (:func:`campaign.batch.kernel_load.import_battle_engine`): a pool worker never compiles."""
    import_battle_engine(lean_for_good=True)


#: A cell whose map and rules a pool worker loads while it starts (:func:`init_worker`):
#: (map path, map content hash, variants, overrides as canonical JSON), as in a ChunkTask.
Preload = tuple[str, str, tuple[str, ...], str]


#: the batch's fork server (:func:`prepare_server`): its process id, recorded in the server,
#: so every worker forked from it knows it (None: this process was not forked from one)
_server: dict[str, int | None] = {"pid": None}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    return True


def _watch_parent(parent: int, coordinator: int) -> None:
    while True:
        # the coordinator died (e.g. SIGKILL): do not linger. A spawned worker's parent is
        # the coordinator; a worker forked from the fork server outlives neither.
        if os.getppid() != parent or not _alive(coordinator):
            os._exit(1)
        time.sleep(0.5)


def prepare_server() -> None:
    """Load in the batch's fork server what every pool worker needs, once for all of them.

    Imports the battle engine without what it does not use (:func:`_import_battle_engine`)
    and warms it up (:func:`warm_up`), imports the campaign loop and the map loader, and
    freezes it all out of the garbage collector's passes. The workers the server forks
    then start with it loaded: a fork copies no page until it is written to, where a
    spawned worker imported all of it again (about 1.4 s of CPU a worker, measured at
    ``124ae4c``). Records the server's process id for :func:`init_worker`.

    Called by :mod:`campaign.batch.preload`, the module the fork server imports first.
    """
    _server["pid"] = os.getpid()
    _import_battle_engine()
    warm_up()
    # what run_chunk imports on its first call, and what init_worker reads the map with
    import campaign.engine
    import campaign.maps  # noqa: F401

    gc.freeze()


def init_worker(preload: Preload | None = None, coordinator: int | None = None) -> None:
    """Initializer of a local worker process.

    Ignores SIGINT (the coordinator handles Ctrl-C and stops the pool), exits when the
    coordinating process dies, so a killed batch leaves no orphaned workers, leaves without
    the interpreter's teardown once the pool stops it (:func:`_leave_at_once`), imports the
    battle engine without what it does not use (:func:`_import_battle_engine`) and warms it
    up (:func:`warm_up`). With ``preload`` (the batch's first cell) it also loads that
    cell's map, with its route tables, and rules, and the campaign loop's modules, and
    freezes them out of the garbage collector's passes like the rest: the first chunk then
    starts on campaigns at once. The pool keeps its workers for the whole batch, so maps,
    rules and the engine stay warm from chunk to chunk.

    ``coordinator`` is the process id of the process that started the pool (default: this
    process's parent now). Given, a worker whose coordinator was killed before the worker
    got this far (while it started up) sees a different parent at once and exits, instead of
    watching its new parent (init) for ever. A worker forked from the batch's fork server
    (:func:`prepare_server`, which has loaded and warmed the engine already) watches both
    the server, its parent, and the coordinator.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if coordinator is None:
        coordinator = os.getppid()
    parent = coordinator if _server["pid"] is None else _server["pid"]
    die_with_parent(parent)  # SIGKILL when the parent dies, even inside the kernel
    threading.Thread(target=_watch_parent, args=(parent, coordinator), daemon=True).start()
    atexit.register(_leave_at_once)  # registered last, so it runs first
    _import_battle_engine()
    warm_up()
    if preload is not None:
        from campaign.errors import SimulatorError

        map_path, map_sha, variants, overrides_json = preload
        try:
            _cached_map(map_path, map_sha)
            _cached_rules(variants, overrides_json)
        except SimulatorError:
            pass  # not cached: the first chunk of the cell meets the error and reports it
        import campaign.engine  # noqa: F401 - what run_chunk imports on its first call

        gc.freeze()


def _leave_at_once() -> None:
    """End a pool worker without tearing its interpreter down.

    Called at exit, after the pool's worker loop has ended and multiprocessing has flushed
    the standard streams: every result has been sent (synchronously, on a pipe), so only
    the teardown of numpy, numba and LLVM is skipped — 0.3 s to 1.5 s during which the
    coordinator waited for the worker at the end of every batch.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
