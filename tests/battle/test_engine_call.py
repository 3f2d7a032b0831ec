"""The engine call's own work (issue 15): unit outcomes built when first read, the columns a
campaign reads instead of them, the force checks folded into the layout, and the forces'
layout reused when a battle is fought again with a late arrival (RULES.md §8.4)."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from battle.arrivals import Arrival
from battle.engine import fight
from battle.errors import ConfigError, ForceError
from battle.kernel import layout as L
from battle.kernel import pack
from battle.kernel.lineup import new_state
from battle.kernel.pack import MAX_ROWS, rule_arrays
from battle.result import BattleResult
from battle.tables import compile_rules
from battle.units import GRADES, Force, UnitSpec

KINDS = {
    "infantry": ("line", "column", "square", "skirmish"),
    "cavalry": ("line", "column"),
    "artillery": ("limbered", "unlimbered"),
    "light_infantry": ("skirmish", "line", "column"),
}


def _unit(rng: np.random.Generator, uid: str) -> UnitSpec:
    kind = str(rng.choice(list(KINDS)))
    formation = str(rng.choice(KINDS[kind])) if rng.random() < 0.2 else None
    hits = int(rng.choice([0, 0, 0, 2, 5, 9, 10]))  # 10: destroyed, left out (§1.2)
    return UnitSpec(
        uid, kind, str(rng.choice(GRADES)), bool(rng.random() < 0.2), hits=hits, formation=formation
    )  # type: ignore[arg-type]


def _battle(seed: int) -> tuple[Force, Force, list[Arrival]]:
    """Random forces (ids not in side order: 'B' < 'R') and 0-2 random late arrivals."""
    rng = np.random.default_rng(seed)
    red = [_unit(rng, f"R{k}") for k in rng.permutation(int(rng.integers(1, 9)))]
    blue = [_unit(rng, f"B{k}") for k in range(int(rng.integers(1, 9)))]
    red[0] = UnitSpec(red[0].id, "infantry")  # each side has a unit able to fight
    blue[-1] = UnitSpec(blue[-1].id, "cavalry")
    arrivals = [
        Arrival(
            int(rng.integers(1, 12)),
            int(rng.integers(0, 2)),
            tuple(_unit(rng, f"A{k}-{j}") for j in range(int(rng.integers(1, 4)))),
        )
        for k in range(int(rng.integers(0, 3)))
    ]
    return Force("Red", tuple(red)), Force("Blue", tuple(blue)), arrivals


def _fight(red: Force, blue: Force, rules, seed: int, **kw) -> BattleResult:
    return fight(red, blue, rules, np.random.default_rng(seed), **kw)


@pytest.mark.parametrize("record", [False, True])
def test_columns_and_lazy_outcomes_agree_over_random_battles(rules, record):
    """Over 150 random battles (destroyed units, formations, late arrivals, events on and
    off): the hits, counts and totals read from the kernel's columns equal those of the unit
    outcomes; the outcomes, built when first read, list every unit in the battle (arrivals
    that joined, RULES.md §8.4) side 0 first, each side by id, with its spec's numbers."""
    joined_some = absent_some = 0
    for seed in range(150):
        red, blue, arrivals = _battle(seed)
        r = _fight(red, blue, rules, seed, arrivals=arrivals, record_events=record)
        assert "units" not in r.__dict__  # not built until read
        c = r.unit_columns
        assert c is not None
        units = r.units
        specs = {u.id: u for f in (red, blue) for u in f.units}
        specs.update({u.id: u for a in arrivals for u in a.units})
        sides = {u.id: s for s, f in enumerate((red, blue)) for u in f.units}
        sides.update({u.id: a.side for a in arrivals for u in a.units})
        for side in (0, 1):
            own = [u for u in units if u.side == side]
            assert r.hits_taken(side) == sum(u.hits_taken for u in own)
            assert r.unit_count(side) == len(own)
            assert [u.id for u in own] == sorted(u.id for u in own)
        assert [u.side for u in units] == sorted(u.side for u in units)
        assert r.total_hits() == {u.id: u.total_hits for u in units}
        alive = {i for i, s in specs.items() if s.hits < rules.destroyed_at_hits}
        joined = {u.id for a in arrivals if a.bound <= r.bounds for u in a.units} & alive
        at_start = {u.id for f in (red, blue) for u in f.units} & alive
        assert {u.id for u in units} == at_start | joined
        joined_some += bool(joined)
        absent_some += len(units) < len(alive)
        for u in units:
            spec = specs[u.id]
            assert (u.side, u.kind, u.grade, u.hits_before) == (
                sides[u.id],
                spec.kind,
                spec.grade,
                spec.hits,
            )
            assert u.total_hits == u.hits_before + u.hits_taken
        # built from the same columns again, and through a pickle, the same result
        again = _fight(red, blue, rules, seed, arrivals=arrivals, record_events=record)
        assert again == r and again.units == units
        assert pickle.loads(pickle.dumps(r)) == r
    assert joined_some > 10 and absent_some > 10  # the cases that matter did occur


