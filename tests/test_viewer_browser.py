"""The viewer in a real browser: headless Chromium from Debian's packages, driven by Selenium.

A deliberately broken engine (the `card-duplicated` mutant) is fuzzed until it is caught, and its
report is written as `doubtspec fuzz` writes it. The page is opened from disk; the test steps with
the keyboard, jumps to the failure, and compares the counts the board shows with the engine's
states. Screenshots of the failing step (desktop and phone width) are kept in a temporary folder
whose path the test prints.

Nothing here downloads a browser or a driver: the browser is /usr/bin/chromium and the driver
/usr/bin/chromedriver (`apt-get install chromium chromium-driver`; `.ci/run` installs them), and the
test is skipped, saying why, when either or Selenium (the `browser` extra) is missing (and fails instead
where `DOUBTSPEC_REQUIRE_BROWSER` is set, as `.ci/run` does).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from doubtspec.invariants.fuzzing import FuzzOptions, run_fuzz
from doubtspec.invariants.mutants import MUTANTS
from doubtspec.invariants.profiles import PROFILES
from doubtspec.model import engine
from doubtspec.model.cards import TokenKind, Zone
from doubtspec.model.game import Game
from doubtspec.model.state import GameState
from doubtspec.reports.report import RunInfo, load_report, write_report

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"



def _missing(reason: str) -> None:
    """Skip, saying why; in CI (`DOUBTSPEC_REQUIRE_BROWSER`, set by .ci/run) a missing browser is a failure."""
    if os.environ.get("DOUBTSPEC_REQUIRE_BROWSER"):
        pytest.fail(f"the browser test must run here: {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


try:
    from selenium import webdriver
except ImportError:
    _missing("Selenium is not installed (pip install -e '.[browser]')")
if not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)):
    _missing(f"no headless browser: {CHROMIUM} and {CHROMEDRIVER} come with Debian's chromium and chromium-driver "
             "packages (.ci/run installs them)")

from selenium.webdriver.chrome.service import Service  # noqa: E402 - only once Selenium is known to be there
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

MUTANT = "card-duplicated"


@pytest.fixture(scope="module")
def failure(tmp_path_factory: pytest.TempPathFactory, game: Game) -> tuple[Path, list[GameState], int]:
    """A mutant's report as `doubtspec fuzz` writes it, with the states the broken engine went through."""
    mutant = MUTANTS[MUTANT]
    with mutant.active():
        result = run_fuzz(FuzzOptions(game, profile=PROFILES["ci"], database=None))
        violation = next(v for v in result.violations if v.invariant.id in mutant.caught_by)
        folder = write_report(violation, RunInfo("ci", result.seed, None), tmp_path_factory.mktemp("reports"))
        states = [engine.new_game(game)]
        for action in violation.actions:
            states.append(engine.apply(states[-1], action))
    return folder / "report.html", states, violation.step


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not look anything up
    profile = tempfile.mkdtemp(prefix="doubtspec-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1280,800"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _errors(driver: Any) -> list[str]:
    return [str(entry["message"]) for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def _step(driver: Any) -> int:
    return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-step"))


def _count(driver: Any, key: str) -> int:
    return int(driver.find_element(By.CSS_SELECTOR, f'[data-key="{key}"][data-count]').get_attribute("data-count"))


def _press(driver: Any, *keys: str) -> None:
    body = driver.find_element(By.TAG_NAME, "body")
    for key in keys:
        body.send_keys(key)


def _check_board(driver: Any, state: GameState, step: int) -> None:
    """The counts the page shows are the engine's."""
    assert _step(driver) == step
    assert driver.find_element(By.ID, "position").text == f"step {step} of {_last(driver)}"
    for key, cards in (("c.deck", state.c_deck), ("c.hand", state.c_hand), ("c.discard", state.c_discard),
                       ("c.reserve", state.c_reserve), ("m.hand", state.m_hand), ("m.deck", state.m_deck),
                       ("m.tableau", state.tableau)):
        assert _count(driver, key) == len(cards), (step, key)
    for zone in Zone:
        group = driver.find_element(By.CSS_SELECTOR, f'g[data-key="c.zone.{zone.value}"]')
        assert int(group.get_attribute("data-victims")) == state.victims[zone], (step, zone)
        assert int(group.get_attribute("data-doubt")) == state.doubt[zone], (step, zone)
        filled = group.find_elements(By.CSS_SELECTOR, "circle.space.filled")
        assert len(filled) == state.doubt[zone], (step, zone)
    for kind in TokenKind:
        cell = driver.find_element(By.CSS_SELECTOR, f'[data-key="supply.{kind.value}"]')
        assert int(cell.get_attribute("data-value")) == state.supply_of(kind), (step, kind)
    for i, pile in enumerate(state.piles):
        assert _count(driver, f"c.pile.{i}") == len(pile), (step, i)
    chips = driver.find_elements(By.CSS_SELECTOR, '[data-key="c.hand"] .card:not(.gone)')
    names = sorted(chip.get_attribute("data-card") for chip in chips)
    assert names == sorted(str(c) for c in state.c_hand), step


def _last(driver: Any) -> int:
    return int(driver.execute_script("return document.querySelectorAll('#steps li.step').length")) - 1


def _no_sideways_scroll(driver: Any) -> None:
    wide, shown = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert wide <= shown + 1, f"the page scrolls sideways: {wide} px wide in a {shown} px window"


def test_the_report_page_in_chromium(browser: Any, failure: tuple[Path, list[GameState], int]) -> None:
    page, states, failing = failure
    report = load_report(page.parent)
    driver = browser
    driver.set_window_size(1280, 800)
    driver.get(page.resolve().as_uri())
    assert _errors(driver) == []
    assert driver.title.startswith(f"{report['invariant']['id']} violated")
    box = driver.find_element(By.ID, "failure-box")
    assert report["invariant"]["id"] in box.text and report["invariant"]["statement"] in box.text
    assert report["message"] in box.text
    assert all(section in box.text for section in report["invariant"]["sections"])
    # A report opens at its failing step.
    _check_board(driver, states[failing], failing)
    _no_sideways_scroll(driver)

    _press(driver, Keys.HOME)
    _check_board(driver, states[0], 0)
    _press(driver, *[Keys.ARROW_RIGHT] * 6)
    _check_board(driver, states[6], 6)
    _press(driver, Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    _check_board(driver, states[4], 4)
    words = driver.find_element(By.ID, "step-words").text
    assert words.startswith("Set-Up deals a stack") or words.startswith("Company draws"), words
    _press(driver, Keys.END)
    assert _step(driver) == len(states) - 1
    # Clicking a step in the list selects it.
    driver.find_element(By.CSS_SELECTOR, '#steps li.step[data-step="12"]').click()
    _check_board(driver, states[12], 12)

    _press(driver, "f")
    _check_board(driver, states[failing], failing)
    current = driver.find_element(By.CSS_SELECTOR, "#steps li.step.current")
    assert "fail" in current.get_attribute("class").split()
    changed = {e.get_attribute("data-key") for e in driver.find_elements(By.CSS_SELECTOR, "[data-key].changed")}
    assert "c.discard" in changed, changed  # the duplicated card lands in the discard pile
    artifacts = Path(tempfile.mkdtemp(prefix="doubtspec-viewer-"))
    driver.save_screenshot(str(artifacts / "failing-step-1280x800.png"))

    driver.set_window_size(390, 844)
    _no_sideways_scroll(driver)
    driver.save_screenshot(str(artifacts / "failing-step-phone.png"))
    assert _errors(driver) == []
    print(f"screenshots of the failing step: {artifacts}")
