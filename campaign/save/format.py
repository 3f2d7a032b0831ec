"""The save file of a campaign (issue 28, item 3): its inputs, the stop point, and the state
there as a check. Not a pickle: a save is event-sourced (SimPy environments cannot be
pickled, so a campaign is built again from its inputs and replayed to the stop point,
:mod:`campaign.save.replay`).

A save is one JSON document (JSON is YAML too: a save may be read and edited as either),
keys in this order::

    format: campaign-save          # what the file is
    version: 1                     # SAVE_VERSION: the layout below
    written_by:                    # the code that wrote it
      code: 70a185ab6a44           # campaign.versions.code_hash: battle/ and campaign/ sources
      commit: 8f738a5...           # the git commit of that code ("unknown" outside git)
      versions: {python: 3.11.7, numpy: 2.4.6, ...}
    inputs:                        # what rebuilds the campaign
      seed: 5
      map: {name: ..., source: maps/default.yaml, sha256: ..., options: {...}}
      rules: {variants: [], overrides: {}, hash: 9b5e54c2d290}
      doctrines: {red: balanced, blue: balanced}
      table_results: []            # every battle result entered by hand (campaign.tabletop)
      forks: []                    # the rules or dice changed from a minute on (campaign fork)
    stop: {at: Day 2 18:00, minute: 2160.0, battle: null, tabletop: null}
    state: {format: campaign-state, version: 1, ...}   # campaign.state at the stop point

``map.options`` are the :class:`campaign.maps.MapOptions` the map was read with;
``map.sha256`` the map file's bytes (RULES.md §0.6: the data a run depends on); ``rules.hash``
:attr:`campaign.config.LoadedRules.hash`. A fork is ``{minute, at, rules, doctrines,
future_seed}``: from the start of ``minute`` on, the campaign plays under ``rules`` and
``doctrines``, and with the dice of ``future_seed`` when it is not null (else the same dice
go on). A stop is at the start of ``minute``, or, with ``battle`` set, just before that
battle begins; ``tabletop`` is the policy of the battles fought on the table (``--tabletop``,
:mod:`campaign.tabletop.policy`), kept for ``campaign resume``. ``table_results`` are
:class:`campaign.table_result.TableResult` s: ``{battle, winner, bounds, units: [{id, side,
hits, status}]}``, ``winner`` null for a draw.

Reading refuses (:class:`SaveError`, exit code 2) a file of another format or version or a
field of the wrong shape, naming the key path and the fix.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from battle.errors import ConfigError
from campaign.save.when import Stop
from campaign.state import CampaignState, StateFormatError
from campaign.state import from_dict as state_from_dict
from campaign.state import to_dict as state_to_dict
from campaign.table_result import TableResult, table_result_from_dict

__all__ = [
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "Fork",
    "MapInput",
    "RulesInput",
    "Save",
    "SaveError",
    "SaveInputs",
    "WrittenBy",
    "dumps",
    "loads",
    "read_save",
]

SAVE_FORMAT = "campaign-save"
SAVE_VERSION = 1
#: the largest save file read (a default campaign's is about 30 kB)
MAX_SAVE_BYTES = 64 * 1024 * 1024
_FIX = "Give a save written by 'campaign run --save' (or resume/fork --save), unedited."


class SaveError(ConfigError):
    """A save that cannot be read or replayed: names the key path and the fix (exit 2)."""


@dataclass(frozen=True)
class MapInput:
    """The map: its name, file (as the log shows it), the file's SHA-256 and read options."""

    name: str
    source: str
    sha256: str
    options: dict[str, Any]


@dataclass(frozen=True)
class RulesInput:
    """The rules: variants in order, dotted overrides, and the hash they come to."""

    variants: tuple[str, ...]
    overrides: dict[str, Any]
    hash: str


@dataclass(frozen=True)
class Fork:
    """From the start of ``minute`` on: ``rules``, ``doctrines``, and the dice of
    ``future_seed`` (None: the campaign's own dice go on)."""

    minute: float
    at: str
    rules: RulesInput
    doctrines: dict[str, str]
    future_seed: int | None


@dataclass(frozen=True)
class SaveInputs:
    """All a campaign is built and replayed from (see the module docstring)."""

    seed: int
    map: MapInput
    rules: RulesInput
    doctrines: dict[str, str]
    table_results: tuple[TableResult, ...] = ()
    forks: tuple[Fork, ...] = ()


