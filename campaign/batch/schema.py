"""The results schema as a contract: every table and column with its type and meaning.

:data:`TABLES` is the one description of the four tables of a results file; the DuckDB
``CREATE TABLE`` statements and the ``COMMENT ON`` statements are made from it, and the
README's "Results tables" section lists the same columns (a test checks both). Times are
minutes of campaign time since 06:00 on day 1, nights included (day 2 begins at 1440).
Add a column here (one line), in the table's order, and in the writer's columns.
"""

from __future__ import annotations

from battle.events import END_REASONS
from campaign.batch.reasons import RUN_REASONS

__all__ = ["SCHEMA_VERSION", "TABLES", "TABLE_COMMENTS", "comment_sql", "create_sql"]

#: Version of the layout; 2 added reason codes (``runs.reason``) with ``reason_text``.
SCHEMA_VERSION = 2

_T = "minutes of campaign time since 06:00 on day 1, nights included (day 2 starts at 1440)"

TABLE_COMMENTS: dict[str, str] = {
    "batches": "One row per batch (a spec run over its grid); several batches may share a file.",
    "cells": "One row per cell of a batch: one combination of map, rules, overrides, doctrines.",
    "runs": "One row per campaign; run i of every cell of a batch uses the same seed.",
    "battles": "One row per battle of every stored campaign.",
}

