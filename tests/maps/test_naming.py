"""The map's own names (issue 29, item 5): sides, adjectives, colours, commanders, division
names, reinforcements' commanders, from the map file or its overlay ``maps/names/<stem>.yaml``;
each diary speaks its own map's names and no other map's."""

from __future__ import annotations

import html as html_module
import io
import re
from pathlib import Path

import pytest
import yaml

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.errors import MapError
from campaign.maps import load_map
from campaign.maps.naming import NAMES_DIR, read_overlay
from campaign.maps.schema import parse_map_document
from campaign.paths import CONFIG_DIR, MAPS_DIR, SHARED_MAPS_DIR
from campaign.printers.registry import FORMATS, PrintOptions
from campaign.report.html import render_html

WATERLOO = MAPS_DIR / "waterloo-1815.yaml"
MAPS = {
    "waterloo": (WATERLOO, 1815),
    "wilderness_war": (SHARED_MAPS_DIR / "wilderness_war.yaml", 3),
    "nevsky": (SHARED_MAPS_DIR / "nevsky.yaml", 1),
}


def _own_lists(path: Path) -> set[str]:
    """Every commander name a map's file or overlay gives (read here from the YAML itself)."""
    names: set[str] = set()
    docs = [yaml.safe_load(path.read_text(encoding="utf-8"))]
    overlay = NAMES_DIR / f"{path.stem}.yaml"
    if overlay.is_file():
        docs.append(yaml.safe_load(overlay.read_text(encoding="utf-8")))
    for doc in docs:
        for side in (doc.get("sides") or {}).values():
            names |= set(side.get("commanders") or [])
            names |= {d["commander"] for d in side.get("divisions") or [] if "commander" in d}
        for r in doc.get("reinforcements") or []:
            names |= set(r.get("commanders") or [])
    return names


def _every_list() -> dict[str, set[str]]:
    """Each list of commanders the project has: per map (file or overlay) and per config list."""
    out = {p.stem: _own_lists(p) for p in (MAPS_DIR / "default.yaml", WATERLOO)}
    for overlay in NAMES_DIR.glob("*.yaml"):
        out.setdefault(overlay.stem, set()).update(_own_lists(overlay))
    config = yaml.safe_load((CONFIG_DIR / "commanders.yaml").read_text(encoding="utf-8"))
    for key, entry in config["lists"].items():
        out[f"config:{key}"] = set(entry["names"])
    return out


def _named(text: str) -> set[str]:
    """The commanders a printed diary names: ``R1 (Vandamme)``, ``B4 (Bülow)``."""
    return set(re.findall(r"\b[RB]\d+ \(([^()\n]+)\)", text))


def _options(cmap):
    names = {j: d["name"] for j, d in cmap.graph.nodes(data=True)}
    return PrintOptions(junction_names=names, naming=cmap.naming)


def html_text(page: str) -> str:
    """The words of an HTML page (tags dropped, entities read: ``d&#39;Erlon`` → d'Erlon)."""
    return html_module.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.fixture(scope="module", params=sorted(MAPS))
def printed(request):
    path, seed = MAPS[request.param]
    if not path.exists():
        pytest.skip(f"{path} is absent (maps by other people live in ../shared/maps)")
    cmap = load_map(path)
    loaded = load_rules()
    events = run_campaign(cmap, loaded, seed, None, record_events=True).events
    out = io.StringIO()
    FORMATS["text"].write(events, out, _options(cmap))
    html = render_html(events, cmap, "umpire", rules=loaded.rules)
    return request.param, path, cmap, out.getvalue(), html


def test_each_diary_names_only_its_own_maps_commanders(printed):
    name, path, _, text, html = printed
    own = _own_lists(path)
    assert own, f"{name} gives no commanders"
    named = _named(text) | _named(html_text(html))
    assert named, "the diary names no commander"
    assert named <= own, f"{name}: not its own: {sorted(named - own)}"
    for other, names in _every_list().items():
        if other == path.stem:
            continue
        words = set(re.findall(r"[\w'’-]+", text + html_text(html)))
        wrong = (names - own) & (named | words)
        assert not wrong, f"{name}'s diary names {sorted(wrong)} of {other}'s list"


def test_each_diary_uses_its_side_names(printed):
    name, _, cmap, text, _ = printed
    sides = {"waterloo": ("French", "Allies"), "wilderness_war": ("French", "British"),
             "nevsky": ("Teutons", "Rus")}[name]  # fmt: skip
    assert (cmap.sides["red"].name, cmap.sides["blue"].name) == sides
    assert "Red" not in re.findall(r"\w+", text)
    assert "Blue" not in re.findall(r"\w+", text)


def test_waterloo_names_its_corps_and_bulow_leads_iv_corps():
    cmap = load_map(WATERLOO)
    events = run_campaign(cmap, load_rules(), 1815, None, record_events=True).events
    out = io.StringIO()
    FORMATS["text"].write(events, out, _options(cmap))
    text = out.getvalue()
    assert "raise division R1, III Corps, under Général Vandamme at Beaumont" in text
    assert "raise division B3, Prussian II Corps, under Generalmajor Pirch at Namur" in text
    assert "raise division B4, IV Corps, under General Bülow at Gembloux" in text
    assert "raise division R4, Imperial Guard, under Général Drouot at Charleroi" in text
    assert "B4 (Bülow)" in text
    assert "French scouts see" in text or "Allied scouts see" in text


