"""Benchmark the TUI with N scripted agents on a private tmux server, through the real supervisor.

It measures, in one run:

* time to first frame: headless (``run_test``: from building the app to the first painted
  screen, and to the first sweep on screen; the app connects as ``paw tui`` does, after its
  first frame) and in a real terminal (``paw tui`` started
  ``--starts`` times in a tmux pane, from ``new-session`` until capture-pane shows the layout
  with its key footer, and until it shows every agent waiting), beside a baseline: the
  smallest Textual app showing the same words, started the same way in turn with paw;
* approve keypress -> keys sent to the agent pane (re-verification, audit fsync and send-keys
  included): headless, from ``pilot.press("a")`` until the tmux ``send-keys`` call returned; in
  the real terminal, from ``send-keys a`` into the TUI's pane until the supervisor recorded the
  decision (audit log time, just before the keys go out) and until the agent's pane shows the
  key (capture-pane polled every few ms).

Usage: .venv/bin/python scripts/bench_tui.py [--agents 50] [--approvals 10] [--interval 0.5]
       [--starts 5]
Everything runs in a temporary repository and on the socket ``paw-bench-tui-<pid>``; the server
is killed at the end (only this script's own socket).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from paw.cli.compose import build_supervisor
from paw.cli.demo import kill_tmux_server, render_demo_config
from paw.cli.tui import connection_for
from paw.supervisor.model import LivePrompt
from paw.supervisor.service import Supervisor
from paw.tui.app import make_app
from paw.tui.format import sort_prompts
from paw.tui.widgets.agent_list import AgentList

SIZE = (120, 40)
# The baseline for the real-terminal first frame, run the same way in the same server: the
# smallest Textual app showing the same two words (Python and Textual start-up, nothing of paw).
BASELINE_APP = """
from textual.app import App
from textual.binding import Binding
from textual.widgets import Footer, Static
class Baseline(App[None]):
    BINDINGS = [Binding("a", "quit", "Approve")]
    def compose(self):
        yield Static("Agents")
        yield Footer()
Baseline().run()
"""
RECEIVED = "received key 'y'"


def tmux(socket: str, *args: str) -> str:
    """Run one tmux command on the bench socket; return stdout."""
    done = subprocess.run(
        ["tmux", "-L", socket, *args], capture_output=True, text=True, check=False
    )
    return done.stdout


def pane_shows(socket: str, pane_id: str, *texts: str) -> bool:
    """Whether the pane's visible screen contains every one of ``texts``."""
    screen = tmux(socket, "capture-pane", "-p", "-t", pane_id)
    return all(t in screen for t in texts)


def wait_for(check: Callable[[], bool], timeout: float = 60.0, interval: float = 0.005) -> float:
    """Poll ``check``; return the perf_counter time it first held (raise on timeout)."""
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        if check():
            return time.perf_counter()
        time.sleep(interval)
    raise TimeoutError("condition not met in time")


