"""Chunk results as Arrow columns: encoded in the worker, assembled by the coordinator.

A worker turns each column of its chunk into the buffers of an Arrow array (validity bitmap,
values, offsets) with numpy alone, so it never loads pyarrow (about 50 MB a process). The
coordinator wraps those buffers with :meth:`pyarrow.Array.from_buffers` — no copy, no work
per row, and no pandas: ``pyarrow.array`` on a list or a numpy array imports pandas (0.4 s
and about 60 MB in the coordinator), ``from_buffers`` does not. The Arrow type of every
column comes from its DuckDB type in :data:`campaign.batch.schema.TABLES`.

Layouts follow the Arrow columnar format: little-endian values, validity bitmaps with the
least significant bit first, strings as UTF-8 bytes with ``int32`` offsets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np

from campaign.batch.schema import TABLES

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["Column", "encode_column", "record_batch"]

#: numpy dtype of each DuckDB integer type (the Arrow type of the same width)
_INT_DTYPES: dict[str, str] = {"INTEGER": "<i4", "BIGINT": "<i8"}
_KINDS = frozenset({*_INT_DTYPES, "VARCHAR", "BOOLEAN"})


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a chunk as Arrow buffers (small and picklable).

    Parameters
    ----------
    sql_type : str
        The column's DuckDB type: ``INTEGER``, ``BIGINT``, ``BOOLEAN`` or ``VARCHAR``.
    length : int
        Rows.
    validity : bytes or None
        Arrow validity bitmap (bit i set: row i is not NULL), None when no row is NULL.
    data : bytes
        Values: integers little-endian, booleans as a bitmap, strings as UTF-8 bytes.
    offsets : bytes or None
        ``VARCHAR`` only: ``length + 1`` little-endian ``int32`` offsets into ``data``.
    """

    sql_type: str
    length: int
    validity: bytes | None
    data: bytes
    offsets: bytes | None = None


def _bitmap(bits: Sequence[bool] | Sequence[int]) -> bytes:
    return np.packbits(np.asarray(bits, dtype=bool), bitorder="little").tobytes()


def encode_column(sql_type: str, values: Sequence[object]) -> Column:
    """Encode a column's values (None for NULL) as the buffers of an Arrow array.

    Parameters
    ----------
    sql_type : str
        ``INTEGER`` (int32), ``BIGINT`` (int64), ``BOOLEAN`` or ``VARCHAR``.
    values : sequence
        Python ints, bools or str, or None.

    Returns
    -------
    Column

    Raises
    ------
    ValueError
        If ``sql_type`` is none of the four.
    OverflowError
        If an integer does not fit its type (numpy refuses it rather than wrapping).

    Examples
    --------
    >>> c = encode_column("VARCHAR", ["red", None, "blue"])
    >>> c.data, np.frombuffer(c.offsets, "<i4").tolist(), c.validity
    (b'redblue', [0, 3, 3, 7], b'\\x05')
    """
    if sql_type not in _KINDS:
        raise ValueError(f"no Arrow encoding for the DuckDB type {sql_type!r}")
    n = len(values)
    nulls = [v is None for v in values]
    validity = _bitmap([not x for x in nulls]) if any(nulls) else None
    if sql_type == "VARCHAR":
        encoded = [b"" if v is None else str(v).encode() for v in values]
        offsets = np.zeros(n + 1, dtype="<i4")
        np.cumsum([len(b) for b in encoded], out=offsets[1:])
        return Column(sql_type, n, validity, b"".join(encoded), offsets.tobytes())
    filled = cast("list[int]", [0 if v is None else v for v in values])
    if sql_type == "BOOLEAN":
        return Column(sql_type, n, validity, _bitmap(filled))
    data = np.array(filled, dtype=_INT_DTYPES[sql_type])  # OverflowError if one does not fit
    return Column(sql_type, n, validity, data.tobytes())


def _arrow_type(sql_type: str) -> pa.DataType:
    import pyarrow as pa

    return {
        "INTEGER": pa.int32(),
        "BIGINT": pa.int64(),
        "BOOLEAN": pa.bool_(),
        "VARCHAR": pa.string(),
    }[sql_type]


def _to_arrow(column: Column) -> pa.Array:
    import pyarrow as pa

    validity = None if column.validity is None else pa.py_buffer(column.validity)
    buffers = [validity]
    if column.offsets is not None:
        buffers.append(pa.py_buffer(column.offsets))
    buffers.append(pa.py_buffer(column.data))
    return pa.Array.from_buffers(_arrow_type(column.sql_type), column.length, buffers)


def table_columns(table: str, skip: tuple[str, ...] = ("batch_id",)) -> tuple[tuple[str, str], ...]:
    """``(column, DuckDB type)`` of ``table`` in table order, without the columns in ``skip``."""
    return tuple((name, kind) for name, kind, _ in TABLES[table] if name not in skip)


def record_batch(table: str, columns: dict[str, Column]) -> pa.RecordBatch:
    """The Arrow record batch of a chunk's rows of ``table`` (``runs`` or ``battles``), in
    table order, without ``batch_id`` (the writer adds it).

    Raises
    ------
    ValueError
        If a column is missing, has another type than the schema's, or the lengths differ.
    """
    import pyarrow as pa

    names = table_columns(table)
    arrays = []
    for name, kind in names:
        column = columns.get(name)
        if column is None or column.sql_type != kind:
            found = "missing" if column is None else column.sql_type
            raise ValueError(f"{table}.{name}: expected a {kind} column, got {found}")
        arrays.append(_to_arrow(column))
    if len({a.__len__() for a in arrays}) > 1:
        raise ValueError(f"{table}: columns of different lengths")
    return pa.RecordBatch.from_arrays(arrays, names=[name for name, _ in names])
