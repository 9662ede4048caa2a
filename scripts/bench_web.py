"""Benchmark `paw serve` at N agents: the first load, the first full state, a new prompt on an
open page, and what the page weighs on the wire.

One process runs the page once per mode over the same repository and agents on a private tmux
server, each time with uvicorn on 127.0.0.1 (a free port) and one signed-in page reading
``/events``. The modes (``--modes``, default ``whole,feed``):

* ``poll`` (the first slice): the page's own loop, a ``poll_once`` at most every 0.5 s shared by
  the open pages, each stream looking every 0.25 s, the whole board per change;
* ``whole`` (the baseline: the page before its parts): the supervisor's feed
  (:mod:`paw.supervisor.feed`) sweeping on tmux control mode's pane events, every open stream
  woken by the new picture, and every change, a prompt's age included, sending the whole board
  again. It is the same code with the split into parts undone in this process
  (:func:`whole_board`), so the ratios compare the two paths under the same load;
* ``feed``: what `paw serve` runs: the feed, and after the first full board only the part that
  changed by more than its prompts' ages (the page's script ages them).

Per mode: ``GET /`` (the first load's HTML; ``--rounds`` times, a fresh connection each) and
``/events`` opened until its first event is read whole (the first full state); the bytes of the
HTML, of paw's css and js, and of the first event; ``QUIET_S`` seconds with nothing new but one
prompt kept live (the ``holder`` agent; its age moves) and the bytes the open page received;
then ``--prompts`` prompts: one ``asker`` agent draws a prompt when told (a file appears) and
stamps it when drawn (``PAW_DEMO_STAMP``); the latency is the time the event carrying it was
read off the stream minus the stamp (same clock, same machine), and the bytes from the go until
the page shows it gone (it times out on its own, the agent's ``@3``).

With ``--decisions N`` (in the last mode, ``feed`` by default), N decisions as a browser makes
them: one ``decider`` agent draws a prompt the guard allows (``echo dNNN``) when told; once the
open page shows it, the bench takes the prompt's id and the page's CSRF token from the page's
own form and POSTs ``/decide`` (``action=approve``) with the signed-in cookie, as the form does.
It times the POST sent -> its response read (``Sent``: paw's proof, the audit record flushed,
the keys sent, the prompt seen gone), and the POST sent -> the key reached the agent: the
agent's own answer record (``PAW_DEMO_RECORD``), appended once it read the key and ran the
harmless echo; its time is the file's mtime (the kernel's coarse clock, a few ms steps). The
POST goes ``--decide-after`` seconds (default 1.5) after the page showed the prompt: paw sends
keys only to a prompt on screen for 1 s (``PROMPT_SETTLE_S``), so a POST sooner waits that out.
The ``decider`` is one of ``--agents`` (the others: the asker, the holder, the rest idle).

Usage: .venv/bin/python scripts/bench_web.py [--agents 10] [--prompts 20] [--rounds 20]
[--modes whole,feed] [--decisions 0] [--decide-after 1.5]. Everything runs in a temporary
repository and on the socket ``paw-bench-web-<pid>``; the server is killed at the end (only
this script's own socket).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import uvicorn

from paw.cli.compose import build_fleet, build_supervisor
from paw.cli.demo import kill_tmux_server
from paw.cli.serve import start_feed
from paw.web import parts as page_parts
from paw.web import render
from paw.web.app import WebSettings, create_app
from paw.web.auth import hash_token, new_token
from paw.web.source import Board, Source

PROMPT_TIMEOUT_S = 3.0  # each prompt gives up after this long (the agent's own timeout)
MODES = {
    "poll": "the page's own poll_once loop, the whole board per change (the first slice)",
    "whole": "the feed, the whole board again per change, ages included (the page before parts)",
    "feed": "the feed, each part (or agent's row) alone when more than ages changed: paw serve",
}
MAX_PROMPTS = 200
MAX_DECISIONS = 200
# A decision is POSTed this long after the page showed its prompt (a human reads it first):
# paw answers a prompt only once it has been on screen PROMPT_SETTLE_S (1 s; an agent can drop
# a key sent right after it drew its dialog), so a POST sooner waits out the rest of that second.
DECIDE_AFTER_S = 1.5
DECISION_TIMEOUT_S = 120.0  # a decision's prompt gives up after this long (never, in practice)


def config(socket_name: str, root: Path, stamp: Path) -> str:
    asker: list[str] = []
    for k in range(MAX_PROMPTS):
        asker += [f"wait {root / f'go{k}'}", f"shell@{PROMPT_TIMEOUT_S} echo p{k:03d}"]
    decider: list[str] = []
    for k in range(MAX_DECISIONS):
        decider += [f"wait {root / f'dgo{k}'}", f"shell@{DECISION_TIMEOUT_S} echo d{k:03d}"]
    kinds = {
        "idle": ["busy 0.1"], "asker": asker, "holder": ["shell echo held"], "decider": decider
    }  # fmt: skip
    answers = root / "answers.jsonl"
    env = (
        f"env = {{ PAW_DEMO_STAMP = {json.dumps(str(stamp))}, "
        f"PAW_DEMO_RECORD = {json.dumps(str(answers))} }}"
    )
    lines = ["[tmux]", f'socket_name = "{socket_name}"', ""]
    for kind, steps in kinds.items():
        command = ", ".join(json.dumps(p) for p in ("{python}", "-m", "paw.demo.agent", *steps))
        lines += [
            f"[agents.{kind}]",
            f"command = [{command}]",
            'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }',
            'detector = "scripted"',
            env,
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


PART = re.compile(r"<div id=pt-([a-z]+)>")


def split_parts(board: str) -> dict[str, str]:
    """A board's parts (``<div id=pt-NAME>``, siblings) by name; a board without them (the
    page before parts) is one part."""
    starts = [(m.start(), m.group(1)) for m in PART.finditer(board)]
    if not starts:
        return {"all": board}
    ends = [at for at, _ in starts[1:]] + [len(board)]
    return {name: board[at:end] for (at, name), end in zip(starts, ends, strict=True)}


def sign_in(port: int, token: str) -> str:
    """A session cookie (``name=value``) for ``token``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", f"/login?token={token}")
    got = conn.getresponse()
    got.read()
    conn.close()
    return (got.getheader("set-cookie") or "").split(";", 1)[0]


