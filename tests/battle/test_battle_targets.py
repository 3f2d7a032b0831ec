"""Who fires at, charges and forms square against whom (RULES.md §6.4, §6.7, §6.9).

The engine picks targets with single scans and works out orders before ranking them (for
speed); each test here checks it against the rule written out the plain way: sort by the
§6.9 preference, then walk.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from battle.doctrine import TacticalDoctrine
from battle.phases import _fire_target
from battle.tables import Tables
from battle.units import Unit, UnitSpec

FORMATIONS = {
    "infantry": ("line", "column", "square"),
    "cavalry": ("line", "column"),
    "artillery": ("limbered", "unlimbered"),
}


@st.composite
def units(draw: st.DrawFn, t: Tables, side: int, prefix: str) -> list[Unit]:
    """1–8 units of one side at random positions (whole and half inches) and states."""
    out = []
    for i in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(sorted(FORMATIONS)))
        formation = draw(st.sampled_from(FORMATIONS[kind]))
        hits = draw(st.integers(0, 9))
        spec = UnitSpec(f"{prefix}{i:02d}", kind, hits=hits)
        pos = draw(st.integers(0, 24)) / 2  # many ties, as on the table
        u = t.new_unit(spec, side, pos, formation)
        u.shaken = draw(st.booleans())
        u.disordered = draw(st.booleans())
        out.append(u)
    return out


def _gap(t: Tables, a: Unit, b: Unit) -> float:
    return t.depth - a.pos - b.pos


def test_fire_target_is_nearest_then_most_hits_then_lowest_id(tables: Tables) -> None:
    """§6.9 fire: the nearest enemy (furthest forward), then most hits, then lowest id."""

    @settings(max_examples=300, deadline=None)
    @given(enemies=units(tables, 1, "B"), in_melee=st.sets(st.integers(0, 7)))
    def check(enemies: list[Unit], in_melee: set[int]) -> None:
        for i in in_melee:
            if i < len(enemies):
                enemies[i].melee = enemies[i]  # any partner: in melee, not to be fired on
        valid = [e for e in enemies if e.melee is None]
        expected = min(valid, key=lambda e: (-e.pos, -e.total_hits, e.id)) if valid else None
        assert _fire_target(enemies) is expected

    check()


def test_fire_target_examples(tables: Tables) -> None:
    def unit(uid: str, pos: float, hits: int) -> Unit:
        spec = UnitSpec(uid, "infantry", hits=hits)
        return tables.new_unit(spec, 1, pos, "line")

    a, b, c = unit("B-I1", 6.0, 0), unit("B-I2", 6.0, 3), unit("B-I3", 5.0, 9)
    assert _fire_target([a, b, c]) is b  # level: more hits
    b.total_hits = 0
    assert _fire_target([a, b, c]) is a  # level, same hits: lowest id
    a.melee, c.melee = c, a  # units in melee are not fired on
    assert _fire_target([a, b, c]) is b
    b.melee = c
    assert _fire_target([a, b, c]) is None


def _reference_charge_target(doc: TacticalDoctrine, t: Tables, u: Unit, enemies: list[Unit]):
    """RULES.md §6.4/§6.9 written out: filter, then the smallest preference key."""
    if u.kind == "artillery" or u.shaken or u.disordered or u.melee is not None:
        return None
    if u.move <= 0:
        return None
    reach = u.move + t.reach_bonus
    mine = 10 - u.total_hits
    fit = []
    for e in enemies:
        if e.melee is not None or e.charged_by is not None or _gap(t, u, e) > reach:
            continue
        if u.kind == "cavalry" and e.kind == "infantry" and e.formation == "square":
            continue  # neither default doctrine charges squares with cavalry
        state = "disordered" if e.disordered else "shaken" if e.shaken else "steady"
        if state in doc.rules.charge_when or mine >= doc.ratio * (10 - e.total_hits):
            fit.append(e)
    key = lambda e: (not (e.disordered or e.shaken), -e.total_hits, _gap(t, u, e), e.id)  # noqa: E731
    return min(fit, key=key) if fit else None


def test_charge_target_follows_the_preference(tables: Tables) -> None:
    """A charger takes, of the enemies in reach it may charge, the disordered or shaken
    first, then the one with most hits, then the nearest, then the lowest id."""

    @settings(max_examples=300, deadline=None)
    @given(
        own=units(tables, 0, "R"),
        enemies=units(tables, 1, "B"),
        doctrine=st.sampled_from(["steady", "bold"]),
    )
    def check(own: list[Unit], enemies: list[Unit], doctrine: str) -> None:
        doc = tables.doctrines[doctrine]
        targets = [e for e in enemies if e.melee is None and e.charged_by is None]
        for u in own:
            expected = _reference_charge_target(doc, tables, u, enemies)
            assert doc.charge_target(u, targets) is expected

    check()


def _reference_orders(doc: TacticalDoctrine, own, enemies, card, attacking):
    """§6.3 step 1 written out: walk the units in activation order, stop at ``card``.

    What each unit would do is taken from an unlimited card (every unit's own choice); this
    checks who gets to act, and in what order.
    """
    every = {o.unit.id: o for o in doc.choose_orders(own, enemies, 99, attacking)}
    rank = {name: i for i, name in enumerate(doc.rules.activation_order)}
    walk = sorted(
        (u for u in own if u.melee is None and u.charged_by is None),
        key=lambda u: (rank.get("shaken" if u.shaken else u.kind, len(rank)), u.id),
    )
    return [every[u.id] for u in walk if u.id in every][:card]


def test_orders_go_to_the_first_units_in_activation_order(tables: Tables) -> None:
    """At most ``card`` orders, to the units first in the doctrine's activation order."""

    @settings(max_examples=200, deadline=None)
    @given(
        own=units(tables, 0, "R"),
        enemies=units(tables, 1, "B"),
        card=st.integers(0, 9),
        doctrine=st.sampled_from(["steady", "bold"]),
        attacking=st.booleans(),
    )
    def check(own, enemies, card, doctrine, attacking) -> None:
        doc = tables.doctrines[doctrine]
        got = doc.choose_orders(own, enemies, card, attacking)
        expected = _reference_orders(doc, own, enemies, card, attacking)
        assert [(o.unit.id, o.action) for o in got] == [(o.unit.id, o.action) for o in expected]
        assert len(got) <= card

    check()


def test_only_the_threatened_battalion_forms_square(tables: Tables) -> None:
    """§6.7 (house): the battalion an enemy cavalry unit would charge forms square; others
    carry on (steady doctrine, defender)."""

    def unit(uid: str, kind: str, formation: str, side: int, pos: float, hits: int = 0) -> Unit:
        spec = UnitSpec(uid, kind, hits=hits)
        return tables.new_unit(spec, side, pos, formation)

    doc = tables.doctrines["steady"]
    near = unit("R-I1", "infantry", "line", 0, 8.0)
    hurt = unit("R-I2", "infantry", "line", 0, 8.0, hits=4)
    far = unit("R-I3", "infantry", "line", 0, 0.0)
    cavalry = unit("B-C1", "cavalry", "column", 1, 4.0)  # 12 in from near and hurt: in reach
    orders = doc.choose_orders([near, hurt, far], [cavalry], 9, attacking=False)
    assert [(o.unit.id, o.action, o.formation) for o in orders] == [("R-I2", "form", "square")]
