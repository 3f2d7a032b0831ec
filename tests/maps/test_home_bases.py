"""Issue 29: an automatic set-up puts each side's base in its own country when the map's
names overlay gives the sides ``home`` junctions (campaign/maps/sides.py ``_home_bases``):
Wilderness War's French no longer start at Philadelphia."""

from __future__ import annotations

import pytest

from campaign.errors import MapError
from campaign.maps import MapOptions, load_map
from campaign.maps.naming import NAMES_DIR, read_overlay
from campaign.paths import SHARED_MAPS_DIR

SEEDS = range(12)
OVERLAID = sorted(p.stem for p in NAMES_DIR.glob("*.yaml") if read_overlay(p).side("red").home)


def _shared(stem: str):
    path = SHARED_MAPS_DIR / f"{stem}.yaml"
    if not path.exists():
        pytest.skip(f"{path} is absent (maps by other people live in ../shared/maps)")
    return path


def test_every_overlay_gives_both_sides_a_home():
    assert set(OVERLAID) >= {"wilderness_war", "nevsky", "waterloo_campaign_1815"}
    for stem in OVERLAID:
        naming = read_overlay(NAMES_DIR / f"{stem}.yaml")
        red, blue = naming.side("red").home, naming.side("blue").home
        assert red and blue and not set(red) & set(blue), stem


@pytest.mark.parametrize("stem", OVERLAID)
def test_each_sides_base_lies_in_its_home(stem):
    path = _shared(stem)
    naming = read_overlay(NAMES_DIR / f"{stem}.yaml")
    pairs = set()
    for seed in SEEDS:
        cmap = load_map(path, MapOptions(seed=seed))
        red, blue = cmap.sides["red"].base, cmap.sides["blue"].base
        assert red in naming.side("red").home, (stem, seed, red)
        assert blue in naming.side("blue").home, (stem, seed, blue)
        assert any("home junctions" in n for n in cmap.notes)
        pairs.add((red, blue))
    assert len(pairs) > 1, f"{stem}: the seed should vary the bases"


def test_the_french_of_1755_are_not_based_at_philadelphia():
    path = _shared("wilderness_war")
    for seed in range(40):
        cmap = load_map(path, MapOptions(seed=seed))
        assert cmap.sides["red"].name == "French"
        assert cmap.sides["red"].base in {"quebec", "montreal", "louisbourg"}, seed


def test_bases_given_on_the_command_line_still_win():
    path = _shared("wilderness_war")
    cmap = load_map(path, MapOptions(red_base="philadelphia", blue_base="boston"))
    assert (cmap.sides["red"].base, cmap.sides["blue"].base) == ("philadelphia", "boston")


def test_an_unknown_home_junction_names_the_overlay_and_key(tmp_path, monkeypatch):
    path = _shared("nevsky")
    from campaign.maps import naming

    overlay = tmp_path / "nevsky.yaml"
    overlay.write_text(
        "sides:\n  red:\n    name: Teutons\n    home: [rigaa]\n"
        "  blue:\n    name: Rus\n    home: [novgorod]\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(naming, "NAMES_DIR", tmp_path)
    with pytest.raises(MapError) as err:
        load_map(path)
    text = str(err.value)
    assert "sides.red.home" in text and "'rigaa'" in text and "riga" in text
    assert str(overlay) in text
