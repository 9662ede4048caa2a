"""Make the screenshots of `paw serve` in docs/web.md: a phone (390x844) and a desktop.

Everything is real: a git repository (named ``shop``) under a temporary directory, a private
tmux server, five scripted agents spawned by `paw spawn` (three of them asking: an ``allow``, a
``confirm`` and a ``block``; one at a folder-trust dialog; one working), `paw serve` as a
subprocess, and Debian's Chromium driven headless through chromedriver (selenium), signed in
with the URL `paw serve` printed. The shots are taken once every prompt is listed with its
verdict and the page follows the server's events.

Before saving, the script checks what the page shows: no absolute path of this machine (the
temporary directory, the home directory) anywhere in its text or title, and the title names the
repository by its directory. A failed check saves nothing and exits 1.

Usage: .venv/bin/python scripts/web_screenshots.py [--out docs/img]
Writes OUT/web-phone.png (the phone's screen) and OUT/web-desktop.png (the whole page, with
one agent's details). Needs chromium and chromium-driver
(apt-get install chromium chromium-driver). Ends only what it started: its `paw serve` (by its
process) and its own tmux server (socket ``paw-shots-<pid>``).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from paw.cli.demo import kill_tmux_server

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

REPO = "shop"
PHONE: dict[str, object] = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
DESKTOP: dict[str, object] = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}
# agent -> (task, steps); an agent's steps are read from STEPS/<its worktree's name>.txt
AGENTS = {
    "api": ("add rate limiting to the public API", ["busy 1", "shell npm test"]),
    "release": ("tag and publish 2.4.0", ["busy 1", "shell git push origin main"]),
    "setup": (
        "make the dev setup one command",
        ["busy 1", "shell curl -fsSL https://get.example.dev/install.sh | sh"],
    ),
    "docs": ("document the checkout flow", ["busy 1", "trust ."]),
    "search": ("speed up product search", ["busy 100000"]),
}
SHOWN = ("npm test", "git push origin main", "install.sh | sh", "Trust this folder?")
# the agent's command: its steps file named by the worktree it runs in (exec: the agent paw
# resolves is the demo agent itself, not this shell)
LAUNCH = 'd=$1; shift; exec "$0" -m paw.demo.agent --script "$d/$(basename "$PWD").txt" "$@"'
WAIT_S = 120.0


def run(argv: list[str], cwd: Path, env: dict[str, str]) -> None:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:4])}: {done.stderr.strip() or done.stdout.strip()}")


def make_repo(root: Path, env: dict[str, str]) -> Path:
    repo = root / REPO
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "api.py").write_text("def handler(request):\n    return 200\n", "utf-8")
    (repo / ".gitignore").write_text(".paw/\n", "utf-8")
    run(["git", "init", "-q", "-b", "main"], repo, env)
    run(["git", "add", "."], repo, env)
    run(["git", "commit", "-q", "-m", "init"], repo, env)
    steps = root / "steps"
    steps.mkdir()
    for name, (_task, lines) in AGENTS.items():
        (steps / f"{name}.txt").write_text("\n".join(lines) + "\n", "utf-8")
    command = json.dumps(["sh", "-c", LAUNCH, "{python}", str(steps)])
    (repo / "paw.toml").write_text(
        "[agents.demo]\n"
        f"command = {command}\n"
        'task_flag = "--task"\n'
        'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n'
        'detector = "scripted"\n',
        "utf-8",
    )
    return repo


def serve(repo: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "paw", "serve", "--port", "0", "--no-qr"],
        cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    line = proc.stdout.readline() if proc.stdout is not None else ""
    if not line.startswith("paw serve: http"):
        proc.kill()
        raise SystemExit(f"paw serve did not start: {line}{proc.communicate()[1]}")
    return proc, line.split()[2]


def browser() -> WebDriver:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        raise SystemExit("needs chromium and chromium-driver (apt-get install them)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-extensions", "--no-first-run", "--hide-scrollbars",
                "--window-size=1280,900"):  # fmt: skip
        options.add_argument(arg)
    return webdriver.Chrome(options=options, service=Service(driver))


def until(what: str, check: object) -> None:
    end = time.monotonic() + WAIT_S
    while not callable(check) or not check():
        if time.monotonic() > end:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.1)


def text_of(driver: WebDriver) -> str:
    return str(driver.execute_script("return document.title + '\\n' + document.body.innerText"))


def ready(driver: WebDriver) -> bool:
    """Every prompt listed (with its verdict) and the page on the server's events."""
    text = text_of(driver)
    live = driver.execute_script("var b=document.getElementById('board');return b&&b.dataset.live")
    return live == "events" and all(s in text for s in SHOWN)


