"""Re-fighting a battle of a logged campaign (issue 28 item 4): ``campaign battle --from LOG
--battle N`` gives the logged battle back, event for event, and ``--odds`` tells its luck."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from battle.log import format_events
from campaign.analysis.refight import (
    fight_setup,
    logged_battles,
    refight,
    refight_odds,
    same_outcome,
    setup_of,
)
from campaign.cli import main
from campaign.engine import run_campaign
from campaign.events import SIDES, CampaignStarted
from campaign.maps import load_map
from campaign.printers.jsonl import read_jsonl, write_jsonl


class _Ran:
    def __init__(self, exit_code: int, output: str) -> None:
        self.exit_code, self.output = exit_code, output


def _invoke(capsys, args: list[str]) -> _Ran:
    """``campaign ARGS`` in this process: exit code and stdout + stderr."""
    with pytest.raises(SystemExit) as exc:
        main(args)
    done = capsys.readouterr()
    code = exc.value.code
    return _Ran(0 if code is None else int(code), done.out + done.err)


def _log(tmp_path: Path, map_name: str | None, seed: int, rules, **kw) -> Path:
    result = run_campaign(load_map(map_name), rules, seed, **kw)
    path = tmp_path / f"{map_name or 'default'}-{seed}.jsonl"
    with path.open("w", encoding="utf-8") as out:
        write_jsonl(result.events, out)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("map_name", [None, "waterloo-1815"])
def test_every_logged_battle_is_fought_again_event_for_event(tmp_path, rules, map_name):
    # each battle read back from the saved log, fought from its own stream, prints the very
    # lines the campaign logged (late arrivals, nightfall and pre-damaged units included)
    battles = joined = nightfall = damaged = 0
    for seed in range(12):
        path = _log(tmp_path, map_name, seed, rules, battle_logs=True)
        events = read_jsonl(path)
        header = next(e for e in events if isinstance(e, CampaignStarted))
        for number, b in enumerate(logged_battles(events), 1):
            setup = setup_of(b, number, rules.rules, header)
            result = refight(setup, rules.rules, seed)
            assert same_outcome(result, b), (map_name, seed, number)
            assert tuple(format_events(result)) == b.log, (map_name, seed, number)
            battles += 1
            joined += bool(b.joined)
            nightfall += b.reason == "nightfall"
            damaged += any(u.hits_before for u in b.units)
    assert battles > 40 and joined and damaged and nightfall


def test_same_outcome_sees_a_different_battle(tmp_path, rules):
    events = read_jsonl(_log(tmp_path, None, 5, rules))
    header = next(e for e in events if isinstance(e, CampaignStarted))
    first, second = logged_battles(events)[:2]
    result = refight(setup_of(first, 1, rules.rules, header), rules.rules, 5)
    assert same_outcome(result, first)
    assert not same_outcome(result, second)
    assert not same_outcome(refight(setup_of(first, 1, rules.rules, header), rules.rules, 6), first)


def test_refight_odds_agree_with_an_independent_estimate(tmp_path, rules):
    # 2,000 re-fights from the odds' stream against 2,000 from an unrelated generator: the
    # logged winner's share agrees within 4 standard errors of the difference
    events = read_jsonl(_log(tmp_path, None, 5, rules))
    header = next(e for e in events if isinstance(e, CampaignStarted))
    b = logged_battles(events)[1]
    setup = setup_of(b, 2, rules.rules, header)
    n = 2000
    tally = refight_odds(setup, rules.rules, 5, n)
    assert sum(tally.wins.values()) + tally.draws == n
    assert all(0 <= tally.hits_at_least[s] <= n for s in SIDES)
    rng = np.random.default_rng(20261203)
    other = [fight_setup(setup, rules.rules, rng, record_events=False) for _ in range(n)]
    share = sum(r.winner is not None and SIDES[r.winner] == b.winner for r in other) / n
    p = tally.chance(b.winner)
    se = (2 * max(p * (1 - p), 1 / n) / n) ** 0.5
    assert abs(p - share) < 4 * se
    assert refight_odds(setup, rules.rules, 5, 300) == refight_odds(setup, rules.rules, 5, 300)


def test_cli_refights_and_gives_the_odds(tmp_path, rules, capsys):
    path = _log(tmp_path, None, 5, rules)
    got = _invoke(capsys, ["battle", "--from", str(path), "--battle", "2", "--quiet"])
    assert got.exit_code == 0, got.output
    assert "Battle 2 of default-5.jsonl" in got.output
    assert "The same battle as the log's." in got.output
    got = _invoke(capsys, ["battle", "--from", str(path), "--battle", "2", "--odds", "300"])
    assert got.exit_code == 0, got.output
    assert "fought 300 more times" in got.output and "re-fights" in got.output
    got = _invoke(
        capsys, ["battle", "--from", str(path), "--battle", "2", "--odds", "300", "--json"]
    )
    data = json.loads(got.output)
    assert data["battle"] == 2 and data["refights"] == 300
    assert sum(data["wins"].values()) + data["draws"] == 300
    got = _invoke(capsys, ["battle", "--from", str(path), "--battle", "1", "--json"])
    assert json.loads(got.output)["same_as_logged"] is True


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--battle", "99"], "choose one of the log's"),
        (["--battle", "0"], "with N from 1 to"),
        ([], "Give --battle N"),
        (["--battle", "1", "--seed", "3"], "--seed cannot go with --from"),
        (["--battle", "1", "--red", "4i"], "--red cannot go with --from"),
        (["--battle", "1", "--odds", "0"], "expected 1..1,000,000"),
        (["--battle", "1", "--odds", "1000001"], "expected 1..1,000,000"),
    ],
)
def test_cli_refuses_bad_choices(tmp_path, rules, args, says, capsys):
    path = _log(tmp_path, None, 5, rules)
    got = _invoke(capsys, ["battle", "--from", str(path), *args])
    assert got.exit_code == 2, got.output
    assert says in got.output and "Traceback" not in got.output


def test_cli_refuses_a_file_that_is_not_a_log(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    got = _invoke(capsys, ["battle", "--from", str(bad), "--battle", "1"])
    assert got.exit_code == 2 and "line 1 is not a campaign event" in got.output
    got = _invoke(capsys, ["battle", "--battle", "1"])
    assert got.exit_code == 2 and "Give the log too" in got.output
    missing = tmp_path / "missing.jsonl"
    got = _invoke(capsys, ["battle", "--from", str(missing), "--battle", "1"])
    assert got.exit_code == 2 and "cannot read the event stream" in got.output


def test_the_logs_odds_are_the_refights_odds(tmp_path, rules):
    # the "before the battle" odds of the log and the briefing are one computation: the same
    # set-up (daylight left counted whatever ended the battle) from the same odds stream
    from campaign.printers.odds import OddsBook

    events = read_jsonl(_log(tmp_path, None, 42, rules))
    header = next(e for e in events if isinstance(e, CampaignStarted))
    book = OddsBook(rules.rules, 42, n=120)
    for number, b in enumerate(logged_battles(events), 1):
        odds = book(b)
        tally = refight_odds(setup_of(b, number, rules.rules, header), rules.rules, 42, 120)
        assert odds is not None
        assert (odds.wins, odds.draws) == (tally.wins, tally.draws), number
