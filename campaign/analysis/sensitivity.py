"""Global sensitivity of campaign outcomes to rule parameters (SALib: Morris or Sobol').

The spec (YAML) names rule parameters by their dotted config keys, each with a ``range``
(two numbers: uniform between them; two integers: uniform over the integers between them) or
a list of ``values`` (a discrete parameter: the unit interval is cut into equal parts, one per
value, so every value is equally likely and the design never invents one in between). SALib
draws the design on [0, 1) per parameter (``SALib.sample.morris`` or ``SALib.sample.sobol``),
each design point becomes one batch cell (:mod:`campaign.batch`, ``points``) run ``runs``
times with common random numbers, and SALib computes the indices with bootstrap 95 %
intervals for each outcome:

``red_win``  fraction of campaigns Red wins; ``days`` mean campaign length in days;
``battles``  mean battles per campaign; ``losses`` mean actual hits taken by both sides.

Morris reports μ* (mean absolute elementary effect, in the outcome's units per full range of
the parameter) with its interval, and σ; Sobol' reports the total index S_T (the share of the
outcome's variance the parameter takes part in) and the first-order S_1, each with its
interval (the lower end of μ* and S_T, which cannot be negative, clipped at 0). Because
every design point uses the same seeds, a parameter the campaign never
reads gives exactly the same campaigns at every value: its μ* and S_T are exactly 0.

Example spec::

    name: rules-sensitivity
    maps: [default]
    doctrines: ["balanced:cautious"]
    seed: 7
    runs: 40                 # campaigns per design point
    method: morris           # or sobol (--method overrides)
    samples: 10              # Morris trajectories, or Sobol' base samples (a power of 2)
    parameters:
      campaign.rough_road_pass: {range: [30, 90]}
      battle.withdrawal_success_total: {range: [10, 14]}
      battle.hit_dice: {values: ["20 + 2*d10", "3d10", "20 + d20"]}
"""

from __future__ import annotations

import json
import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import duckdb
import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from battle.configload import load_rules_document
from battle.errors import SimulatorError, plain_message
from battle.yamlfile import read_yaml_file
from campaign.analysis.stored import replace_batch_rows
from campaign.errors import BatchSpecError

__all__ = [
    "MAX_POINTS",
    "MAX_SENSITIVITY_RUNS",
    "OUTCOMES",
    "Parameter",
    "SensitivityResult",
    "SensitivitySpec",
    "analyse",
    "design",
    "load_sensitivity_spec",
    "write_table",
]

#: at most this many design points
MAX_POINTS = 20_000
#: at most this many campaigns (points × maps × doctrine pairs × runs), checked before work
MAX_SENSITIVITY_RUNS = 2_000_000
#: outcome -> SQL over one runs row (averaged per design point)
OUTCOMES = {
    "red_win": "CASE WHEN winner = 'red' THEN 1.0 ELSE 0.0 END",
    "days": "days",
    "battles": "battles",
    "losses": "red_losses + blue_losses",
}


class _ParamSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    range: list[float | int] | None = None
    values: list[Any] | None = None


