"""Campaigns, replay files and a headless Chromium driven by Selenium for the replay tests."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.maps import load_map
from campaign.paths import MAPS_DIR
from campaign.replay import write_replay

SEED = 3
WATERLOO = MAPS_DIR / "waterloo-1815.yaml"

#: Debian's chromium and chromium-driver (installed by .ci/run); never a downloaded browser.
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "needs selenium (pip install -e .[dev])"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not Path(path).is_file():
            return f"needs Debian's {package} (apt-get install {package})"
    return None


def replay_data_of(path: Path) -> dict:
    """The JSON data inlined in a replay file."""
    text = path.read_text(encoding="utf-8")
    start = text.index('<script type="application/json" id="replay-data">')
    start = text.index(">", start) + 1
    return json.loads(text[start : text.index("</script>", start)])


def play(map_path: Path | None, seed: int):
    """(map, events, rules) of one campaign with battle logs."""
    cmap = load_map(map_path)
    loaded = load_rules()
    result = run_campaign(cmap, loaded, seed, None, record_events=True, battle_logs=True)
    return cmap, result.events, loaded.rules


@pytest.fixture(scope="session")
def default_campaign():
    """(map, events, rules) of the default map's campaign with seed :data:`SEED`."""
    return play(None, SEED)


@pytest.fixture(scope="session")
def replay_files(default_campaign, tmp_path_factory) -> dict[str, Path]:
    """The umpire's replay (all three views) and Red's own (``--view red``) of it."""
    cmap, events, rules = default_campaign
    folder = tmp_path_factory.mktemp("replay")
    views = {"umpire": ["umpire", "red", "blue"], "red": ["red"], "blue": ["blue"]}
    return {
        name: write_replay(events, cmap, folder / f"{name}.html", v, rules=rules)
        for name, v in views.items()
    }


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Chromium under Selenium, no network features, a throw-away profile."""
    why = browser_missing()
    if why is not None:
        pytest.skip(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the page's console
    profile = tempfile.mkdtemp(prefix="replay-chromium-")
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
        "--window-size=1400,900",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_script_timeout(300)
    driver.set_page_load_timeout(120)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def open_replay(driver, path: Path, fragment: str = "") -> None:
    """Load a replay file and wait until its script has drawn the first moment."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get("about:blank")  # a new document even when only the fragment differs
    driver.get(path.resolve().as_uri() + fragment)
    WebDriverWait(driver, 60).until(
        lambda d: d.execute_script("return document.body.dataset.ready === '1'")
    )
