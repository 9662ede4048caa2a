"""Benchmark `paw serve`: a prompt drawn in an agent's pane -> the server-sent event that shows
it on an open page.

One process runs the page twice over the same repository and agents on a private tmux server,
each time with uvicorn on 127.0.0.1 (a free port) and one signed-in page reading ``/events``:

* ``poll`` (the baseline, the page before the feed): the page's own loop, a ``poll_once`` at
  most every 0.5 s shared by the open pages, each stream looking every 0.25 s;
* ``feed``: what `paw serve` runs: the supervisor's feed (:mod:`paw.supervisor.feed`) sweeping
  on tmux control mode's pane events, every open stream woken by the new picture.

One ``asker`` agent draws a prompt when told (a file appears); the others sit idle. The
scripted agent stamps each prompt box when it has drawn it (``PAW_DEMO_STAMP``); the latency is
the time the event carrying that prompt was read off the stream minus the stamp (same clock,
same machine). The prompt times out on its own (the agent's ``@1``) before the next one.

Usage: .venv/bin/python scripts/bench_web.py [--agents 10] [--prompts 20]
Everything runs in a temporary repository and on the socket ``paw-bench-web-<pid>``; the
server is killed at the end (only this script's own socket).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import uvicorn

from paw.cli.compose import build_fleet, build_supervisor
from paw.cli.demo import kill_tmux_server
from paw.cli.serve import start_feed
from paw.web.app import WebSettings, create_app
from paw.web.auth import hash_token, new_token
from paw.web.source import Source

PROMPT_TIMEOUT_S = 1.0  # each prompt gives up after this long (the agent's own timeout)
MAX_PROMPTS = 200


def config(socket_name: str, root: Path, stamp: Path) -> str:
    asker: list[str] = []
    for k in range(MAX_PROMPTS):
        asker += [f"wait {root / f'go{k}'}", f"shell@{PROMPT_TIMEOUT_S} echo p{k:03d}"]
    kinds = {"idle": ["busy 0.1"], "asker": asker}
    lines = ["[tmux]", f'socket_name = "{socket_name}"', ""]
    for kind, steps in kinds.items():
        command = ", ".join(json.dumps(p) for p in ("{python}", "-m", "paw.demo.agent", *steps))
        lines += [
            f"[agents.{kind}]",
            f"command = [{command}]",
            'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }',
            'detector = "scripted"',
            f"env = {{ PAW_DEMO_STAMP = {json.dumps(str(stamp))} }}",
            "",
        ]
    return "\n".join(lines)


def make_repo(root: Path, socket_name: str, stamp: Path) -> Path:
    repo = root / "repo"
    repo.mkdir()
    ident = ["-c", "user.name=paw bench", "-c", "user.email=bench@paw.invalid"]
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    (repo / ".gitignore").write_text(".paw/\n", encoding="utf-8")
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    subprocess.run(["git", *ident, "commit", "-q", "-m", "init"], cwd=repo, check=True)
    (repo / "paw.toml").write_text(config(socket_name, root, stamp), encoding="utf-8")
    return repo


def wait_for(check: Callable[[], bool], what: str, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.01)


def stamps(path: Path) -> dict[str, float]:
    """subject -> when the agent drew its prompt box (epoch seconds)."""
    if not path.exists():
        return {}
    out: dict[str, float] = {}
    for line in path.read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            out[row["subject"]] = row["drawn"]
    return out


def stamped(path: Path, subject: str) -> bool:
    return subject in stamps(path)


class Page:
    """One signed-in page reading ``/events``: each event with when it was read."""

    def __init__(self, port: int, token: str) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", f"/login?token={token}")
        got = conn.getresponse()
        got.read()
        self.cookie = (got.getheader("set-cookie") or "").split(";", 1)[0]
        conn.close()
        self.port = port
        self.events: list[tuple[float, str]] = []
        self.lock = threading.Lock()
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        self.conn.request("GET", "/events", headers={"Cookie": self.cookie})
        response = self.conn.getresponse()
        data: list[str] = []
        try:
            while True:
                raw = response.readline()
                if not raw:
                    return
                line = raw.decode("utf-8").rstrip("\n")
                if line.startswith("data: "):
                    data.append(line[6:])
                elif not line and data:
                    at = time.time()
                    with self.lock:
                        self.events.append((at, "\n".join(data)))
                    data = []
        except (OSError, AttributeError, ValueError):  # closed under the reader (the end)
            return

    def first_with(self, needle: str, since: int) -> float | None:
        with self.lock:
            return next((at for at, text in self.events[since:] if needle in text), None)

    def shows(self, needle: str, since: int) -> bool:
        return self.first_with(needle, since) is not None

    def gone(self, needle: str) -> bool:
        return needle not in self.latest()

    def latest(self) -> str:
        with self.lock:
            return self.events[-1][1] if self.events else ""

    def count(self) -> int:
        with self.lock:
            return len(self.events)

    def close(self) -> None:
        if self.conn.sock is not None:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()


def run_mode(mode: str, repo: Path, root: Path, stamp: Path, first: int, n: int) -> list[float]:
    """Latencies (ms) of prompts ``first``..``first+n-1`` on an open page in ``mode``."""
    sup = build_fleet(str(repo), control=mode == "feed")
    feed = start_feed(sup) if mode == "feed" else None
    source = Source(sup, time.time, feed)
    source.start()
    token = new_token()
    settings = WebSettings(repo=sup.ctx.repo_root, token_hash=hash_token(token))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(source, settings), log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: server.run(sockets=[sock]), daemon=True)
    thread.start()
    wait_for(lambda: server.started, "the server")
    page = Page(port, token)
    wait_for(lambda: "Agents (" in page.latest(), "the page's first event")
    out: list[float] = []
    try:
        for k in range(first, first + n):
            subject = f"echo p{k:03d}"
            since = page.count()
            (root / f"go{k}").touch()
            wait_for(partial(page.shows, subject, since), subject, 30)
            shown = page.first_with(subject, since)
            wait_for(partial(stamped, stamp, subject), f"the stamp of {subject}")
            if shown is None:
                raise SystemExit(f"{subject}: no event")
            out.append((shown - stamps(stamp)[subject]) * 1000)
            # the prompt times out; the page shows it gone before the next one
            wait_for(partial(page.gone, subject), f"{subject} gone", 30)
    finally:
        page.close()
        server.should_exit = True
        thread.join(timeout=10)
        if feed is not None:
            feed.stop()
        sup.close()
    return out


def summary(name: str, ms: list[float]) -> str:
    ordered = sorted(ms)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    return (
        f"{name:5} n={len(ms):3}  p50 {statistics.median(ms):7.1f} ms  p95 {p95:7.1f} ms  "
        f"max {ordered[-1]:7.1f} ms"
    )


def p95(ms: list[float]) -> float:
    ordered = sorted(ms)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--agents", type=int, default=10, help="agents (one asks; default 10)")
    parser.add_argument("--prompts", type=int, default=20, help="prompts per mode (default 20)")
    args = parser.parse_args()
    if args.prompts * 2 > MAX_PROMPTS:
        raise SystemExit(f"--prompts: at most {MAX_PROMPTS // 2}")
    socket_name = f"paw-bench-web-{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="paw-bench-web-") as tmp:
        root = Path(tmp)
        stamp = root / "stamps.jsonl"
        repo = make_repo(root, socket_name, stamp)
        try:
            sup = build_supervisor(str(repo))
            sup.spawn("asker", "asker", None)
            for i in range(args.agents - 1):
                sup.spawn(f"idle{i:03d}", "idle", None)
            sup.close()
            print(f"{args.agents} agents, {args.prompts} prompts a mode; "
                  f"load {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")  # fmt: skip
            poll = run_mode("poll", repo, root, stamp, 0, args.prompts)
            print(summary("poll", poll), "(baseline: the page's own poll_once loop)")
            fed = run_mode("feed", repo, root, stamp, args.prompts, args.prompts)
            print(summary("feed", fed), "(the supervisor's feed on pane events)")
            print(
                f"feed/poll: p50 {statistics.median(fed) / statistics.median(poll):.2f}, "
                f"p95 {p95(fed) / p95(poll):.2f}; load {os.getloadavg()[0]:.2f}"
            )
        finally:
            kill_tmux_server(socket_name)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
