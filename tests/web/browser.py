"""Headless Chromium for the browser tests: Debian's ``chromium`` driven through the system
``/usr/bin/chromedriver`` (an explicit Service, so Selenium Manager never downloads a browser),
and the steps a person takes on the page: start a game in the lobby, click a move."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
POLL = 0.02  # seconds between checks of a waited-for condition


def chrome(width: int = 1500, height: int = 1000):
    """A headless Chromium session; skips (fails under CI) when the system packages are missing."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("the selenium package (the dev extra)")
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        _missing("Debian's chromium and chromium-driver (scripts/setup.sh installs them as root)")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)


def _missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests need {what}")
    pytest.skip(f"browser tests need {what}")


def wait(driver, condition, timeout: float = 30):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=POLL).until(condition)


def page_state(driver, full: bool = False) -> dict | None:
    """The seat's page data the page last drew (``window.meadowzoo.state``); without ``full`` only
    its small fields (the drawing and the view stay in the page: polling them would be slow)."""
    if full:
        return driver.execute_script("return window.meadowzoo && window.meadowzoo.state")
    return driver.execute_script(
        "const s = window.meadowzoo && window.meadowzoo.state;"
        "return s && {id: s.id, version: s.version, seat: s.seat, to_move: s.to_move, over: s.over, legal: s.legal,"
        " marked: [...document.querySelectorAll('#board [data-anchor].legal')].map(e => e.getAttribute('data-anchor'))}")


def start_game_in_lobby(driver, base: str, game: str, agents: list[str], seed: int) -> str:
    """Fill in the lobby's form and start; returns the game id the page moved to."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(base + "/#/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f"#game option[value={game}]"))
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    Select(driver.find_element(By.ID, "players")).select_by_value(str(len(agents)))
    for seat, spec in enumerate(agents):
        Select(driver.find_element(By.ID, f"seat-{seat}")).select_by_value(spec)
    driver.find_element(By.ID, "seed").send_keys(str(seed))
    driver.find_element(By.ID, "start").click()
    wait(driver, lambda d: d.execute_script("return location.hash").startswith("#/game/"))
    return driver.execute_script("return location.hash").split("/")[2]


def wait_for_decision(driver, game_id: str, after_version: int = -1, timeout: float = 30) -> dict:
    """The page's state of game ``game_id`` once it is newer than ``after_version`` and the seat is
    to move or the game is over."""
    def ready(d):
        state = page_state(d)
        fresh = state and state["id"] == game_id and state["version"] > after_version
        return state if fresh and (state["over"] or state["legal"]) else False

    return wait(driver, ready, timeout)


def click_move(driver, state: dict, action: int) -> None:
    """Play ``action`` as a person would: on the board when the move has an anchor there (then,
    if several moves share it, on the highlighted choice in the list), else on its button."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    move = next(m for m in state["legal"] if m["action"] == action)
    anchor = move["anchor"]
    if anchor:
        shared = [m for m in state["legal"] if m["anchor"] == anchor]
        target = driver.find_element(By.CSS_SELECTOR, f'#board [data-anchor="{anchor}"].legal')
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
        ActionChains(driver, duration=0).move_to_element(target).click().perform()
        if len(shared) == 1:
            return
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#moves button.choice[data-action="{action}"]'))
    button = driver.find_element(By.CSS_SELECTOR, f'#moves button[data-action="{action}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
