"""The results file: DuckDB tables ``batches``, ``cells``, ``runs`` and ``battles``.

Tables (one file may hold several batches; ``batch_id`` ties the rows together):

``batches``
    One row per batch: ``batch_id``, ``name``, ``spec_json``, ``design_hash``,
    ``seed_entropy`` (decimal text), ``runs_per_cell``, ``n_cells``, ``code_version``,
    ``numpy_version``, ``versions_json``, ``rules_hashes`` (JSON list, per cell),
    ``started``, ``finished`` (NULL until every run is in), ``sessions`` (runs of the command).
``cells``
    One row per cell: ``cell``, ``label``, ``map``, ``map_sha``, ``variants``, ``overrides_json``,
    ``red_doctrine``, ``blue_doctrine``, ``rules_label``, ``rules_hash``, ``factors_json``.
``runs``
    One row per campaign, key ``(batch_id, cell, run)``: ``seed``, ``winner`` (NULL = draw),
    ``reason``, ``end_minutes`` (since 06:00 day 1), ``days``, ``battles``, ``red_losses``,
    ``blue_losses`` (hits), ``red_divisions_left``, ``blue_divisions_left``,
    ``red_objective_value``, ``blue_objective_value``.
``battles``
    One row per battle, key ``(batch_id, cell, run, battle)``: the fields of
    :class:`campaign.result.BattleRow`.

Each chunk's runs and battles are inserted from Arrow tables in one transaction, so the file
only ever holds whole runs, whatever interrupts the batch.
"""

from __future__ import annotations

import contextlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from campaign.batch.todo import MissingRuns
from campaign.batch.worker import BATTLE_COLUMNS, RUN_COLUMNS
from campaign.errors import BatchSpecError, make_output_dir

