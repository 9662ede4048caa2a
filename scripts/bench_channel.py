"""Benchmark Claude's hook channel on the sweep's path: what reading every agent's channel costs,
and how soon a pending request is listed (issue 32).

For N agents, each with a wired channel directory (``wire_claude``) in one state dir:

- ``idle``: one ``pending()`` per agent, no request anywhere (what every sweep pays);
- ``one pending``: the same with one live request held by paw's real hook program, started as
  Claude starts it (``/bin/sh -c <command>`` by this process: the port checks the writer);
- ``pending -> listed``: from the hook's record appearing (its fsync'd rename) to the first
  sweep over all N agents that lists it, sweeping back to back; measured per round as the time of
  the sweep that lists it plus the wait until it started (the record's mtime to the sweep's end).

The baseline, in the same process and rounds, is one ``os.scandir`` listing of an empty
directory per agent: the floor of any file-based channel. Prints p50/p95 per measure and the
ratio to it, and the load average (the figures are wall clock).

Usage: .venv/bin/python scripts/bench_channel.py [--agents 200] [--rounds 40]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from paw.adapters.channels.claude import ClaudeHookChannel, ClaudeWiring, wire_claude

EVENT = {
    "hook_event_name": "PermissionRequest",
    "tool_name": "Bash",
    "tool_input": {"command": "touch a.txt && echo " + "word " * 40},
}


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def sweep(ports: list[ClaudeHookChannel]) -> int:
    return sum(len(port.pending()) for port in ports)


def floor(dirs: list[str]) -> None:
    for directory in dirs:
        list(os.scandir(directory))


def timed(fn: object, *args: object) -> float:
    start = time.perf_counter()
    fn(*args)  # type: ignore[operator]
    return (time.perf_counter() - start) * 1000


def start_hook(wiring: ClaudeWiring) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        ["/bin/sh", "-c", wiring.command], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL
    )
    if proc.stdin is None:
        raise RuntimeError("no stdin")
    proc.stdin.write(json.dumps(EVENT).encode())
    proc.stdin.close()
    return proc


def listed_after(ports: list[ClaudeHookChannel], wiring: ClaudeWiring) -> float:
    """ms from the hook's record appearing to the end of the first sweep that lists it."""
    req = wiring.directory / "req"
    while True:
        found = sweep(ports)
        end = time.time()
        if found:
            record = next(req.glob("*.json"))
            return (end - record.stat().st_mtime) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="paw-bench-channel-") as tmp:
        root = Path(tmp)
        wirings = [
            wire_claude(root, f"agent{n}", "spawn", sys.executable, wait_s=30)
            for n in range(args.agents)
        ]
        ports = [ClaudeHookChannel(w, os.getpid()) for w in wirings]
        empty = [str(root / f"empty{n}") for n in range(args.agents)]
        for directory in empty:
            Path(directory).mkdir()
        base, idle, busy, listed = [], [], [], []
        target = wirings[args.agents // 2]
        for _ in range(args.rounds):
            base.append(timed(floor, empty))
            idle.append(timed(sweep, ports))
            hook = start_hook(target)
            try:
                listed.append(listed_after(ports, target))
                base.append(timed(floor, empty))
                busy.append(timed(sweep, ports))
            finally:
                hook.terminate()
                hook.wait()
            for sub in ("req", "ans", "done"):
                for path in (target.directory / sub).glob("*.json"):
                    path.unlink()
        floor_p50 = statistics.median(base)
        print(f"{args.agents} agents, {args.rounds} rounds (ms; ratio to the scandir floor)")
        print(f"  load average {os.getloadavg()[0]:.1f}")
        print(f"  floor: one scandir per agent   p50 {floor_p50:7.2f}  p95 {p95(base):7.2f}")
        for name, values in (
            ("idle sweep (no request)", idle),
            ("sweep with one pending", busy),
            ("pending -> listed", listed),
        ):
            mid = statistics.median(values)
            print(
                f"  {name:<29} p50 {mid:7.2f}  p95 {p95(values):7.2f}  "
                f"x{mid / floor_p50:.1f} of the floor"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