def _doc(**sides_red):
    red = {"name": "Red", "base": "a", "start": ["a"], **sides_red}
    return {
        "junctions": [{"id": "a"}, {"id": "b"}],
        "roads": [["a", "b"]],
        "sides": {"red": red, "blue": {"name": "Blue", "base": "b", "start": ["b"]}},
    }


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"colour": "blu"}, "sides.red.colour"),
        ({"commanders": "Ney"}, "sides.red.commanders"),
        ({"divisions": [{"name": "I Corps", "general": "Ney"}]}, "'general'"),
        ({"adjective": ""}, "sides.red.adjective"),
    ],
)
def test_bad_names_are_refused_with_the_key_path(extra, message):
    with pytest.raises(MapError) as err:
        parse_map_document(_doc(**extra), "m.yaml")
    assert message in str(err.value)


def test_a_reinforcement_gives_one_commander_a_division():
    doc = _doc()
    doc["reinforcements"] = [
        {"side": "red", "junction": "a", "day": 2, "hour": 6, "divisions": ["X"],
         "commanders": ["Ney", "Soult"]}
    ]  # fmt: skip
    with pytest.raises(MapError) as err:
        parse_map_document(doc, "m.yaml")
    assert "reinforcements[0]" in str(err.value)
    assert "one commander a division" in str(err.value)


def test_a_bad_overlay_names_its_file_and_key(tmp_path):
    bad = tmp_path / "x.yaml"
    bad.write_text("sides:\n  red:\n    colour: nocolour\n  green: {}\n", encoding="utf-8")
    with pytest.raises(MapError) as err:
        read_overlay(bad)
    text = str(err.value)
    assert "sides.red.colour" in text
    assert "sides.green" in text


def test_a_map_without_names_gets_neutral_commanders_never_another_maps(tmp_path):
    plain = tmp_path / "plain.yaml"
    plain.write_text(yaml.safe_dump(_doc()), encoding="utf-8")
    cmap = load_map(plain)
    events = run_campaign(cmap, load_rules(), 3, None, record_events=True).events
    out = io.StringIO()
    FORMATS["text"].write(events, out, _options(cmap))
    named = _named(out.getvalue())
    config = yaml.safe_load((CONFIG_DIR / "commanders.yaml").read_text(encoding="utf-8"))
    neutral = set(config["lists"]["red"]["names"]) | set(config["lists"]["blue"]["names"])
    assert named and named <= neutral


def test_every_overlay_reads():
    for overlay in NAMES_DIR.glob("*.yaml"):
        naming = read_overlay(overlay)
        assert naming.side("red").name and naming.side("blue").name, overlay


def test_battle_headers_name_the_ground_the_map_gives():
    cmap = load_map(WATERLOO)
    events = run_campaign(cmap, load_rules(), 1815, None, record_events=True).events
    out = io.StringIO()
    terrain = {j: d["terrain"] for j, d in cmap.graph.nodes(data=True) if d.get("terrain")}
    names = {j: d["name"] for j, d in cmap.graph.nodes(data=True)}
    FORMATS["text"].write(events, out, PrintOptions(junction_names=names, terrain=terrain))
    headers = [line for line in out.getvalue().splitlines() if "Battle at " in line]
    assert headers
    for line in headers:
        place = line.split("Battle at ", 1)[1].split(":", 1)[0]
        if not place.startswith("the road"):
            name = place.rsplit(" (", 1)[0]
            junction = next(j for j, n in names.items() if n == name)
            assert place == f"{name} ({terrain[junction]})", line


def test_the_diary_draws_each_side_in_its_maps_colour():
    from matplotlib.colors import to_hex
    from matplotlib.lines import Line2D

    from campaign.report.days import build_diary
    from campaign.report.maps import campaign_map, side_styles

    cmap = load_map(WATERLOO)
    loaded = load_rules()
    events = run_campaign(cmap, loaded, 1815, None, record_events=True).events
    assert side_styles(cmap)["red"]["color"] == "#1f4e9c"  # the map's French blue
    assert side_styles(load_map(None))["red"]["color"] == "#b22222"  # a map without colours
    diary = build_diary(events, "umpire", destroyed_at=loaded.rules.battle.destroyed_at_hits)
    fig = campaign_map(cmap, diary)
    legend = {
        line.get_label(): to_hex(line.get_markerfacecolor())
        for line in fig.findobj(Line2D)
        if "division" in line.get_label()
    }
    assert legend, "the legend names the sides' divisions"
    french = [c for label, c in legend.items() if label.startswith("French")]
    allied = [c for label, c in legend.items() if label.startswith("Allies")]
    assert french == ["#1f4e9c"] and allied == ["#b22222"], legend