def test_a_result_without_columns_reads_its_units(rules):
    """A result made from outcomes alone (no kernel columns) answers the same questions."""
    red, blue, arrivals = _battle(7)
    r = _fight(red, blue, rules, 7, arrivals=arrivals)
    fields = {k: v for k, v in r.__dict__.items() if k not in ("units", "unit_columns")}
    plain = BattleResult.of(**{**fields, "recorded_units": r.units, "unit_columns": None})
    assert plain == r
    for side in (0, 1):
        assert plain.hits_taken(side) == r.hits_taken(side)
        assert plain.unit_count(side) == r.unit_count(side)
    assert plain.total_hits() == r.total_hits()


def test_fought_again_with_an_arrival_equals_a_fresh_layout(rules):
    """A battle fought again with the same forces and a late arrival (the campaign's §8.4
    replay) reuses the forces' layout; the result equals that of fresh forces."""
    for seed in range(40):
        red, blue, arrivals = _battle(1000 + seed)
        _fight(red, blue, rules, seed)
        reused = _fight(red, blue, rules, seed, arrivals=arrivals)
        fresh = _fight(
            Force(red.name, red.units), Force(blue.name, blue.units), rules, seed, arrivals=arrivals
        )
        assert reused == fresh and reused.units == fresh.units


def test_layout_keeps_its_rows_when_the_row_table_starts_again(rules):
    """The table of unit rows starts again when it grows past its bound: a layout made
    before keeps its own rows, and the forces' layout is not reused across the restart."""
    red, blue, arrivals = _battle(3)
    tables = compile_rules(rules)  # what fight uses (the fixture's may have been replaced)
    before = new_state(tables, (red, blue), [])
    U = before.U.copy()
    expected = _fight(red, blue, rules, 3, arrivals=arrivals)
    rows = rule_arrays(tables).unit_rows
    epoch = rows.epoch
    rows._kept.extend([UnitSpec("pad", "cavalry")] * (MAX_ROWS + 1))  # past the bound: the
    # next battle starts again
    _fight(Force("x", (UnitSpec("x1", "cavalry", hits=3),)), blue, rules, 1)
    assert rows.epoch == epoch + 1
    assert (before.U == U).all()
    assert _fight(red, blue, rules, 3, arrivals=arrivals) == expected


def test_layout_lists_units_as_the_result_does(tables):
    """The layout's units in index (id) order and in listing order (side 0 first, each side's
    units as given: its force's, then its arrivals' in turn), destroyed ones left out."""
    for seed in range(11, 31):
        red, blue, arrivals = _battle(seed)
        due = sorted(arrivals, key=lambda a: a.bound)
        lay = new_state(tables, (red, blue), due)
        alive = [
            u
            for side, f in enumerate((red, blue))
            for u in (*f.units, *(v for a in due if a.side == side for v in a.units))
            if u.hits < tables.destroyed_at
        ]
        assert lay.listed_ids == [u.id for u in alive] and lay.listed == alive
        assert [u.id for u in lay.specs] == sorted(u.id for u in alive)
        assert lay.U.shape == (len(alive), lay.arrays[0].shape[1])
        sides = lay.U[:, 0].tolist()
        by_id = dict(zip((u.id for u in lay.specs), sides, strict=True))
        assert lay.listed_sides == [by_id[i] for i in lay.listed_ids]
        assert lay.split == sides.count(0)


def _units(*specs: tuple[str, str, int]) -> tuple[UnitSpec, ...]:
    return tuple(UnitSpec(i, k, hits=h) for i, k, h in specs)


@pytest.mark.parametrize(
    ("red", "blue", "arrivals", "message"),
    [
        (_units(("R1", "dragoons", 0)), _units(("B1", "infantry", 0)), [], "unknown type"),
        (_units(("R1", "dragoons", 10)), _units(("B1", "infantry", 0)), [], "unknown type"),
        (
            (UnitSpec("R1", "cavalry", formation="square"),),
            _units(("B1", "infantry", 0)),
            [],
            "has no formation 'square'",
        ),
        (
            _units(("R1", "infantry", 10)),
            _units(("B1", "infantry", 0)),
            [],
            "'Red' has no unit able to fight",
        ),
        ((), _units(("B1", "infantry", 0)), [], "'Red' has no unit able to fight"),
        (_units(("R1", "infantry", 0)), _units(("R1", "cavalry", 0)), [], "ids repeat: R1"),
        (
            _units(("R1", "infantry", 0)),
            _units(("B1", "infantry", 0)),
            [Arrival(2, 0, _units(("R2", "lancers", 0)))],
            "unknown type 'lancers'",
        ),
        (
            _units(("R1", "infantry", 0)),
            _units(("B1", "infantry", 0)),
            [Arrival(2, 1, _units(("R1", "infantry", 0)))],
            "ids repeat: R1",
        ),
    ],
)
def test_bad_forces_are_refused_and_leave_nothing_behind(rules, red, blue, arrivals, message):
    """Each refusal names the unit or force; a refused unit key is never taken as checked:
    the same bad force is refused again, and good forces fight after it."""
    for _ in range(2):
        with pytest.raises(ForceError, match=message):
            _fight(Force("Red", red), Force("Blue", blue), rules, 0, arrivals=arrivals)
    good = Force("Red", _units(("R1", "infantry", 0))), Force("Blue", _units(("B1", "cavalry", 0)))
    assert _fight(*good, rules, 0).reason