class Page:
    """One signed-in page reading ``/events``: each event with when it was read, its size, and
    the board as the page's script would have it after it (whole ``board`` events and
    ``part`` events that replace one part)."""

    def __init__(self, port: int, token: str) -> None:
        self.cookie = sign_in(port, token)
        self.port = port
        self.events: list[tuple[float, str]] = []  # (when, the board after it)
        self.sizes: list[tuple[float, int]] = []  # (when, bytes on the wire)
        self.parts: dict[str, str] = {}
        self.lock = threading.Lock()
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        self.conn.request("GET", "/events", headers={"Cookie": self.cookie})
        response = self.conn.getresponse()
        data: list[str] = []
        name, size = "", 0
        try:
            while True:
                raw = response.readline()
                if not raw:
                    return
                size += len(raw)
                line = raw.decode("utf-8").rstrip("\n")
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif not line and data:
                    at = time.time()
                    self._apply(name, "\n".join(data))
                    with self.lock:
                        self.events.append((at, "".join(self.parts.values())))
                        self.sizes.append((at, size))
                    data, name, size = [], "", 0
                elif not line:
                    size = 0  # (a keep-alive or the retry line)
        except (OSError, AttributeError, ValueError):  # closed under the reader (the end)
            return

    def _apply(self, name: str, text: str) -> None:
        if name == "part":
            part, _, html = text.partition("\n")
            self.parts[part] = html
        elif name == "row":
            row, _, html = text.partition("\n")
            agents = self.parts.get("agents", "")
            self.parts["agents"] = re.sub(f"<tr id={row}>.*?</tr>", lambda _m: html, agents,
                                          count=1, flags=re.DOTALL)  # fmt: skip
        else:
            self.parts = split_parts(text)

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

    def bytes_between(self, start: float, end: float) -> tuple[int, int]:
        """Events and bytes read in [start, end)."""
        with self.lock:
            got = [n for at, n in self.sizes if start <= at < end]
        return len(got), sum(got)

    def close(self) -> None:
        if self.conn.sock is not None:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()


