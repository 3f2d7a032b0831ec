"""Battles fought on the table in a running campaign (issue 28): a campaign stopped just before
a battle, given the engine's own result for it as a result entered by hand, goes on exactly as
the campaign never stopped (its log differs only in the lines that say the battle was fought
on the table); another result changes what follows as RULES.md §8.5 says; late arrivals join
a table battle by the house rule of campaign/table_battle.py."""

from __future__ import annotations

import difflib
import io
import json
import re

import pytest

from campaign import state as st
from campaign.engine import Campaign
from campaign.errors import SimulatorError
from campaign.events import BattleFought, FellBack, event_from_dict, event_to_dict
from campaign.maps import load_map
from campaign.printers.odds import OddsBook
from campaign.printers.registry import FORMATS, PrintOptions
from campaign.resume import resume
from campaign.table_result import TableResult, TableUnit
from campaign.tabletop.policy import parse_policy
from campaign.tabletop.sheet import check_result
from campaign.tabletop.stop import BattleStop, engine_result, stop_before_battle

LIMIT = 10
#: the lines of a battle's details the engine writes and a table battle does not (its cards
#: and withdrawal checks are the table's), and the two a table battle writes instead
ENGINE_ONLY = re.compile(
    r"^ {9}(After \d+ bounds |.* took .* and lost |Withdrawal checks |Nightfall came after )"
)
TABLE_ONLY = re.compile(r"^ {9}(Fought on the table: |.* \(the result entered from the table\)\.$)")


@pytest.fixture(scope="module")
def maps():
    return {"default": load_map(), "waterloo": load_map("waterloo-1815")}


def _rows(events) -> list[str]:
    return [json.dumps(event_to_dict(e), sort_keys=True, default=str) for e in events]


def _text(events, cmap, odds=None) -> list[str]:
    names = {j: d["name"] for j, d in cmap.graph.nodes(data=True)}
    out = io.StringIO()
    FORMATS["text"].write(events, out, PrintOptions("umpire", names, False, odds, cmap.naming))
    return out.getvalue().splitlines()


def _sheet(result: TableResult) -> dict:
    """``result`` as a player fills in the result sheet."""
    return {
        "battle": result.battle,
        "winner": result.winner or "draw",
        "bounds": result.bounds,
        "units": {u.id: {"hits": u.hits, "status": u.status} for u in result.units},
    }


def _first_battle(events) -> BattleFought:
    return next(e for e in events if isinstance(e, BattleFought))


def _logged(events, stop: BattleStop) -> BattleFought:
    """The logged battle that ``stop`` stopped before (its minute and place)."""
    (found,) = [
        e
        for e in events
        if isinstance(e, BattleFought)
        and (e.t, e.place) == (stop.setup.event.t, stop.setup.event.place)
    ]
    return found


#: what a battle is to the campaign (its cards, checks and reason are the table's)
def _campaign_facts(b: BattleFought) -> tuple:
    units = sorted(
        (u.id, u.side, u.kind, u.hits_before, u.hits_taken, u.total_hits) for u in b.units
    )
    return (b.t, b.place, b.divisions, b.attacker, b.winner, b.bounds, b.minutes, b.hits, units,
            b.joined, b.battle_seed, b.roll_off, b.road)  # fmt: skip


