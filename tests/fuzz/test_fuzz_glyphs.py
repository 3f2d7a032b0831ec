"""Diaries of maps whose junction names hold characters from every Unicode block render
cleanly (issue 32 item 4): exit 0, no warning on stderr but the one note of the map, and
every label the maps draw made of glyphs some installed font has."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
import yaml

from campaign.report.glyphs import drawable, safe_label

from .harness import run_cli_timed

PROJECT = Path(__file__).resolve().parents[2]


def _sample_of_every_block(step: int = 128) -> list[str]:
    """One assigned character of every ``step`` code points (Unicode blocks are multiples
    of 16 and mostly of 128), surrogates and private use left out."""
    out = []
    for start in range(0x20, 0x110000, step):
        for cp in range(start, min(start + step, 0x110000)):
            ch = chr(cp)
            if unicodedata.category(ch) not in ("Cn", "Cs", "Co", "Cc") and unicodedata.name(
                ch, ""
            ):
                out.append(ch)
                break
    return out


CHARS = _sample_of_every_block()


def _renamed_map(tmp_path: Path, chars: list[str]) -> Path:
    data = yaml.safe_load((PROJECT / "maps" / "default.yaml").read_text(encoding="utf-8"))
    junctions = data["junctions"]
    per = max(1, len(chars) // len(junctions) + 1)
    for i, junction in enumerate(junctions):
        junction["name"] = "".join(chars[i * per : (i + 1) * per]) or junction["name"]
    path = tmp_path / "unicode.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def test_the_sample_covers_the_code_space() -> None:
    assert len(CHARS) > 1000
    assert "\U0001f3f0" in CHARS or any(0x1F300 <= ord(c) < 0x1F380 for c in CHARS)


def test_a_safe_label_holds_only_drawable_glyphs() -> None:
    for ch in CHARS:
        assert drawable(safe_label(f"a{ch}b").replace("\\$", "$"))
    assert safe_label("cost $5 and $6") == r"cost \$5 and \$6"  # never mathtext


@pytest.mark.slow
@pytest.mark.filterwarnings("error")  # a matplotlib warning fails the case
@pytest.mark.parametrize("part", range(4))
def test_diaries_of_maps_named_from_every_block_render_quietly(tmp_path: Path, part: int) -> None:
    chars = CHARS[part::4]
    path = _renamed_map(tmp_path, chars)
    events = tmp_path / "events.jsonl"
    run = run_cli_timed(
        ["run", str(path), "--seed", "3", "--format", "jsonl", "-o", str(events)], 60
    )
    assert run.code == 0, run.err
    report = run_cli_timed(["report", str(events), "-o", str(tmp_path / "diary.html")], 120)
    assert report.code == 0, (report.raised, report.err[-2000:])
    noise = [
        line
        for line in report.err.splitlines()
        if line.strip() and not line.startswith(("note:", "wrote", "seed "))
    ]
    assert noise == [], noise  # no matplotlib warning, no traceback
    notes = [line for line in report.err.splitlines() if "no installed font" in line]
    assert len(notes) <= 1  # one note a map, not one a glyph
    html = (tmp_path / "diary.html").read_text(encoding="utf-8")
    assert "Glyph" not in report.err and not re.search(r"missing from (current )?font", report.err)
    assert html
