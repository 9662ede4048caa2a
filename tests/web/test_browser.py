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

Also: docs/web.md's screenshots, made and checked here (``PAW_WEB_SCREENSHOTS=DIR`` saves them
in DIR too), and the short poll of a browser without EventSource, which applies only the parts
that changed.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import struct
import subprocess
import time
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw.cli.compose import build_supervisor
from tests.support.budget import budget
from tests.support.hook_stand_in import permission_request
from tests.web.test_serve import HOSTILE, _link, _live, _serve, _stop

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

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
# (resolved now: the tests change directory into their repositories)
SHOTS_DIR = Path(os.environ[SHOTS]).resolve() if os.environ.get(SHOTS) else None


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


def _pixels(png: bytes) -> tuple[int, int, set[bytes]]:
    """A PNG's width, height and distinct colours (8-bit RGB or RGBA, not interlaced: what
    Chromium writes), decoded here, not by the browser that drew it."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, head = 8, b"", b""
    while pos < len(png):
        (size,), kind = struct.unpack(">I", png[pos : pos + 4]), png[pos + 4 : pos + 8]
        data = png[pos + 8 : pos + 8 + size]
        head, idat = (data, idat) if kind == b"IHDR" else (head, idat + data * (kind == b"IDAT"))
        pos += 12 + size
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", head)
    assert (depth, colour, interlace) in ((8, 2, 0), (8, 6, 0)), (depth, colour, interlace)
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    assert len(raw) == height * (stride + 1), "truncated image data"
    prev, colours = bytearray(stride), set[bytes]()
    for y in range(height):
        kind, row = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for i in range(stride) if kind else ():
            a = row[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 2:
                row[i] = (row[i] + b) & 255
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 4 == 0:  # (every fourth row is plenty to tell a page from a blank)
            colours.update(bytes(row[x : x + bpp]) for x in range(0, stride, bpp * 2))
        prev = row
    return width, height, colours


def _check_png(png: bytes, width: int, height: int | None = None) -> None:
    """``png`` is a real PNG ``width`` wide (and ``height`` high, when given) that shows a
    page, not a blank: a blank (or one flat colour) has a handful of colours, a page with
    text, verdict badges and buttons has hundreds (anti-aliased glyphs)."""
    w, h, colours = _pixels(png)
    assert w == width, f"{w}px wide, not {width}"
    assert height is None or h == height, f"{h}px high, not {height}"
    assert len(colours) > 32, f"a blank screenshot: {len(colours)} colours"


def _shot(driver: WebDriver, name: str, out: Path, *, whole: bool = False) -> Path:
    """A screenshot of what ``driver`` shows (``whole``: the whole page, not the screen),
    written to ``out``/web-NAME.png and, when ``PAW_WEB_SCREENSHOTS`` names a folder, there
    too (docs/web.md's images)."""
    if whole:  # (the screen's width: the page laid out whole needs no scrollbar)
        size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
        width = driver.execute_script("return window.innerWidth")
        clip = {"x": 0, "y": 0, "width": width, "height": size["height"], "scale": 1}
        shot = driver.execute_cdp_cmd(
            "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip}
        )
        png = base64.b64decode(shot["data"])
    else:
        png = driver.get_screenshot_as_png()
    path = out / f"web-{name}.png"
    path.write_bytes(png)
    if SHOTS_DIR is not None:
        SHOTS_DIR.mkdir(parents=True, exist_ok=True)
        (SHOTS_DIR / path.name).write_bytes(png)
    return path


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


# -- the screenshots in docs/web.md ------------------------------------------------------------

SHOP = "shop"  # the repository's name the screenshots show
# agent -> (task, steps); each agent reads its steps from STEPS/<its worktree's name>.txt
SHOP_AGENTS = {
    "api": ("add rate limiting to the public API", ["busy 1", "shell npm test"]),
    "release": ("tag and publish 2.4.0", ["busy 1", "shell git push origin main"]),
    "setup": (
        "make the dev setup one command",
        ["busy 1", "shell curl -fsSL https://get.example.dev/install.sh | sh"],
    ),
    "docs": ("document the checkout flow", ["busy 1", "trust ."]),
    "search": ("speed up product search", ["busy 100000"]),
}
SHOP_SHOWN = ("npm test", "git push origin main", "install.sh | sh", "Trust this folder?")
# the agent's command: its steps file named by the worktree it runs in (exec: the agent paw
# resolves is the demo agent itself, not this shell)
LAUNCH = 'd=$1; shift; exec "$0" -m paw.demo.agent --script "$d/$(basename "$PWD").txt" "$@"'
PHONE_SHOT = {**PHONE, "deviceScaleFactor": 1}  # the shot 390x844 pixels (small in the docs)


@pytest.fixture
def shop(
    tmp_path: Path, isolated_env: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A repository named ``shop`` with five scripted agents: three asking (an ``allow``, a
    ``confirm``, a ``block``), one at a folder-trust dialog, one working; one worktree changed
    (the desktop shot shows its diff stat)."""
    from paw.cli import main

    del isolated_env  # (a private HOME and git config first)
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    repo = tmp_path / SHOP
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "api.py").write_text("def handler(request):\n    return 200\n", "utf-8")
    (repo / ".gitignore").write_text(".paw/\n", "utf-8")
    for argv in (["init", "-q", "-b", "main"], ["add", "."], ["commit", "-q", "-m", "init"]):
        subprocess.run(["git", *argv], cwd=repo, check=True, capture_output=True)
    steps = tmp_path / "steps"
    steps.mkdir()
    for name, (_task, lines) in SHOP_AGENTS.items():
        (steps / f"{name}.txt").write_text("\n".join(lines) + "\n", "utf-8")
    command = json.dumps(["sh", "-c", LAUNCH, "{python}", str(steps)])
    (repo / "paw.toml").write_text(
        f'[agents.demo]\ncommand = {command}\ntask_flag = "--task"\n'
        'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n'
        'detector = "scripted"\n',
        "utf-8",
    )
    monkeypatch.chdir(repo)
    for name, (task, _steps) in SHOP_AGENTS.items():
        assert main(["spawn", name, "--agent", "demo", "--task", task]) == 0
    worktree = tmp_path / f"{SHOP}-paw" / "api"
    (worktree / "src" / "api.py").write_text(
        "from limits import Limiter\n\nLIMIT = Limiter(per_minute=60)\n\n\n"
        "def handler(request):\n    if not LIMIT.take(request.client):\n"
        "        return 429\n    return 200\n",
        "utf-8",
    )
    (worktree / "src" / "limits.py").write_text("class Limiter:\n    ...\n", "utf-8")
    return repo


def _all_listed(driver: WebDriver) -> bool:
    """Every prompt of the shop listed (with its verdict) and the page on the server's events."""
    live = driver.execute_script("var b=document.getElementById('board');return b&&b.dataset.live")
    return live == "events" and all(s in _text(driver) for s in SHOP_SHOWN)


def _no_machine_paths(driver: WebDriver, forbidden: list[str]) -> None:
    """The page names the repository by its directory and shows no path of this machine."""
    page = _text(driver) + str(driver.execute_script("return document.documentElement.outerHTML"))
    for path in forbidden:
        assert path not in page, f"the page shows a path of this machine: {path}"
    assert driver.execute_script("return document.title") == f"paw · {SHOP}"


def test_the_docs_screenshots_phone_and_desktop(
    shop: Path, tmp_path: Path, browser: WebDriver
) -> None:
    """docs/web.md's screenshots, made here: the page listing every live prompt with its
    verdict on a phone (390x844, the screen) and on a desktop (1280 wide, the whole page with
    one agent's pane and diff stat). Each is checked a real PNG of that size that shows a
    page (not a blank), and saved in tmp_path, and in ``PAW_WEB_SCREENSHOTS`` when set
    (docs/web.md: ``PAW_WEB_SCREENSHOTS=docs/img .venv/bin/python -m pytest
    tests/web/test_browser.py -k docs_screenshots``).
    """
    proc, url = _serve(shop, "--no-qr")
    base = url.split("login?", 1)[0]
    forbidden = [str(tmp_path), str(Path.home()), str(tmp_path.resolve())]
    browser.execute_cdp_cmd("Network.enable", {})  # (a test before may have blocked them)
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    try:
        browser.get(url)  # signs in (a cookie), then the list
        _until(browser, "the list after sign-in", lambda d: d.current_url == base)
        for name, metrics, query, whole in (
            ("phone", PHONE_SHOT, "", False),
            ("desktop", DESKTOP, "?agent=api", True),
        ):
            _viewport(browser, metrics)
            browser.get(base + query)
            _until(browser, f"every prompt listed ({name})", _all_listed, s=120)
            assert browser.execute_script("return window.innerWidth") == metrics["width"]
            if whole:
                _until(browser, "api's diff stat", lambda d: "limits.py" in _text(d))
            _no_machine_paths(browser, forbidden)
            for subject, verdict in (("npm test", "allow"), ("git push origin main", "confirm")):
                badge = _wait_card(browser, subject).find_element("css selector", ".v")
                assert badge.get_attribute("textContent") == verdict
            png = _shot(browser, name, tmp_path, whole=whole).read_bytes()
            _check_png(png, int(metrics["width"]), None if whole else int(metrics["height"]))
            if whole:
                assert _pixels(png)[1] >= int(metrics["height"])
    finally:
        _stop(proc)


def test_a_blank_page_is_no_screenshot(browser: WebDriver) -> None:
    """The screenshot check tells a blank from a page: the same shot of an empty page fails."""
    _viewport(browser, PHONE_SHOT)
    browser.get("about:blank")
    png = browser.get_screenshot_as_png()  # (as _shot takes it; never into the docs)
    assert _pixels(png)[:2] == (390, 844)
    with pytest.raises(AssertionError, match="a blank screenshot"):
        _check_png(png, 390, 844)
    with pytest.raises(AssertionError, match="wide"):
        _check_png(png, 1280, 844)
    with pytest.raises(AssertionError, match="not a PNG"):
        _check_png(b"<html>" + png, 390, 844)


# -- the short poll, without EventSource -------------------------------------------------------


def test_without_event_source_the_poll_applies_only_what_changed(
    repo: Path, tmp_path: Path, browser: WebDriver
) -> None:
    """A browser without EventSource (deleted before the page's script runs) polls ``/board``
    for the parts that changed and applies them as the stream's events: a new prompt appears,
    a decided one leaves, and a part that did not change is not replaced (the agents' heading,
    marked by the test, is the same node with its mark)."""
    from paw.cli import main

    assert main(["spawn", "a1", "--agent", "scripted"]) == 0
    proc, url = _serve(repo, "--no-qr")
    base = url.split("login?", 1)[0]
    browser.execute_cdp_cmd("Network.enable", {})  # (a test before may have blocked the events)
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    added = browser.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.EventSource;"}
    )
    try:
        _viewport(browser, DESKTOP)
        browser.get(url)
        _until(browser, "the list after sign-in", lambda d: d.current_url == base)
        assert browser.execute_script("return typeof window.EventSource") == "undefined"
        _until(
            browser,
            "the poll",
            lambda d: d.find_element("id", "board").get_attribute("data-live") == "poll",
        )
        browser.execute_script(
            "var h=document.querySelector('#pt-agents h2');h.setAttribute('data-mark','kept');"
            "window.pawKept=h;window.pawStillHere=true"
        )
        _wait_card(browser, "touch one.txt")  # (on the page as loaded, or brought by the poll)
        allow = _live(repo, "touch one.txt")
        assert main(["approve", allow.id]) == 0
        _until(browser, "the decided prompt gone and the next one shown", lambda d: (
            _card(d, "touch one.txt") is None and _card(d, "git push origin main") is not None
        ))  # fmt: skip
        assert _answers(tmp_path) == ["approve"]
        assert browser.execute_script("return window.pawStillHere === true"), "the page reloaded"
        board = browser.find_element("id", "board")
        assert board.get_attribute("data-live") == "poll"
        kept = browser.execute_script(
            "var h=window.pawKept;return document.contains(h)&&h.getAttribute('data-mark')"
        )
        assert kept == "kept", "the unchanged agents' part was replaced"
        card = _wait_card(browser, "git push origin main")
        _same_as_paw(repo, card, "git push origin main", "confirm")
        have = str(board.get_attribute("data-have"))
        assert re.fullmatch(r"(\w+:[0-9a-f]{32},){4}\w+:[0-9a-f]{32}", have), have
    finally:
        browser.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]}
        )
        _stop(proc)