@pytest.mark.parametrize("bits", [np.random.PCG64, np.random.Philox, np.random.MT19937])
def test_rewind_off_fights_the_same_battle(rules, bits):
    """``rewind=False`` (a caller that restarts its generator, as a campaign does) fights
    the same battles; with the default the generator stands after the used blocks of 64
    uniforms, whether it can step back (PCG64) or not (Philox, MT19937)."""
    for seed in range(20):
        red, blue, arrivals = _battle(2000 + seed)
        kept = np.random.Generator(bits(seed))
        loose = np.random.Generator(bits(seed))
        r = fight(red, blue, rules, kept, arrivals=arrivals)
        assert fight(red, blue, rules, loose, arrivals=arrivals, rewind=False) == r
        stream = np.random.Generator(bits(seed)).random(64 * 64)
        assert kept.random() in stream[64::64].tolist()


def _row(code: int) -> int:
    return code & L.ROW_MASK


def _rank(code: int) -> int:
    return code >> L.ROW_BITS


def test_unit_rows_name_a_forces_units_in_one_pass(tables):
    """``UnitRows.live``: the ids and codes of a force's units in the order given, destroyed
    ones left out (RULES.md §1.2); a unit met again keeps its code, units alike share a row,
    the same unit of the other side or of an arrival has its own, the row holds the unit's
    numbers (§1.3), and the codes' ranks order the ids."""
    p = rule_arrays(tables)
    rows = p.unit_rows
    dead = tables.destroyed_at
    units = (
        UnitSpec("X1", "infantry", hits=2),
        UnitSpec("X2", "cavalry", hits=dead),  # destroyed: left out
        UnitSpec("X3", "infantry", hits=2),  # like X1
        UnitSpec("X4", "artillery", "veteran"),
    )
    rows.live(tables, p, 0, -1, units)  # every id ranked: the codes below stay
    ids, got = rows.live(tables, p, 0, -1, units)
    assert ids == ["X1", "X3", "X4"] and len(got) == 3
    assert _row(got[0]) == _row(got[1]) != _row(got[2])  # X1 and X3 alike; X4 not
    assert _rank(got[0]) < _rank(got[1]) < _rank(got[2])  # ids in order
    assert rows.live(tables, p, 0, -1, units) == (ids, got)  # found again
    other = rows.live(tables, p, 1, -1, units[:1])  # the same unit on the other side
    late = rows.live(tables, p, 0, 0, units[:1])
    assert _rank(other[1][0]) == _rank(late[1][0]) == _rank(got[0])  # the same id
    assert _row(other[1][0]) != _row(got[0])
    assert _row(late[1][0]) not in (_row(got[0]), _row(other[1][0]))
    table = rows.table()
    assert table[_row(got[0])].tolist() == table[_row(got[1])].tolist()
    assert table[_row(other[1][0])][L.U_SIDE] == 1 and table[_row(late[1][0])][L.U_ARR] == 0
    assert table[_row(got[2])][L.U_MORALE] == tables.morale["veteran"]


def test_a_new_id_ranks_every_id_anew_and_drops_the_old_codes(tables):
    """A unit id never met before, sorting between ids met before, ranks them anew: codes
    looked up before it are dropped (``reranked``), and looked up again they order every id
    met so far as the ids themselves (RULES.md §6.9)."""
    p = rule_arrays(tables)
    rows = p.unit_rows
    first = tuple(UnitSpec(f"Q{k}", "infantry") for k in (1, 5, 9))
    rows.live(tables, p, 0, -1, first)
    rows.reranked = False
    _, before = rows.live(tables, p, 0, -1, first)
    assert not rows.reranked  # all known: nothing ranked anew
    between = (UnitSpec("Q3", "cavalry"), UnitSpec("Q7", "cavalry"))
    rows.live(tables, p, 1, -1, between)
    assert rows.reranked and rows.last is None
    rows.reranked = False
    _, after = rows.live(tables, p, 0, -1, first)
    _, mid = rows.live(tables, p, 1, -1, between)
    assert not rows.reranked
    assert list(map(_row, after)) == list(map(_row, before))  # rows are kept
    ranks = sorted(zip(map(_rank, after + mid), ("Q1", "Q5", "Q9", "Q3", "Q7"), strict=True))
    assert [uid for _, uid in ranks] == ["Q1", "Q3", "Q5", "Q7", "Q9"]