__all__ = ["ResultStore", "export_results", "open_results", "query_interrupted"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS batches (
    batch_id VARCHAR PRIMARY KEY, name VARCHAR, spec_json VARCHAR, design_hash VARCHAR,
    seed_entropy VARCHAR, runs_per_cell BIGINT, n_cells INTEGER, code_version VARCHAR,
    numpy_version VARCHAR, versions_json VARCHAR, rules_hashes VARCHAR,
    started TIMESTAMP, finished TIMESTAMP, sessions INTEGER);
CREATE TABLE IF NOT EXISTS cells (
    batch_id VARCHAR, cell INTEGER, label VARCHAR, map VARCHAR, map_sha VARCHAR,
    variants VARCHAR, overrides_json VARCHAR, red_doctrine VARCHAR, blue_doctrine VARCHAR,
    rules_label VARCHAR, rules_hash VARCHAR, factors_json VARCHAR,
    PRIMARY KEY (batch_id, cell));
CREATE TABLE IF NOT EXISTS runs (
    batch_id VARCHAR, cell INTEGER, run BIGINT, seed BIGINT, winner VARCHAR, reason VARCHAR,
    end_minutes INTEGER, days INTEGER, battles INTEGER, red_losses INTEGER,
    blue_losses INTEGER, red_divisions_left INTEGER, blue_divisions_left INTEGER,
    red_objective_value INTEGER, blue_objective_value INTEGER,
    PRIMARY KEY (batch_id, cell, run));
CREATE TABLE IF NOT EXISTS battles (
    batch_id VARCHAR, cell INTEGER, run BIGINT, battle INTEGER, t INTEGER, day INTEGER,
    place VARCHAR, road BOOLEAN, attacker VARCHAR, winner VARCHAR, reason VARCHAR,
    bounds INTEGER, red_divisions INTEGER, blue_divisions INTEGER, red_units INTEGER,
    blue_units INTEGER, red_hits INTEGER, blue_hits INTEGER, red_cards_lost INTEGER,
    blue_cards_lost INTEGER, PRIMARY KEY (batch_id, cell, run, battle));
"""

_RUN_TYPES = {
    "seed": pa.int64(),
    "winner": pa.string(),
    "reason": pa.string(),
}
_BATTLE_TYPES = {
    "place": pa.string(),
    "road": pa.bool_(),
    "attacker": pa.string(),
    "winner": pa.string(),
    "reason": pa.string(),
}


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _arrow(batch_id: str, cell: int, columns: dict[str, list], names, types) -> pa.Table:
    n = len(columns["run"])
    arrays = {
        "batch_id": pa.array([batch_id] * n, pa.string()),
        "cell": pa.array([cell] * n, pa.int32()),
        "run": pa.array(columns["run"], pa.int64()),
    }
    for name in names:
        arrays[name] = pa.array(columns[name], types.get(name, pa.int32()))
    return pa.table(arrays)


class ResultStore:
    """A DuckDB results file opened for one batch (the coordinator's only writer).

    Parameters
    ----------
    path : str or Path
        The ``.duckdb`` file (created when missing).
    read_only : bool
        Open for reading (``batch report`` / ``export``).

    Raises
    ------
    BatchSpecError
        If the file cannot be opened (not a DuckDB file, or locked by another batch).
    """

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = Path(path)
        if read_only and not self.path.exists():
            raise BatchSpecError("results file not found", source=str(path), fix="Check the path.")
        try:
            self.con = duckdb.connect(str(self.path), read_only=read_only)
        except duckdb.Error as exc:
            raise BatchSpecError(
                f"cannot open the results file ({exc})",
                source=str(path),
                fix="Use a DuckDB file that no other batch is writing.",
            ) from None
        if not read_only:
            self.con.execute(_SCHEMA)

    def close(self) -> None:
        """Close the connection (checkpointing the write-ahead log)."""
        self.con.close()

    # ---------------------------------------------------------------- batch identity
    def find_entropy(self, design_hash: str) -> int | None:
        """The seed entropy of the latest batch with this design, if any."""
        row = self.con.execute(
            "SELECT seed_entropy FROM batches WHERE design_hash = ? ORDER BY started DESC LIMIT 1",
            [design_hash],
        ).fetchone()
        return int(row[0]) if row else None

    def begin_batch(self, batch_id: str, plan, entropy: int) -> None:
        """Record the batch and its cells (or count one more session of an existing one)."""
        con = self.con
        exists = con.execute(
            "SELECT runs_per_cell FROM batches WHERE batch_id = ?", [batch_id]
        ).fetchone()
        spec = plan.spec
        if exists:
            con.execute(
                "UPDATE batches SET sessions = sessions + 1, finished = NULL, "
                "runs_per_cell = greatest(runs_per_cell, ?), spec_json = ? WHERE batch_id = ?",
                [spec.runs, spec.model_dump_json(), batch_id],
            )
            return
        con.begin()
        con.execute(
            "INSERT INTO batches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 1)",
            [
                batch_id,
                spec.name,
                spec.model_dump_json(),
                plan.design_hash,
                str(entropy),
                spec.runs,
                len(plan.cells),
                "{}+{}".format(
                    plan.versions.get("solo-campaign", "unknown"),
                    plan.versions.get("code", "unknown"),
                ),
                plan.versions.get("numpy", "unknown"),
                json.dumps(plan.versions, sort_keys=True),
                json.dumps([c.rules_hash for c in plan.cells]),
                _now(),
            ],
        )
        for c in plan.cells:
            con.execute(
                "INSERT INTO cells VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    batch_id,
                    c.cell.index,
                    c.cell.label,
                    c.cell.map,
                    c.map_sha,
                    "+".join(c.cell.variants) or "default",
                    c.cell.overrides_json,
                    c.cell.doctrines[0],
                    c.cell.doctrines[1],
                    c.rules_label,
                    c.rules_hash,
                    json.dumps(dict(c.cell.factors)),
                ],
            )
        con.commit()

    def done_runs(self, batch_id: str, n_cells: int, runs: int) -> MissingRuns:
        """The runs (below ``runs``) still missing for this batch, held as those done."""
        done: dict[int, set[int]] = {c: set() for c in range(n_cells)}
        cur = self.con.execute(
            "SELECT cell, run FROM runs WHERE batch_id = ? AND run < ?", [batch_id, runs]
        )
        while rows := cur.fetchmany(50_000):
            for cell, run in rows:
                if cell in done:
                    done[cell].add(run)
        return MissingRuns(runs, done)

    def finish_batch(self, batch_id: str) -> None:
        """Mark the batch finished (every requested run is in)."""
        self.con.execute("UPDATE batches SET finished = ? WHERE batch_id = ?", [_now(), batch_id])

    # ---------------------------------------------------------------- results
    def write_chunk(self, batch_id: str, result: dict[str, Any]) -> int:
        """Insert one chunk's runs and battles in one transaction; return runs written.

        Rows already present (a resumed batch) are ignored, never duplicated.

        Raises
        ------
        KeyboardInterrupt
            When Ctrl-C interrupts DuckDB during the write (its ``InterruptException``);
            the chunk is rolled back, every earlier chunk stays committed.
        """
        cell = int(result["cell"])
        runs = _arrow(batch_id, cell, result["runs"], RUN_COLUMNS, _RUN_TYPES)
        battles = _arrow(batch_id, cell, result["battles"], BATTLE_COLUMNS, _BATTLE_TYPES)
        con = self.con
        began = False
        try:
            con.begin()
            began = True
            con.register("chunk_runs", runs)
            con.register("chunk_battles", battles)
            con.execute("INSERT OR IGNORE INTO runs SELECT * FROM chunk_runs")
            con.execute("INSERT OR IGNORE INTO battles SELECT * FROM chunk_battles")
            con.commit()
        except duckdb.InterruptException:
            # Ctrl-C reached DuckDB mid-query: drop the partial chunk, stop like Ctrl-C
            self._rollback(began)
            raise KeyboardInterrupt from None
        except RuntimeError as exc:
            self._rollback(began)
            if query_interrupted(exc):  # the same, raised while scanning the Arrow chunk
                raise KeyboardInterrupt from None
            raise
        except BaseException:
            self._rollback(began)
            raise
        finally:
            self._unregister("chunk_runs", "chunk_battles")
        return runs.num_rows

    def _rollback(self, began: bool) -> None:
        """Roll back the open chunk transaction (a no-op if it never began or already ended)."""
        if not began:
            return
        with contextlib.suppress(duckdb.TransactionException):  # commit already ended it
            self.con.rollback()

    def _unregister(self, *names: str) -> None:
        for name in names:
            with contextlib.suppress(duckdb.InterruptException):  # a second Ctrl-C
                self.con.unregister(name)


def query_interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is DuckDB stopping a query for Ctrl-C.

    DuckDB raises ``duckdb.InterruptException``, or a plain ``RuntimeError("Query
    interrupted")`` when the signal lands while it scans a registered Arrow table.
    """
    if isinstance(exc, duckdb.InterruptException):
        return True
    return isinstance(exc, RuntimeError) and str(exc).strip() == "Query interrupted"


def open_results(path: str | Path) -> ResultStore:
    """Open a results file read-only (for reports and exports).

    Raises
    ------
    BatchSpecError
        If the file is missing or is not a DuckDB results file.
    """
    store = ResultStore(path, read_only=True)
    try:
        store.con.execute("SELECT 1 FROM runs LIMIT 1")
    except duckdb.Error:
        store.close()
        raise BatchSpecError(
            "not a batch results file (no runs table)",
            source=str(path),
            fix="Give the .duckdb file written by `campaign batch`.",
        ) from None
    return store


def export_results(path: str | Path, directory: str | Path, fmt: str) -> list[Path]:
    """Write every table of a results file to ``directory`` as Parquet or CSV.

    Parameters
    ----------
    path : str or Path
        The DuckDB results file.
    directory : str or Path
        Output folder (created when missing); one file per table (``runs.parquet`` …).
    fmt : {"parquet", "csv"}
        File format.

    Returns
    -------
    list of Path
        The files written.

    Raises
    ------
    BatchSpecError
        If the results file is missing or not a results file.
    """
    store = open_results(path)
    written = []
    try:
        out = make_output_dir(directory, f"--{fmt}")
        for table in ("batches", "cells", "runs", "battles"):
            target = out / f"{table}.{fmt}"
            options = "FORMAT parquet" if fmt == "parquet" else "FORMAT csv, HEADER true"
            quoted = str(target).replace("'", "''")
            store.con.execute(
                f"COPY (SELECT * FROM {table} ORDER BY ALL) TO '{quoted}' ({options})"
            )
            written.append(target)
    finally:
        store.close()
    return written