def _check_the_same_campaign(cmap, rules, seed: int) -> None:
    """The key check: stop before battle 1, enter the engine's own result, run on."""
    whole = Campaign(cmap, rules, seed)
    whole_result = whole.run()
    stop = stop_before_battle(Campaign(cmap, rules, seed), parse_policy("all"))
    assert stop is not None and stop.number == 1
    # the battle begun first (two begun in the same minute may be logged the other way round)
    logged = _logged(whole.events, stop)
    announced = {(a.side, a.bound, tuple(u.id for u in a.units)) for a in stop.setup.arrivals}
    for j in logged.joined:  # every division that joined was announced, at its bound
        assert any(b == j.bound and set(ids) == set(j.units) for _, b, ids in announced), j
    entered = engine_result(logged, stop.setup)
    if entered.bounds >= 1:  # a player can enter it: the sheet's checks take it as it is
        assert check_result(_sheet(entered), stop.setup, LIMIT) == entered
    table = Campaign(cmap, rules, seed, table_results=[entered])
    table_result = table.run()
    # the event streams: the same rows but battle 1's, which is the same battle to the campaign
    a, b = _rows(whole.events), _rows(table.events)
    assert len(a) == len(b)
    differ = [i for i in range(len(a)) if a[i] != b[i]]
    assert len(differ) == 1 and whole.events[differ[0]] == logged, (seed, differ[:3])
    fought = table.events[differ[0]]
    assert isinstance(fought, BattleFought) and fought.on_table and not logged.on_table
    assert _campaign_facts(fought) == _campaign_facts(logged)
    assert (table_result.winner, table_result.reason, table_result.end_minutes) == (
        whole_result.winner,
        whole_result.reason,
        whole_result.end_minutes,
    )
    # the text log: the engine's detail lines of battle 1 (how it ended, cards, withdrawal
    # checks) are replaced by the two lines that say it was fought on the table; nothing else
    x, y = _text(whole.events, cmap), _text(table.events, cmap)
    ops = difflib.SequenceMatcher(a=x, b=y, autojunk=False).get_opcodes()
    changed = [op for op in ops if op[0] != "equal"]
    removed = [line for _, i1, i2, _, _ in changed for line in x[i1:i2]]
    added = [line for _, _, _, j1, j2 in changed for line in y[j1:j2]]
    assert all(ENGINE_ONLY.match(line) for line in removed), (seed, removed)
    assert len(added) == 2 and all(TABLE_ONLY.match(line) for line in added), (seed, added)
    lo, hi = min(op[1] for op in changed), max(op[2] for op in changed)
    header = next(k for k in range(lo - 1, -1, -1) if not x[k].startswith(" " * 9))
    assert re.match(r"^\d\d:\d\d  (Battle at |At .* at dusk: )", x[header])
    assert all(x[k].startswith(" " * 9) for k in range(lo, hi))
    assert x.count(x[header]) == 1


@pytest.mark.parametrize("map_key", ["default", "waterloo"])
def test_the_engines_own_result_entered_gives_the_same_campaign(maps, rules, map_key):
    for seed in range(50):
        _check_the_same_campaign(maps[map_key], rules, seed)


@pytest.mark.slow
@pytest.mark.parametrize("map_key", ["default", "waterloo"])
def test_the_engines_own_result_entered_gives_the_same_campaign_more_seeds(maps, rules, map_key):
    for seed in range(50, 110):  # with the test above: 110 seeds on each map
        _check_the_same_campaign(maps[map_key], rules, seed)


def test_the_log_says_where_the_table_result_falls(maps, rules):
    """Seed 3's battle 1 on the road from Mont Fère to Val-d'Oré: Red won after 10 bounds,
    the campaign's only battle of 10 bounds (its line is found by that). Seed 5 was the case
    until issue 31's generals with intent changed the campaigns: it now has a second battle of
    10 bounds; seed 3 is the first seed whose battle 1 is a Red win after 10 bounds, alone."""
    cmap, seed = maps["default"], 3
    whole = Campaign(cmap, rules, seed)
    whole.run()
    logged = _first_battle(whole.events)
    stop = stop_before_battle(Campaign(cmap, rules, seed), parse_policy("all"))
    table = Campaign(cmap, rules, seed, table_results=[engine_result(logged, stop.setup)])
    table.run()
    odds = OddsBook(rules.rules, seed)
    engine_lines = [line for line in _text(whole.events, cmap, odds) if "After 10 bounds" in line]
    table_lines = [line for line in _text(table.events, cmap, odds) if "on the table" in line]
    assert len(engine_lines) == 1 and len(table_lines) == 1
    phrase = engine_lines[0].split(" - ")[1]  # "Red won a fight it wins three times in five."
    assert phrase.startswith("Red won a fight it wins ")
    assert table_lines[0].endswith(" - " + phrase)
    assert "Fought on the table: after ten bounds (2 h 30 min) Red won" in table_lines[0]
    # the side views mark it too, without the umpire's odds
    red_view = io.StringIO()
    names = {j: d["name"] for j, d in cmap.graph.nodes(data=True)}
    FORMATS["text"].write(table.events, red_view, PrintOptions("red", names, naming=cmap.naming))
    assert "Fought on the table: after ten bounds (2 h 30 min) Red won." in red_view.getvalue()


