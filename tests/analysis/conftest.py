"""Fixtures for the analysis tests: run the CLI in this process."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from campaign.cli import main

CliRunner = Callable[[list[str]], tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> CliRunner:
    """``cli(ARGV)`` runs ``campaign ARGV`` in this process; returns (exit code, out, err)."""

    def run(argv: list[str]) -> tuple[int, str, str]:
        code = 0
        try:
            main(argv)
        except SystemExit as exc:
            code = int(exc.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return run