@dataclass(frozen=True)
class WrittenBy:
    """The code that wrote a save: its source hash, git commit and package versions."""

    code: str
    commit: str
    versions: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Save:
    """A saved campaign: inputs, stop point (``stop``, shown as ``at``) and the state there."""

    written_by: WrittenBy
    inputs: SaveInputs
    stop: Stop
    at: str
    state: CampaignState
    #: the tabletop policy the campaign was run with (``--tabletop``), None without one
    policy: str | None = None


# ------------------------------------------------------------------------------- writing
def _rules_dict(r: RulesInput) -> dict[str, Any]:
    return {"variants": list(r.variants), "overrides": dict(r.overrides), "hash": r.hash}


def to_dict(save: Save) -> dict[str, Any]:
    """``save`` as JSON-ready data (the module docstring's layout)."""
    i = save.inputs
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "written_by": {
            "code": save.written_by.code,
            "commit": save.written_by.commit,
            "versions": dict(save.written_by.versions),
        },
        "inputs": {
            "seed": i.seed,
            "map": {
                "name": i.map.name,
                "source": i.map.source,
                "sha256": i.map.sha256,
                "options": dict(i.map.options),
            },
            "rules": _rules_dict(i.rules),
            "doctrines": dict(i.doctrines),
            "table_results": [asdict(t) for t in i.table_results],
            "forks": [
                {
                    "minute": f.minute,
                    "at": f.at,
                    "rules": _rules_dict(f.rules),
                    "doctrines": dict(f.doctrines),
                    "future_seed": f.future_seed,
                }
                for f in i.forks
            ],
        },
        "stop": {
            "at": save.at,
            "minute": save.stop.minute,
            "battle": save.stop.battle,
            "tabletop": save.policy,
        },
        "state": state_to_dict(save.state),
    }


