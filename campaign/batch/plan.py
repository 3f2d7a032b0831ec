"""Validate a whole batch before any campaign runs: every cell's rules, maps and doctrines.

:func:`plan_batch` loads each distinct map and rules combination once, checks the doctrine
names, and returns a :class:`BatchPlan` with the per-cell rules hashes and map content hashes
that identify the batch in the results file (so a rerun resumes the same batch, and a changed
rule, map or numpy version starts a new one instead of mixing results).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from battle.errors import SimulatorError
from campaign.batch import cpus as cpu_count
from campaign.batch.spec import BatchSpec, Cell, count_cells, expand_cells
from campaign.batch.todo import MissingRuns
from campaign.batch.worker import ChunkTask, file_sha
from campaign.errors import BatchSpecError
from campaign.save.batch import SaveStart, cell_from_save, design_of
from campaign.versions import versions

__all__ = [
    "GUIDED_SHARE",
    "LARGEST_CHUNK",
    "MAX_TOTAL_RUNS",
    "MAX_WORKERS_PER_CPU",
    "SMALLEST_CHUNK",
    "BatchPlan",
    "CellPlan",
    "check_local_workers",
    "chunk_tasks",
    "guided_chunks",
    "plan_batch",
]

#: Most campaigns one batch may ask for (cells × runs); a results row is ~200 bytes.
MAX_TOTAL_RUNS = 100_000_000
#: Most worker processes a batch may start on this machine, per usable CPU: each holds its
#: own battle engine (~200 MB), and workers beyond the CPUs only take turns on them
MAX_WORKERS_PER_CPU = 4


@dataclass(frozen=True)
class CellPlan:
    """A validated cell: its spec, the resolved map file and the rules' identity."""

    cell: Cell
    map_path: str
    map_sha: str
    rules_label: str
    rules_hash: str


@dataclass(frozen=True)
class BatchPlan:
    """A validated batch: the spec, its cells and the hash of its design.

    ``design_hash`` covers the cells (maps by content, rules by hash, doctrines) and the
    package versions, not the number of runs: raising ``runs`` extends the same batch.
    """

    spec: BatchSpec
    cells: tuple[CellPlan, ...]
    design_hash: str
    versions: dict[str, str] = field(default_factory=dict)
    #: the save every cell starts from (``batch run --from``), or None
    start: SaveStart | None = None

    @property
    def total_runs(self) -> int:
        """Campaigns in the whole batch (cells × runs)."""
        return len(self.cells) * self.spec.runs


def _wrap(
    exc: SimulatorError, cell: Cell, source: str, part: str, flags: Mapping[str, str]
) -> BatchSpecError:
    """A cell's error, blamed on the spec file's key or on the flag that set the value.

    Rules overrides are all labelled ``--set`` by the rules loader; an override that came
    from the spec's ``set:`` is named ``set.KEY`` of the spec file instead (``flags`` holds
    ``set.KEY`` for each key given with ``--set``).
    """
    what, key, origin = exc.what, exc.key, exc.source
    by_flag = part in flags
    if part == "rules" and origin and "--set" in origin:
        what, key, origin, by_flag = _blame_override(exc, cell, source, flags, origin)
    where = ": ".join(p for p in (origin, key) if p)
    text = f"{where}: {what}" if where else what
    fix = (exc.fix or "").rstrip(".")
    fix = f"{fix}. " if fix else ""
    if by_flag or source == "flags":
        return BatchSpecError(
            f"cell {cell.index} ({cell.label}): {text}",
            fix=f"{fix}No campaign has run.",
        )
    return BatchSpecError(
        f"cell {cell.index} ({cell.label}): {text}",
        source=source,
        fix=f"{fix}Fix the spec before the batch starts; no campaign has run.",
    )


def _blame_override(
    exc: SimulatorError, cell: Cell, source: str, flags: Mapping[str, str], origin: str
) -> tuple[str, str | None, str | None, bool]:
    """An override's error (labelled ``--set`` by the rules loader) blamed on the spec's
    ``set.KEY`` or on the ``--set`` flag that gave it: ``(what, key, origin, by_flag)``."""
    what, key = exc.what, exc.key
    keys = [k for k, _ in cell.overrides if k in exc.message]
    by_flag = any(f"set.{k}" in flags for k in keys) or (not keys and source == "flags")
    others = ", ".join(p for p in origin.split(", ") if p != "--set") or None
    if not by_flag:
        for k in sorted(keys, key=len, reverse=True):
            what = what.replace(f"{k}:", f"set.{k}:")
            unknown = f"unknown config key {k!r}"
            what = what.replace(unknown, f"set.{k}: {unknown}")
        return what, f"set.{key}" if key in keys else key, others, by_flag
    if key in keys:
        return what, f"--set {key}", others, by_flag
    return what, key, origin, by_flag


