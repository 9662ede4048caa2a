"""Benchmark paw at scale: 50 / 100 / 200 scripted agents and a real `paw tui` in a tmux pane.

For each agent count, on a private tmux server (``-L paw-bench-scale-<pid>``) and a temporary
repository, it measures in one run:

* spawn time per agent as agents accumulate (first, middle and last tenth);
* the sweep vs the naive loop: one control-mode survey capturing every agent pane against a
  libtmux ``Pane.capture_pane()`` loop over the same panes (median of 3 each), and the ratio;
* `paw prompts` and `paw ls --json` wall time (a fresh process each, median of 3);
* the idle CPU of the `paw tui` process and its children (the tmux control-mode clients and
  any git it runs) over ``--duration`` seconds, with every agent quiet (90 % idle at their
  input line, 10 % waiting on a prompt), and the TUI's RSS;
* the busy CPU over the same time with 10 % of the agents working: a spinner redrawn every
  100 ms, then a prompt (timing out after 1.5 s), again and again;
* prompt drawn -> shown in the TUI: the scripted agent stamps each prompt box it draws
  (``PAW_DEMO_STAMP``); the TUI's pane is captured whenever it draws (tmux control mode's
  ``%output``, and at least every 25 ms) until the row with the agent's name and the prompt's
  subject appears; p50 / p95 over the busy window;

and beside each figure the 1-minute load average (and, at the start and after the latencies,
a pure-Python reference time: machines of one kind differ at it; the one after the latencies
is read while the agents still run, so compare it with readings taken at the same point).
The TUI runs with its defaults (pane events through tmux control mode, a safety sweep every
30 s).

Usage: .venv/bin/python scripts/bench_scale.py [--agents 50,100,200] [--duration 60] [--quick]
``--quick`` is ``--agents 20 --duration 10``. Only this script's own tmux server is killed.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import libtmux
import psutil

from paw.cli.compose import build_supervisor
from paw.supervisor.records import AgentRecord, load_agents
from paw.supervisor.service import Supervisor

UI_SIZE = (160, 60)
UI_SESSION = "bench-ui"
CAPTURE_EVERY_S = 0.025  # the TUI's pane is also captured this often when it drew nothing
CYCLES = 400  # busy agents' work/prompt cycles (more than any run uses)


def config(socket: str, stamp: Path) -> str:
    """paw.toml: ``idle`` agents end at their input line; ``cycle`` agents wait on a first
    prompt (quiet), then work and ask in a loop once it is answered."""
    cycle = ["shell echo start"]
    for k in range(CYCLES):
        cycle += ["busy 1", f"shell@1.5 echo s{k}"]
    kinds = {"idle": ["busy 0.1"], "cycle": cycle}
    lines = ["[tmux]", f'socket_name = "{socket}"', ""]
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


def tmux(socket: str, *args: str) -> str:
    done = subprocess.run(
        ["tmux", "-L", socket, *args], capture_output=True, text=True, check=False
    )
    return done.stdout


def wait_for(check: Callable[[], bool], what: str, timeout: float = 300.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.1)


def python_ms() -> float:
    """This machine's speed at pure Python right now: the same work on every machine, the
    fastest of 5 (ms). Most of paw's CPU is Python: the same code's busy CPU was seen to
    differ twofold between two machines of one kind while the libtmux loop (mostly tmux's
    own time) took as long on both. Read the latency and CPU figures beside this one too."""
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        counts: dict[str, int] = {}
        for i in range(200_000):
            key = f"k{i % 5000}"
            counts[key] = counts.get(key, 0) + i
        best = min(best, time.perf_counter() - started)
    return best * 1000


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def make_repo(root: Path, socket: str, stamp: Path) -> Path:
    repo = root / "repo"
    repo.mkdir()
    ident = ["-c", "user.name=paw bench", "-c", "user.email=bench@paw.invalid"]
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    (repo / ".gitignore").write_text(".paw/\n", encoding="utf-8")
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    subprocess.run(["git", *ident, "commit", "-q", "-m", "init"], cwd=repo, check=True)
    (repo / "paw.toml").write_text(config(socket, stamp), encoding="utf-8")
    return repo


def spawn_all(supervisor: Supervisor, agents: int) -> tuple[list[str], dict[str, float]]:
    """Spawn ``agents`` (10 % cycle agents); return the cycle agents and spawn times (ms)."""
    busy = max(1, agents // 10)
    names: list[str] = []
    times: list[float] = []
    for i in range(agents):
        kind = "cycle" if i % 10 == 0 and len(names) < busy else "idle"
        name = f"c{i:03d}" if kind == "cycle" else f"i{i:03d}"
        if kind == "cycle":
            names.append(name)
        started = time.perf_counter()
        supervisor.spawn(name, kind, None)
        times.append((time.perf_counter() - started) * 1000)
    tenth = max(1, agents // 10)
    mid = agents // 2
    spawn = {
        "first": statistics.median(times[:tenth]),
        "middle": statistics.median(times[mid : mid + tenth]),
        "last": statistics.median(times[-tenth:]),
    }
    return names, spawn


def sweep_ratio(socket: str, supervisor: Supervisor) -> tuple[float, float]:
    """(control-mode survey ms, naive libtmux loop ms) over every agent pane."""
    from paw.adapters.tmux.terminal import TmuxTerminal

    panes = [a.pane_id for a in _agents(supervisor) if a.pane_id]
    terminal = TmuxTerminal(socket_name=socket, control=True)
    terminal.watch_session(supervisor.session)
    terminal.survey(panes)  # start the client
    ours = []
    naive = []
    server = libtmux.Server(socket_name=socket)
    for _ in range(3):
        started = time.perf_counter()
        terminal.survey(panes)
        ours.append(time.perf_counter() - started)
        started = time.perf_counter()
        for pane in server.panes:
            if pane.pane_id in panes:
                pane.capture_pane()
        naive.append(time.perf_counter() - started)
    terminal.close()
    return statistics.median(ours) * 1000, statistics.median(naive) * 1000


def _agents(supervisor: Supervisor) -> list[AgentRecord]:

    return list(load_agents(supervisor.ctx.state).values())


def cli_ms(repo: Path, *args: str) -> float:
    times = []
    for _ in range(3):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "paw", *args, "-C", str(repo)],
            capture_output=True,
            check=True,
        )
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def start_tui(socket: str, repo: Path) -> tuple[str, psutil.Process]:
    argv = shlex.join([sys.executable, "-m", "paw", "tui", "-C", str(repo)])
    width, height = UI_SIZE
    # in the repository, as a user runs it (and `python -m` puts the working directory first
    # on sys.path: run elsewhere, a checkout there would be the paw that runs)
    tmux(
        socket, "new-session", "-d", "-s", UI_SESSION, "-c", str(repo),
        "-x", str(width), "-y", str(height),
    )  # fmt: skip
    pane = tmux(socket, "list-panes", "-t", f"={UI_SESSION}", "-F", "#{pane_id}").strip()
    tmux(socket, "respawn-pane", "-k", "-t", pane, f"exec {argv}")
    pid = int(tmux(socket, "display-message", "-p", "-t", pane, "#{pane_pid}").strip())
    return pane, psutil.Process(pid)


def cpu_seconds(process: psutil.Process) -> float:
    """The process's CPU time, its reaped children's, and its live children's."""
    total = sum(process.cpu_times()[:4])
    for child in process.children(recursive=True):
        try:
            total += sum(child.cpu_times()[:2])
        except psutil.Error:
            continue
    return total


