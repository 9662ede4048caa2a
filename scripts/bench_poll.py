"""Benchmark ``Supervisor.poll_once`` with N scripted agents on a private tmux server.

Spawns N ``demo-safe`` agents (git worktrees in a temporary repository, panes on the socket
``paw-bench-poll-<pid>``), waits until every one shows its prompt, then times ``poll_once``
(median and max of ``--runs``) and reports, per poll: tmux processes started, process-table
reads (psutil ``process_iter`` passes and ``children`` calls) and the time spent in the
process inspector.

With ``--control`` the supervisor is built as the TUI builds it (``control=True``: polls go
through a persistent control-mode client and recapture only panes that changed).

Usage: .venv/bin/python scripts/bench_poll.py [--agents 50] [--runs 20] [--control]
The server is killed at the end (only this script's own socket).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil

from paw.adapters import proc
from paw.adapters.tmux.terminal import TmuxTerminal
from paw.cli.compose import build_supervisor
from paw.cli.demo import render_demo_config
from paw.supervisor.service import Supervisor


class Counters:
    """What one poll costs beyond its wall time."""

    def __init__(self) -> None:
        self.tmux = 0
        self.git = 0
        self.scans = 0
        self.procs_s = 0.0


def count_calls(counters: Counters, supervisor: Supervisor) -> None:
    """Wrap the tmux gateway, psutil's table reads and the inspector to count and time them."""
    real_run = proc.run

    def run(argv: Any, **kwargs: Any) -> proc.Completed:
        counters.tmux += argv[0] == "tmux"
        counters.git += argv[0] == "git"
        return real_run(argv, **kwargs)

    proc.run = run
    real_iter, real_children = psutil.process_iter, psutil.Process.children

    def process_iter(*args: Any, **kwargs: Any) -> Any:
        counters.scans += 1
        return real_iter(*args, **kwargs)

    def children(self: psutil.Process, *args: Any, **kwargs: Any) -> Any:
        counters.scans += 1
        return real_children(self, *args, **kwargs)

    psutil.process_iter = process_iter  # type: ignore[assignment]
    psutil.Process.children = children  # type: ignore[method-assign]
    inspector = supervisor.ctx.procs
    for name in ("tree", "trees"):
        method = getattr(inspector, name, None)
        if method is not None:
            setattr(inspector, name, timed(counters, method))


def timed(counters: Counters, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn``, adding its run time to ``counters.procs_s``."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            counters.procs_s += time.perf_counter() - start

    return wrapper


def make_world(root: Path, socket: str, agents: int, *, control: bool = False) -> Supervisor:
    """A repository with the demo profiles and ``agents`` scripted agents, all waiting."""
    repo = root / "repo"
    repo.mkdir()
    ident = ["-c", "user.name=paw bench", "-c", "user.email=bench@paw.invalid"]
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    subprocess.run(
        ["git", *ident, "commit", "-q", "--allow-empty", "-m", "i"], cwd=repo, check=True
    )
    (repo / "paw.toml").write_text(render_demo_config(socket), encoding="utf-8")
    supervisor = build_supervisor(str(repo), socket_name=socket, control=control)
    for i in range(agents):
        supervisor.spawn(f"a{i:02d}", "demo-safe", "bench")
    deadline = time.monotonic() + 120
    while len(supervisor.poll_once().prompts) < agents:
        if time.monotonic() > deadline:
            raise SystemExit("timed out waiting for the agents' prompts")
        time.sleep(0.2)
    return supervisor


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=50)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--control", action="store_true", help="the TUI's control-mode polls")
    args = parser.parse_args()
    socket = f"paw-bench-poll-{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="paw-bench-poll-") as tmp:
        try:
            supervisor = make_world(Path(tmp), socket, args.agents, control=args.control)
            report(supervisor, args.runs, args.agents)
        finally:
            TmuxTerminal(socket_name=socket).kill_server()
    return 0


def report(supervisor: Supervisor, runs: int, agents: int) -> None:
    """Time ``poll_once`` and print the medians."""
    counters = Counters()
    count_calls(counters, supervisor)
    walls, tmux, scans, procs, gits = [], [], [], [], []
    for _ in range(runs):
        before = (counters.tmux, counters.scans, counters.procs_s, counters.git)
        start = time.perf_counter()
        snapshot = supervisor.poll_once()
        walls.append((time.perf_counter() - start) * 1000)
        tmux.append(counters.tmux - before[0])
        scans.append(counters.scans - before[1])
        procs.append((counters.procs_s - before[2]) * 1000)
        gits.append(counters.git - before[3])
        if len(snapshot.prompts) != agents:
            print(f"warning: {len(snapshot.prompts)} prompts", file=sys.stderr)
    print(f"agents: {agents}, runs: {runs}, cpus: {os.cpu_count()}")
    print(f"poll_once: median {statistics.median(walls):.1f} ms, max {max(walls):.1f} ms")
    print(f"  process inspector: median {statistics.median(procs):.1f} ms")
    print(f"  tmux processes per poll: {sorted(set(tmux))}")
    quiet = [w for w, g in zip(walls, gits, strict=True) if g == 0]
    if quiet:
        print(
            f"  polls without git refresh: median {statistics.median(quiet):.1f} ms ({len(quiet)})"
        )
    print(f"  process-table reads per poll (process_iter + children): {sorted(set(scans))}")
    stale = []
    for _ in range(3):
        marks = supervisor.ctx.memory.stat_marks
        marks.update({name: dataclasses.replace(m, time=0.0) for name, m in marks.items()})
        before_git = counters.git
        start = time.perf_counter()
        supervisor.poll_once()
        stale.append((time.perf_counter() - start) * 1000)
    print(
        f"poll_once with every worktree count stale: median {statistics.median(stale):.0f} ms "
        f"({counters.git - before_git} git processes)"
    )


if __name__ == "__main__":
    raise SystemExit(main())