def _flipped(result: TableResult, winner: str) -> TableResult:
    """``result`` with ``winner`` holding the field and the other side's survivors gone."""
    units = tuple(
        TableUnit(u.id, u.side, u.hits, u.status if u.status == "destroyed" else
                  ("in" if u.side == winner else "withdrawn"))
        for u in result.units
    )  # fmt: skip
    return TableResult(result.battle, winner, result.bounds, units)


def _stop(cmap, rules, seed, number=1) -> BattleStop:
    stop = stop_before_battle(Campaign(cmap, rules, seed), lambda b: b.number == number)
    assert stop is not None and stop.number == number
    return stop


def test_another_winner_changes_the_aftermath_as_the_rules_say(maps, rules):
    """Seed 6's battle 1 at Mont Fère: Red won it; entered as a Blue win, Red's divisions
    fall back (RULES.md §8.5: the loser falls back 2 junctions) and Blue's stay."""
    cmap, seed = maps["default"], 6
    whole = Campaign(cmap, rules, seed)
    whole.run()
    logged = _first_battle(whole.events)
    assert logged.place == "mont_fere" and logged.winner == "red"
    stop = _stop(cmap, rules, seed)
    flipped = _flipped(engine_result(logged, stop.setup), "blue")
    assert check_result(_sheet(flipped), stop.setup, LIMIT) == flipped
    camp = Campaign(cmap, rules, seed, table_results=[flipped])
    camp.run()
    fought = _first_battle(camp.events)
    assert fought.on_table and fought.winner == "blue" and fought.reason == "table"
    end = fought.t + fought.minutes
    fell = [e for e in camp.events if isinstance(e, FellBack) and e.t == end]
    beaten = [d for d in fought.divisions["red"] if d in {j.division for j in fought.joined}
              or d in logged.divisions["red"]]  # fmt: skip
    assert sorted(e.division for e in fell) == sorted(beaten)
    # from Mont Fère, 2 junctions (the path names where it starts)
    assert all(e.side == "red" and e.path[0] == "mont_fere" and len(e.path) == 3 for e in fell)
    # in the engine's campaign Blue was the one to fall back from there
    engine_fell = [e for e in whole.events if isinstance(e, FellBack) and e.t == end]
    assert engine_fell and all(e.side == "blue" for e in engine_fell)


def test_a_table_draw_sends_the_attacker_back(maps, rules):
    """A draw at a junction: the attacker goes back whence it came (RULES.md §8.5)."""
    cmap, seed = maps["default"], 6
    stop = _stop(cmap, rules, seed)
    attacker = ("red", "blue")[stop.setup.attacker]
    units = tuple(
        TableUnit(u.id, s, u.hits, "in")
        for i, s in enumerate(("red", "blue"))
        for u in [*stop.setup.forces[i].units, *(v for a in stop.setup.arrivals if a.side == i
                                                 for v in a.units)]
    )  # fmt: skip
    draw = TableResult(1, None, 3, units)
    camp = Campaign(cmap, rules, seed, table_results=[draw])
    camp.run()
    fought = _first_battle(camp.events)
    assert fought.winner is None and fought.reason == "table" and fought.bounds == 3
    assert fought.hits == {"red": 0, "blue": 0} and not fought.joined  # none came by bound 3
    back = [
        e for e in camp.events
        if type(e).__name__ == "MarchBegun" and e.t >= fought.t + 45 and e.origin == "mont_fere"
        and e.division in fought.divisions[attacker]
    ]  # fmt: skip
    assert back, "the attacker went back"
    assert not any(isinstance(e, FellBack) and e.t == fought.t + 45 for e in camp.events)


