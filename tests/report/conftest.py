"""Fixed-seed campaigns and their diaries, shared by the report tests."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.maps import load_map
from campaign.paths import MAPS_DIR
from campaign.printers.odds import OddsBook
from campaign.report import render_html

SEED = 7
MAPS = {"default": None, "waterloo": MAPS_DIR / "waterloo-1815.yaml"}


@pytest.fixture(scope="session", params=sorted(MAPS))
def campaign_run(request):
    """(name, map, events) of a fixed-seed campaign with battle logs, per shipped map."""
    cmap = load_map(MAPS[request.param])
    result = run_campaign(cmap, load_rules(), SEED, None, record_events=True, battle_logs=True)
    return request.param, cmap, result.events


@pytest.fixture(scope="session")
def odds():
    """The odds book of the fixed-seed campaigns (default rules, seed :data:`SEED`)."""
    return OddsBook(load_rules().rules, SEED)


@pytest.fixture(scope="session")
def diaries(campaign_run, odds):
    """HTML text of the umpire's, red's and blue's diary of :func:`campaign_run`."""
    _, cmap, events = campaign_run
    return {view: render_html(events, cmap, view, odds) for view in ("umpire", "red", "blue")}


@pytest.fixture(scope="session")
def umpire_file(campaign_run, diaries, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("diary") / f"{campaign_run[0]}-umpire.html"
    path.write_text(diaries["umpire"], encoding="utf-8")
    return path


VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class TagBalance(HTMLParser):
    """Collects tag-structure errors (unclosed, stray or mismatched end tags)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.refs: list[tuple[str, str, str]] = []  # (tag, attribute, value)
        self.doctype = False

    def handle_decl(self, decl: str) -> None:
        self.doctype = self.doctype or decl.lower() == "doctype html"

    def handle_starttag(self, tag, attrs) -> None:
        self._refs(tag, attrs)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs) -> None:
        self._refs(tag, attrs)

    def handle_endtag(self, tag) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"line {self.getpos()[0]}: </{tag}> but open {self.stack[-3:]}")
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()

    def _refs(self, tag, attrs) -> None:
        for name, value in attrs:
            if value and (
                name in ("src", "href", "action", "poster", "data")
                or name.endswith(":href")
                or name == "srcset"
            ):
                self.refs.append((tag, name, value))

    def check(self, text: str) -> list[str]:
        self.feed(text)
        self.close()
        errors = list(self.errors)
        if self.stack:
            errors.append(f"unclosed at the end: {self.stack}")
        if not self.doctype:
            errors.append("no <!DOCTYPE html>")
        return errors


def network_refs(text: str) -> list[str]:
    """Every http(s) reference that a browser could load (XML namespace URIs excepted)."""
    parser = TagBalance()
    parser.feed(text)
    found = [f"<{t} {a}={v}>" for t, a, v in parser.refs if re.match(r"\s*(https?:)?//", v)]
    found += re.findall(r"url\(\s*['\"]?(?:https?:)?//[^)]*\)", text)
    found += re.findall(r"@import[^;]*", text)
    found += re.findall(r"<(?:script|iframe|object|embed|link)\b[^>]*>", text)
    return found


@pytest.fixture(scope="session")
def html_errors():
    """``check(text) -> list of str``: tag-structure errors of an HTML document."""
    return lambda text: TagBalance().check(text)


@pytest.fixture(scope="session")
def network_loads():
    """``find(text) -> list of str``: references a browser would load from the network."""
    return network_refs
