"""Plain-text and Markdown layouts of the campaign diary (see narrative.py)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

from campaign.printers.narrative import Entry

__all__ = ["markdown_lines", "text_lines"]


#: Terminal width the text tables keep to (columns).
WIDTH = 80


def _table_text(rows: list[tuple[str, ...]], indent: str, width: int = WIDTH) -> list[str]:
    """Columns two spaces apart within ``width``: the widest column wraps at spaces (ids and
    numbers are never cut; a row may take two lines)."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    over = len(indent) + sum(widths) + 2 * (len(widths) - 1) - width
    cells: list[list[list[str]]] = [[[c] for c in r] for r in rows]
    if over > 0:
        wide = max(range(len(widths)), key=lambda i: widths[i])
        keep = max(widths[wide] - over, 12)
        for row in cells:
            row[wide] = textwrap.wrap(
                row[wide][0], keep, break_long_words=False, break_on_hyphens=False
            ) or [""]
        widths[wide] = max(len(line) for row in cells for line in row[wide])
    out = []
    for row in cells:
        for k in range(max(len(c) for c in row)):
            parts = [
                (c[k] if k < len(c) else "").ljust(w) for c, w in zip(row, widths, strict=True)
            ]
            out.append(indent + "  ".join(parts).rstrip())
    return out


def text_lines(entries: list[Entry]) -> Iterator[tuple[str, str]]:
    """``(line, style)`` pairs of the plain-text diary; style is a Rich style or ''."""
    for e in entries:
        if e.kind == "header":
            yield e.text, "bold"
            for d in e.details:
                yield "  " + d, "dim"
        elif e.kind == "day":
            yield "", ""
            yield f"== {e.text} ==", "bold underline"
        elif e.kind == "end":
            yield "", ""
            yield e.text, e.style
            for d in e.details:
                yield "  " + d, ""
            yield "", ""
            for line in _table_text(e.table, "  "):
                yield line, ""
        else:
            time = f"{e.time:>5}  " if e.time else " " * 7
            yield time + e.text, e.style
            for d in e.details:
                yield " " * 9 + d, ""
            if e.log and e.table:
                for line in _table_text(e.table, " " * 9):
                    yield line, "dim"
                for line in e.log:
                    yield " " * 9 + "| " + line, "dim"


def _md_table(rows: list[tuple[str, ...]]) -> list[str]:
    if not rows:
        return []
    head, *body = rows
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in body]
    return out


def _md_section(heading: str, e: Entry) -> Iterator[str]:
    """A battle's or the end's Markdown section: its heading, detail lines and table."""
    yield ""
    yield heading
    yield ""
    for d in e.details:
        yield f"- {d}"
    yield ""
    yield from _md_table(e.table)


def markdown_lines(entries: list[Entry]) -> Iterator[str]:
    """Lines of a Markdown diary (headings per day, tables for battles and the end)."""
    for e in entries:
        if e.kind == "header":
            yield f"# {e.text}"
            yield ""
            for d in e.details:
                yield f"- {d}"
        elif e.kind == "day":
            yield ""
            yield f"## {e.text}"
            yield ""
        elif e.kind == "battle":
            yield from _md_section(f"### {e.time} {e.text}", e)
            if e.log:
                yield ""
                yield "<details><summary>Bound-by-bound log</summary>"
                yield ""
                yield "```text"
                yield from e.log
                yield "```"
                yield ""
                yield "</details>"
            yield ""
        elif e.kind == "end":
            yield from _md_section(f"## {e.text}", e)
        else:
            text = f"**{e.text}**" if e.kind == "night" else e.text
            yield f"- `{e.time}` {text}" if e.time else f"- {text}"