def make_world(root: Path, socket: str, agents: int) -> tuple[Path, Supervisor, list[LivePrompt]]:
    """A repository with the demo profiles and ``agents`` safe scripted agents, all waiting."""
    repo = root / "repo"
    repo.mkdir()
    ident = ["-c", "user.name=paw bench", "-c", "user.email=bench@paw.invalid"]
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    subprocess.run(
        ["git", *ident, "commit", "-q", "--allow-empty", "-m", "i"], cwd=repo, check=True
    )
    (repo / "paw.toml").write_text(render_demo_config(socket), encoding="utf-8")
    supervisor = build_supervisor(str(repo), socket_name=socket)
    start = time.perf_counter()
    for i in range(agents):
        supervisor.spawn(f"a{i:02d}", "demo-safe", "bench")
    print(f"spawned {agents} agents in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    prompts: list[LivePrompt] = []

    def all_waiting() -> bool:
        prompts[:] = supervisor.poll_once().prompts
        return len(prompts) >= agents

    wait_for(all_waiting, timeout=120, interval=0.2)
    return repo, supervisor, sort_prompts(prompts)


def hook_send_keys(supervisor: Supervisor) -> dict[str, float]:
    """Record when each pane's send-keys call returned (perf_counter), keyed by pane id."""
    terminal = supervisor.ctx.terminal
    sent: dict[str, float] = {}
    original = terminal.send_keys

    def send_keys(pane_id: str, keys: Sequence[str]) -> None:
        original(pane_id, keys)
        sent[pane_id] = time.perf_counter()

    terminal.send_keys = send_keys  # type: ignore[method-assign]  # bench instrumentation
    return sent


async def bench_headless(
    supervisor: Supervisor, socket: str, prompts: list[LivePrompt], approvals: int, interval: float
) -> dict[str, object]:
    """First frame and approve latency with Textual's headless driver."""
    sent = hook_send_keys(supervisor)
    start = time.perf_counter()
    app = make_app(connect=partial(connection_for, supervisor), poll_interval=interval)
    async with app.run_test(size=SIZE) as pilot:
        painted = time.perf_counter()
        table = app.main.query_one(AgentList)
        while table.row_count < len(prompts):
            await pilot.pause(0.005)
        first_sweep = time.perf_counter()
        await pilot.press("tab")  # the prompt queue: "a" then always takes the oldest prompt
        to_send = []
        for prompt in prompts[:approvals]:
            while app.main.selected_prompt is None or app.main.selected_prompt.id != prompt.id:
                await pilot.pause(0.01)
            pressed = time.perf_counter()
            await pilot.press("a")
            while prompt.pane_id not in sent:
                await pilot.pause(0.001)
            to_send.append(sent[prompt.pane_id] - pressed)
    return {
        "first_paint_s": painted - start,
        "first_sweep_on_screen_s": first_sweep - start,
        "approve_to_send_keys_ms": summary(to_send),
    }


def session_gone(socket: str, name: str) -> bool:
    """Whether the session ``name`` has ended (paw quit)."""
    return f"{name}:" not in tmux(socket, "list-sessions")


def start_ui(socket: str, argv: list[str], name: str, *texts: str) -> tuple[str, float]:
    """Run ``argv`` in a new 120x40 session; return its pane and the time until capture-pane
    shows every one of ``texts``."""
    command = " ".join(shlex.quote(a) for a in argv)
    start = time.perf_counter()
    tmux(socket, "new-session", "-d", "-s", name, "-x", "120", "-y", "40",
         "-e", "TERM=xterm-256color", command)  # fmt: skip
    ui = tmux(socket, "display-message", "-p", "-t", name, "#{pane_id}").strip()
    return ui, wait_for(partial(pane_shows, socket, ui, *texts)) - start


def quit_ui(socket: str, ui: str, name: str) -> None:
    """Press q (paw) or a (the baseline) and wait until the session is gone."""
    tmux(socket, "send-keys", "-t", ui, "q" if name.startswith("ui") else "a")
    wait_for(partial(session_gone, socket, name))


def bench_terminal(
    repo: Path, socket: str, prompts: list[LivePrompt], approvals: int, interval: float, starts: int
) -> dict[str, object]:
    """``paw tui`` in a real tmux pane: first frame (``starts`` times) and keypress-to-agent
    latency."""
    paw = [sys.executable, "-m", "paw", "tui", "-C", str(repo), "--interval", str(interval)]
    baseline = [sys.executable, "-c", BASELINE_APP]
    frames, sweeps, floors = [], [], []
    ui = ""
    for n in range(starts):  # alternate paw and the baseline: both see the same machine load
        pane, floor = start_ui(socket, baseline, f"base{n}", "Agents", "Approve")
        floors.append(floor)
        quit_ui(socket, pane, f"base{n}")
        ui, frame = start_ui(socket, paw, f"ui{n}", "Agents", "Approve")
        frames.append(frame)
        started = time.perf_counter() - frame
        wait_for(partial(pane_shows, socket, ui, f"waiting {len(prompts)}"))
        sweeps.append(time.perf_counter() - started)
        if n < starts - 1:
            quit_ui(socket, ui, f"ui{n}")
    tmux(socket, "send-keys", "-t", ui, "Tab")
    latencies, recorded = [], []
    for prompt in prompts[:approvals]:
        # the prompt card names the prompt that keys act on
        card = f"{prompt.agent} ({prompt.kind}) asks"
        wait_for(partial(pane_shows, socket, ui, card), timeout=30)
        pressed, pressed_epoch = time.perf_counter(), time.time()
        tmux(socket, "send-keys", "-t", ui, "a")
        shown = wait_for(partial(pane_shows, socket, prompt.pane_id, RECEIVED))
        latencies.append(shown - pressed)
        recorded.append(decision_time(repo, prompt.id) - pressed_epoch)
    tmux(socket, "send-keys", "-t", ui, "q")
    return {
        "first_frame_ms": summary(frames),
        "baseline_first_frame_ms": summary(floors),
        "first_frame_ratio_to_baseline": round(
            statistics.median(frames) / statistics.median(floors), 2
        ),
        "first_sweep_on_screen_ms": summary(sweeps),
        "approve_to_decision_recorded_ms": summary(recorded),
        "approve_to_agent_shows_key_ms": summary(latencies),
    }


def decision_time(repo: Path, prompt_id: str) -> float:
    """When the supervisor recorded the send decision for ``prompt_id`` (epoch seconds): after
    re-verification, just before the keys go out."""
    lines = (repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    for record in map(json.loads, lines):
        if record.get("prompt_id") == prompt_id and record.get("decision") == "send":
            return float(record["time"])
    raise LookupError(f"no send decision for {prompt_id}")


def summary(seconds: list[float]) -> dict[str, float]:
    """Median, max and count, in milliseconds."""
    ms = [s * 1000 for s in seconds]
    return {
        "median": round(statistics.median(ms), 1),
        "max": round(max(ms), 1),
        "n": len(ms),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=50)
    parser.add_argument("--approvals", type=int, default=10)
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--starts", type=int, default=5, help="real-terminal starts to time")
    args = parser.parse_args(argv)
    if args.agents < 2 * args.approvals:
        parser.error("--agents must be at least twice --approvals")
    socket = f"paw-bench-tui-{os.getpid()}"
    root = Path(tempfile.mkdtemp(prefix="paw-bench-tui-"))
    try:
        repo, supervisor, prompts = make_world(root, socket, args.agents)
        headless = asyncio.run(
            bench_headless(supervisor, socket, prompts, args.approvals, args.interval)
        )
        rest = prompts[args.approvals :]
        terminal = bench_terminal(repo, socket, rest, args.approvals, args.interval, args.starts)
    finally:
        kill_tmux_server(socket)  # and its socket file, which kill-server leaves behind
        shutil.rmtree(root, ignore_errors=True)
    result = {"agents": args.agents, "interval_s": args.interval, "headless": headless,
              "terminal": terminal}  # fmt: skip
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
