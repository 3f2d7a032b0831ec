"""Loading rules: ``config/rules.yaml`` + named variants + dotted-key overrides (RULES.md §9).

YAML is read with ``yaml.safe_load`` only; the merged document is validated by a pydantic
model whose unknown keys are errors. Every problem becomes a :class:`ConfigError` naming the
file, the dotted key path, what was expected and how to fix it.
"""

from __future__ import annotations

import copy
import difflib
import hashlib
import json
import re
from collections.abc import Mapping
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from battle.errors import ConfigError, plain_message, unknown_name
from battle.yamlfile import read_yaml_file

__all__ = [
    "CONFIG_DIR",
    "RULES_FILE",
    "VARIANTS_DIR",
    "apply_overrides",
    "available_variants",
    "describe_error",
    "load_rules_document",
    "read_yaml",
    "rules_hash",
    "validate",
    "variant_overrides",
]

CONFIG_DIR = Path(__file__).resolve().parent.parent / "config"
RULES_FILE = CONFIG_DIR / "rules.yaml"
VARIANTS_DIR = CONFIG_DIR / "variants"

M = TypeVar("M", bound=BaseModel)

_VARIANT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def read_yaml(path: Path) -> Any:
    """Read one YAML file with ``yaml.safe_load``.

    Raises
    ------
    ConfigError
        If the file is missing, unreadable or not valid YAML (the message gives line and
        column).
    """
    return read_yaml_file(path, ConfigError)


def available_variants() -> list[str]:
    """Names of the shipped variants (``config/variants/*.yaml``), sorted."""
    return sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))


def variant_overrides(name: str) -> tuple[dict[str, Any], str]:
    """The dotted-key overrides of a named variant (or a path to a variant file).

    ``name`` is a shipped variant's bare name (``config/variants/NAME.yaml``; letters,
    digits, ``_``, ``.``, ``-``) or the path of an existing ``.yaml``/``.yml`` file.

    Returns ``(overrides, source)``.

    Raises
    ------
    ConfigError
        If no such variant exists (the message lists those that do) or its file is not a
        mapping of dotted keys.
    """
    given = Path(name)
    path: Path | None = given
    if not (given.suffix in (".yaml", ".yml") and given.is_file()):
        # a shipped variant by its bare name only: '../rules' must not reach config/rules.yaml
        path = VARIANTS_DIR / f"{name}.yaml" if _VARIANT_NAME.fullmatch(name) else None
    if path is None or not path.is_file():
        raise unknown_name("variant", name, available_variants(), key="--variant", suggest=True)
    data = read_yaml(path)
    if data is None:
        return {}, str(path)
    if not isinstance(data, Mapping) or not all(isinstance(k, str) for k in data):
        raise ConfigError(
            "a variant must be a mapping of dotted keys to values",
            source=str(path),
            fix="Write lines such as 'battle.hit_dice: \"3d10\"'.",
        )
    return dict(data), str(path)


def apply_overrides(
    document: dict[str, Any], overrides: Mapping[str, Any], source: str
) -> dict[str, list[str]]:
    """Set dotted keys (``battle.deck.lose_at_cards``) in ``document`` in place.

    Returns a map from each dotted key to the sources that set it (for error messages).

    Raises
    ------
    ConfigError
        If a key's path runs through something that is not a mapping, or names a section
        that does not exist (with the closest existing key suggested).
    """
    origins: dict[str, list[str]] = {}
    for dotted, value in overrides.items():
        parts = str(dotted).split(".")
        node: Any = document
        for depth, part in enumerate(parts[:-1]):
            if not isinstance(node, dict):
                _unknown_key(dotted, parts[: depth + 1], {}, source)
            if part not in node:
                _unknown_key(dotted, parts[: depth + 1], node, source)
            node = node[part]
        if not isinstance(node, dict):
            _unknown_key(dotted, parts, {}, source)
        node[parts[-1]] = copy.deepcopy(value)
        origins.setdefault(dotted, []).append(source)
    return origins


def _unknown_key(dotted: str, path: list[str], node: Mapping[str, Any], source: str) -> None:
    close = difflib.get_close_matches(path[-1], [str(k) for k in node], n=1)
    hint = f" Did you mean '{'.'.join([*path[:-1], close[0]])}'?" if close else ""
    raise ConfigError(
        f"unknown config key {'.'.join(path)!r}",
        source=source,
        key=dotted,
        fix=f"Check the spelling against config/rules.yaml.{hint}",
    )


def load_rules_document(
    variants: list[str] | None = None,
    overrides: Mapping[str, Any] | None = None,
    rules_file: Path = RULES_FILE,
) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """The merged rules document: rules.yaml, then each variant in order, then overrides.

    Returns ``(document, origins)`` where ``origins`` maps each overridden dotted key to the
    files or flags that set it.
    """
    document = read_yaml(rules_file)
    if not isinstance(document, dict):
        raise ConfigError("the rules file must be a mapping", source=str(rules_file))
    origins: dict[str, list[str]] = {}
    for name in variants or []:
        data, source = variant_overrides(name)
        for k, v in apply_overrides(document, data, source).items():
            origins.setdefault(k, []).extend(v)
    if overrides:
        for k, v in apply_overrides(document, overrides, "--set").items():
            origins.setdefault(k, []).extend(v)
    return document, origins