class SensitivitySpec(BaseModel):
    """A sensitivity analysis as data (unknown keys are errors)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "sensitivity"
    maps: list[str] = Field(default_factory=lambda: ["default"], min_length=1)
    variants: list[str] = Field(default_factory=lambda: ["default"], min_length=1, max_length=1)
    doctrines: list[str] = Field(default_factory=lambda: ["balanced:cautious"], min_length=1)
    seed: int | None = Field(default=None, ge=0)
    runs: int = Field(default=20, ge=1, le=100_000)
    method: Literal["morris", "sobol"] = "morris"
    samples: int = Field(default=10, ge=2, le=10_000)
    levels: int = Field(default=4, ge=2, le=20)
    parameters: dict[str, _ParamSpec] = Field(min_length=1)
    workers: int | None = Field(default=None, ge=0, le=1024)
    output: str | None = None


@dataclass(frozen=True)
class Parameter:
    """One parameter: a dotted config key and how [0, 1) maps onto its values."""

    key: str
    low: float | None = None
    high: float | None = None
    integer: bool = False
    values: tuple[Any, ...] = ()

    def value(self, u: float) -> Any:
        """The parameter's value at ``u`` in [0, 1] (u = 1 gives the top value)."""
        if self.values:
            k = len(self.values)
            return self.values[min(math.floor(u * k), k - 1)]
        assert self.low is not None and self.high is not None
        if self.integer:
            span = int(self.high) - int(self.low) + 1
            return int(self.low) + min(math.floor(u * span), span - 1)
        return float(self.low + u * (self.high - self.low))

    def describe(self) -> str:
        """``range 30–90`` or ``values 3d10 | 20 + d20``."""
        if self.values:
            return "values " + " | ".join(str(v) for v in self.values)
        kind = "integers" if self.integer else "range"
        return f"{kind} {self.low:g}–{self.high:g}"


def _fail(source: str, key: str, what: str, fix: str) -> BatchSpecError:
    return BatchSpecError(what, source=source, key=key, fix=fix)


def _key_exists(document: dict[str, Any], dotted: str) -> tuple[bool, str]:
    """Whether ``dotted`` names a value in the rules document; else the closest key."""
    import difflib

    node: Any = document
    walked: list[str] = []
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            options = [str(k) for k in node] if isinstance(node, dict) else []
            close = difflib.get_close_matches(part, options, n=1)
            near = ".".join([*walked, close[0]]) if close else ""
            return False, near
        walked.append(part)
        node = node[part]
    return not isinstance(node, dict), ""


def load_sensitivity_spec(
    path: str | Path,
    method: str | None = None,
    *,
    runs: int | None = None,
    seed: int | None = None,
    samples: int | None = None,
) -> tuple[SensitivitySpec, list[Parameter]]:
    """Read and check a sensitivity spec; flags given replace its fields.

    Raises
    ------
    BatchSpecError
        If the file is missing or not YAML, a key is unknown, a parameter is not a config key,
        a range is empty or reversed or not two numbers, a list of values has fewer than two
        distinct values, a value is refused by the rules, a doctrine does not exist, or the
        analysis would run more than :data:`MAX_SENSITIVITY_RUNS` campaigns. The message names
        the key path and the fix.
    """
    source = str(path)
    data = read_yaml_file(Path(path), BatchSpecError, not_found="sensitivity spec not found")
    if not isinstance(data, dict):
        raise BatchSpecError(
            "a sensitivity spec must be a mapping (maps, doctrines, runs, parameters …)",
            source=source,
        )
    data.setdefault("name", Path(path).stem)
    flags = (("method", method), ("runs", runs), ("seed", seed), ("samples", samples))
    given = set()
    for name, value in flags:
        if value is not None:
            data[name] = value
            given.add(name)
    spec = _validated(data, given, source)
    document, _ = load_rules_document([])
    params = []
    for key, p in spec.parameters.items():
        param, checks = _parameter(document, key, p, source)
        for value in checks:  # every end of a range and every value must be accepted
            _check_value(spec, key, value, source, f"parameters.{key}")
        params.append(param)
    _check_doctrines(spec, source)
    return spec, params


def _validated(data: dict[str, Any], given: set[str], source: str) -> SensitivitySpec:
    """The spec checked by its model; a bad value names its flag when a flag gave it, else
    the file and the key path.

    Raises
    ------
    BatchSpecError
        On the first error the model finds.
    """
    try:
        return SensitivitySpec.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"]) or None
        msg = plain_message(err)
        if key in given:  # the bad value came from a flag: name the flag, not the file
            raise BatchSpecError(
                f"{msg} (found {err.get('input')!r})",
                source=f"--{key}",
                fix=f"Give --{key} a valid value; see `campaign sensitivity --help`.",
            ) from None
        raise BatchSpecError(
            f"{msg} (found {err.get('input')!r})"[:300],
            source=source,
            key=key,
            fix="See the example spec in config/sensitivity/: name, maps, variants, doctrines, "
            "seed, runs, method, samples, levels, parameters (each {range: [low, high]} or "
            "{values: [...]}), workers, output.",
        ) from None