def test_late_arrivals_join_a_table_battle_at_the_bounds_it_reached(maps, rules):
    """Seed 6's battle 1: R3 arrives at bound 5, B3 at bound 9 (the briefing announces both);
    a table battle of 7 bounds has R3 in it, not B3, which kept its hits and came after."""
    cmap, seed = maps["default"], 6
    stop = _stop(cmap, rules, seed)
    late = {a.bound: a for a in stop.setup.arrivals}
    assert 5 in late and 9 in late
    red_late = {u.id for u in late[5].units}
    blue_late = {u.id for u in late[9].units}
    whole = Campaign(cmap, rules, seed)
    whole.run()
    entered = engine_result(_first_battle(whole.events), stop.setup)
    units = tuple(
        TableUnit(u.id, u.side, u.hits if u.id not in blue_late else
                  next(v.hits for v in late[9].units if v.id == u.id), u.status)
        for u in entered.units
    )  # fmt: skip
    seven = TableResult(1, entered.winner, 7, units)
    assert check_result(_sheet(seven), stop.setup, LIMIT) == seven
    camp = Campaign(cmap, rules, seed, table_results=[seven])
    camp.run()
    fought = _first_battle(camp.events)
    assert [(j.bound, set(j.units)) for j in fought.joined] == [(5, red_late)]
    ids = {u.id for u in fought.units}
    assert red_late <= ids and not blue_late & ids
    assert fought.minutes == 7 * 15


def test_a_division_the_result_does_not_list_waits_for_the_end(maps, rules):
    """A late arrival the table result does not cover does not join (house rule): it waits
    for the battle's end."""
    cmap, seed = maps["default"], 6
    stop = _stop(cmap, rules, seed)
    late = {a.bound: a for a in stop.setup.arrivals}
    red_late = {u.id for u in late[5].units}
    whole = Campaign(cmap, rules, seed)
    whole.run()
    entered = engine_result(_first_battle(whole.events), stop.setup)
    left_out = red_late | {v.id for v in late[9].units}
    short = TableResult(1, "red", 8, tuple(u for u in entered.units if u.id not in left_out))
    camp = Campaign(cmap, rules, seed, table_results=[short])
    camp.run()
    fought = _first_battle(camp.events)
    assert not fought.joined and not red_late & {u.id for u in fought.units}


def test_the_stop_comes_before_the_battle_and_the_campaign_cannot_run_on(maps, rules):
    cmap, seed = maps["default"], 6
    camp = Campaign(cmap, rules, seed)
    stop = stop_before_battle(camp, parse_policy("all"))
    assert stop is not None
    assert stop.state.time <= stop.setup.event.t and not stop.state.battles
    assert stop.setup.max_bounds >= 1 and stop.setup.attacker in (0, 1)
    with pytest.raises(RuntimeError, match="cannot run on"):
        camp.finish()
    # the same stop again: the same state and set-up (all from the seed)
    again = stop_before_battle(Campaign(cmap, rules, seed), parse_policy("all"))
    assert again == stop