# -- what a browser is refused, or offered nothing ---------------------------------------------

# A subject a hook channel hands paw as it came: an OSC (set the title, then the clipboard), a
# zero-width space, joiner and BOM. A screen never carries these (tmux takes the OSC itself).
OSC_SUBJECT = "echo \x1b]0;pwned\x07hi\x1b]52;c;cm0gLXJm\x1b\\ a\u200bb\u200dc\ufeffd"
INVISIBLE = ("\x1b", "\x07", "\u200b", "\u200d", "\ufeff")


@pytest.fixture
def refusals(
    git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A repository with two agents: the scripted one asks an ``allow`` (touch) and then shows
    a folder-trust dialog; the hook-channel stand-in (:mod:`tests.support.hook_stand_in`) asks,
    once the test writes its go file, for :data:`OSC_SUBJECT` through paw's real hook program."""
    from tests.support.hook_stand_in import agent_table, install_stand_in

    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    script = tmp_path / "steps.txt"
    script.write_text("shell touch one.txt\ntrust .\n", encoding="utf-8")
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "--script", str(script)])
    record = json.dumps(str(tmp_path / "answers.jsonl"))
    agent, go = install_stand_in(tmp_path)
    (git_repo / "paw.toml").write_text(
        f"[agents.scripted]\ncommand = {command}\nenv = {{ PAW_DEMO_RECORD = {record} }}\n"
        + "\n".join(agent_table(agent, go)) + "\n",
        "utf-8",
    )  # fmt: skip
    return git_repo


