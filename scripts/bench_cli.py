"""Benchmark the one-shot commands at scale: `paw prompts --json` and `paw ls --json` with N
scripted agents, each run as a fresh process (what a script or a user pays).

The world is the one of ``scripts/bench_scale.py`` (its ``make_repo`` and ``spawn_all``: 90 %
of the agents idle at their input line, 10 % waiting on a permission prompt) on a private
tmux server (``-L paw-bench-cli-<pid>``), without the TUI. Each command runs ``--runs`` times
in turn; the script prints the median and best wall time, the median CPU time of the command
and every process it started (git, tmux's client), and the 1-minute load average before and
after. With ``--before DIR`` (a checkout of another paw version, e.g. a ``git worktree`` of an
older commit), each round also runs that version's commands (``PYTHONPATH=DIR``) on the same
world just before this one's, and both are printed. Only this script's own tmux server is
killed.

Usage: .venv/bin/python scripts/bench_cli.py [--agents 50,200] [--runs 5] [--before DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import make_repo, spawn_all, wait_for
from paw.cli.compose import build_supervisor

COMMANDS: tuple[tuple[str, ...], ...] = (("prompts", "--json"), ("ls", "--json"))


def load() -> float:
    return os.getloadavg()[0]


def timed(repo: Path, args: tuple[str, ...], tree: str | None) -> tuple[float, float]:
    """(wall s, CPU s of the process and its children) of ``paw ARGS -C repo`` (the paw of
    checkout ``tree`` when given)."""
    env = None if tree is None else {**os.environ, "PYTHONPATH": tree}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "paw", *args, "-C", str(repo)],
        capture_output=True,
        check=False,
        env=env,
        cwd=tree,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def run(agents: int, runs: int, before: str | None) -> None:
    socket = f"paw-bench-cli-{os.getpid()}"
    versions: dict[str, str | None] = {"this": None} if before is None else {
        "before": before, "this": None
    }  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="paw-bench-cli-") as tmp:
        repo = make_repo(Path(tmp), socket, Path(tmp) / "stamps.jsonl")
        try:
            supervisor = build_supervisor(str(repo), socket_name=socket)
            cycle, _spawn = spawn_all(supervisor, agents)
            wait_for(lambda: len(supervisor.poll_once().prompts) >= len(cycle), "first prompts")
            time.sleep(5)  # let the spawns' load settle
            start_load = load()
            results: dict[tuple[str, tuple[str, ...]], list[tuple[float, float]]] = {}
            for _ in range(runs):
                for label, tree in versions.items():
                    for command in COMMANDS:
                        figures = results.setdefault((label, command), [])
                        figures.append(timed(repo, command, tree))
            for (label, command), figures in results.items():
                walls = [w for w, _ in figures]
                cpus = [c for _, c in figures]
                print(
                    f"{agents} agents, {label}: paw {' '.join(command)}: wall median "
                    f"{statistics.median(walls):.2f} s, best {min(walls):.2f} s, CPU "
                    f"{statistics.median(cpus):.2f} s (n={runs})"
                )
            print(f"  load {start_load:.2f} -> {load():.2f}")
        finally:
            subprocess.run(["tmux", "-L", socket, "kill-server"], check=False, capture_output=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", default="50,200", help="comma-separated agent counts")
    parser.add_argument("--runs", type=int, default=5, help="runs of each command")
    parser.add_argument("--before", metavar="DIR", help="also time the paw of this checkout")
    args = parser.parse_args(argv)
    print(f"$ {shlex.join(['scripts/bench_cli.py', *(argv or sys.argv[1:])])}")
    print(f"{os.cpu_count()} cores, load {load():.2f}")
    for agents in (int(n) for n in args.agents.split(",")):
        run(agents, args.runs, args.before)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