def measure_cpu(process: psutil.Process, seconds: float) -> tuple[float, float]:
    """(% of one core, own share %) used by ``process`` and its children over ``seconds``."""
    own0, all0 = sum(process.cpu_times()[:2]), cpu_seconds(process)
    time.sleep(seconds)
    own1, all1 = sum(process.cpu_times()[:2]), cpu_seconds(process)
    # a child that exits moves its time to the parent's reaped-children figures: never below 0
    return max(all1 - all0, own1 - own0) / seconds * 100, (own1 - own0) / seconds * 100


def latencies(
    socket: str, pane: str, stamp: Path, seconds: float, process: psutil.Process
) -> tuple[list[float], int, float, float]:
    """Prompt drawn -> shown latencies (ms) over ``seconds``, the prompts never shown before
    they timed out, and the CPU figures meanwhile.

    The TUI's pane is read the way paw reads agents: a tmux control-mode client reports when
    the pane drew (``%output``) and a second one captures it right after (no process per
    capture), at the latest every ``CAPTURE_EVERY_S``. A latency is the capture's return
    minus the agent's stamp: an upper bound, a capture's round trip (about a millisecond)
    above the frame that showed the row."""
    from paw.adapters.tmux.control import ControlClient
    from paw.adapters.tmux.events import PaneEvents

    offset = stamp.stat().st_size if stamp.exists() else 0
    pending: dict[tuple[str, str], float] = {}
    found: list[float] = []
    missed = 0
    drew = threading.Event()
    base = ["tmux", "-L", socket]
    events = PaneEvents(base, UI_SESSION)
    events.subscribe(lambda pane_id: drew.set() if pane_id in (pane, None) else None)
    events.start()
    client = ControlClient(base, UI_SESSION)
    own0, all0 = sum(process.cpu_times()[:2]), cpu_seconds(process)
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            drew.wait(CAPTURE_EVERY_S)
            drew.clear()
            with stamp.open(encoding="utf-8") as fh:
                fh.seek(offset)
                chunk = fh.read()
            complete = chunk[: chunk.rfind("\n") + 1]
            offset += len(complete.encode())
            for line in complete.splitlines():
                entry = json.loads(line)
                pending[(Path(entry["cwd"]).name, entry["subject"])] = entry["drawn"]
            if not pending:
                continue
            captured = client.sweep([pane])
            now = time.time()
            rows = (captured[0].text or "").splitlines() if captured else []
            for key, drawn in list(pending.items()):
                name, subject = key
                if any(name in row and subject in row for row in rows):
                    found.append((now - drawn) * 1000)
                    del pending[key]
                elif now - drawn > 1.5:
                    del pending[key]  # timed out before the TUI showed it
                    missed += 1
    finally:
        client.close()
        events.stop()
    own1, all1 = sum(process.cpu_times()[:2]), cpu_seconds(process)
    total = max(all1 - all0, own1 - own0) / seconds * 100
    return found, missed, total, (own1 - own0) / seconds * 100


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def run(agents: int, duration: float, profile: str | None = None) -> None:
    socket = f"paw-bench-scale-{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="paw-bench-scale-") as tmp:
        stamp = Path(tmp) / "stamps.jsonl"
        repo = make_repo(Path(tmp), socket, stamp)
        try:
            supervisor = build_supervisor(str(repo), socket_name=socket)
            cycle, spawn = spawn_all(supervisor, agents)
            print(
                f"{agents} agents: spawn ms/agent first {spawn['first']:.0f}, "
                f"middle {spawn['middle']:.0f}, last {spawn['last']:.0f} ({load()})"
            )
            wait_for(lambda: len(supervisor.poll_once().prompts) >= len(cycle), "first prompts")
            ours, naive = sweep_ratio(socket, supervisor)
            print(
                f"  survey (control mode) {ours:.1f} ms vs libtmux loop {naive:.1f} ms: "
                f"{naive / ours:.1f}x ({load()})"
            )
            prompts, ls = cli_ms(repo, "prompts"), cli_ms(repo, "ls", "--json")
            print(f"  paw prompts {prompts:.0f} ms, paw ls --json {ls:.0f} ms ({load()})")
            pane, ui = start_tui(socket, repo)
            wait_for(
                lambda: "c000" in tmux(socket, "capture-pane", "-p", "-t", pane),
                "the TUI to show the agents",
                timeout=120,
            )
            time.sleep(5)  # the first sweeps (every worktree counted once) are start-up
            total, own = measure_cpu(ui, duration)
            rss = ui.memory_info().rss / 2**20
            print(
                f"  idle TUI CPU {total:.2f} % of a core (process {own:.2f} %, children "
                f"{total - own:.2f} %) over {duration:.0f} s, RSS {rss:.0f} MiB ({load()})"
            )
            for name in cycle:  # answer the first prompt: the work loop starts
                pane_id = next(a.pane_id for a in _agents(supervisor) if a.name == name)
                tmux(socket, "send-keys", "-t", pane_id or "", "y")
            spy = None
            if profile:  # py-spy samples the TUI and its sweeper through the busy window
                spy = subprocess.Popen(
                    [py_spy(), "record", "--subprocesses", "-p", str(ui.pid),
                     "-d", str(int(duration)), "-f", "raw", "-o", f"{profile}-{agents}.txt",
                     "--nonblocking"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )  # fmt: skip
            found, missed, total, own = latencies(socket, pane, stamp, duration, ui)
            if spy is not None:
                spy.wait(timeout=60)
            rss = ui.memory_info().rss / 2**20
            print(
                f"  busy ({len(cycle)} working) TUI CPU {total:.2f} % (process {own:.2f} %), "
                f"RSS {rss:.0f} MiB ({load()})"
            )
            print(
                f"  prompt drawn -> shown: n={len(found)} p50 {pct(found, 0.5):.0f} ms, "
                f"p95 {pct(found, 0.95):.0f} ms; {missed} never shown before they timed out "
                f"after 1.5 s ({load()}; python reference {python_ms():.0f} ms)"
            )
        finally:
            subprocess.run(["tmux", "-L", socket, "kill-server"], check=False, capture_output=True)


def py_spy() -> str:
    """py-spy on PATH or beside this interpreter (a virtualenv's bin/ need not be on PATH)."""
    beside = Path(sys.executable).with_name("py-spy")
    found = shutil.which("py-spy") or (str(beside) if beside.exists() else None)
    if found is None:
        raise SystemExit("--profile needs py-spy: .venv/bin/pip install py-spy")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", default="50,100,200", help="comma-separated agent counts")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds per CPU window")
    parser.add_argument("--quick", action="store_true", help="--agents 20 --duration 10")
    parser.add_argument(
        "--profile",
        metavar="PREFIX",
        help="sample the TUI and its sweeper with py-spy (not installed by paw) in the busy "
        "window: PREFIX-N.txt",
    )
    args = parser.parse_args(argv)
    if args.profile:
        py_spy()  # before the agents are spawned
    counts = [20] if args.quick else [int(n) for n in args.agents.split(",")]
    duration = 10.0 if args.quick else args.duration
    print(f"$ {shlex.join(['scripts/bench_scale.py', *(argv or sys.argv[1:])])}")
    print(f"{os.cpu_count()} cores, python reference {python_ms():.0f} ms, {load()}")
    for agents in counts:
        run(agents, duration, args.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
