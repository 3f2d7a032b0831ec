"""Piped output a user reads fits 80 columns (``campaign odds | less``, ``campaign batch
report r.db > summary.txt``): the odds' tables and the batch summary, where they used to be
up to 480 and 260 characters wide; ``--json`` is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import run_cli


def _widest(text: str) -> int:
    return max(len(line.rstrip()) for line in text.splitlines())


@pytest.mark.parametrize("extra", [[], ["--variant", "two-dice"]])
def test_campaign_odds_fits_80_columns_when_piped(
    extra: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, err = run_cli(["odds", *extra], capsys)
    if code == 2 and "two-dice" in err:
        pytest.skip("no two-dice variant in config/variants")
    assert code == 0, err
    assert _widest(out) <= 80
    assert "…" not in out  # no figure cut to fit
    for words in ("Hit filter", "used by", "Reaction test", "Formation completion", "F=12"):
        assert words in out
    # every percentage of the withdrawal table is there whole
    assert "0.0  2.8  37.5  76.1  94.1  99.0  99.9  100.0" in " ".join(out.split("\n"))


def test_batch_report_is_narrow_when_piped_and_json_is_unchanged(
    results: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, err = run_cli(["batch", "report", str(results)], capsys)
    assert code == 0, err
    assert _widest(out) <= 80, out
    assert "Wilson" in out and "doctrines=aggressive:cautious" in out
    assert "Paired differences" in out
    code, out, _ = run_cli(["batch", "report", str(results), "--json"], capsys)
    doc = json.loads(out)
    assert [c["n"] for c in doc[0]["cells"]] == [4, 4]
    monkeypatch.setenv("COLUMNS", "250")  # a width asked for: the wide table
    code, out, _ = run_cli(["batch", "report", str(results)], capsys)
    assert code == 0 and "days mean (q1/med/q3)" in out and _widest(out) > 150