def _parameter(
    document: dict[str, Any], key: str, p: _ParamSpec, source: str
) -> tuple[Parameter, list[Any]]:
    """A parameter of the spec (a config key with a range or values) and the values the
    rules must accept (a range's ends, or every value).

    Raises
    ------
    BatchSpecError
        If the key is not a config key, or it has both or neither of range and values.
    """
    where = f"parameters.{key}"
    exists, near = _key_exists(document, key)
    if not exists:
        hint = f" Did you mean '{near}'?" if near and near != key else ""
        raise _fail(
            source,
            where,
            f"{key!r} is not a config key (a value in config/rules.yaml)",
            f"Use a dotted key of a value, e.g. campaign.rough_road_pass.{hint}",
        )
    if (p.range is None) == (p.values is None):
        raise _fail(
            source,
            where,
            "give either range or values",
            "Write {range: [30, 90]} or {values: [10, 12, 14]}.",
        )
    if p.range is not None:
        return _range_parameter(key, p.range, source, where)
    return _values_parameter(key, list(p.values or []), source, where)


def _range_parameter(
    key: str, given: list[Any], source: str, where: str
) -> tuple[Parameter, list[Any]]:
    """A parameter over ``[low, high]`` (integers when both ends are).

    Raises
    ------
    BatchSpecError
        If the range is not two numbers, or is empty or reversed.
    """
    if len(given) != 2:
        raise _fail(
            source,
            f"{where}.range",
            f"{given} is not [low, high]",
            "Give two numbers, low first, e.g. [30, 90].",
        )
    low, high = given
    if not low < high:
        raise _fail(
            source,
            f"{where}.range",
            f"the range [{low}, {high}] is empty or reversed",
            f"Give the low end first and a high end above it, e.g. [{min(low, high)}, "
            f"{max(low, high) if low != high else high + 1}].",
        )
    integer = isinstance(low, int) and isinstance(high, int)
    return Parameter(key, float(low), float(high), integer), [low, high]


def _values_parameter(
    key: str, values: list[Any], source: str, where: str
) -> tuple[Parameter, list[Any]]:
    """A parameter over a list of values.

    Raises
    ------
    BatchSpecError
        If fewer than two of the values are distinct.
    """
    if len({json.dumps(v, sort_keys=True) for v in values}) < 2:
        raise _fail(
            source,
            f"{where}.values",
            "fewer than two distinct values",
            'List two values or more, e.g. ["3d10", "20 + d20"].',
        )
    return Parameter(key, values=tuple(values)), values


def _check_value(spec: SensitivitySpec, key: str, value: Any, source: str, where: str) -> None:
    from campaign.config import load_rules

    variants = [v for v in spec.variants[0].split("+") if v not in ("default", "none", "")]
    try:
        load_rules(variants, {key: value})
    except SimulatorError as exc:
        raise _fail(
            source,
            where,
            f"the value {value!r} is refused: {exc.what}",
            "Keep the range or values within what config/rules.yaml accepts.",
        ) from None


def _check_doctrines(spec: SensitivitySpec, source: str) -> None:
    from campaign.batch.spec import parse_doctrines
    from campaign.config import load_rules

    known = sorted(load_rules().rules.campaign.doctrines)
    for k, text in enumerate(spec.doctrines):
        for side, name in zip(
            ("red", "blue"), parse_doctrines(text, key=f"doctrines[{k}]"), strict=True
        ):
            if name not in known:
                raise _fail(
                    source,
                    f"doctrines[{k}]",
                    f"no strategy doctrine named {name!r} for {side}",
                    f"Choose from: {', '.join(known)}.",
                )