def check_local_workers(
    spec: BatchSpec, source: str = "batch spec", flags: Mapping[str, str] | None = None
) -> None:
    """Refuse more worker processes on this machine than :data:`MAX_WORKERS_PER_CPU` per
    usable CPU (a Dask cluster elsewhere, ``scheduler``, is not bounded here).

    Raises
    ------
    BatchSpecError
        If ``spec.workers`` is over the bound; the fix names the bound and the default.
    """
    cpus = cpu_count.default_workers()
    limit = MAX_WORKERS_PER_CPU * cpus
    if spec.scheduler is None and spec.workers is not None and spec.workers > limit:
        flag = (flags or {}).get("workers")
        raise BatchSpecError(
            f"{spec.workers:,} worker processes on this machine, which has {cpus} usable "
            f"CPU{'s' if cpus != 1 else ''}: each worker holds its own battle engine (about "
            "200 MB), and more workers than CPUs only take turns on them",
            source=flag or source,
            key=None if flag else "workers",
            fix=f"Give at most {limit} workers (leave them out for one per CPU, {cpus}), or "
            "run on a Dask cluster with --scheduler URL.",
        )


def plan_batch(
    spec: BatchSpec,
    source: str = "batch spec",
    flags: Mapping[str, str] | None = None,
    start: SaveStart | None = None,
) -> BatchPlan:
    """Validate every cell of ``spec`` up front.

    Parameters
    ----------
    spec : BatchSpec
        The validated spec.
    source : str
        Where the spec came from (a file name or ``flags``), for messages.
    flags : mapping of str to str, optional
        Spec fields set by a command-line flag (``{"maps": "--map"}``): an error in such a
        field names the flag instead of ``source``.
    start : SaveStart, optional
        A save every cell starts from (``batch run --from``, :mod:`campaign.save.batch`):
        each cell's rules go over the save's.

    Returns
    -------
    BatchPlan

    Raises
    ------
    BatchSpecError
        If more local workers are asked for than :func:`check_local_workers` allows, the
        grid has more than ``MAX_CELLS`` cells (campaign.batch.spec) or more than
        :data:`MAX_TOTAL_RUNS` campaigns (checked first), or a cell names an unknown map,
        variant, config key or doctrine, or an override has the wrong kind of value; the
        message names the cell.
    """
    from campaign.config import load_rules
    from campaign.maps import MapOptions, load_map, resolve_map_path
    from campaign.setting import setting_of

    check_local_workers(spec, source, flags)
    n_cells = count_cells(spec, source)
    if n_cells * spec.runs > MAX_TOTAL_RUNS:
        raise BatchSpecError(
            f"{n_cells:,} cells × {spec.runs:,} runs = {n_cells * spec.runs:,} campaigns, more "
            f"than the limit of {MAX_TOTAL_RUNS:,} per batch",
            source=source,
            key=(flags or {}).get("runs", "runs"),
            fix="Lower runs or sweep fewer levels; split a very large study into batches.",
        )
    maps: dict[str, tuple[str, str, set[str]]] = {}
    rules: dict[tuple[Any, ...], tuple[str, str, set[str]]] = {}
    loaded_maps: dict[str, Any] = {}
    loaded_rules: dict[tuple[Any, ...], Any] = {}
    set_up: set[tuple[str, tuple[Any, ...]]] = set()
    planned = []
    flags = flags or {}
    cells = expand_cells(spec)
    if start is not None:  # each cell's rules over the save's (campaign.save.batch)
        cells = [cell_from_save(c, start) for c in cells]
    for cell in cells:
        part = "maps"
        try:
            if cell.map not in maps:
                path = resolve_map_path(None if cell.map == "default" else cell.map)
                if not path.is_file():
                    raise BatchSpecError(
                        f"no map file or shipped map named {cell.map!r}",
                        key=flags.get("maps", "maps"),
                        fix="Give a map file's path or a name from maps/ (default, waterloo-1815).",
                    )
                loaded_maps[cell.map] = load_map(path, MapOptions())
                maps[cell.map] = (str(path.resolve()), file_sha(path), set())
            part = "rules"
            key = (cell.variants, cell.overrides_json)
            if key not in rules:
                loaded = load_rules(list(cell.variants), json.loads(cell.overrides_json))
                names = set(loaded.rules.campaign.doctrines)
                rules[key] = (loaded.label, loaded.hash, names)
                loaded_rules[key] = loaded
            if (cell.map, key) not in set_up:
                # the campaign's own checks (reinforcements in time, the work bounded by map
                # size and days, issue 32): refused here, before any results file is made
                setting_of(loaded_maps[cell.map], loaded_rules[key])
                set_up.add((cell.map, key))
            label, rules_hash, names = rules[key]
            part = "doctrines"
            for side, name in zip(("red", "blue"), cell.doctrines, strict=True):
                if name not in names:
                    raise BatchSpecError(
                        f"no strategy doctrine named {name!r} for {side}",
                        key=flags.get("doctrines", "doctrines"),
                        fix=f"Choose from: {', '.join(sorted(names))}.",
                    )
        except SimulatorError as exc:
            raise _wrap(exc, cell, source, part, flags) from None
        map_file, sha, _ = maps[cell.map]
        planned.append(CellPlan(cell, map_file, sha, label, rules_hash))
    vers = dict(versions())
    design = {
        "cells": [
            [
                c.cell.map,
                c.map_sha,
                list(c.cell.variants),
                c.cell.overrides_json,
                list(c.cell.doctrines),
                c.rules_hash,
            ]
            for c in planned
        ],
        "versions": vers,
        **design_of(start),
    }
    digest = hashlib.sha256(json.dumps(design, sort_keys=True).encode()).hexdigest()[:16]
    return BatchPlan(
        spec=spec, cells=tuple(planned), design_hash=digest, versions=vers, start=start
    )