#: table -> ``(column, DuckDB type, meaning)`` in table order.
TABLES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "batches": (
        ("batch_id", "VARCHAR", "batch id: hash of the design and the seed entropy"),
        ("name", "VARCHAR", "the spec's name"),
        ("spec_json", "VARCHAR", "the batch spec as JSON"),
        ("design_hash", "VARCHAR", "hash of the grid (maps, rules, overrides, doctrines)"),
        ("seed_entropy", "VARCHAR", "root seed entropy as decimal text (may exceed 64 bits)"),
        ("runs_per_cell", "BIGINT", "campaigns asked for per cell"),
        ("n_cells", "INTEGER", "number of cells"),
        ("code_version", "VARCHAR", "solo-campaign version + code hash"),
        ("numpy_version", "VARCHAR", "numpy version (generators depend on it)"),
        ("versions_json", "VARCHAR", "every library version, JSON object"),
        ("rules_hashes", "VARCHAR", "JSON list of each cell's rules hash, by cell number"),
        ("started", "TIMESTAMP", "when the batch was first started (UTC)"),
        ("finished", "TIMESTAMP", "when every run was in (UTC); NULL while unfinished"),
        ("sessions", "INTEGER", "how many times the command ran (1 + resumes)"),
    ),
    "cells": (
        ("batch_id", "VARCHAR", "the batch (batches.batch_id)"),
        ("cell", "INTEGER", "cell number from 0"),
        ("label", "VARCHAR", "the factors that vary in the batch, as key=value text"),
        ("map", "VARCHAR", "map file as given in the spec"),
        ("map_sha", "VARCHAR", "SHA-256 of the map file's bytes"),
        ("variants", "VARCHAR", "rules variants joined by +, or default"),
        ("overrides_json", "VARCHAR", "dotted-key rules overrides, JSON object"),
        ("red_doctrine", "VARCHAR", "Red's strategy doctrine (RULES.md §8.8)"),
        ("blue_doctrine", "VARCHAR", "Blue's strategy doctrine (RULES.md §8.8)"),
        ("rules_label", "VARCHAR", "short label of the rules (variants and overrides)"),
        ("rules_hash", "VARCHAR", "hash of the rules with variants and overrides applied"),
        (
            "factors_json",
            "VARCHAR",
            "typed JSON object of the varying factors: numbers as numbers, names as text "
            "(files of schema 1 held every level as text)",
        ),
    ),
    "runs": (
        ("batch_id", "VARCHAR", "the batch (batches.batch_id)"),
        ("cell", "INTEGER", "the cell (cells.cell)"),
        ("run", "BIGINT", "run index from 0; run i of every cell shares its seed"),
        ("seed", "BIGINT", "the campaign's seed"),
        ("winner", "VARCHAR", "red, blue, or NULL for a draw"),
        (
            "reason",
            "VARCHAR",
            "why it ended, a code: " + ", ".join([*(code for code, _, _ in RUN_REASONS), "other"]),
        ),
        ("end_minutes", "INTEGER", "when it ended, " + _T),
        ("days", "INTEGER", "campaign days begun"),
        ("battles", "INTEGER", "battles fought"),
        ("red_losses", "INTEGER", "actual hits Red took in all its battles (boxes lost)"),
        ("blue_losses", "INTEGER", "actual hits Blue took in all its battles (boxes lost)"),
        ("red_divisions_left", "INTEGER", "Red divisions alive at the end"),
        ("blue_divisions_left", "INTEGER", "Blue divisions alive at the end"),
        ("red_objective_value", "INTEGER", "objective value Red held at the end (§7.2)"),
        ("blue_objective_value", "INTEGER", "objective value Blue held at the end (§7.2)"),
        ("reason_text", "VARCHAR", "why it ended, as the campaign log says it"),
        ("rough_road_tests", "INTEGER", "rough-road tests taken (RULES.md §8.2)"),
        ("rough_road_failures", "INTEGER", "rough-road tests failed (§8.2)"),
        ("battle_places", "INTEGER", "distinct junctions and roads where battles were fought"),
        ("marches", "INTEGER", "marches begun, fall backs and returns included"),
        ("flank_marches", "INTEGER", "flank marches the strategy ordered (§8.8)"),
        ("base_fell", "VARCHAR", "side whose base the enemy held alone at nightfall, or NULL"),
        ("base_fell_day", "INTEGER", "campaign day the base fell (§8.7), or NULL"),
    ),
    "battles": (
        ("batch_id", "VARCHAR", "the batch (batches.batch_id)"),
        ("cell", "INTEGER", "the cell (cells.cell)"),
        ("run", "BIGINT", "the run (runs.run)"),
        ("battle", "INTEGER", "battle number within the campaign, from 1"),
        ("t", "INTEGER", "when the battle began, " + _T),
        ("day", "INTEGER", "campaign day of the battle, from 1"),
        ("place", "VARCHAR", "junction id, or a~b for a battle on the road between a and b"),
        ("road", "BOOLEAN", "fought on a road (a meeting, RULES.md §8.4)"),
        ("attacker", "VARCHAR", "red or blue: the side that moved in (§6.9)"),
        ("winner", "VARCHAR", "red, blue, or NULL for a draw"),
        (
            "reason",
            "VARCHAR",
            "why it ended, a code: " + ", ".join(END_REASONS),
        ),
        ("bounds", "INTEGER", "bounds fought (15 minutes each)"),
        ("red_divisions", "INTEGER", "Red divisions in the battle"),
        ("blue_divisions", "INTEGER", "Blue divisions in the battle"),
        ("red_units", "INTEGER", "Red units in the battle"),
        ("blue_units", "INTEGER", "Blue units in the battle"),
        ("red_hits", "INTEGER", "actual hits Red took"),
        ("blue_hits", "INTEGER", "actual hits Blue took"),
        ("red_cards_lost", "INTEGER", "movement cards Red lost (§3)"),
        ("blue_cards_lost", "INTEGER", "movement cards Blue lost (§3)"),
        ("reason_text", "VARCHAR", "why it ended, in words"),
    ),
}

_KEYS = {
    "batches": "batch_id",
    "cells": "batch_id, cell",
    "runs": "batch_id, cell, run",
    "battles": "batch_id, cell, run, battle",
}


def create_sql() -> str:
    """``CREATE TABLE IF NOT EXISTS`` statements of every table."""
    out = []
    for table, columns in TABLES.items():
        cols = ",\n    ".join(f"{name} {kind}" for name, kind, _ in columns)
        out.append(
            f"CREATE TABLE IF NOT EXISTS {table} (\n    {cols},\n    PRIMARY KEY ({_KEYS[table]}));"
        )
    return "\n".join(out)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def comment_sql() -> str:
    """``COMMENT ON`` statements: every table and column gets its meaning."""
    out = [f"COMMENT ON TABLE {t} IS {_quote(c)};" for t, c in TABLE_COMMENTS.items()]
    for table, columns in TABLES.items():
        for name, _, meaning in columns:
            out.append(f"COMMENT ON COLUMN {table}.{name} IS {_quote(meaning)};")
    return "\n".join(out)