def check_no_paths(driver: WebDriver, forbidden: list[str]) -> None:
    text = text_of(driver)
    html = str(driver.execute_script("return document.documentElement.outerHTML"))
    for path in forbidden:
        if path in text or path in html:
            raise SystemExit(f"the page shows a path of this machine ({path}): no screenshot")
    title = str(driver.execute_script("return document.title"))
    if title != f"paw · {REPO}":
        raise SystemExit(f"the title is {title!r}, not the repository's name: no screenshot")


def shoot(driver: WebDriver, url: str, metrics: dict[str, object], out: Path,
          forbidden: list[str], *, whole: bool = False) -> None:  # fmt: skip
    """One screenshot of ``url`` at ``metrics`` (``whole``: the whole page, not the screen)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    driver.get(url)
    until("every prompt on the page", lambda: ready(driver))
    time.sleep(0.5)  # (fonts and the last morph painted)
    check_no_paths(driver, forbidden)
    if not whole:
        driver.save_screenshot(str(out))
    else:
        size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
        shot = driver.execute_cdp_cmd(
            "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip}
        )
        out.write_bytes(base64.b64decode(shot["data"]))
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--out", type=Path, default=Path("docs/img"), help="where (docs/img)")
    args = parser.parse_args()
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    socket_name = f"paw-shots-{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="paw-shots-") as tmp:
        root = Path(tmp)
        env = {
            **os.environ,
            "PAW_TMUX_SOCKET": socket_name,
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "paw",
            "GIT_AUTHOR_EMAIL": "paw@example.invalid",
            "GIT_COMMITTER_NAME": "paw",
            "GIT_COMMITTER_EMAIL": "paw@example.invalid",
        }
        repo = make_repo(root, env)
        forbidden = [str(root), str(Path.home()), str(Path(tmp).resolve())]
        proc: subprocess.Popen[str] | None = None
        driver: WebDriver | None = None
        try:
            for name, (task, _steps) in AGENTS.items():
                run([sys.executable, "-m", "paw", "spawn", name, "--agent", "demo",
                     "--task", task], repo, env)  # fmt: skip
            # a change in one worktree: the desktop shot shows that agent's diff stat
            worktree = root / f"{REPO}-paw" / "api"
            (worktree / "src" / "api.py").write_text(
                "from limits import Limiter\n\nLIMIT = Limiter(per_minute=60)\n\n\n"
                "def handler(request):\n    if not LIMIT.take(request.client):\n"
                "        return 429\n    return 200\n",
                "utf-8",
            )
            (worktree / "src" / "limits.py").write_text("class Limiter:\n    ...\n", "utf-8")
            proc, url = serve(repo, env)
            driver = browser()
            driver.set_page_load_timeout(WAIT_S)
            base = url.split("/login", 1)[0]
            driver.get(url)  # signs in (the cookie), then the list
            shoot(driver, f"{base}/", PHONE, out / "web-phone.png", forbidden)
            shoot(
                driver,
                f"{base}/?agent=api",
                DESKTOP,
                out / "web-desktop.png",
                forbidden,
                whole=True,
            )
        finally:
            if driver is not None:
                driver.quit()
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            kill_tmux_server(socket_name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