@dataclass
class Figures:
    """One mode's figures."""

    latency_ms: list[float] = field(default_factory=list)  # prompt drawn -> its event read
    html_ms: list[float] = field(default_factory=list)  # GET / (the first load's HTML)
    state_ms: list[float] = field(default_factory=list)  # /events opened -> first full state
    html_bytes: int = 0
    static_bytes: int = 0  # app.css + app.js
    state_bytes: int = 0  # the first event
    prompt_bytes: list[int] = field(default_factory=list)  # sent per prompt (shown, then gone)
    prompt_events: list[int] = field(default_factory=list)
    quiet_bytes: int = 0  # sent over QUIET_S with nothing new (one prompt live, ageing)
    quiet_events: int = 0
    decide_ms: list[float] = field(default_factory=list)  # POST /decide sent -> response read
    key_ms: list[float] = field(default_factory=list)  # POST sent -> the agent's answer record


QUIET_S = 10.0


def get(port: int, path: str, cookie: str) -> tuple[float, bytes]:
    """``path``'s body and how long it took (ms), on a fresh connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    started = time.perf_counter()
    conn.request("GET", path, headers={"Cookie": cookie})
    body = conn.getresponse().read()
    took = (time.perf_counter() - started) * 1000
    conn.close()
    return took, body


def first_state(port: int, cookie: str) -> tuple[float, int]:
    """/events opened -> its first event read whole (ms), and that event's size."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    started = time.perf_counter()
    conn.request("GET", "/events", headers={"Cookie": cookie})
    response = conn.getresponse()
    size, data = 0, False
    while True:
        line = response.readline()
        if not line:
            raise SystemExit("/events ended before its first event")
        if line.startswith(b"data: "):
            data = True
            size += len(line)
        elif line == b"\n" and data:
            break
    took = (time.perf_counter() - started) * 1000
    if conn.sock is not None:
        conn.sock.shutdown(socket.SHUT_RDWR)
    conn.close()
    return took, size


def load_figures(port: int, token: str, rounds: int, out: Figures) -> None:
    """The first load (HTML, then the stream's first full state) ``rounds`` times."""
    cookie = sign_in(port, token)
    for _ in range(rounds):
        took, body = get(port, "/", cookie)
        out.html_ms.append(took)
        out.html_bytes = len(body)
        took, size = first_state(port, cookie)
        out.state_ms.append(took)
        out.state_bytes = size
    out.static_bytes = sum(
        len(get(port, f"/static/{name}", cookie)[1]) for name in ("app.css", "app.js")
    )


def run_mode(
    mode: str, repo: Path, root: Path, stamp: Path, first: int, n: int, rounds: int,
    decisions: int = 0, decide_after: float = 0.0,
) -> Figures:  # fmt: skip
    """Figures of prompts ``first``..``first+n-1`` on an open page in ``mode``."""
    fed = mode != "poll"
    sup = build_fleet(str(repo), control=fed)
    feed = start_feed(sup) if fed else None
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
    out = Figures()
    with whole_board(active=mode in ("poll", "whole")):
        return measure(page_of(port, token), port, token, root, stamp, first, n, rounds, out,
                       stop=(server, thread, feed, sup), decisions=decisions,
                       decide_after=decide_after)  # fmt: skip


def page_of(port: int, token: str) -> Page:
    page = Page(port, token)
    wait_for(lambda: "echo held" in page.latest(), "the page's first event (the held prompt)")
    return page


@contextmanager
def whole_board(*, active: bool) -> Iterator[None]:
    """With ``active``, the page as it was before its parts (the baseline): every change sends
    the whole board again, and the prompts' ages are a change (the render is the same; only
    the split into parts and what counts as a change are undone)."""
    if not active:
        yield
        return
    parts, wrap = render.board_parts, page_parts.wrap
    steady, updates = page_parts.steady, page_parts.updates

    def whole(
        board: Board, csrf: str, extra: render.Extra | None = None
    ) -> tuple[tuple[str, str], ...]:
        return (("all", "".join(html for _, html in parts(board, csrf, extra))),)

    render.board_parts = whole
    page_parts.wrap = lambda name, html: html
    page_parts.steady = lambda html: html
    page_parts.updates = lambda name, before, html: (
        ([] if before == html else [("part", f"{name}\n{html}")]),
        html,
    )
    try:
        yield
    finally:
        render.board_parts, page_parts.wrap, page_parts.steady = parts, wrap, steady
        page_parts.updates = updates


