"""The results file: DuckDB tables ``batches``, ``cells``, ``runs`` and ``battles``.

Every table and column, with its type and meaning, is described once in
:mod:`campaign.batch.schema` (and stored in the file as DuckDB comments: ``SELECT
table_name, column_name, comment FROM duckdb_columns()``); the README lists them. One file
may hold several batches; ``batch_id`` ties the rows together. Times are minutes since
06:00 on day 1, nights included. ``reason`` columns hold codes (:mod:`campaign.batch.reasons`)
with the words beside them in ``reason_text``. A file written before the codes (schema 1) is
upgraded in place when a batch is resumed into it; so is a file written before the
campaign-character columns of ``runs`` (issue 10), whose old rows keep them NULL.

Each chunk's runs and battles arrive as Arrow column buffers built by the worker
(:mod:`campaign.batch.columns`); the writer wraps them as Arrow tables without copying and
inserts them in one transaction, so the file only ever holds whole runs, whatever
interrupts the batch, and the coordinator does no work per row. Several chunks may go in one
transaction (:meth:`ResultStore.write_chunks`): DuckDB's cost is mostly per statement and
commit, so five chunks of 100 runs together cost about a quarter of five separate writes.
"""

from __future__ import annotations

import contextlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import pyarrow as pa

from campaign.batch.columns import record_batch
from campaign.batch.filecheck import check_results_file, damaged, is_corruption, not_duckdb
from campaign.batch.reasons import battle_reason_text, run_reason_code
from campaign.batch.schema import TABLES, comment_sql, create_sql
from campaign.batch.todo import MissingRuns
from campaign.batch.worker import CHARACTER_COLUMNS
from campaign.errors import BatchSpecError, EnvironmentFailure, make_output_dir

if TYPE_CHECKING:
    from campaign.batch.plan import BatchPlan
    from campaign.batch.worker import ChunkResult

__all__ = [
    "MAX_WRITER_MEMORY_MB",
    "RUN_COLUMNS_ADDED",
    "WRITER_MEMORY_MB",
    "ResultStore",
    "export_results",
    "open_results",
    "query_interrupted",
    "run_columns",
]

#: DuckDB memory of the writing connection (MB); doubled when a write needs more, up to
#: :data:`MAX_WRITER_MEMORY_MB`. With 128 MB the coordinator stays near 320 MB at 10^6 runs.
WRITER_MEMORY_MB = 128
MAX_WRITER_MEMORY_MB = 4_096

#: the campaign-character columns of ``runs`` (issue 10), with their SQL types from the schema:
#: a results file written before them gets them added on opening for writing (old rows NULL)
RUN_COLUMNS_ADDED = tuple(
    (column, sql_type) for column, sql_type, _ in TABLES["runs"] if column in CHARACTER_COLUMNS
)


