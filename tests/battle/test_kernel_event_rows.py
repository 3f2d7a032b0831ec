"""The kernel's event rows declared once (issue 27 item 4): battle/kernel/layout.py's
``EVENT_ROWS`` names every kind's values in column order, the column numbers are made from
it, the kernel writes each value by its name (battle/kernel/rows.py, the only module that
writes event rows) and the decoder (battle/kernel/decode.py) reads each by its name. These
tests read the sources (no battle is fought): a value written or read by number, or a column
of another kind than the row's, fails them. That the decoded events are right is the
equality tests' part (tests/battle/test_engines_equal.py, ``make equal-long``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from battle.kernel import layout as L

KERNEL = Path(L.__file__).parent
#: every value's name -> its kind's name
OWNER = {name: kind for kind, widths in L.EVENT_ROWS for name, _ in widths}
#: the rows that follow a row of another kind, read with it: a bound's activated units, a
#: withdrawal check's dice
FOLLOW = {"EV_BOUND": "EV_ACT", "EV_WD": "EV_ROLL"}
#: the columns every row has
COMMON = {"E_KIND", "E_TURN", "E_BOUND"}


def _tree(module: str) -> ast.Module:
    return ast.parse((KERNEL / f"{module}.py").read_text())


def _column_names(node: ast.AST) -> set[str]:
    """The event-column names (values' and the common ones) under ``node``."""
    return {
        n.id
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and (n.id in OWNER or n.id in COMMON)
    } | {
        n.attr
        for n in ast.walk(node)
        if isinstance(n, ast.Attribute) and (n.attr in OWNER or n.attr in COMMON)
    }


def _writes(fn: ast.FunctionDef) -> list[ast.Subscript]:
    """The subscripts ``E[...]`` (or ``b.E[...]``) that ``fn`` assigns to."""
    out = []
    for node in ast.walk(fn):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            for t in node.targets:
                targets += t.elts if isinstance(t, ast.Tuple) else [t]
        elif isinstance(node, ast.AugAssign):
            targets = [node.target]
        for t in targets:
            if isinstance(t, ast.Subscript) and _is_event_buffer(t.value):
                out.append(t)
    return out


def _is_event_buffer(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "E") or (
        isinstance(node, ast.Attribute) and node.attr == "E"
    )


def _row_kinds(fn: ast.AST) -> set[str]:
    """The kinds of the rows ``fn`` takes with ``row(b, EV_...)`` (or ``row(b, L.EV_...)``)."""
    return {
        kind.id if isinstance(kind, ast.Name) else kind.attr
        for c in ast.walk(fn)
        if isinstance(c, ast.Call)
        and isinstance(c.func, ast.Name)
        and c.func.id == "row"
        and isinstance(kind := c.args[1], ast.Name | ast.Attribute)
    }


def test_the_event_columns_are_made_from_the_schema() -> None:
    """Each kind's values lie end to end from E_VALUES, in the table's order, the widest row
    is EW wide, the kinds are numbered from 1 (0: an unwritten row), and every E*_ column
    name of the layout is a value of the table."""
    for code, (kind, widths) in enumerate(L.EVENT_ROWS, 1):
        assert getattr(L, kind) == code
        at = L.E_VALUES
        for name, width in widths:
            assert getattr(L, name) == at, name
            at += width
        assert at <= L.EW
    assert max(L.E_VALUES + sum(w for _, w in ws) for _, ws in L.EVENT_ROWS) == L.EW
    prefixes = ("EP_", "EB_", "EA_", "ET_", "EH_", "EM_", "EC_", "ES_", "EF_", "EWD_", "ER_", "EE_")
    declared = {n for n in vars(L) if n.startswith(prefixes) or n.startswith("EMV_")}
    assert declared == set(OWNER)
    assert set(OWNER) >= L.EVENT_FLOATS


def test_a_name_out_of_the_tables_order_fails_at_import() -> None:
    """The import-time check: the layout with two of a hit's values swapped in their
    unpacking (the table unchanged) is refused."""
    source = (KERNEL / "layout.py").read_text()
    swapped = source.replace("    EH_D,\n    EH_BONUS,\n", "    EH_BONUS,\n    EH_D,\n", 1)
    assert swapped != source
    with pytest.raises(ImportError, match="EH_D is not in EV_HIT's place"):
        exec(compile(swapped, "layout.py", "exec"), {"__name__": "layout_swapped"})


def test_only_the_rows_module_writes_event_rows() -> None:
    """No kernel module but rows.py assigns to the event buffer or takes a row."""
    for path in sorted(KERNEL.glob("*.py")):
        if path.stem == "rows":
            continue
        tree = ast.parse(path.read_text())
        fns = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        assert not [w for fn in fns for w in _writes(fn)], path.name
        assert not _row_kinds(tree), path.name


def test_each_writer_writes_its_own_kinds_values_by_name() -> None:
    """In rows.py every column written is a name of the schema (never a number), one
    writer writes the values of one kind only, and that kind is the row it takes (or its
    ``*_mark`` partner takes: a hit's and a withdrawal check's rows are taken before the
    rows they cause)."""
    fns = {n.name: n for n in _tree("rows").body if isinstance(n, ast.FunctionDef)}
    written_kinds = {}
    for name, fn in fns.items():
        kinds: set[str] = set()
        for w in _writes(fn):
            assert isinstance(w.slice, ast.Tuple), f"{name}: {ast.unparse(w)}"
            column = w.slice.elts[1]
            names = _column_names(column)
            if names == set() and isinstance(column, ast.Name) and column.id == "k":
                continue  # row(): zeroes every value column, range(E_VALUES, EW)
            assert names, f"{name}: {ast.unparse(w)} writes a column by number"
            assert not [c for c in ast.walk(column) if isinstance(c, ast.Constant)], (
                f"{name}: {ast.unparse(w)}"
            )
            kinds |= {OWNER[n] for n in names if n in OWNER}
        assert len(kinds) <= 1, f"{name} writes values of {sorted(kinds)}"
        if kinds:
            written_kinds[name] = kinds.pop()
    # and two rows of the next bound: the initiative roll (EV_TEST), a late arrival (EV_STATE)
    assert len(written_kinds) == len(L.EVENT_ROWS) + 2
    assert set(written_kinds.values()) == {k for k, ws in L.EVENT_ROWS if ws}
    for name, kind in written_kinds.items():
        taken = _row_kinds(fns[name])
        partner = fns.get(name.removesuffix("_row") + "_mark")
        if partner is not None:
            taken |= _row_kinds(partner)
        assert taken == {kind}, f"{name} writes {kind}'s values in a row of {taken}"


def test_the_decoder_reads_each_kind_by_its_names() -> None:
    """In decode.py's ``events`` each ``kind == L.EV_...`` branch reads only that kind's
    values (and the common columns), by name; and every value the kernel writes is read
    somewhere in the decoder."""
    tree = _tree("decode")
    events = next(
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "events"
    )
    branches = 0
    for node in ast.walk(events):
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)):
            continue
        test = node.test
        if not (isinstance(test.left, ast.Name) and test.left.id == "kind"):
            continue
        kind = test.comparators[0]
        assert isinstance(kind, ast.Attribute), ast.unparse(test)
        read = set().union(*(_column_names(s) for s in node.body))
        wrong = {
            n for n in read if n in OWNER and OWNER[n] not in (kind.attr, FOLLOW.get(kind.attr))
        }
        assert not wrong, f"the {kind.attr} branch reads {sorted(wrong)}"
        branches += 1
    assert branches == len(L.EVENT_ROWS) - 2  # EV_ACT and EV_ROLL are read with their parents
    assert _column_names(tree) >= set(OWNER)


def test_a_row_read_by_the_schema() -> None:
    """``event_values`` names a row's values: a hit of R-I1's (unit 0) on unit 3."""
    row = [0.0] * L.EW
    row[L.E_KIND], row[L.E_TURN], row[L.E_BOUND] = L.EV_HIT, 2, 3
    row[L.EH_ATTACKER], row[L.EH_TARGET], row[L.EH_D], row[L.EH_DIVISOR] = 0, 3, 9, 4
    kind, values = L.event_values(row)
    assert kind == "EV_HIT"
    assert (values["E_BOUND"], values["EH_TARGET"], values["EH_D"]) == (3, 3, 9)
    assert values["EH_DIVISOR"] == 4 and len(values) == 2 + 10
    wd = [0.0] * L.EW
    wd[L.E_KIND], wd[L.EWD_OWN + 2], wd[L.EWD_ENEMY + 3] = L.EV_WD, 1, 2
    assert L.event_values(wd)[1]["EWD_OWN"] == [0, 0, 1, 0]
    assert L.event_values(wd)[1]["EWD_ENEMY"] == [0, 0, 0, 2]
    with pytest.raises(ValueError, match="not an event row"):
        L.event_values([0.0] * L.EW)
