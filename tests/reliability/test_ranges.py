"""Every number of the rules schema has a range, said in the error (issue 32 item 1).

Walks every numeric key of ``config/rules.yaml`` (the schema's ``minimum``/``maximum``, or
``exclusiveMinimum``) and gives it its bounds ±1, 0, -1, 2**31, 2**63, NaN, inf, a list, a
string, a date and a YAML tag: each is refused naming the key and its range, or accepted.
Then the real command runs at each key's two bounds: a clean run or a clean exit 2, within
the fuzz harness's time and memory limits.
"""

from __future__ import annotations

from typing import Any

import pytest

from battle.configload import RULES_FILE, read_yaml
from battle.errors import ConfigError
from campaign.cli.common import parse_overrides
from campaign.config import Rules, load_rules
from tests.fuzz.harness import run_cli_timed


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
    if "anyOf" in node:  # Optional[...]: the non-null branch
        node = next(n for n in node["anyOf"] if n.get("type") != "null")
        return _resolve(schema, node)
    return node


def _numeric_keys() -> list[tuple[str, float, float, bool, bool]]:
    """``(dotted key, low, high, whole, open_low)`` of every number in the default rules
    document that ``--set`` can reach (through mappings)."""
    schema = Rules.model_json_schema()
    document = read_yaml(RULES_FILE)
    found = []
    stack: list[tuple[Any, dict[str, Any], str]] = [(document, schema, "")]
    while stack:
        value, node, key = stack.pop()
        node = _resolve(schema, node)
        if isinstance(value, dict):
            for name, item in value.items():
                sub = node.get("properties", {}).get(name) or node.get("additionalProperties")
                assert sub is not None, f"{key}.{name} has no schema"
                stack.append((item, sub, f"{key}.{name}" if key else str(name)))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            if node.get("const") is not None or "enum" in node:
                continue  # percentage_dice: the one value 100
            open_low = "exclusiveMinimum" in node
            low = node.get("minimum", node.get("exclusiveMinimum"))
            assert low is not None and "maximum" in node, f"{key}: no range in the schema"
            found.append((key, low, node["maximum"], node.get("type") == "integer", open_low))
    return sorted(found)


KEYS = _numeric_keys()
HOSTILE = ["0", "-1", "2147483648", "9223372036854775808", ".nan", ".inf", "-.inf"]
HOSTILE += ["[20, 3]", "abc", "2001-01-01", "!!timestamp 2001-01-01", "!!binary aGk=", "{a: 1}"]


def test_every_number_of_the_rules_has_a_range() -> None:
    assert len(KEYS) > 60
    assert ("battle.reaction_die", 2, 100, True, False) in KEYS


def _text(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(x)


@pytest.mark.parametrize(("key", "low", "high", "whole", "open_low"), KEYS)
def test_each_key_refuses_what_is_outside_its_range(
    key: str, low: float, high: float, whole: bool, open_low: bool
) -> None:
    step = 1 if whole else 0.5
    values = [_text(low - step), _text(high + step), *HOSTILE]
    if open_low:
        values.append(_text(low))
    for text in values:
        try:
            load_rules(overrides=parse_overrides([f"{key}={text}"]))
        except ConfigError as exc:
            # the key path; a rule tying two keys (day start before day end) names both
            assert key in exc.message or key.rsplit(".", 1)[1] in exc.message, exc.message
            # a number of the right kind outside the range: the range is in the message
            if text in (_text(low - step), _text(high + step), "2147483648"):
                shown = f"{_text(low)}..{_text(high)}" if not open_low else f"up to {_text(high)}"
                if not (whole and "." in text):
                    assert shown in exc.message, (text, exc.message)
            continue
        # accepted: then it is a number within the range
        value = parse_overrides([f"{key}={text}"])[key]
        assert isinstance(value, int | float) and low <= value <= high, (key, text)


@pytest.mark.slow
@pytest.mark.parametrize(("key", "low", "high", "whole", "open_low"), KEYS)
def test_the_bounds_themselves_run_or_are_refused_cleanly(
    key: str, low: float, high: float, whole: bool, open_low: bool
) -> None:
    command = ["run", "--seed", "2"] if key.startswith("campaign.") else ["battle", "--seed", "2"]
    command.append("--quiet") if command[0] == "battle" else None
    ends = [high] if open_low else [low, high]
    for end in ends:
        outcome = run_cli_timed([*command, "--set", f"{key}={_text(end)}"], limit=10)
        assert outcome.verdict in ("ok", "refused"), (key, end, outcome.err[-500:], outcome.raised)