#: Guided chunk sizes (:func:`guided_chunks`): the largest and smallest chunk, in runs.
LARGEST_CHUNK = 200
SMALLEST_CHUNK = 4
#: a chunk takes at most 1 / (GUIDED_SHARE × workers) of the runs not yet handed out
GUIDED_SHARE = 4


def guided_chunks(workers: int) -> Callable[[int], int]:
    """Chunk sizes that shrink as a batch nears its end (guided self-scheduling).

    A chunk takes ``1 / (GUIDED_SHARE × workers)`` of the runs not yet handed out, between
    :data:`SMALLEST_CHUNK` and :data:`LARGEST_CHUNK` runs: few large chunks while there is
    much to do (little overhead per task), small ones at the end, so the workers finish
    within about one small chunk of each other instead of one idling while another runs a
    large last chunk. Chunking never changes a run's seed or row.

    Examples
    --------
    >>> size = guided_chunks(2)
    >>> size(10_000), size(800), size(100), size(3)
    (200, 100, 13, 4)
    """
    share = GUIDED_SHARE * max(1, workers)
    return lambda remaining: max(SMALLEST_CHUNK, min(LARGEST_CHUNK, -(-remaining // share)))


def chunk_tasks(
    plan: BatchPlan, entropy: int, todo: MissingRuns, chunk_size: int | Callable[[int], int]
) -> Iterator[ChunkTask]:
    """Yield :class:`ChunkTask` s covering the missing runs of ``todo``, lazily.

    ``chunk_size`` is the runs per chunk, or a function of the runs not yet handed out that
    gives the next chunk's size (:func:`guided_chunks`). Chunks never mix cells; the order
    is run-major across cells so that partial results of an interrupted batch cover every
    cell evenly. Run indices are generated as chunks are taken: memory does not grow with
    cells × runs.
    """
    cursors = {cell: todo.runs_of(cell) for cell in todo.cells()}
    remaining = todo.count
    while cursors:
        for cell in list(cursors):
            size = chunk_size(remaining) if callable(chunk_size) else chunk_size
            runs = list(itertools.islice(cursors[cell], size))
            if len(runs) < size:
                del cursors[cell]
            if not runs:
                continue
            remaining -= len(runs)
            cp = plan.cells[cell]
            yield ChunkTask(
                cell=cell,
                map_path=cp.map_path,
                map_sha=cp.map_sha,
                variants=cp.cell.variants,
                overrides_json=cp.cell.overrides_json,
                doctrines=cp.cell.doctrines,
                entropy=entropy,
                runs=tuple(runs),
                start=None if plan.start is None else plan.start.text,
            )
