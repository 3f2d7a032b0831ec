"""The battle kernel's data layout (battle/kernel/layout.py, issue 27 item 4): each family of
columns and codes is numbered by the order of its names; these tests check that the battle's
scalars (some a value per side) are numbered from their names and widths, and that every
list of names the decoder prints from matches its codes."""

from __future__ import annotations

from battle.kernel import layout as L

#: the scalars of S that hold more than one value: one per side, or §7.2's tallies (4 per side)
WIDE = {"S_CL": 2, "S_LOST": 2, "S_BOX": 2, "S_ONF": 2, "S_DN": 2, "S_DEALT": 2, "S_TAL": 8}


def test_the_scalars_are_numbered_from_their_names() -> None:
    """Every S_* name is in SCALARS, with the width WIDE gives it (1 otherwise)."""
    names = [n for n in _family("S_") if n != "S_"]
    assert sorted(names) == sorted(n for n, _ in L.SCALARS)
    assert all(width == WIDE.get(name, 1) for name, width in L.SCALARS)


def _family(prefix: str) -> dict[str, int]:
    return {
        name: value
        for name, value in vars(L).items()
        if name.startswith(prefix) and name.isupper() and isinstance(value, int)
    }


def test_the_scalars_of_s_lie_end_to_end_without_overlap() -> None:
    slots = sorted(_family("S_").items(), key=lambda item: item[1])
    at = 0
    for name, start in slots:
        assert start == at, f"{name} starts at {start}, the slot before ends at {at}"
        at = start + WIDE.get(name, 1)
    assert at == L.NS


def test_each_family_is_numbered_from_its_first_name_without_gaps() -> None:
    for prefix, width in [
        ("U_", L.NU),
        ("RF_", L.NRF),
        ("FF_", L.NFF),
        ("DF_", L.NDF),
        ("O_", L.NO),
    ]:
        values = sorted(_family(prefix).values())
        assert values == list(range(width)), prefix
    # R_: the §7.2 weights take one slot per tally after R_W_FLAG
    assert sorted(_family("R_").values()) == list(range(L.R_W_FLAG + 1))
    assert L.NRI == L.R_W_FLAG + L.T_OFFT + 1


def test_the_names_printed_match_their_codes() -> None:
    assert len(L.TEST_KINDS) == L.TK_INITIATIVE + 1
    assert len(L.HOWS) == L.HOW_PURSUIT + 1
    assert len(L.OUTCOMES) == L.MO_ENDED + 1
    assert len(L.STATES) == L.ST_REFUSED + 1
    assert len(L.MOVES) == L.MV_PURSUE + 1
    assert len(L.END_REASONS) == L.END_NIGHTFALL + 1
    assert len(L.END_STATES) == len(L.END_FLAGS) + 1  # then "steady"
    assert (L.EV_PHASE, L.EV_END) == (1, 13)  # 0 is an unwritten row