def run_columns(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The columns of the ``runs`` table of an open results file, in table order."""
    rows = con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'runs' "
        "ORDER BY ordinal_position"
    ).fetchall()
    return [r[0] for r in rows]


def _typed_level(key: str, level: str) -> Any:
    """A factor's level as its value: an override's JSON (``30``, ``true``, ``[1, 2]``),
    text for the map, variant, doctrines and any level that is not JSON."""
    if key in ("map", "variant", "doctrines"):
        return level
    try:
        return json.loads(level)
    except ValueError:
        return level


def _typed_factors(factors: tuple[tuple[str, str], ...]) -> str:
    """The factors as typed JSON: an override's level is the value itself (30, not "30")."""
    return json.dumps({k: _typed_level(k, v) for k, v in factors})


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    return [r[0] for r in con.execute(f"SELECT * FROM {table} LIMIT 0").description]


def _upgrade(con: duckdb.DuckDBPyConnection) -> None:
    """Bring an older file to the current layout, in place.

    Schema 1 stored ``runs.reason`` as the log's sentence and had no ``reason_text``
    columns: the sentence moves to ``reason_text`` and ``reason`` becomes its code, so a
    batch started before can be resumed and reported alike. A file without the
    campaign-character columns of ``runs`` gets them (NULL in its old rows).
    """
    for table, battles in (("runs", False), ("battles", True)):
        if "reason_text" in _columns(con, table):
            continue
        con.execute(f"ALTER TABLE {table} ADD COLUMN reason_text VARCHAR")
        for (reason,) in con.execute(f"SELECT DISTINCT reason FROM {table}").fetchall():
            if battles:
                code, text = reason, battle_reason_text(reason)
            else:
                code, text = run_reason_code(reason), reason
            con.execute(
                f"UPDATE {table} SET reason = ?, reason_text = ? WHERE reason = ?",
                [code, text, reason],
            )
    have = set(run_columns(con))
    for name, sql_type in RUN_COLUMNS_ADDED:  # written before the character columns
        if name not in have:
            con.execute(f"ALTER TABLE runs ADD COLUMN {name} {sql_type}")


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _not_duckdb(path: str | Path, read_only: bool) -> BatchSpecError:
    """The refusal of a file that is not a DuckDB database (a log, a CSV, an empty file)."""
    return BatchSpecError(
        "this file is not a DuckDB results file",
        source=str(path),
        fix=(
            "Give the .duckdb file a batch wrote (`campaign batch run ... -o FILE`)"
            if read_only
            else "Give a new file name (it is created) or a results file a batch wrote"
        )
        + "; the file is left as it is.",
    )


def _cannot_open(path: str | Path, exc: duckdb.Error, read_only: bool) -> BatchSpecError:
    """The refusal of a DuckDB file that cannot be opened: locked by a batch still writing
    it (wait for it), or another reason given in DuckDB's words."""
    detail = " ".join(str(exc).split())[:200]
    if "lock" in str(exc).lower():
        return BatchSpecError(
            "the results file is locked by another process (a batch still writing it)",
            source=str(path),
            fix="Wait until that batch ends, or "
            + ("read a copy of the file." if read_only else "write to another --output file."),
        )
    return BatchSpecError(
        f"cannot open the results file ({detail})",
        source=str(path),
        fix="Check that you may read the file."
        if read_only
        else "Use a DuckDB file in a place you may write to.",
    )


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
        if read_only and self.path.is_dir():
            raise BatchSpecError(
                "this is a folder, not a results file",
                source=str(path),
                fix=f"Give the .duckdb file a batch wrote (e.g. {self.path / 'NAME.duckdb'}).",
            )
        folder = self.path.parent
        if not read_only and folder.exists() and not folder.is_dir():
            raise BatchSpecError(
                f"cannot create the results file: {str(folder)!r} is a file, not a folder",
                source=str(path),
                fix="Choose a path in a folder.",
            )
        if not read_only and not folder.is_dir():
            raise BatchSpecError(
                f"cannot create the results file: the folder {str(folder)!r} does not exist",
                source=str(path),
                fix=f"Create the folder first (mkdir -p {folder}) or choose another path.",
            )
        if not read_only and self.path.is_dir():
            raise BatchSpecError(
                "this is a folder, not a results file",
                source=str(path),
                fix=f"Name a results file inside it, e.g. {self.path / 'results.duckdb'}.",
            )
        if self.path.is_file() and not_duckdb(self.path):  # DuckDB's header is missing
            raise _not_duckdb(path, read_only)
        try:
            self.con = duckdb.connect(str(self.path), read_only=read_only)
        except duckdb.Error as exc:
            if is_corruption(exc):
                raise damaged(path, exc, writing=not read_only) from None
            if "not a valid DuckDB database file" in str(exc):
                raise _not_duckdb(path, read_only) from None
            raise _cannot_open(path, exc, read_only) from None
        try:
            check_results_file(
                self.con,
                path,
                read_only=read_only,
                optional=[name for name, _ in RUN_COLUMNS_ADDED],
            )
        except BatchSpecError:
            self.con.close()
            raise
        self.memory_mb = 0
        if not read_only:
            try:
                # one thread (workers have the cores) and bounded memory: the buffer pool
                # would otherwise grow with the file (about 400 MB at 10^6 runs)
                self.con.execute("SET threads = 1")
                self._set_memory(WRITER_MEMORY_MB)
                # one transaction: one write to disk instead of one per statement (about
                # 60 COMMENT statements: 0.05 s instead of 0.4 s)
                self.con.begin()
                self.con.execute(create_sql())
                _upgrade(self.con)
                self.con.execute(comment_sql())
                self.con.commit()
            except duckdb.Error as exc:
                self.con.close()
                raise BatchSpecError(
                    f"the results file has tables of another layout ({exc})",
                    source=str(path),
                    fix="Write this batch to a new --output file (the old one stays readable "
                    "with 'campaign batch report').",
                ) from None

    def close(self) -> None:
        """Close the connection (checkpointing the write-ahead log)."""
        self.con.close()

    def __enter__(self) -> ResultStore:
        """``with open_results(path) as store:`` closes the file when the block ends."""
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------- batch identity
    def find_entropy(self, design_hash: str) -> int | None:
        """The seed entropy of the latest batch with this design, if any."""
        row = self.con.execute(
            "SELECT seed_entropy FROM batches WHERE design_hash = ? ORDER BY started DESC LIMIT 1",
            [design_hash],
        ).fetchone()
        return int(row[0]) if row else None

    def begin_batch(self, batch_id: str, plan: BatchPlan, entropy: int) -> None:
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
                    _typed_factors(c.cell.factors),
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
    def write_chunk(self, batch_id: str, result: ChunkResult) -> int:
        """Insert one chunk's runs and battles in one transaction; return runs written.

        Rows already present (a resumed batch) are ignored, never duplicated.

        Raises
        ------
        KeyboardInterrupt
            When Ctrl-C interrupts DuckDB during the write (its ``InterruptException``);
            the chunk is rolled back, every earlier chunk stays committed.
        """
        return self.write_chunks(batch_id, [result])

    def write_chunks(self, batch_id: str, results: list[ChunkResult]) -> int:
        """Insert the runs and battles of several chunks (as :func:`run_chunk
        <campaign.batch.worker.run_chunk>` returns them) in one transaction, streamed to
        DuckDB as two Arrow tables of the workers' buffers (``batch_id`` added by the
        ``INSERT``); return the runs written (0 for no chunks).

        Rows already present (a resumed batch) are ignored, never duplicated.

        Raises
        ------
        KeyboardInterrupt
            When Ctrl-C interrupts DuckDB during the write (its ``InterruptException``);
            every chunk of this call is rolled back, every earlier call stays committed.
        EnvironmentFailure
            If DuckDB runs out of memory even at :data:`MAX_WRITER_MEMORY_MB` (each time it
            runs out below that, the write is rolled back and retried with twice the memory).
        """
        if not results:
            return 0
        runs = pa.Table.from_batches([record_batch("runs", r.runs) for r in results])
        battles = pa.Table.from_batches([record_batch("battles", r.battles) for r in results])
        ignore = False
        while True:
            try:
                return self._insert(batch_id, runs, battles, ignore=ignore)
            except duckdb.ConstraintException:  # rolled back: some rows are stored already
                if ignore:
                    raise
                ignore = True
            except duckdb.OutOfMemoryException:  # rolled back: more room, then once more
                if self.memory_mb >= MAX_WRITER_MEMORY_MB:
                    raise EnvironmentFailure(
                        f"DuckDB ran out of memory writing results, even at {self.memory_mb:,} MB",
                        source=str(self.path),
                        fix="Free memory on this machine, or split the study into smaller "
                        "batches written to separate files.",
                    ) from None
                self._set_memory(self.memory_mb * 2)

    def _set_memory(self, megabytes: int) -> None:
        """Cap DuckDB's memory for this connection (its buffer pool and indexes)."""
        self.memory_mb = min(megabytes, MAX_WRITER_MEMORY_MB)
        self.con.execute(f"SET memory_limit = '{self.memory_mb}MB'")

    def _insert(self, batch_id: str, runs: pa.Table, battles: pa.Table, *, ignore: bool) -> int:
        """Insert the two Arrow tables (rows without ``batch_id``) as rows of ``batch_id``
        in one transaction; return the runs inserted.

        ``ignore``: skip rows whose key is stored already (``INSERT OR IGNORE``). Without it a
        plain ``INSERT`` raises ``duckdb.ConstraintException`` on such a row (the transaction
        is rolled back); :meth:`write_chunks` then writes again with ``ignore``. A plain
        ``INSERT`` is the usual case (only missing runs are run) and the cheaper one: DuckDB
        checks ``OR IGNORE`` rows with a hash table it builds for every statement (measured,
        2026-12-02: 10,000 default campaigns written 500 runs at a time took 1.1 to 1.8 s of
        the coordinator's CPU with ``OR IGNORE``, 0.8 to 1.1 s without; 100 at a time, 2.9
        to 4.6 s against 1.5 to 2.5 s).
        """
        con = self.con
        began = False
        verb = "INSERT OR IGNORE" if ignore else "INSERT"
        try:
            con.begin()
            began = True
            con.register("chunk_runs", runs)
            con.register("chunk_battles", battles)
            for table in ("runs", "battles"):
                con.execute(
                    f"{verb} INTO {table} BY NAME "
                    f"SELECT CAST(? AS VARCHAR) AS batch_id, * FROM chunk_{table}",
                    [batch_id],
                )
            try:
                con.commit()
            except duckdb.TransactionException as exc:
                if "allocate" not in str(exc) and "memory" not in str(exc).lower():
                    raise
                # out of memory while committing: DuckDB has invalidated this connection's
                # database (every committed write is in the file): open it again, then
                # the write is retried like one that ran out of memory before committing
                began = False
                self._reopen()
                raise duckdb.OutOfMemoryException(str(exc)) from None
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
        return int(runs.num_rows)

    def _reopen(self) -> None:
        """Close the invalidated connection and connect to the file again (same settings)."""
        with contextlib.suppress(duckdb.Error):
            self.con.close()
        self.con = duckdb.connect(str(self.path))
        self.con.execute("SET threads = 1")
        self._set_memory(self.memory_mb)

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
