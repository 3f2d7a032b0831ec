"""Bradley–Terry ratings with a side advantage per map, fitted by maximum likelihood (scipy).

Model (RULES.md §8.8 doctrines; Bradley & Terry 1952; Agresti, *Categorical Data Analysis*,
§11.6 for the home advantage): in a campaign on map *m* with Red's doctrine *i* against Blue's
doctrine *j*, Red's expected score is ``σ(θ_i − θ_j + η_m)``, where σ is the logistic function,
θ the doctrine strengths (summing to zero) and η_m the map's advantage to Red. A win scores 1,
a draw ½, a loss 0 (the chess convention), so draws count as half a win for each side.

Intervals come from a **cluster bootstrap over seeds**: a tournament plays every pairing with
the same seeds (common random numbers), so games that share a seed are correlated and the
inverse Fisher information, which assumes independent games, would misstate the spread.
Resampling whole seeds — every game of seed *r* together — keeps that correlation; the
percentile interval of the refitted strengths is reported (Efron & Tibshirani 1993, §13).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit

__all__ = ["ELO_PER_LOGIT", "Ratings", "fit_bradley_terry", "rate"]

#: Elo points per unit of logit strength (400 / ln 10): a gap of 400 Elo is 10:1 odds
ELO_PER_LOGIT = 400.0 / math.log(10.0)
#: ridge penalty on the strengths: keeps them finite when one doctrine wins every game
RIDGE = 1e-3


def fit_bradley_terry(
    red: np.ndarray,
    blue: np.ndarray,
    side: np.ndarray,
    score: np.ndarray,
    games: np.ndarray,
    n_players: int,
    n_sides: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Maximum-likelihood strengths θ (sum zero) and side advantages η, in logits.

    Parameters
    ----------
    red, blue, side
        Per cell: Red's player index, Blue's player index, the map index (int arrays).
    score
        Per cell: Red's total score (wins + ½ draws), float.
    games
        Per cell: games played.
    n_players, n_sides
        How many players and maps.

    Returns
    -------
    (theta, eta)
        Arrays of shape ``(n_players,)`` and ``(n_sides,)``.

    Raises
    ------
    ValueError
        If the optimiser fails to converge.
    """
    k = n_players

    def unpack(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        theta = np.append(x[: k - 1], -x[: k - 1].sum())
        return theta, x[k - 1 :]

    def objective(x: np.ndarray) -> tuple[float, np.ndarray]:
        theta, eta = unpack(x)
        z = theta[red] - theta[blue] + eta[side]
        p = expit(z)
        eps = 1e-300
        nll = -np.sum(score * np.log(p + eps) + (games - score) * np.log(1 - p + eps))
        nll += RIDGE * float(theta @ theta)
        resid = games * p - score  # d nll / d z
        g_theta = np.bincount(red, resid, k) - np.bincount(blue, resid, k) + 2 * RIDGE * theta
        g_eta = np.bincount(side, resid, n_sides)
        grad = np.concatenate([g_theta[: k - 1] - g_theta[k - 1], g_eta])
        return float(nll), grad

    x0 = np.zeros(k - 1 + n_sides)
    res = minimize(objective, x0, jac=True, method="L-BFGS-B", options={"maxiter": 1000})
    if not res.success:  # pragma: no cover - a convex problem with a ridge converges
        raise ValueError(f"Bradley–Terry fit did not converge: {res.message}")
    return unpack(res.x)


@dataclass(frozen=True)
class Ratings:
    """Fitted ratings with bootstrap intervals (all in Elo points; 0 = the average doctrine)."""

    players: tuple[str, ...]
    sides: tuple[str, ...]
    elo: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    side_elo: tuple[float, ...]
    side_low: tuple[float, ...]
    side_high: tuple[float, ...]
    bootstrap: int


def rate(
    players: list[str],
    sides: list[str],
    red: np.ndarray,
    blue: np.ndarray,
    side: np.ndarray,
    scores: np.ndarray,
    rng: np.random.Generator,
    bootstrap: int = 400,
) -> Ratings:
    """Fit the model to per-seed scores and bootstrap over seeds.

    Parameters
    ----------
    players, sides
        Doctrine names and map names (indices into them are used below).
    red, blue, side
        Per cell: indices of Red's doctrine, Blue's doctrine and the map.
    scores
        Shape ``(cells, seeds)``: Red's score in each cell's run with each seed (1, ½ or 0);
        every cell holds the same seeds (common random numbers).
    rng
        The generator of the bootstrap resampling (seeded by the caller).
    bootstrap
        Resamples (>= 50 for a usable 95 % percentile interval).

    Returns
    -------
    Ratings
    """
    n_seeds = scores.shape[1]
    games = np.full(scores.shape[0], float(n_seeds))
    theta, eta = fit_bradley_terry(
        red, blue, side, scores.sum(axis=1), games, len(players), len(sides)
    )
    thetas = np.empty((bootstrap, len(players)))
    etas = np.empty((bootstrap, len(sides)))
    for b in range(bootstrap):
        weights = rng.multinomial(n_seeds, np.full(n_seeds, 1.0 / n_seeds))
        thetas[b], etas[b] = fit_bradley_terry(
            red, blue, side, scores @ weights, games, len(players), len(sides)
        )
    lo, hi = np.percentile(thetas, [2.5, 97.5], axis=0)
    slo, shi = np.percentile(etas, [2.5, 97.5], axis=0)

    def elo(a: np.ndarray) -> tuple[float, ...]:
        return tuple(float(v) * ELO_PER_LOGIT for v in a)

    return Ratings(
        players=tuple(players),
        sides=tuple(sides),
        elo=elo(theta),
        low=elo(lo),
        high=elo(hi),
        side_elo=elo(eta),
        side_low=elo(slo),
        side_high=elo(shi),
        bootstrap=bootstrap,
    )