def design(spec: SensitivitySpec, params: list[Parameter]) -> tuple[dict[str, Any], np.ndarray]:
    """SALib's problem and its design on [0, 1]^k (rows = design points), seeded.

    Raises
    ------
    BatchSpecError
        If Sobol' samples are not a power of 2, or the design is too large
        (:data:`MAX_POINTS`, :data:`MAX_SENSITIVITY_RUNS`).
    """
    k = len(params)
    problem = {"num_vars": k, "names": [p.key for p in params], "bounds": [[0.0, 1.0]] * k}
    seed = 0 if spec.seed is None else spec.seed
    if spec.method == "morris":
        points = spec.samples * (k + 1)
    else:
        if spec.samples & (spec.samples - 1):
            raise BatchSpecError(
                f"{spec.samples} Sobol' samples",
                key="samples",
                fix="Give a power of 2 (e.g. 16, 32, 64): Sobol' sequences balance only then.",
            )
        points = spec.samples * (k + 2)
    total = points * len(spec.maps) * len(spec.doctrines) * spec.runs
    if points > MAX_POINTS or total > MAX_SENSITIVITY_RUNS:
        raise BatchSpecError(
            f"{points:,} design points × {len(spec.maps)} map(s) × {len(spec.doctrines)} "
            f"doctrine pair(s) × {spec.runs} runs = {total:,} campaigns (at most {MAX_POINTS:,} "
            f"points and {MAX_SENSITIVITY_RUNS:,} campaigns)",
            key="samples",
            fix="Lower samples or runs, or list fewer parameters.",
        )
    if spec.method == "morris":
        from SALib.sample import morris as morris_sample

        x = morris_sample.sample(problem, spec.samples, num_levels=spec.levels, seed=seed)
    else:
        from SALib.sample import sobol as sobol_sample

        x = sobol_sample.sample(problem, spec.samples, calc_second_order=False, seed=seed)
    return problem, np.asarray(x, dtype=float)


def batch_spec(spec: SensitivitySpec, params: list[Parameter], x: np.ndarray, **fields: Any) -> Any:
    """The batch spec of the design: one point (dotted key -> value) per row of ``x``."""
    from campaign.batch.spec import validate_spec

    points = [{p.key: p.value(float(u)) for p, u in zip(params, row, strict=True)} for row in x]
    data = {
        "name": spec.name,
        "maps": spec.maps,
        "variants": spec.variants,
        "doctrines": spec.doctrines,
        "runs": spec.runs,
        "seed": spec.seed,
        "points": points,
        "workers": spec.workers,
        "output": spec.output,
    }
    data.update({k: v for k, v in fields.items() if v is not None})
    return validate_spec(data, "sensitivity spec")


@dataclass
class SensitivityResult:
    """Indices per outcome and parameter, ranked (1 = matters most)."""

    method: str
    batch_id: str
    points: int
    runs: int
    parameters: list[Parameter]
    rows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def main_index(self) -> str:
        """``mu_star`` (Morris) or ``ST`` (Sobol')."""
        return "mu_star" if self.method == "morris" else "ST"

    def document(self) -> dict[str, Any]:
        """Plain data for ``--json`` and the chart."""
        return {
            "method": self.method,
            "batch_id": self.batch_id,
            "points": self.points,
            "runs_per_point": self.runs,
            "main_index": self.main_index,
            "outcomes": list(OUTCOMES),
            "parameters": [{"key": p.key, "design": p.describe()} for p in self.parameters],
            "indices": self.rows,
        }