class _Origin:
    """Another web origin on this machine (127.0.0.1 or localhost, its own port): one page
    whose form posts to paw by itself as it loads, as another site's page would."""

    def __init__(self) -> None:
        import http.server
        import threading

        self.page = b""
        origin = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write(origin.page)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                del format, args

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def posting(self, target: str, form: dict[str, str]) -> None:
        """Serve a page that POSTs ``form`` to ``target`` (another origin's URL) on load."""
        import html

        fields = "".join(
            f"<input type=hidden name='{html.escape(k)}' value='{html.escape(v)}'>"
            for k, v in form.items()
        )
        self.page = (
            f"<!doctype html><html><body><form method=post action='{html.escape(target)}'>"
            f"{fields}</form><script>document.forms[0].submit()</script></body></html>"
        ).encode()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


def _sends(repo: Path, prompt: str) -> list[dict[str, object]]:
    """The audit's records of keys or an answer sent for ``prompt``."""
    lines = (repo / ".paw" / "audit.jsonl").read_text("utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    return [r for r in records if r.get("prompt_id") == prompt and r.get("decision") == "send"]


def _csrf(driver: WebDriver) -> str:
    """The CSRF token of the first form the browser shows (what another site's page would
    need to know: the test hands it over, so that only the browser's own defences remain)."""
    value = driver.find_element("css selector", "input[name=csrf]").get_attribute("value")
    assert value
    return str(value)


def _refused_from(driver: WebDriver, origin: _Origin, host: str, expect: str) -> None:
    """The browser opens ``origin``'s page at ``host`` (it posts to paw at once) and lands
    on paw's answer, which says ``expect``."""
    driver.get(f"http://{host}:{origin.port}/")
    _until(driver, f"paw's answer to the post from {host}", lambda d: expect in _text(d))
    assert not driver.find_elements("tag name", "button")


def test_a_browser_is_refused_what_it_should_not_have_and_offered_nothing_it_cannot_do(
    refusals: Path, tmp_path: Path, browser: WebDriver
) -> None:
    """In Chromium: a wrong token signs nobody in; another origin's page that posts a decision
    (with the session's own CSRF token, or a link's) is refused by the browser's SameSite
    cookie (another site) or by paw's Sec-Fetch-Site check (another port of this site), and
    nothing is sent; an expired link and a link whose prompt was answered say so and offer
    nothing; a dialog only a human can answer offers no button; a subject carrying OSC and
    zero-width characters (through a hook channel) is shown as visible escapes."""
    from paw.cli import main
    from paw.core.printable import printable
    from tests.support.hook_stand_in import launched_pid, stop_hooks

    assert main(["spawn", "a1", "--agent", "scripted"]) == 0
    proc, url = _serve(refusals, "--no-qr")
    base = url.split("login?", 1)[0]
    port = int(base.rsplit(":", 1)[1].strip("/"))
    origin, pid = _Origin(), None
    browser.execute_cdp_cmd("Network.enable", {})  # (a test before may have blocked the events)
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    browser.execute_cdp_cmd("Network.clearBrowserCookies", {})  # (a test before signed in)
    try:
        _viewport(browser, DESKTOP)
        # a wrong token: refused, no cookie, and the list stays closed
        browser.get(base + "login?token=wrong")
        _until(browser, "the refusal", lambda d: "Not signed in" in _text(d))
        assert "wrong or old token" in _text(browser)
        assert browser.get_cookies() == []
        browser.get(base)
        _until(browser, "the list refused", lambda d: "Not signed in" in _text(d))
        assert not browser.find_elements("id", "board")

        browser.get(url)  # the right one signs in
        _until(browser, "the list after sign-in", lambda d: d.current_url == base)
        _wait_card(browser, "touch one.txt")
        allow = _live(refusals, "touch one.txt")
        csrf = _csrf(browser)
        decision = {"csrf": csrf, "prompt": allow.id, "action": "approve"}
        # another site (localhost, another port) posts the decision: Chromium keeps the
        # SameSite=Strict cookie back, so paw sees nobody signed in
        origin.posting(f"http://127.0.0.1:{port}/decide", decision)
        _refused_from(browser, origin, "localhost", "Not signed in")
        # another origin of this site (127.0.0.1, another port): the cookie goes along (same
        # site), the browser says where the post comes from and paw refuses it
        _refused_from(browser, origin, "127.0.0.1", "a request from another site")
        # the prompt's link, posted from there with the link's own form token: refused too
        link = base.rstrip("/") + _link(refusals, allow)
        browser.get(link)
        _until(browser, "the link's page", lambda d: _card(d, "touch one.txt"))
        origin.posting(link, {**decision, "csrf": _csrf(browser)})
        _refused_from(browser, origin, "127.0.0.1", "a request from another site")
        assert _sends(refusals, allow.id) == []
        assert _answers(tmp_path) == []

        # an expired link: it says so and offers nothing
        browser.get(base.rstrip("/") + _link(refusals, allow, now=time.time() - 3600))
        _until(browser, "the expired link's page", lambda d: "expired" in _text(d))
        assert "Not a valid link" in _text(browser)
        assert not browser.find_elements("tag name", "form")
        # the link still opens its prompt, until the prompt is answered (here, on the list)
        browser.get(link)
        _until(browser, "the link's page", lambda d: _card(d, "touch one.txt"))
        _home(browser, base)
        _press(browser, _wait_card(browser, "touch one.txt"), "Approve")
        _until(browser, "the result", lambda d: "Sent" in _text(d))
        _until(browser, "the agent taking it", lambda _d: _answers(tmp_path) == ["approve"])
        browser.get(link)
        _until(browser, "the answered link's page", lambda d: "Nothing to decide" in _text(d))
        assert "changed, ended or was answered" in _text(browser)
        assert not browser.find_elements("tag name", "form")

        # a dialog only a human can answer: said so, no button
        _home(browser, base)
        _until(browser, "the trust dialog", lambda d: "Trust this folder?" in _text(d))
        (card,) = browser.find_elements("css selector", "div.card")
        assert "A dialog only a human can answer" in str(card.get_attribute("textContent"))
        assert _buttons(card) == []
        assert not card.find_elements("tag name", "form")

        # a subject with OSC and zero-width characters, through a hook channel: inert
        assert main(["spawn", "q1", "--agent", "qwen-code"]) == 0
        pid = launched_pid(build_supervisor(str(refusals)).ctx.state, "q1")
        event = permission_request(OSC_SUBJECT)
        (tmp_path / "go.json").write_text(json.dumps(event), encoding="utf-8")
        title = browser.title
        shown = printable(OSC_SUBJECT)
        card = _wait_card(browser, shown)
        assert "\\x1b]0;pwned\\x07" in shown
        assert "\\u200b" in shown
        text = _text(browser)
        for char in INVISIBLE:
            assert char not in text
        assert browser.title == title
        assert not card.find_elements("css selector", "pre.subject *")
        qwen = _live(refusals, "pwned")
        assert qwen.prompt.subject == OSC_SUBJECT  # paw read it exactly; the page shows it inert
        _press(browser, card, "Deny")
        _until(browser, "the result", lambda d: "Sent" in _text(d))
        (sent,) = _sends(refusals, qwen.id)
        assert sent["path"] == "channel"
    finally:
        origin.close()
        if pid is not None:
            stop_hooks(pid)
        _stop(proc)
