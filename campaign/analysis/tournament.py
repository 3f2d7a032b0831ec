"""Doctrine tournaments: every ordered pair of strategy doctrines on every map (RULES.md §8.8).

A tournament is an ordinary batch (:mod:`campaign.batch`): one cell per map and ordered pair
``red:blue`` (so each pairing is played from both sides), run *i* of every cell with the same
seed (common random numbers), stored in DuckDB, resumable, on local processes or Dask. On top
of the batch's ``runs`` rows it fits Bradley–Terry ratings with a side advantage per map
(:mod:`campaign.analysis.rating`) and writes three more tables to the results file:

``tournament_ratings``
    ``batch_id, doctrine, rank, elo, elo_low, elo_high, score, games`` — Elo points (0 = the
    average doctrine) with a 95 % bootstrap interval; ``score`` is the fraction of points won
    (a draw is ½).
``tournament_sides``
    ``batch_id, map, red_elo, red_elo_low, red_elo_high`` — each map's advantage to Red.
``tournament_head_to_head``
    ``batch_id, doctrine, opponent, map, games, wins, draws, losses, score`` — per map and
    over all maps (``map = '*'``), the doctrine's results against the opponent from both sides.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import numpy as np

from campaign.analysis.rating import Ratings, rate
from campaign.analysis.stored import replace_batch_rows
from campaign.errors import BatchSpecError

__all__ = [
    "MAX_DOCTRINES",
    "MAX_TOURNAMENT_RUNS",
    "HeadToHead",
    "TournamentResult",
    "analyse_tournament",
    "check_doctrines",
    "tournament_spec",
    "write_tables",
]

#: at most this many doctrines (12 give 132 ordered pairs per map)
MAX_DOCTRINES = 12
#: at most this many campaigns in one tournament (pairs × maps × runs), checked before work
MAX_TOURNAMENT_RUNS = 5_000_000
#: bootstrap resamples of the rating intervals
BOOTSTRAP = 400


def check_doctrines(names: list[str], known: list[str]) -> list[str]:
    """The doctrines of a tournament, checked: known, distinct, at least two.

    Raises
    ------
    BatchSpecError
        Naming ``--doctrines`` and the doctrines that exist.
    """
    names = [n.strip() for n in names if n.strip()]
    fix = f"Give two or more of: {', '.join(sorted(known))}, e.g. --doctrines aggressive,cautious."
    for name in names:
        if name not in known:
            raise BatchSpecError(f"no strategy doctrine named {name!r}", key="--doctrines", fix=fix)
    if len(set(names)) != len(names):
        raise BatchSpecError("a doctrine is named twice", key="--doctrines", fix=fix)
    if len(names) < 2:
        raise BatchSpecError("a tournament needs two doctrines or more", key="--doctrines", fix=fix)
    if len(names) > MAX_DOCTRINES:
        raise BatchSpecError(
            f"{len(names)} doctrines (at most {MAX_DOCTRINES})",
            key="--doctrines",
            fix="Split the field into smaller tournaments.",
        )
    return names


def tournament_spec(
    doctrines: list[str], maps: list[str], runs: int, seed: int | None, **fields: Any
) -> Any:
    """The batch spec of a tournament: every ordered pair ``a:b`` (a ≠ b) on every map.

    Raises
    ------
    BatchSpecError
        If the tournament would exceed :data:`MAX_TOURNAMENT_RUNS` campaigns, or ``runs`` < 1.
    """
    from campaign.batch.spec import validate_spec

    pairs = [f"{a}:{b}" for a in doctrines for b in doctrines if a != b]
    if runs < 1:
        raise BatchSpecError(f"{runs} runs", key="--runs", fix="Give 1 run per pairing or more.")
    total = len(pairs) * len(maps) * runs
    if total > MAX_TOURNAMENT_RUNS:
        raise BatchSpecError(
            f"{len(pairs)} pairings × {len(maps)} map(s) × {runs} runs = {total:,} campaigns "
            f"(at most {MAX_TOURNAMENT_RUNS:,})",
            key="--runs",
            fix="Lower --runs or play fewer doctrines or maps.",
        )
    data = {"name": "tournament", "maps": maps, "doctrines": pairs, "runs": runs, "seed": seed}
    data.update({k: v for k, v in fields.items() if v is not None})
    flags = {"maps": "--maps", "runs": "--runs", "seed": "--seed"}
    return validate_spec(data, "flags", flags, "campaign tournament")


@dataclass(frozen=True)
class HeadToHead:
    """One doctrine's results against one opponent on one map (``*`` = all), both sides."""

    doctrine: str
    opponent: str
    map: str
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        """Points won per game (a draw is ½)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


@dataclass(frozen=True)
class TournamentResult:
    """Ratings, side advantages and the head-to-head table of one tournament batch."""

    batch_id: str
    runs: int
    ratings: Ratings
    head_to_head: list[HeadToHead]
    scores: dict[str, tuple[float, int]]

    def ranked(self) -> list[tuple[int, str, float, float, float]]:
        """``(rank, doctrine, elo, low, high)`` best first (ties by name)."""
        r = self.ratings
        order = sorted(range(len(r.players)), key=lambda i: (-r.elo[i], r.players[i]))
        return [
            (rank, r.players[i], r.elo[i], r.low[i], r.high[i])
            for rank, i in enumerate(order, start=1)
        ]

    def document(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        r = self.ratings
        return {
            "batch_id": self.batch_id,
            "runs_per_pairing": self.runs,
            "model": "Bradley–Terry with a Red advantage per map; draws score 1/2; "
            f"95% percentile intervals from {r.bootstrap} bootstrap resamples of seeds",
            "ratings": [
                {
                    "rank": rank,
                    "doctrine": name,
                    "elo": elo,
                    "elo_95": [lo, hi],
                    "score": self.scores[name][0],
                    "games": self.scores[name][1],
                }
                for rank, name, elo, lo, hi in self.ranked()
            ],
            "red_advantage_by_map": [
                {"map": m, "elo": e, "elo_95": [lo, hi]}
                for m, e, lo, hi in zip(r.sides, r.side_elo, r.side_low, r.side_high, strict=True)
            ],
            "head_to_head": [
                {
                    "doctrine": h.doctrine,
                    "opponent": h.opponent,
                    "map": h.map,
                    "games": h.games,
                    "wins": h.wins,
                    "draws": h.draws,
                    "losses": h.losses,
                    "score": h.score,
                }
                for h in self.head_to_head
            ],
        }


def analyse_tournament(
    con: duckdb.DuckDBPyConnection,
    batch_id: str,
    entropy: int,
    bootstrap: int = BOOTSTRAP,
) -> TournamentResult:
    """Fit the ratings of a tournament batch and tabulate its head-to-head results.

    Uses only the seeds every cell has finished (a partly run batch is rated on its common
    runs). The bootstrap generator is spawned from the batch's seed entropy, so the intervals
    are the same for the same seed.

    Raises
    ------
    BatchSpecError
        If the batch has no run common to all its cells.
    """
    cells = con.execute(
        "SELECT cell, map, red_doctrine, blue_doctrine FROM cells WHERE batch_id = ? ORDER BY cell",
        [batch_id],
    ).fetchall()
    common = con.execute(
        "SELECT run FROM runs WHERE batch_id = ? GROUP BY run HAVING count(*) = ? ORDER BY run",
        [batch_id, len(cells)],
    ).fetchall()
    runs = [r for (r,) in common]
    if not runs:
        raise BatchSpecError(
            "no run is finished in every pairing yet",
            source=batch_id,
            fix="Run the tournament (it resumes) until every pairing has runs.",
        )
    scores, results = _scores(con, batch_id, len(cells), runs)
    players = sorted({c[2] for c in cells} | {c[3] for c in cells})
    maps = sorted({c[1] for c in cells})
    red = np.array([players.index(c[2]) for c in cells])
    blue = np.array([players.index(c[3]) for c in cells])
    side = np.array([maps.index(c[1]) for c in cells])
    rng = np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(0xB7,)))
    ratings = rate(players, maps, red, blue, side, scores, rng, bootstrap)
    h2h = _head_to_head(cells, results)
    totals = {}
    for p in players:
        rows = [h for h in h2h if h.doctrine == p and h.map == "*"]
        games = sum(h.games for h in rows)
        points = sum(h.wins + 0.5 * h.draws for h in rows)
        totals[p] = (points / games if games else 0.0, games)
    return TournamentResult(batch_id, len(runs), ratings, h2h, totals)


def _scores(
    con: duckdb.DuckDBPyConnection, batch_id: str, n_cells: int, runs: list[int]
) -> tuple[np.ndarray, dict[int, list[int]]]:
    """Red's score (1 a win, 0.5 a draw, 0 a loss) by cell and common run, and each cell's
    (red wins, draws, blue wins) over those runs."""
    index = {r: k for k, r in enumerate(runs)}
    scores = np.zeros((n_cells, len(runs)))
    results: dict[int, list[int]] = {}
    cur = con.execute(
        "SELECT cell, run, winner FROM runs WHERE batch_id = ? ORDER BY cell, run", [batch_id]
    )
    for cell, run, winner in cur.fetchall():
        if run not in index:
            continue
        s = 1.0 if winner == "red" else 0.0 if winner == "blue" else 0.5
        scores[cell, index[run]] = s
        w = results.setdefault(cell, [0, 0, 0])
        w[0 if winner == "red" else 2 if winner == "blue" else 1] += 1
    return scores, results


def _head_to_head(
    cells: list[tuple[int, str, str, str]], results: dict[int, list[int]]
) -> list[HeadToHead]:
    """Each doctrine's record against each opponent, from both sides, by map and over all
    maps (``*``)."""
    table: dict[tuple[str, str, str], list[int]] = {}
    for cell, map_name, rd, bd in cells:
        rw, dr, bw = results.get(cell, [0, 0, 0])
        for m in (map_name, "*"):
            a = table.setdefault((rd, bd, m), [0, 0, 0])
            a[0] += rw
            a[1] += dr
            a[2] += bw
            b = table.setdefault((bd, rd, m), [0, 0, 0])
            b[0] += bw
            b[1] += dr
            b[2] += rw
    return [HeadToHead(d, o, m, sum(v), v[0], v[1], v[2]) for (d, o, m), v in sorted(table.items())]


def write_tables(path: Path, result: TournamentResult) -> None:
    """Store the ratings, side advantages and head-to-head table in the results file
    (replacing this batch's earlier rows)."""
    r = result.ratings
    ratings = [
        [result.batch_id, name, rank, elo, lo, hi, *result.scores[name]]
        for rank, name, elo, lo, hi in result.ranked()
    ]
    sides = [
        [result.batch_id, m, e, lo, hi]
        for m, e, lo, hi in zip(r.sides, r.side_elo, r.side_low, r.side_high, strict=True)
    ]
    head_to_head = [
        [
            result.batch_id,
            h.doctrine,
            h.opponent,
            h.map,
            h.games,
            h.wins,
            h.draws,
            h.losses,
            h.score,
        ]
        for h in result.head_to_head
    ]
    replace_batch_rows(
        path,
        result.batch_id,
        {
            "tournament_ratings": (
                "batch_id VARCHAR, doctrine VARCHAR, rank INTEGER, elo DOUBLE, elo_low DOUBLE, "
                "elo_high DOUBLE, score DOUBLE, games INTEGER",
                ratings,
            ),
            "tournament_sides": (
                "batch_id VARCHAR, map VARCHAR, red_elo DOUBLE, red_elo_low DOUBLE, "
                "red_elo_high DOUBLE",
                sides,
            ),
            "tournament_head_to_head": (
                "batch_id VARCHAR, doctrine VARCHAR, opponent VARCHAR, map VARCHAR, "
                "games INTEGER, wins INTEGER, draws INTEGER, losses INTEGER, score DOUBLE",
                head_to_head,
            ),
        },
    )
