"""An analysis's tables in a batch's results file (``tournament``, ``sensitivity``).

:func:`replace_batch_rows` writes each table's rows of one batch, replacing that batch's
earlier rows, in one transaction: the analysis of a resumed or re-run batch leaves one copy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import duckdb

__all__ = ["replace_batch_rows"]


def replace_batch_rows(
    path: Path, batch_id: str, tables: Mapping[str, tuple[str, Sequence[Sequence[Any]]]]
) -> None:
    """Store ``tables`` (table name -> (its SQL column definitions, its rows)) in the DuckDB
    results file ``path``: each table is created when missing, and the rows of ``batch_id``
    (every table has a ``batch_id`` column) are replaced by the given rows, whole tables in
    one transaction (nothing half-written)."""
    con = duckdb.connect(str(path))
    try:
        for name, (columns, _) in tables.items():
            con.execute(f"CREATE TABLE IF NOT EXISTS {name} ({columns})")
        con.begin()
        for name in tables:
            con.execute(f"DELETE FROM {name} WHERE batch_id = ?", [batch_id])
        for name, (_, rows) in tables.items():
            for row in rows:
                marks = ", ".join("?" * len(row))
                con.execute(f"INSERT INTO {name} VALUES ({marks})", list(row))
        con.commit()
    finally:
        con.close()
