"""Is this DuckDB file a results file of ours, of a layout we know, and undamaged?

Checked by :class:`campaign.batch.store.ResultStore` before it reads or writes anything, so
a report never shows a DuckDB traceback and a batch never writes into a file that is
another program's, of a newer layout, or damaged (issue 32 item 6). Every refusal names the
file, what is wrong and the fix, and leaves the file as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import duckdb

from campaign.batch.schema import TABLES
from campaign.errors import BatchSpecError

__all__ = ["check_results_file", "damaged", "is_corruption", "not_duckdb"]

#: Columns an older file may lack (the store adds them when it opens the file for writing).
_ADDED_LATER = {"reason_text"}


#: DuckDB's magic bytes, at :data:`_MAGIC_AT` in every database file's first block
_MAGIC = b"DUCK"
_MAGIC_AT = 8


def not_duckdb(path: str | Path) -> bool:
    """Whether the existing file ``path`` is not a DuckDB database file: its header lacks
    DuckDB's magic bytes (an empty file has none either). A file that cannot be read is not
    judged here (False): opening it reports why."""
    try:
        with Path(path).open("rb") as handle:
            head = handle.read(_MAGIC_AT + len(_MAGIC))
    except OSError:
        return False
    return head[_MAGIC_AT:] != _MAGIC


def is_corruption(exc: BaseException) -> bool:
    """Whether a DuckDB error says the file's bytes are damaged (a checksum, a bad block)."""
    text = str(exc)
    return "Corrupt database file" in text or "checksum" in text.lower()


def damaged(path: str | Path, exc: BaseException, *, writing: bool) -> BatchSpecError:
    """The refusal of a damaged results file (``exc``: DuckDB's own words, one line)."""
    detail = " ".join(str(exc).split())[:200]
    return BatchSpecError(
        f"the results file is damaged ({detail})",
        source=str(path),
        fix="Restore it from a copy, or run the batch again into a new file "
        "(--output NEW.duckdb)"
        + ("; nothing was written to it." if writing else "; the file is left as it is."),
    )


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    return [r[0] for r in con.execute(f"SELECT * FROM {table} LIMIT 0").description]


def _check_ours(
    con: duckdb.DuckDBPyConnection, path: str | Path, names: set[str], writing: bool
) -> None:
    """Refuse a file whose tables are not a results file's: a results file has a runs
    table keyed by batch, cell and run; the other tables of an older file may be missing
    (a batch creates them when it opens the file)."""
    runs_key = {"batch_id", "cell", "run"}
    if "runs" not in names or not runs_key <= set(_columns(con, "runs")):
        found = ", ".join(sorted(names)) or "no tables"
        raise BatchSpecError(
            f"not a results file of campaign batch: it holds {found}; a results file "
            f"has the tables {', '.join(TABLES)}",
            source=str(path),
            fix="Give the .duckdb file a batch wrote"
            + (
                ", or a new file name for this batch; nothing was written to it."
                if writing
                else "."
            ),
        )


def _check_columns(
    con: duckdb.DuckDBPyConnection, path: str | Path, names: set[str], skip: set[str]
) -> None:
    """Refuse a results file of another schema version: a known table with a column
    missing (but those in ``skip``) or unknown."""
    for table, columns in TABLES.items():
        if table not in names:
            continue
        have = _columns(con, table)
        known = {c[0] for c in columns}
        missing = [c for c in known if c not in have and c not in skip]
        unknown = [c for c in have if c not in known]
        if missing or unknown:
            parts = (
                f"{table} lacks {', '.join(sorted(missing))}" if missing else "",
                f"{table} has unknown columns {', '.join(unknown)}" if unknown else "",
            )
            what = "; ".join(part for part in parts if part)
            raise BatchSpecError(
                f"the results file is of another schema version ({what})",
                source=str(path),
                fix="Read it with the version of campaign that wrote it, or write this "
                "batch to a new --output file; the file is left as it is.",
            )


def check_results_file(
    con: duckdb.DuckDBPyConnection,
    path: str | Path,
    *,
    read_only: bool,
    optional: Iterable[str] = (),
) -> None:
    """Refuse a file that is not an undamaged results file of a layout this version knows.

    An empty DuckDB file passes when opened for writing (the batch creates its tables).
    ``optional`` names columns of ``runs`` an older layout lacks (added on writing).

    Raises
    ------
    BatchSpecError
        A foreign file (other tables, or some of ours missing), another schema version
        (columns missing or unknown), or a damaged one (a block whose checksum fails when
        every row is read).
    """
    writing = not read_only
    try:
        names = {
            r[0]
            for r in con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'"
            ).fetchall()
        }
        if not names and writing:
            return
        _check_ours(con, path, names, writing)
        _check_columns(con, path, names, _ADDED_LATER | set(optional))
        # every row read once: a damaged block fails its checksum here
        for table in [t for t in TABLES if t in names]:
            con.execute(f"SELECT count(*), bit_xor(hash(t)) FROM {table} AS t").fetchone()
    except duckdb.Error as exc:
        if is_corruption(exc):
            raise damaged(path, exc, writing=writing) from None
        raise BatchSpecError(
            f"cannot read the results file ({' '.join(str(exc).split())[:200]})",
            source=str(path),
            fix="Give the .duckdb file a batch wrote; the file is left as it is.",
        ) from None
