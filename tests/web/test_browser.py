"""`paw serve` in a real browser: Debian's Chromium, headless, driven through chromedriver
(selenium), against a real `paw serve` over a real supervisor on a private tmux server with a
scripted agent.

The agent asks, one after the other: an ``allow`` (touch), a ``confirm`` (git push), then waits
for the test's go, a ``block`` (rm -rf /), waits again, and a subject carrying markup and bidi
characters. On a phone's viewport (390x844) the page lists the allow with its kind, exact
subject, verdict and reasons, approves it with one press and the agent takes it; the confirm's
first press only shows the warning, the second step sends. On a desktop's viewport the block
arrives while the page is open, by the server's events (no reload), and offers no approve; with
the events blocked, the short poll brings the last prompt, shown inert; its one-occurrence link
opened in the browser shows that prompt alone, denies it, and is then used up.
"""

from __future__ import annotations

import json
import os
import shutil
from typing import TYPE_CHECKING

import pytest

from tests.support.budget import budget
from tests.web.test_serve import HOSTILE, _link, _live, _serve, _stop

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from libtmux.server import Server
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.remote.webelement import WebElement

pytestmark = [pytest.mark.tmux, pytest.mark.git, pytest.mark.browser]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
PHONE: dict[str, int | bool] = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
DESKTOP: dict[str, int | bool] = {
    "width": 1280,
    "height": 800,
    "deviceScaleFactor": 1,
    "mobile": False,
}
SHOTS = "PAW_WEB_SCREENSHOTS"  # a directory: the test saves its screenshots there (docs/web.md)


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    """One headless Chromium for the module (its start is the slow part)."""
    if CHROMIUM is None or CHROMEDRIVER is None:  # never skipped silently (docs/development.md)
        pytest.fail("needs Chromium and its driver: apt-get install chromium chromium-driver "
                    "(.ci/run installs them where missing)")  # fmt: skip
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-extensions", "--no-first-run", "--window-size=1280,900"):  # fmt: skip
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(budget(60))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def repo(git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose scripted agent records each answer it takes."""
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    steps = (
        "shell touch one.txt",
        "shell git push origin main",
        f"wait {tmp_path / 'go'}",
        "shell rm -rf /",
        f"wait {tmp_path / 'go2'}",
        f"shell {HOSTILE}",
    )
    script = tmp_path / "steps.txt"
    script.write_text("\n".join(steps) + "\n", encoding="utf-8")
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "--script", str(script)])
    record = json.dumps(str(tmp_path / "answers.jsonl"))
    (git_repo / "paw.toml").write_text(
        f"[agents.scripted]\ncommand = {command}\nenv = {{ PAW_DEMO_RECORD = {record} }}\n",
        "utf-8",
    )
    return git_repo


def _answers(tmp_path: Path) -> list[str]:
    """The decisions the agent took, in order (its own record)."""
    path = tmp_path / "answers.jsonl"
    if not path.exists():
        return []
    lines = path.read_text("utf-8").splitlines()
    return [json.loads(line)["decision"] for line in lines if line.strip()]


def _until(
    driver: WebDriver, what: str, check: Callable[[WebDriver], object], s: float = 60
) -> None:
    from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
    from selenium.webdriver.support.wait import WebDriverWait

    wait = WebDriverWait(driver, budget(s), poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,))  # fmt: skip
    try:
        wait.until(check)
    except TimeoutException:
        pytest.fail(f"{what}: not within {budget(s):.0f}s; the page shows:\n{_text(driver)}")


def _text(driver: WebDriver) -> str:
    return str(driver.execute_script("return document.body ? document.body.innerText : ''"))


def _card(driver: WebDriver, subject: str) -> WebElement | None:
    """The prompt card whose subject is exactly ``subject`` (None while not listed)."""
    from selenium.webdriver.common.by import By

    for card in driver.find_elements(By.CSS_SELECTOR, "div.card"):
        pres = card.find_elements(By.CSS_SELECTOR, "pre.subject")
        if pres and pres[0].get_attribute("textContent") == subject:
            return card
    return None


def _wait_card(driver: WebDriver, subject: str) -> WebElement:
    _until(driver, f"a card for {subject!r}", lambda d: _card(d, subject))
    card = _card(driver, subject)
    assert card is not None
    return card


def _buttons(card: WebElement) -> list[str]:
    from selenium.webdriver.common.by import By

    return [str(b.get_attribute("textContent")) for b in card.find_elements(By.TAG_NAME, "button")]


def _press(driver: WebDriver, within: WebElement, label: str) -> None:
    from selenium.webdriver.common.by import By

    (button,) = [b for b in within.find_elements(By.TAG_NAME, "button")
                 if b.get_attribute("textContent") == label]  # fmt: skip
    _fits(driver, button)
    button.click()


def _fits(driver: WebDriver, element: WebElement) -> None:
    """``element`` is shown whole inside the viewport's width, and the page does not scroll
    sideways (the phone test)."""
    width = int(driver.execute_script("return window.innerWidth"))
    scroll = int(driver.execute_script("return document.documentElement.scrollWidth"))
    assert scroll <= width, f"the page scrolls sideways: {scroll}px in {width}px"
    rect = element.rect
    assert element.is_displayed()
    assert rect["x"] >= 0
    assert rect["x"] + rect["width"] <= width, (rect, width)


def _viewport(driver: WebDriver, metrics: dict[str, int | bool]) -> None:
    """Emulate a screen (a page's own viewport meta sets its width on the next load)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def _shot(driver: WebDriver, name: str) -> None:
    folder = os.environ.get(SHOTS)
    if folder:
        driver.save_screenshot(os.path.join(folder, f"web-{name}.png"))  # noqa: PTH118


def _same_as_paw(repo: Path, card: WebElement, subject: str, verdict: str) -> None:
    """The card shows the prompt's kind, verdict and reasons exactly as paw reads them."""
    live = _live(repo, subject)
    assert live.prompt.subject == subject
    assert live.verdict.action.value == verdict
    shown = card.find_element("css selector", ".v").get_attribute("textContent")
    assert shown == verdict
    kind = card.find_element("css selector", "b").get_attribute("textContent")
    assert kind == live.prompt.kind.value == "shell"
    reasons = [li.get_attribute("textContent") for li in card.find_elements("css selector", "li")]
    assert reasons == list(live.verdict.reasons)
    assert reasons or verdict == "allow", "a confirm or block without its reasons"


def _status(driver: WebDriver, row: str) -> str:
    """The status cell of the agents' table row ``row`` (empty while there is none)."""
    cells = driver.find_elements("css selector", f"tr#{row} td")
    return str(cells[2].get_attribute("textContent")) if len(cells) > 2 else ""


def _home(driver: WebDriver, base: str) -> None:
    driver.get(base)
    _until(driver, "the list", lambda d: d.find_elements("id", "board"))


def test_a_phone_and_a_desktop_decide_in_a_real_browser(
    repo: Path, tmp_path: Path, browser: WebDriver
) -> None:
    from paw.cli import main

    assert main(["spawn", "a1", "--agent", "scripted"]) == 0
    proc, url = _serve(repo)
    base = url.split("login?", 1)[0]
    try:
        _viewport(browser, PHONE)
        browser.get(url)  # signs in (a cookie) and lands on the list, the token out of the URL
        _until(browser, "the list after sign-in", lambda d: d.current_url == base)

        # allow: kind, exact subject, verdict and reasons; one press and the agent takes it
        card = _wait_card(browser, "touch one.txt")
        assert browser.execute_script("return window.innerWidth") == PHONE["width"]
        _same_as_paw(repo, card, "touch one.txt", "allow")
        assert _buttons(card) == ["Approve", "Deny"]
        _shot(browser, "phone")
        _press(browser, card, "Approve")
        _until(browser, "the result", lambda d: "Sent" in _text(d))
        _until(browser, "the agent taking it", lambda _d: _answers(tmp_path) == ["approve"])

        # confirm: the first press shows the warning and sends nothing; the second step sends
        _home(browser, base)
        card = _wait_card(browser, "git push origin main")
        _same_as_paw(repo, card, "git push origin main", "confirm")
        assert _buttons(card) == ["Approve…", "Deny"]
        _press(browser, card, "Approve…")
        _until(browser, "the warning", lambda d: d.find_elements("css selector", "pre.warning"))
        warning = browser.find_element("css selector", "pre.warning").get_attribute("textContent")
        assert warning
        assert warning.strip()
        step = browser.find_element("css selector", "div.card")
        assert _buttons(step) == ["Yes, approve it", "Deny"]
        _shot(browser, "phone-confirm")
        assert _answers(tmp_path) == ["approve"]  # nothing sent by the first press
        _press(browser, step, "Yes, approve it")
        _until(browser, "the result", lambda d: "Sent" in _text(d))
        _until(browser, "the agent taking it", lambda _d: _answers(tmp_path) == ["approve"] * 2)

        # desktop: the block arrives while the page is open (no reload) and offers no approve
        _viewport(browser, DESKTOP)
        _home(browser, base)
        assert browser.execute_script("return window.innerWidth") == DESKTOP["width"]
        _until(browser, "an empty list", lambda d: "No live prompt." in _text(d))
        browser.execute_script("window.pawStillHere = true")
        (tmp_path / "go").touch()
        card = _wait_card(browser, "rm -rf /")
        assert browser.execute_script("return window.pawStillHere === true"), "the page reloaded"
        live = browser.execute_script("return document.getElementById('board').dataset.live")
        assert live == "events", f"updated by {live!r}, not by the server's events"
        _same_as_paw(repo, card, "rm -rf /", "block")
        assert _buttons(card) == ["Deny"]
        # the agent's row of the table follows (the stream sends that row alone)
        _until(browser, "a1's row saying prompt", lambda d: _status(d, "ag-0") == "prompt")
        # its age moves on the page's clock (the stream sends no part for ages alone)
        age = card.find_element("css selector", ".age")
        first = age.get_attribute("textContent")
        _until(browser, "the age moving", lambda _d: age.get_attribute("textContent") != first)
        assert "Needs the terminal" in str(card.get_attribute("textContent"))
        _shot(browser, "desktop")
        _press(browser, card, "Deny")
        _until(browser, "the result", lambda d: "Sent" in _text(d))
        _until(browser, "the agent taking the deny", lambda _d: len(_answers(tmp_path)) == 3)
        assert _answers(tmp_path)[-1] == "deny"

        # the events cannot be had (a proxy in the way): the short poll brings the next prompt
        browser.execute_cdp_cmd("Network.enable", {})
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/events*"]})
        _home(browser, base)
        _until(browser, "an empty list", lambda d: "No live prompt." in _text(d))
        browser.execute_script("window.pawStillHere = true")
        (tmp_path / "go2").touch()
        # a subject with markup, bidi and soft-hyphen characters: shown as inert text
        shown = HOSTILE.replace("\u202e", "\\u202e").replace("\u2066", "\\u2066")
        shown = shown.replace("\u2069", "\\u2069").replace("\u00ad", "\\u00ad")
        card = _wait_card(browser, shown)
        assert browser.execute_script("return window.pawStillHere === true"), "the page reloaded"
        live = browser.execute_script("return document.getElementById('board').dataset.live")
        assert live == "poll", live
        assert browser.execute_script("return document.scripts.length") == 1  # paw's own
        assert not card.find_elements("css selector", "pre.subject b")
        hostile = _live(repo, "exe.txt")
        offered = {"allow": ["Approve", "Deny"], "confirm": ["Approve…", "Deny"], "block": ["Deny"]}
        assert _buttons(card) == offered[hostile.verdict.action.value]

        # its one-occurrence link, opened in the browser: that prompt only; a deny, then used up
        link = base.rstrip("/") + _link(repo, hostile)
        browser.get(link)
        _until(browser, "the link's page", lambda d: _card(d, shown))
        page = browser.find_element("tag name", "body")
        assert "Agents (" not in str(page.get_attribute("textContent"))  # no list
        card = _wait_card(browser, shown)
        _press(browser, card, "Deny")
        _until(browser, "the result", lambda d: "Sent" in _text(d))
        _until(browser, "the agent taking the deny", lambda _d: len(_answers(tmp_path)) == 4)
        assert _answers(tmp_path)[-1] == "deny"
        browser.get(link)
        _until(browser, "the used link's page", lambda d: "Link used" in _text(d))
        assert not browser.find_elements("tag name", "button")
    finally:
        _stop(proc)
