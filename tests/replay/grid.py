"""A 500-junction grid map (25 x 20) as YAML text, for the replay's size and speed tests."""

from __future__ import annotations

from pathlib import Path


def grid_map(folder: Path, columns: int = 25, rows: int = 20) -> Path:
    """Write a grid of ``columns * rows`` junctions 10 km apart, every road 2 or 3 hours
    (one in seven rough), an objective every sixth junction; bases are chosen by the loader
    (automatic sides, RULES.md §8.7). Returns the file's path."""
    lines = ["name: Grid of 500 junctions", "junctions:"]
    for r in range(rows):
        for c in range(columns):
            n = r * columns + c
            extra = ", objective: true, value: 1" if n % 6 == 3 else ""
            lines.append(
                f"  - {{id: g{r}_{c}, name: 'G{r}-{c}', pos: [{c * 10}, {r * 10}]{extra}}}"
            )
    lines.append("roads:")
    k = 0
    for r in range(rows):
        for c in range(columns):
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 < rows and c2 < columns:
                    k += 1
                    kind = ", kind: rough" if k % 7 == 0 else ""
                    lines.append(f"  - [g{r}_{c}, g{r2}_{c2}, {{hours: {2 + k % 2}{kind}}}]")
    path = folder / "grid500.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
