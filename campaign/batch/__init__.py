"""Batch what-if campaigns: a grid of cells × N seeds, run locally or on Dask, stored in DuckDB.

Public API::

    load_spec(path) -> BatchSpec; spec_from_flags(base, flags, source) -> BatchSpec
    expand_cells(spec) -> list[Cell]; plan_batch(spec, source) -> BatchPlan   # validates all
    run_batch(plan, output, workers=, backend=, scheduler=) -> BatchOutcome
    run_seed(entropy, run) -> int          # run i's seed, common to every cell
    wilson_interval(k, n), cell_summaries(con, id), paired_differences(con, id)
    export_results(path, dir, "parquet" | "csv"), write_plots(con, id, dir)

The names below are imported lazily (PEP 562), so a worker process that imports
``campaign.batch.worker`` does not load DuckDB, Arrow or Rich. No import-time side effects.
"""

from __future__ import annotations

from campaign.lazy import lazy_getattr

__all__ = [
    "BatchInterrupted",
    "BatchOutcome",
    "BatchPlan",
    "BatchSpec",
    "Cell",
    "CellPlan",
    "ResultStore",
    "cell_summaries",
    "default_workers",
    "expand_cells",
    "export_results",
    "load_spec",
    "open_results",
    "paired_differences",
    "plan_batch",
    "run_batch",
    "run_seed",
    "spec_from_flags",
    "wilson_interval",
]

_WHERE = {
    "BatchInterrupted": ".runner",
    "BatchOutcome": ".runner",
    "BatchPlan": ".plan",
    "BatchSpec": ".spec",
    "Cell": ".spec",
    "CellPlan": ".plan",
    "ResultStore": ".store",
    "cell_summaries": ".stats",
    "default_workers": ".cpus",
    "expand_cells": ".spec",
    "export_results": ".store",
    "load_spec": ".spec",
    "open_results": ".store",
    "paired_differences": ".stats",
    "plan_batch": ".plan",
    "run_batch": ".runner",
    "run_seed": ".worker",
    "spec_from_flags": ".spec",
    "wilson_interval": ".stats",
}


__getattr__ = lazy_getattr(__name__, _WHERE)
