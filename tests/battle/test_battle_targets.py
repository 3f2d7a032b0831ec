"""Who fires at, charges and forms square against whom (RULES.md §6.4, §6.7, §6.9).

The kernel picks targets with single scans and works out orders before ranking them (for
speed); each test here checks it against the rule written out the plain way: sort by the
§6.9 preference, then walk.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from kernel_probe import Probe

from battle.kernel.orders import charge_target, choose_orders
from battle.kernel.phases import fire_target
from battle.tables import Tables
from battle.units import UnitSpec

FORMATIONS = {
    "infantry": ("line", "column", "square"),
    "cavalry": ("line", "column"),
    "artillery": ("limbered", "unlimbered"),
}


@dataclass(frozen=True)
class Placed:
    """A unit as a test places it: its spec (with formation), position and state."""

    spec: UnitSpec
    pos: float
    shaken: bool
    disordered: bool


@st.composite
def units(draw: st.DrawFn, prefix: str) -> list[Placed]:
    """1–8 units of one side at random positions (whole and half inches) and states."""
    out = []
    for i in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(sorted(FORMATIONS)))
        formation = draw(st.sampled_from(FORMATIONS[kind]))
        spec = UnitSpec(f"{prefix}{i:02d}", kind, hits=draw(st.integers(0, 9)), formation=formation)
        pos = draw(st.integers(0, 24)) / 2  # many ties, as on the table
        out.append(Placed(spec, pos, draw(st.booleans()), draw(st.booleans())))
    return out


def _probe(t: Tables, own: list[Placed], enemies: list[Placed], doctrine: str) -> Probe:
    p = Probe(t, [u.spec for u in own], [e.spec for e in enemies], doctrines=(doctrine, doctrine))
    for u in own + enemies:
        p.set(u.spec.id, pos=u.pos, shaken=u.shaken, disordered=u.disordered)
    return p


def _gap(t: Tables, a: Placed, b: Placed) -> float:
    return t.depth - a.pos - b.pos


def test_fire_target_is_nearest_then_most_hits_then_lowest_id(tables: Tables) -> None:
    """§6.9 fire: the nearest enemy (furthest forward), then most hits, then lowest id."""

    @settings(max_examples=300, deadline=None)
    @given(enemies=units("B"), in_melee=st.sets(st.integers(0, 7)))
    def check(enemies: list[Placed], in_melee: set[int]) -> None:
        p = _probe(
            tables, [Placed(UnitSpec("R-I1", "infantry"), 0.0, False, False)], enemies, "steady"
        )
        for i in in_melee:
            if i < len(enemies):
                p.set(enemies[i].spec.id, melee="R-I1")  # in melee: not to be fired on
        valid = [e for i, e in enumerate(enemies) if i not in in_melee]
        expected = (
            min(valid, key=lambda e: (-e.pos, -e.spec.hits, e.spec.id)).spec.id if valid else None
        )
        got = fire_target(p.b, 1)
        assert (p.ids[got] if got >= 0 else None) == expected

    check()


def test_fire_target_examples(tables: Tables) -> None:
    blue = [UnitSpec("B-I1", "infantry"), UnitSpec("B-I2", "infantry", hits=3)]
    blue.append(UnitSpec("B-I3", "infantry", hits=9))
    p = Probe(tables, [UnitSpec("R-I1", "infantry")], blue)
    for uid, pos in (("B-I1", 6.0), ("B-I2", 6.0), ("B-I3", 5.0)):
        p.set(uid, pos=pos)
    assert p.ids[fire_target(p.b, 1)] == "B-I2"  # level: more hits
    p.set("B-I2", total_hits=0)
    assert p.ids[fire_target(p.b, 1)] == "B-I1"  # level, same hits: lowest id
    p.set("B-I1", melee="B-I3")  # units in melee are not fired on
    p.set("B-I3", melee="B-I1")
    assert p.ids[fire_target(p.b, 1)] == "B-I2"
    p.set("B-I2", melee="B-I3")
    assert fire_target(p.b, 1) == -1


def _reference_charge_target(
    t: Tables, doctrine: str, u: Placed, enemies: list[Placed]
) -> str | None:
    """RULES.md §6.4/§6.9 written out: filter, then the smallest preference key."""
    doc = t.doctrines[doctrine]
    move = t.formations[(u.spec.kind, str(u.spec.formation))].move
    if u.spec.kind == "artillery" or u.shaken or u.disordered or move <= 0:
        return None
    reach = move + t.reach_bonus
    mine = 10 - u.spec.hits
    fit = []
    for e in enemies:
        if _gap(t, u, e) > reach:
            continue
        if u.spec.kind == "cavalry" and e.spec.kind == "infantry" and e.spec.formation == "square":
            continue  # neither default doctrine charges squares with cavalry
        state = "disordered" if e.disordered else "shaken" if e.shaken else "steady"
        if state in doc.charge_when or mine >= doc.charge_min_strength_ratio * (10 - e.spec.hits):
            fit.append(e)

    def key(e: Placed) -> tuple[bool, int, float, str]:
        return (not (e.disordered or e.shaken), -e.spec.hits, _gap(t, u, e), e.spec.id)

    return min(fit, key=key).spec.id if fit else None


def test_charge_target_follows_the_preference(tables: Tables) -> None:
    """A charger takes, of the enemies in reach it may charge, the disordered or shaken
    first, then the one with most hits, then the nearest, then the lowest id."""

    @settings(max_examples=300, deadline=None)
    @given(own=units("R"), enemies=units("B"), doctrine=st.sampled_from(["steady", "bold"]))
    def check(own: list[Placed], enemies: list[Placed], doctrine: str) -> None:
        p = _probe(tables, own, enemies, doctrine)
        targets = np.array([p.i(e.spec.id) for e in enemies], np.int64)
        taken = np.zeros(len(p.ids), np.bool_)
        for u in own:
            expected = _reference_charge_target(tables, doctrine, u, enemies)
            got = charge_target(p.b, 0, p.i(u.spec.id), targets, len(targets), taken)
            assert (p.ids[got] if got >= 0 else None) == expected

    check()


def _reference_orders(
    p: Probe, t: Tables, doctrine: str, own: list[Placed], card: int, attacking: bool
) -> list[tuple[str, str]]:
    """§6.3 step 1 written out: walk the units in activation order, stop at ``card``.

    What each unit would do is taken from an unlimited card (every unit's own choice); this
    checks who gets to act, and in what order.
    """
    every = {u: a for u, a, _, _ in p.orders(choose_orders(p.b, 0, 99, attacking))}
    rank = {name: i for i, name in enumerate(t.doctrines[doctrine].activation_order)}
    walk = sorted(
        own,
        key=lambda u: (rank.get("shaken" if u.shaken else u.spec.kind, len(rank)), u.spec.id),
    )
    return [(u.spec.id, every[u.spec.id]) for u in walk if u.spec.id in every][:card]


def test_orders_go_to_the_first_units_in_activation_order(tables: Tables) -> None:
    """At most ``card`` orders, to the units first in the doctrine's activation order."""

    @settings(max_examples=200, deadline=None)
    @given(
        own=units("R"),
        enemies=units("B"),
        card=st.integers(0, 9),
        doctrine=st.sampled_from(["steady", "bold"]),
        attacking=st.booleans(),
    )
    def check(own, enemies, card, doctrine, attacking) -> None:  # type: ignore[no-untyped-def]
        p = _probe(tables, own, enemies, doctrine)
        expected = _reference_orders(p, tables, doctrine, own, card, attacking)
        got = [(u, a) for u, a, _, _ in p.orders(choose_orders(p.b, 0, card, attacking))]
        assert got == expected
        assert len(got) <= card

    check()


def test_only_the_threatened_battalion_forms_square(tables: Tables) -> None:
    """§6.7 (house): the battalion an enemy cavalry unit would charge forms square; others
    carry on (steady doctrine, defender)."""
    red = [
        UnitSpec("R-I1", "infantry", formation="line"),
        UnitSpec("R-I2", "infantry", formation="line", hits=4),
        UnitSpec("R-I3", "infantry", formation="line"),
    ]
    p = Probe(tables, red, [UnitSpec("B-C1", "cavalry", formation="column")])
    p.set("R-I1", pos=8.0)
    p.set("R-I2", pos=8.0)
    p.set("R-I3", pos=0.0)
    p.set("B-C1", pos=4.0)  # 12 in from R-I1 and R-I2: in reach
    orders = p.orders(choose_orders(p.b, 0, 9, False))
    assert [(u, a, f) for u, a, _, f in orders] == [("R-I2", "form", "square")]
