"""``python -m benchmarks.paired`` refuses bad arguments with exit 2 and one line naming the
flag or directory and what was expected, before any campaign runs; a small comparison of
this checkout with itself runs both codes alike (a ratio near 1)."""

from __future__ import annotations

import re

import pytest

from benchmarks.paired import main


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--rounds", "0", "."], "--rounds 0: expected 1 to 100"),
        (["--per", "10001", "."], "--per 10001: expected 1 to 10000"),
        (["--start", "-1", "."], "--start -1: expected 0 to 2147483648"),
        (["/nonexistent/checkout"], "holds no checkout of this project"),
    ],
)
def test_bad_arguments_exit_2_with_the_reason(argv, said, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err
    assert err.count("\n") == 1  # one line, no traceback


def test_this_checkout_against_itself_runs_alike(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CAMPAIGN_NATIVE_NOTICE_SHOWN", "1")
    import campaign.native

    if campaign.native.status() != "compiled":
        assert main([".", "--rounds", "1", "--per", "2"]) == 2  # plain Python is refused
        assert "not compiled" in capsys.readouterr().err
        return
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    assert main([str(root), "--rounds", "2", "--per", "5"]) == 0
    line = capsys.readouterr().out
    ratio = float(re.search(r"speed ([0-9.]+)x", line).group(1))
    assert 0.25 < ratio < 4.0  # the same code both ways: alike, within the noise of 10 campaigns