def measure(page: Page, port: int, token: str, root: Path, stamp: Path, first: int, n: int,
            rounds: int, out: Figures, stop: tuple[Any, ...],
            decisions: int = 0, decide_after: float = 0.0) -> Figures:  # fmt: skip
    server, thread, feed, sup = stop
    try:
        load_figures(port, token, rounds, out)
        started = time.time()
        time.sleep(QUIET_S)
        out.quiet_events, out.quiet_bytes = page.bytes_between(started, time.time())
        for k in range(first, first + n):
            subject = f"echo p{k:03d}"
            since = page.count()
            went = time.time()
            (root / f"go{k}").touch()
            wait_for(partial(page.shows, subject, since), subject, 30)
            shown = page.first_with(subject, since)
            wait_for(partial(stamped, stamp, subject), f"the stamp of {subject}")
            if shown is None:
                raise SystemExit(f"{subject}: no event")
            out.latency_ms.append((shown - stamps(stamp)[subject]) * 1000)
            # the prompt times out; the page shows it gone before the next one
            wait_for(partial(page.gone, subject), f"{subject} gone", 30)
            events, size = page.bytes_between(went, time.time() + 1)
            out.prompt_events.append(events)
            out.prompt_bytes.append(size)
        for k in range(decisions):
            decide_one(page, port, root, k, out, decide_after)
    finally:
        page.close()
        server.should_exit = True
        thread.join(timeout=10)
        if feed is not None:
            feed.stop()
        sup.close()
    return out


FORM = re.compile(r"name=csrf value='([^']*)'><input type=hidden name=prompt value='([^']*)'>"
                  r"<input type=hidden name=action value=approve>")  # fmt: skip


def answered(path: Path, subject: str) -> float | None:
    """When the agent recorded its answer to ``subject`` (the answers file's mtime, read as soon
    as the line is there: nothing else appends meanwhile), or None before it did."""
    if not path.exists():
        return None
    when = path.stat().st_mtime
    for line in path.read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            if row["subject"] == subject and row["key"] is not None:
                return when
    return None


def decide_one(
    page: Page, port: int, root: Path, k: int, out: Figures, decide_after: float
) -> None:
    """Draw decision ``k``'s prompt, approve it through ``POST /decide`` as the page's form
    does, and time the response and the key's arrival at the agent."""
    subject = f"echo d{k:03d}"
    since = page.count()
    (root / f"dgo{k}").touch()
    wait_for(partial(page.shows, subject, since), subject, 30)
    shown = page.first_with(subject, since) or time.time()
    time.sleep(max(0.0, shown + decide_after - time.time()))  # (a human reads it first)
    board = page.latest()
    form = FORM.search(board, board.index(subject))
    if form is None:
        raise SystemExit(f"{subject}: no Approve form on the page (is its verdict allow?)")
    csrf, prompt_id = form.group(1), form.group(2)
    body = f"csrf={csrf}&prompt={prompt_id}&action=approve&go=approve"
    headers = {
        "Cookie": page.cookie, "Content-Type": "application/x-www-form-urlencoded",
        "Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin",
    }  # fmt: skip
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.connect()
    sent = time.time()
    conn.request("POST", "/decide", body, headers)
    response = conn.getresponse()
    text = response.read().decode("utf-8", "replace")
    took = time.time() - sent
    conn.close()
    if response.status != 200 or "Sent" not in text:
        raise SystemExit(f"{subject}: /decide answered {response.status}: {text[-400:]}")
    answers = root / "answers.jsonl"
    wait_for(lambda: answered(answers, subject) is not None, f"the agent's answer to {subject}")
    reached = answered(answers, subject) or 0.0
    out.decide_ms.append(took * 1000)
    out.key_ms.append((reached - sent) * 1000)
    wait_for(partial(page.gone, subject), f"{subject} gone", 30)


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


