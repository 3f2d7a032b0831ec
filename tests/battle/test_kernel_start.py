"""The kernel's own layout of a battle before its first bound (battle.kernel.start: RULES.md
§3.1 decks, §6.1 deployment, §7.1 casualty bases) and its dice, drawn straight from the
battle's generator (battle.kernel.draw, §0.6)."""

from __future__ import annotations

import numpy as np
import pytest
from kernel_probe import Probe
from numba import njit

from battle.arrivals import Arrival
from battle.kernel import layout as L
from battle.kernel.jit import next_double
from battle.kernel.lineup import new_state
from battle.kernel.pack import rule_arrays
from battle.kernel.run import _ADDRESS
from battle.kernel.start import deck_cards, explicit_decks
from battle.tables import Tables
from battle.units import Force, UnitSpec

NO_EXPLICIT = explicit_decks({})


@pytest.mark.parametrize(
    ("units", "cards"),
    [(8, "8 8 7 7 6 5 4 3 3"), (6, "6 6 5 5 4 3 3"), (4, "4 4 3 3 3"), (2, "2 2 1"), (1, "1 1")],
)
def test_deck_cards_are_the_worked_examples(units: int, cards: str) -> None:
    """RULES.md §3.1: 'These must come out exactly' (and one unit: two cards of 1)."""
    assert deck_cards(units, NO_EXPLICIT).tolist() == [int(c) for c in cards.split()]


def test_deck_cards_follow_the_formula_and_explicit_decks() -> None:
    """RULES.md §3.1's Python terms, for 1-60 units; an explicit deck for U replaces it for
    that U only."""
    for u in range(1, 61):
        seq = [u, u, u - 1, u - 1, *range(u - 2, 3, -1)] + [3] * (u + 1)
        assert deck_cards(u, NO_EXPLICIT).tolist() == [min(max(v, 1), u) for v in seq[: u + 1]]
    explicit = explicit_decks({3: [3, 2, 2, 1], 5: [5, 5, 5, 1, 1, 1]})
    assert deck_cards(3, explicit).tolist() == [3, 2, 2, 1]
    assert deck_cards(5, explicit).tolist() == [5, 5, 5, 1, 1, 1]
    assert deck_cards(4, explicit).tolist() == [4, 4, 3, 3, 3]
    assert deck_cards(9, explicit).tolist() == [9, 9, 8, 8, 7, 6, 5, 4, 3, 3]


def test_lay_out_deploys_counts_boxes_and_deals(tables: Tables) -> None:
    """Before the first bound: every unit at the deploy distance (§6.1), P's charge start 0;
    each side's units on the field, its casualty base (§7.1: 10 boxes a unit less the hits it
    carries: 3 units with 0, 2 and 5 hits have 23) and its §3.1 deck, of the units there from
    the start; a late arrival's unit in U but not yet present; the attacker; no winner."""
    red = (UnitSpec("R-I1", "infantry"), UnitSpec("R-I2", "infantry", hits=2))
    red += (UnitSpec("R-C1", "cavalry", hits=5),)
    blue = (UnitSpec("B-I1", "infantry", hits=9), UnitSpec("B-A1", "artillery"))
    late = Arrival(3, 1, (UnitSpec("B-I2", "infantry", hits=4),))
    lay = new_state(tables, (Force("Red", red), Force("Blue", blue)), [late])
    U, P, S, DK = lay.start(rule_arrays(tables), 1)
    assert [s.id for s in lay.specs] == ["B-A1", "B-I1", "B-I2", "R-C1", "R-I1", "R-I2"]
    assert U[:, L.U_PRESENT].tolist() == [1, 1, 0, 1, 1, 1]
    assert U[:, L.U_ARR].tolist() == [-1, -1, 0, -1, -1, -1]
    assert (P[:, L.P_POS] == tables.deploy).all() and (P[:, L.P_CFROM] == 0).all()
    assert S[L.S_ONF : L.S_ONF + 2].tolist() == [3, 2]
    assert S[L.S_BOX : L.S_BOX + 2].tolist() == [23, 11]  # 30 - 7; 20 - 9
    assert S[L.S_DN : L.S_DN + 2].tolist() == [4, 3]
    assert DK[0, :4].tolist() == [3, 3, 2, 2] and DK[1, :3].tolist() == [2, 2, 1]
    assert DK.shape == (2, len(lay.specs) + 1)  # room for a deck of every unit
    assert S[L.S_ATTACKER] == 1 and S[L.S_NARR] == 1
    assert S[L.S_WINNER] == -1 and S[L.S_FCT] == -1 and S[L.S_BITGEN] == 0


def test_a_late_arrival_rebuilds_the_deck_less_the_cards_lost(tables: Tables) -> None:
    """RULES.md §8.4: an arrival of 2 units to a side of 3 that lost one card: the deck for 5
    units (5 5 4 4 3 3) less its highest card; its casualty base grows by their boxes; an
    arrival of destroyed units only brings nothing."""
    red = [UnitSpec(f"R-I{k}", "infantry") for k in (1, 2, 3)]
    blue = [UnitSpec("B-I1", "infantry")]
    arrivals = [
        Arrival(1, 0, (UnitSpec("R-I4", "infantry", hits=1), UnitSpec("R-I5", "cavalry"))),
        Arrival(1, 1, (UnitSpec("B-I2", "infantry", hits=10),)),
    ]
    from battle.kernel.bound import join_due

    p = Probe(tables, red, blue, arrivals=arrivals)
    p.S[L.S_BOUNDS] = 0
    p.S[L.S_CL] = 1
    join_due(p.b)
    assert p.deck(0) == [5, 4, 4, 3, 3]
    assert p.S[L.S_ONF] == 5 and p.S[L.S_BOX] == 30 + 19
    assert p.deck(1) == [1, 1] and p.S[L.S_ONF + 1] == 1  # B-I2 destroyed: nothing joins
    assert p.S[L.S_NEXTARR] == 2


@njit(cache=False)
def _draw(bitgen, n):  # type: ignore[no-untyped-def]
    out = np.empty(n, np.float64)
    for i in range(n):
        out[i] = next_double(bitgen)
    return out


@pytest.mark.parametrize(
    "kind", [np.random.PCG64, np.random.PCG64DXSM, np.random.Philox, np.random.MT19937]
)
def test_the_kernel_draws_the_generators_own_uniforms(kind) -> None:  # type: ignore[no-untyped-def]
    """RULES.md §0.6: the kernel's uniforms are those ``Generator.random`` gives, in order,
    and the generator goes on from there (mixed with draws from Python)."""
    g, h = np.random.Generator(kind(11)), np.random.Generator(kind(11))
    at = _ADDRESS(g.bit_generator.capsule, b"BitGenerator")
    assert _draw(at, 5).tolist() == h.random(5).tolist()
    assert g.random(3).tolist() == h.random(3).tolist()
    assert _draw(at, 70).tolist() == h.random(70).tolist()