def test_policies_choose_the_battle(maps, rules):
    cmap, seed = maps["default"], 9  # battles 1 and 2: Mont Fère, Pont-de-l'Isle
    whole = Campaign(cmap, rules, seed)
    whole.run()
    battles = [e for e in whole.events if isinstance(e, BattleFought)]
    names = {j: d["name"] for j, d in cmap.graph.nodes(data=True)}
    at = stop_before_battle(Campaign(cmap, rules, seed), parse_policy("at=pont_de_lisle", names))
    first_there = next(i for i, b in enumerate(battles) if b.place == "pont_de_lisle")
    assert at.number == first_there + 1 and at.setup.event.place == "pont_de_lisle"
    by_name = parse_policy(f"at={names['pont_de_lisle'].upper()}", names)
    assert stop_before_battle(Campaign(cmap, rules, seed), by_name).number == at.number
    # units>=N counts the units at the start, both sides, late arrivals not
    starts = [sum(1 for u in b.units if u.id not in {x for j in b.joined for x in j.units})
              for b in battles]  # fmt: skip
    n = max(starts)
    big = stop_before_battle(Campaign(cmap, rules, seed), parse_policy(f"units>={n}"))
    assert big.number == starts.index(n) + 1
    assert stop_before_battle(Campaign(cmap, rules, seed), parse_policy("units>=999")) is None
    # a battle that has its table result is not stopped for: the next one is
    entered = engine_result(battles[0], _stop(cmap, rules, seed).setup)
    camp = Campaign(cmap, rules, seed, table_results=[entered])
    assert stop_before_battle(camp, parse_policy("all")).number == 2


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("some", "expected all, units>=N or at=JUNCTION"),
        ("units>=0", "N from 1 to 10,000"),
        ("units>=20000", "N from 1 to 10,000"),
        ("units>=x", "expected all, units>=N"),
        ("at=", "a junction is empty"),
        ("at=nowhere", "no junction 'nowhere'"),
    ],
)
def test_bad_policies_are_refused(maps, text, says):
    names = {j: d["name"] for j, d in maps["default"].graph.nodes(data=True)}
    with pytest.raises(SimulatorError) as exc:
        parse_policy(text, names)
    assert says in exc.value.message and exc.value.key == "--tabletop"
    assert exc.value.exit_code == 2


def test_table_results_are_inputs_of_the_state_and_resume_with_them(maps, rules, tmp_path):
    cmap, seed = maps["default"], 6
    stop = _stop(cmap, rules, seed)
    whole = Campaign(cmap, rules, seed)
    whole.run()
    flipped = _flipped(engine_result(_first_battle(whole.events), stop.setup), "blue")
    camp = Campaign(cmap, rules, seed, table_results=[flipped])
    camp.start()
    camp.run_until(2000)
    saved = camp.state()
    assert saved.inputs.table_results == (flipped,)
    path = tmp_path / "state.json"
    st.write(saved, path)
    back = st.read(path)
    assert back == saved
    again = resume(back, cmap, rules)
    assert _rows(again.finish().events) == _rows(camp.finish().events)
    # a state file written before table results reads as having none
    data = json.loads(path.read_text())
    del data["inputs"]["table_results"]
    assert st.from_dict(data).inputs.table_results == ()
    data["inputs"]["table_results"] = [{"battle": 1}]
    with pytest.raises(st.StateFormatError, match="table result"):
        st.from_dict(data)


def test_a_table_battle_is_marked_in_the_json_lines_and_others_are_as_before(maps, rules):
    cmap, seed = maps["default"], 6
    stop = _stop(cmap, rules, seed)
    whole = Campaign(cmap, rules, seed)
    whole.run()
    logged = _first_battle(whole.events)
    assert "on_table" not in event_to_dict(logged)  # files of campaigns without one unchanged
    camp = Campaign(cmap, rules, seed, table_results=[engine_result(logged, stop.setup)])
    camp.run()
    row = event_to_dict(_first_battle(camp.events))
    assert row["on_table"] is True
    assert event_from_dict(json.loads(json.dumps(row))) == _first_battle(camp.events)


def test_bad_table_results_are_refused(maps, rules):
    cmap = maps["default"]
    with pytest.raises(SimulatorError, match="given twice"):
        Campaign(cmap, rules, 6, table_results=[TableResult(1, None, 1, ())] * 2)
    with pytest.raises(SimulatorError, match="numbered from 1"):
        Campaign(cmap, rules, 6, table_results=[TableResult(0, None, 1, ())])
    with pytest.raises(SimulatorError, match="does not list unit"):
        Campaign(cmap, rules, 6, table_results=[TableResult(1, None, 1, ())]).run()