def report(name: str, f: Figures) -> None:
    print(summary(name, f.latency_ms), "new prompt drawn -> its event")
    print(summary(name, f.html_ms), f"first load: GET / ({f.html_bytes / 1024:.1f} KiB HTML, "
          f"{f.static_bytes / 1024:.1f} KiB css+js)")  # fmt: skip
    print(summary(name, f.state_ms), f"first full state: /events opened -> first event "
          f"({f.state_bytes / 1024:.1f} KiB)")  # fmt: skip
    per = statistics.median(f.prompt_bytes) if f.prompt_bytes else 0
    events = statistics.median(f.prompt_events) if f.prompt_events else 0
    print(f"{name:5} per prompt (shown, then gone): median {events:.0f} events, "
          f"{per / 1024:.1f} KiB; quiet {QUIET_S:.0f} s (one prompt live, ageing): "
          f"{f.quiet_events} events, {f.quiet_bytes / 1024:.1f} KiB")  # fmt: skip
    if f.decide_ms:
        print(summary(name, f.decide_ms), "decision: POST /decide sent -> its response")
        print(summary(name, f.key_ms), "decision: POST /decide sent -> the agent read the key")


def ratio(name: str, a: list[float], b: list[float]) -> str:
    return (
        f"{name}: p50 {statistics.median(a) / statistics.median(b):.2f}, p95 {p95(a) / p95(b):.2f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--agents", type=int, default=10, help="agents (one asks; default 10)")
    parser.add_argument("--prompts", type=int, default=20, help="prompts per mode (default 20)")
    parser.add_argument("--rounds", type=int, default=20, help="first loads per mode (default 20)")
    parser.add_argument(
        "--decisions", type=int, default=0, help="POST /decide decisions in the last mode"
    )
    parser.add_argument(
        "--decide-after", type=float, default=DECIDE_AFTER_S,
        help=f"seconds a prompt is shown before the POST (default {DECIDE_AFTER_S})",
    )  # fmt: skip
    parser.add_argument(
        "--modes", default="whole,feed", help=f"of {', '.join(MODES)} (default whole,feed)"
    )
    args = parser.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    if not modes or any(m not in MODES for m in modes):
        raise SystemExit(f"--modes: some of {', '.join(MODES)}")
    if args.prompts * len(modes) > MAX_PROMPTS:
        raise SystemExit(f"--prompts: at most {MAX_PROMPTS // len(modes)}")
    if args.decisions > MAX_DECISIONS or args.agents < 3:
        raise SystemExit(f"--decisions: at most {MAX_DECISIONS}; --agents: at least 3")
    socket_name = f"paw-bench-web-{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="paw-bench-web-") as tmp:
        root = Path(tmp)
        stamp = root / "stamps.jsonl"
        repo = make_repo(root, socket_name, stamp)
        try:
            sup = build_supervisor(str(repo))
            sup.spawn("asker", "asker", None)
            sup.spawn("holder", "holder", None)
            sup.spawn("decider", "decider", None)
            for i in range(args.agents - 3):
                sup.spawn(f"idle{i:03d}", "idle", None)
            sup.close()
            print(f"{args.agents} agents, {args.prompts} prompts a mode; "
                  f"load {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")  # fmt: skip
            done: dict[str, Figures] = {}
            for i, mode in enumerate(modes):
                done[mode] = run_mode(
                    mode,
                    repo,
                    root,
                    stamp,
                    i * args.prompts,
                    args.prompts,
                    args.rounds,
                    args.decisions if i == len(modes) - 1 else 0,
                    args.decide_after,
                )
                report(mode, done[mode])
                print(f"      ({MODES[mode]})")
            if "feed" in done:
                new = done["feed"]
                for base in (m for m in modes if m != "feed"):
                    old = done[base]
                    print(ratio(f"feed/{base} new prompt", new.latency_ms, old.latency_ms))
                    print(ratio(f"feed/{base} first load", new.html_ms, old.html_ms))
                    print(ratio(f"feed/{base} first state", new.state_ms, old.state_ms))
                    per = statistics.median(new.prompt_bytes) / statistics.median(old.prompt_bytes)
                    print(f"feed/{base} bytes per prompt: {per:.3f}; "
                          f"quiet: {new.quiet_bytes}/{old.quiet_bytes} bytes")  # fmt: skip
            print(f"load {os.getloadavg()[0]:.2f}")
        finally:
            kill_tmux_server(socket_name)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