def dumps(save: Save) -> str:
    """``save`` as a JSON document, two-space indented (readable as YAML too)."""
    return json.dumps(to_dict(save), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


# ------------------------------------------------------------------------------- reading
class _Bad(Exception):
    def __init__(self, key: str, what: str) -> None:
        super().__init__(key, what)
        self.key, self.what = key, what


def _get(data: Any, key: str, path: str, kind: type | tuple[type, ...], none: bool = False) -> Any:
    where = f"{path}.{key}" if path else key
    if not isinstance(data, dict):
        raise _Bad(path or "(top)", "a mapping was expected")
    if key not in data:
        raise _Bad(where, "a field is missing")
    value = data[key]
    if value is None and none:
        return None
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise _Bad(where, f"expected {_kind_name(kind)}, found {value!r}")
    if not isinstance(value, kind):
        raise _Bad(where, f"expected {_kind_name(kind)}, found {value!r}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {str: "text", int: "a whole number", float: "a number", dict: "a mapping"}
    names |= {list: "a list", bool: "true or false"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _str_map(data: Any, path: str) -> dict[str, str]:
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise _Bad(path, "a mapping of names to text was expected")
    return dict(data)


def _rules(data: Any, path: str) -> RulesInput:
    variants = _get(data, "variants", path, list)
    if not all(isinstance(v, str) for v in variants):
        raise _Bad(f"{path}.variants", "a list of variant names was expected")
    return RulesInput(
        tuple(variants), dict(_get(data, "overrides", path, dict)), _get(data, "hash", path, str)
    )


def _doctrines(data: Any, path: str) -> dict[str, str]:
    doctrines = _str_map(data, path)
    if sorted(doctrines) != ["blue", "red"]:
        raise _Bad(path, "a doctrine for red and for blue was expected")
    return doctrines


def _fork(data: Any, path: str) -> Fork:
    minute = float(_get(data, "minute", path, (int, float)))
    at = _get(data, "at", path, str)
    rules = _rules(_get(data, "rules", path, dict), f"{path}.rules")
    doctrines = _doctrines(_get(data, "doctrines", path, dict), f"{path}.doctrines")
    seed = _get(data, "future_seed", path, int, none=True)
    if seed is not None and seed < 0:
        raise _Bad(f"{path}.future_seed", f"a seed is 0 or more, found {seed}")
    return Fork(minute, at, rules, doctrines, seed)


def _inputs(data: Any) -> SaveInputs:
    p = "inputs"
    m = _get(data, "map", p, dict)
    seed = _get(data, "seed", p, int)
    if seed < 0:
        raise _Bad("inputs.seed", f"a seed is 0 or more, found {seed}")
    results = []
    for n, r in enumerate(_get(data, "table_results", p, list)):
        try:
            results.append(table_result_from_dict(r))
        except (KeyError, TypeError, ValueError):
            raise _Bad(
                f"inputs.table_results[{n}]",
                "a battle's result (battle, winner, bounds, units) was expected",
            ) from None
    forks = _get(data, "forks", p, list)
    return SaveInputs(
        seed=seed,
        map=MapInput(
            _get(m, "name", "inputs.map", str),
            _get(m, "source", "inputs.map", str),
            _get(m, "sha256", "inputs.map", str),
            dict(_get(m, "options", "inputs.map", dict)),
        ),
        rules=_rules(_get(data, "rules", p, dict), "inputs.rules"),
        doctrines=_doctrines(_get(data, "doctrines", p, dict), "inputs.doctrines"),
        table_results=tuple(results),
        forks=tuple(_fork(f, f"inputs.forks[{n}]") for n, f in enumerate(forks)),
    )


def _stop(data: Any) -> tuple[Stop, str, str | None]:
    minute = _get(data, "minute", "stop", (int, float), none=True)
    battle = _get(data, "battle", "stop", int, none=True)
    if (minute is None) == (battle is None):
        raise _Bad("stop", "exactly one of minute and battle was expected")
    if battle is not None and battle < 1:
        raise _Bad("stop.battle", f"battles are numbered from 1, found {battle}")
    stop = Stop(minute=None if minute is None else float(minute), battle=battle)
    policy = data.get("tabletop") if isinstance(data, dict) else None
    if policy is not None and not isinstance(policy, str):
        raise _Bad("stop.tabletop", f"a tabletop policy (text) was expected, found {policy!r}")
    return stop, _get(data, "at", "stop", str), policy


def from_data(data: Any, source: str) -> Save:
    """The :class:`Save` of :func:`to_dict`'s data.

    Raises
    ------
    SaveError
        If it is not a save, is of another version, or a field is missing or misshapen.
    """
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError(
            "not a campaign save",
            source=source,
            key="format",
            fix=f'A save begins {{"format": "{SAVE_FORMAT}", "version": {SAVE_VERSION}}}. ' + _FIX,
        )
    if data.get("version") != SAVE_VERSION:
        raise SaveError(
            f"a save of version {data.get('version')!r}; this code reads version {SAVE_VERSION}",
            source=source,
            key="version",
            fix="Resume it with the program that wrote it (written_by.commit names it).",
        )
    try:
        w = _get(data, "written_by", "", dict)
        written = WrittenBy(
            _get(w, "code", "written_by", str),
            _get(w, "commit", "written_by", str),
            _str_map(_get(w, "versions", "written_by", dict), "written_by.versions"),
        )
        inputs = _inputs(_get(data, "inputs", "", dict))
        stop, at, policy = _stop(_get(data, "stop", "", dict))
        state_data = _get(data, "state", "", dict)
    except _Bad as exc:
        raise SaveError(exc.what, source=source, key=exc.key, fix=_FIX) from None
    try:
        state = state_from_dict(state_data, source)
    except StateFormatError as exc:
        raise SaveError(
            exc.what,
            source=source,
            key=f"state.{exc.key}" if exc.key else "state",
            fix=_FIX,
        ) from None
    return Save(written, inputs, stop, at, state, policy)


def loads(text: str, source: str = "<save>") -> Save:
    """The save of a JSON (or YAML) document; :class:`SaveError` as :func:`from_data`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = _yaml(text, source)
    return from_data(data, source)


def _yaml(text: str, source: str) -> Any:
    import yaml

    from battle.yamlfile import safe_load_text

    try:
        return safe_load_text(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" (line {mark.line + 1})" if mark is not None else ""
        raise SaveError(f"neither JSON nor YAML{line}", source=source, fix=_FIX) from None


def read_save(path: str | Path, flag: str = "FILE") -> Save:
    """The save in the file ``path``.

    Raises
    ------
    SaveError
        If the file is missing, too large, not text, or not a save (as :func:`loads`).
    """
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_SAVE_BYTES:
            raise SaveError(
                f"{size:,} bytes, more than a save holds ({MAX_SAVE_BYTES:,})",
                source=str(p),
                key=flag,
                fix=_FIX,
            )
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        what = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
        raise SaveError(
            f"cannot read the save ({what})",
            source=str(p),
            key=flag,
            fix="Give the path of a save file written by 'campaign run --save'.",
        ) from None
    return loads(text, str(p))