def test_battles_fight_the_same_whatever_the_ids_met_before(rules, monkeypatch):
    """A battle is the same whether its ids are ranked afresh, ranked among many ids met
    before, or new ones arrive mid-battle (a late arrival whose ids rank between its
    forces'): its units are in id order either way."""
    tables = compile_rules(rules)
    cases = [_battle(4000 + seed) for seed in range(40)]
    first = [
        _fight(red, blue, rules, seed, arrivals=a) for seed, (red, blue, a) in enumerate(cases)
    ]
    monkeypatch.setattr(pack, "MAX_IDS", 100)  # the ranks start again every 50 battles or so
    for k in range(300):  # ids between every id of the cases
        _fight(
            Force("x", (UnitSpec(f"B{k}x", "cavalry"), UnitSpec(f"R{k}~", "infantry"))),
            Force("y", (UnitSpec(f"A{k}-0!", "infantry"),)),
            rules,
            k,
        )
    again = [
        _fight(red, blue, rules, seed, arrivals=a) for seed, (red, blue, a) in enumerate(cases)
    ]
    assert again == first
    # and as rules never used before fight them (nothing laid out, no id ranked)
    fresh = [
        _fight(red, blue, copy.deepcopy(rules), seed, arrivals=a)
        for seed, (red, blue, a) in enumerate(cases)
    ]
    assert fresh == first
    for red, blue, arrivals in cases:
        lay = new_state(tables, (red, blue), sorted(arrivals, key=lambda a: a.bound))
        assert [u.id for u in lay.specs] == sorted(lay.listed_ids)


def test_known_forces_are_named_in_one_step_as_unit_by_unit(tables):
    """``UnitRows.forces``: two forces whose every unit is known and able to fight get the
    ids and codes ``live`` gives them; a force with a unit never met, or destroyed, is left
    to ``live`` (None)."""
    p = rule_arrays(tables)
    rows = p.unit_rows
    red = tuple(UnitSpec(f"K{k}", "infantry", hits=k % 3) for k in range(5))
    blue = (UnitSpec("L1", "cavalry"), UnitSpec("L2", "artillery"))
    assert rows.forces(red, blue) is None  # never met
    rows.live(tables, p, 0, -1, red)
    rows.live(tables, p, 1, -1, blue)  # new ids: every code made before is dropped
    assert rows.forces(red, blue) is None
    rows.reranked = False
    a, b = rows.live(tables, p, 0, -1, red), rows.live(tables, p, 1, -1, blue)
    assert not rows.reranked
    assert rows.forces(red, blue) == (*a, *b)
    assert rows.forces(blue, red) is None  # not met on those sides
    dead = (*red, UnitSpec("K9", "infantry", hits=tables.destroyed_at))
    rows.live(tables, p, 0, -1, dead)
    assert rows.forces(dead, blue) is None  # one destroyed: left out by live


def test_a_force_of_known_units_past_the_limit_is_refused(rules):
    """A force of more than ``max_units_per_force`` units is refused even when every one of
    its units fought before (in smaller forces)."""
    limit = compile_rules(rules).max_units_per_force
    units = tuple(UnitSpec(f"M{k}", "infantry") for k in range(limit + 5))
    blue = Force("Blue", (UnitSpec("N1", "cavalry"),))
    half = (limit + 5) // 2
    _fight(Force("Red", units[:half]), blue, rules, 1)
    _fight(Force("Red", units[half:]), blue, rules, 2)
    with pytest.raises(ForceError, match=f"more than the {limit}"):
        _fight(Force("Red", units), blue, rules, 3)


def test_a_doctrine_not_in_the_rules_is_refused_before_and_after_good_battles(rules):
    """The rules a battle is given are looked up once per rules object and doctrines: a
    doctrine not in the rules is refused every time (nothing kept for it), and the same
    rules with good doctrines fight alike before and after."""
    red, blue, arrivals = _battle(5)
    first = _fight(red, blue, rules, 5, arrivals=arrivals)
    for _ in range(2):
        with pytest.raises(ConfigError, match="no tactical doctrine named 'nope'"):
            _fight(red, blue, rules, 5, doctrines=("steady", "nope"))
        assert _fight(red, blue, rules, 5, arrivals=arrivals) == first
    assert _fight(red, blue, copy.deepcopy(rules), 5, arrivals=arrivals) == first
