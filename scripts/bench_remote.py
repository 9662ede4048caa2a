"""Benchmark prompt -> TUI latency for agents on a host over ssh, beside agents on this machine.

A private sshd on 127.0.0.1 (a key and host key made for the run; tests/support/sshd.py) plays
the host: a clone of a temporary repository is added with ``paw host add``, and its agents run
on their own tmux server reached only through ssh. ``--agents`` scripted agents run there and as
many here; each draws ``--prompts`` permission prompts one after another (each left unanswered
until it times out, then a short busy spell) and writes the wall-clock time it drew each one
(``PAW_DEMO_DRAWN``). The TUI runs headless over the real supervisor, connected as ``paw tui``
connects it (:func:`paw.cli.tui.connection_for`: control-mode clients, pane events where the
connection offers them, else the poll cycle; ``--interval`` is the poll interval, ``--safety``
the safety sweep), and the script notes when each prompt first reaches the TUI's picture.
Latency = reached the TUI - drawn (prompts drawn before the TUI's first picture are counted
apart: they measure its start-up); the host is this machine, so both times come from one clock,
and what the figure shows is ssh's share (multiplexed connection, tmux control clients over
ssh, ps over ssh) on top of a local sweep.

Usage: .venv/bin/python scripts/bench_remote.py [--agents 2] [--prompts 8] [--interval 0.5]
                                               [--safety 30]
Everything runs under a temporary directory; the script's own tmux servers, sshd and ssh master
are ended at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support.sshd

from tests.support.sshd import Sshd

from paw.cli import main as paw_main
from paw.cli.compose import build_fleet
from paw.cli.demo import render_demo_config
from paw.cli.tui import connection_for
from paw.supervisor.fleet import Fleet
from paw.tui.app import make_app

FIRST_PICTURE = ""  # key of ``seen``: when the TUI's first picture arrived
PROMPT_TIMEOUT_S = 3.0
BUSY_S = 1.0


def kind_toml(kind: str, drawn: Path, prompts: int) -> str:
    """A scripted kind drawing ``prompts`` prompts, each timing out, recording draw times."""
    steps = []
    for i in range(prompts):
        steps += [f"busy {BUSY_S:g}", f"shell@{PROMPT_TIMEOUT_S:g} echo {kind}-{i}"]
    command = json.dumps(["{python}", "-m", "paw.demo.agent", *steps])
    return (
        f"\n[agents.{kind}]\ncommand = {command}\n"
        'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n'
        f'detector = "scripted"\nenv = {{ PAW_DEMO_DRAWN = "{drawn}" }}\n'
    )


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def watch(
    fleet: Fleet, args: argparse.Namespace, expected: int, limit_s: float
) -> dict[str, float]:
    """Run the TUI headless; subject -> when that prompt first reached its picture."""
    app = make_app(
        connect=lambda: connection_for(fleet),
        poll_interval=args.interval,
        safety_interval=args.safety,
    )
    seen: dict[str, float] = {}
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            end = time.monotonic() + limit_s
            while len(seen) < expected + 1 and time.monotonic() < end:
                snap = app.main.snapshot
                if snap is not None:
                    now = time.time()
                    seen.setdefault(FIRST_PICTURE, now)
                    for p in snap.prompts:
                        seen.setdefault(p.prompt.subject or p.id, now)
                await pilot.pause(0.02)
    finally:
        app.disconnect()  # as `paw tui` does after the app: the event pump stops
    return seen


def run(args: argparse.Namespace) -> dict[str, object]:
    """Set up, measure, tear down; the figures."""
    work = Path(tempfile.mkdtemp(prefix="paw-bench-remote-"))
    sshd = Sshd(work / "sshd")
    suffix = uuid.uuid4().hex[:8]
    local_socket, remote_socket = f"paw-bench-rl-{suffix}", f"paw-bench-rr-{suffix}"
    repo, clone = work / "repo", work / "clone"
    git = ["git", "-c", "user.name=paw", "-c", "user.email=paw@localhost"]
    subprocess.run([*git, "init", "-q", "-b", "main", str(repo)], check=True)
    subprocess.run([*git, "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "i"], check=True)
    config = render_demo_config(local_socket)
    kinds = {f"{where}{i}": where for where in ("remote", "local") for i in range(args.agents)}
    for kind in kinds:
        config += kind_toml(f"b-{kind}", work / f"drawn-{kind}.jsonl", args.prompts)
    (repo / "paw.toml").write_text(config, encoding="utf-8")
    subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
    fleet: Fleet | None = None
    try:
        sshd.prepare()
        sshd.start()
        paw_main([
            "host", "add", "box", sshd.url, "-C", str(repo), "--repo", str(clone),
            "--socket", remote_socket, "--python", sys.executable,
            "--ssh-config", str(sshd.client_config),
        ])  # fmt: skip
        built = build_fleet(str(repo), control=True)
        assert isinstance(built, Fleet)  # noqa: S101 - a host was just added
        fleet = built
        for kind, where in kinds.items():
            host = "box" if where == "remote" else None
            fleet.spawn_agent(f"a-{kind}", f"b-{kind}", None, host=host)
        expected = len(kinds) * args.prompts
        limit = args.prompts * (PROMPT_TIMEOUT_S + BUSY_S) * 3 + 60
        seen = asyncio.run(watch(fleet, args, expected, limit))
        return {**figures(work, kinds, seen), "sweep_ms": sweeps(fleet)}
    finally:
        if fleet is not None:
            fleet.close()
            fleet.remotes["box"].link.disconnect()
        sshd.ssh("tmux", "-L", remote_socket, "kill-server")
        subprocess.run(
            ["tmux", "-L", local_socket, "kill-server"], capture_output=True, check=False
        )
        sshd.stop_listener()
        shutil.rmtree(work, ignore_errors=True)


def sweeps(fleet: Fleet, rounds: int = 20) -> dict[str, int]:
    """Median wall time of one sweep: this machine's, the host's (over ssh), both together."""
    host = fleet.remotes["box"].supervisor
    timed: dict[str, list[float]] = {"local": [], "host": [], "fleet": []}
    for _ in range(rounds):
        for name, sweep in (("local", fleet.local.poll_once), ("host", host.poll_once),
                            ("fleet", fleet.poll_once)):  # fmt: skip
            started = time.perf_counter()
            sweep()
            timed[name].append((time.perf_counter() - started) * 1000)
    return {name: round(statistics.median(values)) for name, values in timed.items()}


def figures(work: Path, kinds: dict[str, str], seen: dict[str, float]) -> dict[str, object]:
    """Latency per machine: median, p95, max, prompts never seen, and prompts drawn before
    the TUI's first picture (left out: they measure the TUI's start-up)."""
    out: dict[str, object] = {}
    for where in ("local", "remote"):
        lat: list[float] = []
        worst: list[tuple[float, str]] = []
        missed = early = 0
        for kind in (k for k, w in kinds.items() if w == where):
            path = work / f"drawn-{kind}.jsonl"
            lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
            for line in lines:
                drawn = json.loads(line)
                shown = seen.get(drawn["subject"])
                if drawn["time"] < seen.get(FIRST_PICTURE, 0.0):
                    early += 1  # drawn before the TUI was up: its start-up, not its latency
                elif shown is None:
                    missed += 1
                else:
                    lat.append((shown - drawn["time"]) * 1000)
                    worst.append((lat[-1], drawn["subject"]))
        out[where] = {
            "prompts": len(lat), "missed": missed, "before_first_picture": early,
            "median_ms": round(statistics.median(lat)) if lat else None,
            "p95_ms": round(percentile(lat, 0.95)) if lat else None,
            "max_ms": round(max(lat)) if lat else None,
            "worst": [f"{subject}: {ms:.0f} ms" for ms, subject in sorted(worst)[-3:]],
        }  # fmt: skip
    return out


def parse() -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=2, help="agents per machine (default 2)")
    parser.add_argument("--prompts", type=int, default=8, help="prompts per agent (default 8)")
    parser.add_argument("--interval", type=float, default=0.5, help="TUI poll interval (0.5)")
    parser.add_argument("--safety", type=float, default=30.0, help="TUI safety sweep (30)")
    return parser.parse_args()


if __name__ == "__main__":
    print(json.dumps(run(parse()), indent=2))