def test_the_log_tools_read_a_campaign_with_a_table_battle(maps, rules, tmp_path, capsys):
    """Its JSON lines, re-fight, result check and diary: the table battle is named so."""
    from campaign.cli import main
    from campaign.printers.jsonl import write_jsonl

    cmap, seed = maps["default"], 6
    stop = _stop(cmap, rules, seed)
    whole = Campaign(cmap, rules, seed)
    whole.run()
    flipped = _flipped(engine_result(_first_battle(whole.events), stop.setup), "blue")
    camp = Campaign(cmap, rules, seed, table_results=[flipped])
    camp.run()
    log = tmp_path / "table.jsonl"
    with log.open("w", encoding="utf-8") as out:
        write_jsonl(camp.events, out)

    def run(*args: str) -> str:
        with pytest.raises(SystemExit) as exc:
            main(list(args))
        assert exc.value.code in (0, None), capsys.readouterr()
        done = capsys.readouterr()
        return done.out + done.err

    said = run("battle", "--from", str(log), "--battle", "1", "--quiet")
    assert "fought on the table: this is the abstract battle" in said
    said = run("result-check", "--from", str(log), "--battle", "1", "--odds", "50",
               "--result", "winner=red,red_losses=20%,blue_losses=45%")  # fmt: skip
    assert "Red won a fight it wins" in said
    diary = tmp_path / "diary.md"
    run("report", str(log), "-o", str(diary))
    assert "Fought on the table: after " in diary.read_text(encoding="utf-8")


def test_a_table_result_as_the_campaign_applies_it():
    """campaign.table_battle.table_battle_result: the bounds' minutes, the reason (a draw
    lasting every bound of daylight left is nightfall's, RULES.md §8.3), RULES.md §7.1's
    casualty percent (routed units' boxes left count as lost), and units sorted by side, id."""
    from battle.units import UnitSpec
    from campaign.table_battle import table_battle_result

    units = [
        (0, UnitSpec("R1-I2", "infantry", hits=2)),
        (0, UnitSpec("R1-I1", "infantry")),
        (1, UnitSpec("B1-C1", "cavalry", hits=4)),
    ]
    entered = TableResult(
        3,
        "red",
        6,
        (
            TableUnit("R1-I2", "red", 5, "in"),
            TableUnit("R1-I1", "red", 10, "destroyed"),
            TableUnit("B1-C1", "blue", 7, "routed"),
            TableUnit("B2-I1", "blue", 0, "in"),  # announced, never came: left out
        ),
    )
    r = table_battle_result(entered, ("Red", "Blue"), 1, units, 8, 15, LIMIT)
    assert (r.winner, r.reason, r.bounds, r.minutes, r.attacker) == (0, "table", 6, 90, 1)
    assert [(u.id, u.state, u.hits_before, u.hits_taken, u.total_hits) for u in r.units] == [
        ("R1-I1", "destroyed", 0, 10, 10),
        ("R1-I2", "in", 2, 3, 5),
        ("B1-C1", "routed", 4, 3, 7),
    ]
    # Red: 13 hits of 18 boxes; Blue: 3 hits and the 3 boxes left of its routed cavalry, of 6
    assert r.casualty_percent == pytest.approx((100 * 13 / 18, 100.0))
    assert (r.cards_lost, r.cards_left, r.withdrawal_checks) == ((0, 0), (0, 0), ())
    draw = TableResult(3, None, 8, entered.units)
    assert table_battle_result(draw, ("Red", "Blue"), 1, units, 8, 15, LIMIT).reason == "nightfall"
    early = TableResult(3, None, 7, entered.units)
    assert table_battle_result(early, ("Red", "Blue"), 1, units, 8, 15, LIMIT).reason == "table"