def validate(
    model: type[M],
    document: Any,
    origins: Mapping[str, list[str]] | None = None,
    source: str = str(RULES_FILE),
    prefix: str = "",
) -> M:
    """Validate ``document`` with ``model``; turn pydantic's errors into one ConfigError.

    The message names, for each problem, the dotted key, what was expected and the value
    found; the file named is the variant or flag that set the key when there was one.
    """
    flagged = _booleans_for_numbers(model, document, prefix)
    if flagged:
        files = {src for key in flagged for src in (_origin_of(key, origins or {}) or [source])}
        raise ConfigError(
            "; ".join(f"{key}: expected a number, not true/false" for key in flagged),
            source=", ".join(sorted(files)),
            fix="Give a number (e.g. battle.max_turns=15); config/rules.yaml documents every "
            "key with its RULES.md section.",
        )
    try:
        return model.model_validate(document)
    except ValidationError as exc:
        lines = []
        files = set()
        missing: dict[str, list[str]] = {}  # parent key -> its missing fields, in order
        for err in exc.errors():
            key = ".".join([*([prefix] if prefix else []), *(str(p) for p in err["loc"])])
            files.update(_origin_of(key, origins or {}) or [source])
            if err["type"] == "missing":
                parent, _, name = key.rpartition(".")
                if parent not in missing:
                    lines.append(parent)  # replaced below by the one line for this parent
                missing.setdefault(parent, []).append(name)
                continue
            if err["type"] == "extra_forbidden":
                close = _close_field(model, err["loc"])
                if close:
                    near = ".".join([*key.split(".")[:-1], close])
                    lines.append(f"unknown config key {key!r} (did you mean {near!r}?)")
                else:
                    lines.append(f"unknown config key {key!r} (a typo?)")
            else:
                lines.append(f"{key}: {describe_error(err)}")
        lines = [
            f"{line}: missing {', '.join(missing[line])} (every key of this entry is "
            "required; see config/rules.yaml for an example)"
            if line in missing
            else line
            for line in lines
        ]
        raise ConfigError(
            "; ".join(lines),
            source=", ".join(sorted(files)),
            fix="Fix these keys; config/rules.yaml documents every key with its RULES.md section.",
        ) from None


def _numeric(annotation: Any) -> bool:
    """Whether a field annotation is a plain number (int or float, maybe Annotated/Optional)."""
    if get_origin(annotation) is Annotated:
        return _numeric(get_args(annotation)[0])
    if get_origin(annotation) in (Union, UnionType):
        options = [a for a in get_args(annotation) if a is not type(None)]
        return bool(options) and all(_numeric(a) for a in options)
    return annotation in (int, float)


def _booleans_for_numbers(annotation: Any, value: Any, path: str) -> list[str]:
    """Dotted keys where ``value`` holds true/false but ``annotation`` wants a number.

    Pydantic's lax mode reads ``True`` as ``1``: ``battle.max_turns=true`` would pass as
    one turn. Walks models, dicts and lists along the annotation.
    """
    if get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if isinstance(value, bool):
        return [path or "(top level)"] if _numeric(annotation) else []
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if not isinstance(value, Mapping):
            return []
        found = []
        for name, field in annotation.model_fields.items():
            if name in value:
                sub = f"{path}.{name}" if path else name
                found += _booleans_for_numbers(field.annotation, value[name], sub)
        return found
    origin, args = get_origin(annotation), get_args(annotation)
    if origin in (Union, UnionType):
        models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
        return _booleans_for_numbers(models[0], value, path) if len(models) == 1 else []
    if origin in (dict, Mapping) and len(args) == 2 and isinstance(value, Mapping):
        return [
            k
            for key, item in value.items()
            for k in _booleans_for_numbers(args[1], item, f"{path}.{key}" if path else str(key))
        ]
    if origin in (list, tuple) and args and isinstance(value, list | tuple):
        return [
            k
            for i, item in enumerate(value)
            for k in _booleans_for_numbers(args[0], item, f"{path}[{i}]")
        ]
    return []


def describe_error(err: Mapping[str, Any]) -> str:
    """One pydantic error as ``what was expected (found ...)``, without internal class names.

    A ``model_type`` error (a mapping was expected) would name the model's class
    ("instance of CampaignRules"); it reads "expected a mapping of keys" instead.
    """
    msg = plain_message(err)
    found = repr(err.get("input"))
    if len(found) > 80:  # a whole section: the message already names what is wrong in it
        return msg
    return f"{msg} (found {found})"


def _close_field(model: type[BaseModel], loc: tuple[Any, ...]) -> str | None:
    """The field name nearest to the unknown key at ``loc`` (difflib), or None.

    Walks ``model``'s fields along ``loc``; dict keys (unit types, doctrine names) are
    stepped over, so ``doctrines.bold.hold_in_rnge`` finds ``hold_in_range``.
    """
    node: Any = model
    for part in loc[:-1]:
        if isinstance(node, type) and issubclass(node, BaseModel):
            field = node.model_fields.get(str(part))
            if field is None:
                return None
            node = field.annotation
        else:  # a dict's key: go on with the type of its values
            args = get_args(node)
            if get_origin(node) is not dict or len(args) != 2:
                return None
            node = args[1]
    if not (isinstance(node, type) and issubclass(node, BaseModel)):
        return None
    close = difflib.get_close_matches(str(loc[-1]), list(node.model_fields), n=1)
    return close[0] if close else None


def _origin_of(key: str, origins: Mapping[str, list[str]]) -> list[str] | None:
    for dotted, sources in origins.items():
        if key == dotted or key.startswith(dotted + ".") or dotted.startswith(key + "."):
            return sources
    return None


def rules_hash(document: Any) -> str:
    """A short stable hash of a rules document (for logs and batch results)."""
    blob = json.dumps(document, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:12]