def analyse(
    con: duckdb.DuckDBPyConnection,
    batch_id: str,
    spec: SensitivitySpec,
    params: list[Parameter],
    problem: dict[str, Any],
    x: np.ndarray,
) -> SensitivityResult:
    """SALib indices with 95 % bootstrap intervals for every outcome, from the stored runs.

    Each design point's outcome is the mean over its runs (and maps and doctrine pairs).

    Raises
    ------
    BatchSpecError
        If a design point has no stored run.
    """
    exprs = ", ".join(f"avg({sql})" for sql in OUTCOMES.values())
    rows = con.execute(
        f"SELECT json_extract_string(c.factors_json, '$.point')::INTEGER AS point, {exprs} "
        "FROM runs r JOIN cells c USING (batch_id, cell) WHERE r.batch_id = ? "
        "GROUP BY point ORDER BY point",
        [batch_id],
    ).fetchall()
    if len(rows) != len(x):
        raise BatchSpecError(
            f"{len(rows)} of {len(x)} design points have runs",
            source=batch_id,
            fix="Run the analysis again: it resumes the missing runs.",
        )
    y = np.array([r[1:] for r in rows], dtype=float)
    seed = 0 if spec.seed is None else spec.seed
    result = SensitivityResult(spec.method, batch_id, len(x), spec.runs, params)
    for j, outcome in enumerate(OUTCOMES):
        yj = y[:, j]
        if spec.method == "morris":
            from SALib.analyze import morris as morris_analyze

            res = morris_analyze.analyze(
                problem,
                x,
                yj,
                num_resamples=1000,
                conf_level=0.95,
                num_levels=spec.levels,
                seed=seed,
            )
            items = [
                {
                    "mu_star": float(res["mu_star"][i]),
                    "mu_star_low": max(0.0, float(res["mu_star"][i] - res["mu_star_conf"][i])),
                    "mu_star_high": float(res["mu_star"][i] + res["mu_star_conf"][i]),
                    "mu": float(res["mu"][i]),
                    "sigma": float(res["sigma"][i]),
                }
                for i in range(len(params))
            ]
        else:
            from SALib.analyze import sobol as sobol_analyze

            if float(np.var(yj)) == 0.0:  # nothing varies: every index is 0
                res = {k: np.zeros(len(params)) for k in ("ST", "ST_conf", "S1", "S1_conf")}
            else:
                with warnings.catch_warnings():  # a no-op parameter gives equal values: expected
                    warnings.filterwarnings("ignore", message="Constant values encountered")
                    res = sobol_analyze.analyze(
                        problem,
                        yj,
                        calc_second_order=False,
                        num_resamples=1000,
                        conf_level=0.95,
                        seed=seed,
                    )
            items = [
                {
                    "ST": float(res["ST"][i]),
                    "ST_low": max(0.0, float(res["ST"][i] - res["ST_conf"][i])),
                    "ST_high": float(res["ST"][i] + res["ST_conf"][i]),
                    "S1": float(res["S1"][i]),
                    "S1_low": float(res["S1"][i] - res["S1_conf"][i]),
                    "S1_high": float(res["S1"][i] + res["S1_conf"][i]),
                }
                for i in range(len(params))
            ]
        main = result.main_index
        order = sorted(range(len(params)), key=lambda i: (-items[i][main], params[i].key))
        for rank, i in enumerate(order, start=1):
            result.rows.append(
                {"outcome": outcome, "parameter": params[i].key, "rank": rank, **items[i]}
            )
    return result


def write_table(path: Path, result: SensitivityResult) -> None:
    """Store the indices as table ``sensitivity_indices`` in the results file (this batch's
    earlier rows replaced): ``batch_id, method, outcome, parameter, rank, main_index, value,
    low, high, detail_json`` (``detail_json`` holds every index SALib gave)."""
    main = result.main_index
    columns = (
        "batch_id VARCHAR, method VARCHAR, outcome VARCHAR, parameter VARCHAR, rank INTEGER, "
        "main_index VARCHAR, value DOUBLE, low DOUBLE, high DOUBLE, detail_json VARCHAR"
    )
    rows = [
        [
            result.batch_id,
            result.method,
            r["outcome"],
            r["parameter"],
            r["rank"],
            main,
            r[main],
            r[f"{main}_low"],
            r[f"{main}_high"],
            json.dumps(r, sort_keys=True),
        ]
        for r in result.rows
    ]
    replace_batch_rows(path, result.batch_id, {"sensitivity_indices": (columns, rows)})
