"""Benchmark Claude's hook channel on the sweep's path: what reading every agent's channel costs,
and how soon a pending request is listed (issue 32).

For N agents, each with a wired channel directory (``wire_claude``) in one state dir:

- ``idle``: one ``pending()`` per agent, no request anywhere (what every sweep pays);
- ``one pending``: the same with one live request held by paw's real hook program, started as
  Claude starts it (``/bin/sh -c <command>`` by this process: the port checks the writer);
- ``pending -> listed``: from the hook's record appearing (its fsync'd rename) to the first
  sweep over all N agents that lists it, sweeping back to back; measured per round as the time of
  the sweep that lists it plus the wait until it started (the rename, read as the ``req/``
  directory's mtime, to the sweep's end; the file system's clock is coarse: a few ms early);
- ``pending -> listed (wake)``: the same, the way a long-running paw process now lists it: the
  hook's poke wakes this process's FIFO (:class:`~paw.adapters.channels.wake.WakeListener`, a
  thread, as in the sweeper), and the look that follows marks every agent's channel
  (``FileChannelHub.mark``: one ``stat`` of its directory) and reads only those whose mark
  changed, as a sweep reads only the agents whose screen or channel changed. Measured in the
  same rounds as the back-to-back path, on a request of its own;
- ``decision -> taken``: from paw handing its answer to the channel (``port.answer``, the
  answer file paw's approval writes after its fsync'd audit record) to the hook writing the
  decision on its stdout, which is what the agent reads (the agent has it);
- ``decision -> confirmed``: from the same start to paw reading the request resolved
  (``port.state``), polled every ``TAKEN_INTERVAL_S`` as the approval's own wait does: the end of
  ``paw approve`` through the channel. No one-second settle is in either: a channel answer is
  bound to the request, not typed into a dialog.

With ``--e2e``, the same landing measured end to end through a real supervisor instead: N
agents on a private tmux server in a git repository (N-1 scripted ``demo-safe`` agents, each
with a live prompt, and one stand-in Qwen Code that draws nothing while paw's real hook program,
started by it as Qwen starts it, holds its request open). A supervisor built as the TUI's
sweeper is (``control=True``) listens for the hook's poke; per round the hook lands one
request and, on the poke, this process sweeps:

- ``landed -> listed (early)``: with ``publish_early`` set (what the sweeper sets): the rename
  to the picture of the channel-only look (:func:`paw.supervisor.sweep.channel_sweep`) that lists
  it, given before any screen is captured;
- ``landed -> listed (whole sweep)``: without it, in alternate rounds of the same process: the
  rename to the end of the screen sweep (``poll_once``) that lists it, as before this change.

With ``--e2e --host-agents M`` the same rounds run through a Fleet, as ``paw tui`` and ``paw
serve`` drive one once a host is added: a private sshd on 127.0.0.1 (tests/support/sshd.py)
plays host ``box``, with M scripted ``demo-safe`` agents there (each with a live prompt, read
from its screen over ssh: no channel is wired on a host). Each fleet sweep asks this machine
and the host side by side (no pane events here: the host is swept in every sweep):

- ``landed -> listed (early)``: with the Fleet's ``publish_early`` set (what the feed sets):
  this machine's channel-only look beside the host's agents and prompts as the last picture
  showed them;
- ``landed -> listed (whole sweep)``: without it (what a Fleet did before): the end of the
  fleet's sweep, this machine's screen sweep and the host's over ssh, that lists it.

With ``--e2e --sweeper`` the rounds run as ``paw tui`` runs them: the TUI's sweeper process
(``python -m paw.cli.sweeper``, :func:`paw.cli.tui.start_sweeper`) sweeps and this process's
feed follows its pushes (acknowledging each sweep's picture as the TUI does). Per round, from
the rename to the feed posting (on this process's side of the pipe):

- ``landed -> listed (early)``: the look's picture, marked early;
- ``landed -> listed (whole sweep)``: the sweeper's screen sweep's own picture, which follows the
  look in the same sweep (the look is made first: its time is in this one too).

The baselines, in the same process and rounds: for the reads, one ``os.scandir`` listing of an
empty directory per agent (the floor of any file-based channel); for the decision, one round
trip through a pipe to a waiting child process (``cat``): how long this machine takes to wake
a waiting process and hear back, the floor of any handoff to another process. Prints p50/p95
per measure, the ratio to its floor, and the load average (the figures are wall clock).

Usage: .venv/bin/python scripts/bench_channel.py [--agents 200] [--rounds 40] [--e2e
[--host-agents M | --sweeper]]
(``--e2e`` kills its own tmux servers, and its sshd, at the end.)
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from paw.adapters.channels.claude import ClaudeHookChannel, ClaudeWiring, wire_claude
from paw.adapters.channels.hub import UNSETTLED_S, FileChannelHub
from paw.adapters.channels.wake import WakeListener
from paw.core.channels.request import ChannelAnswer, ChannelState
from paw.supervisor.channels import TAKEN_INTERVAL_S

if TYPE_CHECKING:
    from collections.abc import Callable

    from tests.support.sshd import Sshd

    from paw.supervisor.service import Supervisor

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
        ["/bin/sh", "-c", wiring.command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        start_new_session=True,  # (its group: ``end`` stops the hook program too)
    )  # fmt: skip
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
            return (end - landed(req)) * 1000


def landed(req: Path) -> float:
    """When the record landed: its rename into ``req/`` (the directory's mtime; nothing else
    changes it until the hook ends). Not the record's own mtime: that is its write, before the
    hook's fsync, and a loaded disk's fsync is not the channel's latency."""
    return req.stat().st_mtime


class Woken:
    """The wake path: a poke sets ``event``; :meth:`look` reads the channels whose mark moved."""

    def __init__(self, root: Path, ports: list[ClaudeHookChannel]) -> None:
        self.hub = FileChannelHub(root, sys.executable)
        self.ports = ports
        self.event = threading.Event()
        self.marks: list[object] = [self._mark(p) for p in ports]
        self.at = 0.0  # when the last poke was read (time.time())
        self.woken: list[float] = []  # landed -> the poke read, ms
        self.listener = WakeListener(root, self._poked)
        if not self.listener.start():
            raise RuntimeError("no FIFO here")

    def _poked(self) -> None:
        self.at = time.time()
        self.event.set()

    def _mark(self, port: ClaudeHookChannel) -> object:
        return self.hub.mark(port.wiring.agent, "claude-code", port.wiring.spawn)

    def look(self) -> int:
        found = 0
        for n, port in enumerate(self.ports):
            mark = self._mark(port)
            if mark != self.marks[n]:
                found += len(port.pending())
            self.marks[n] = mark
        return found

    def listed_after(self, wiring: ClaudeWiring) -> float:
        """ms from the hook's record appearing to the end of the first woken look listing it."""
        req = wiring.directory / "req"
        while True:
            if not self.event.wait(30):
                raise RuntimeError("no poke came")
            self.event.clear()
            found = self.look()
            end = time.time()
            if found:
                self.woken.append((self.at - landed(req)) * 1000)
                return (end - landed(req)) * 1000


class Heard(threading.Thread):
    """Reads the hook's stdout and notes when its decision line arrived (perf_counter)."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        super().__init__(daemon=True)
        self.proc, self.at, self.line = proc, 0.0, b""

    def run(self) -> None:
        if self.proc.stdout is not None:
            self.line = self.proc.stdout.readline()
            self.at = time.perf_counter()


def decide(port: ClaudeHookChannel, hook: subprocess.Popen[bytes]) -> tuple[float, float]:
    """ms from the answer handed to the channel to the hook printing it (taken) and to paw
    reading the request resolved (confirmed, polled as the approval polls)."""
    [request] = [r for r in port.pending() if r.state is ChannelState.PENDING]
    heard = Heard(hook)
    heard.start()
    start = time.perf_counter()
    port.answer(request.request_id, ChannelAnswer.ALLOW)
    while port.state(request.request_id) is ChannelState.PENDING:
        time.sleep(TAKEN_INTERVAL_S)
    confirmed = time.perf_counter()
    heard.join(30)
    if not heard.line.strip():
        raise RuntimeError("the hook printed no decision")
    return (heard.at - start) * 1000, (confirmed - start) * 1000


def pipe_round_trip(child: subprocess.Popen[bytes]) -> float:
    """ms to write a line to a waiting ``cat`` and read it back (the handoff floor)."""
    if child.stdin is None or child.stdout is None:
        raise RuntimeError("no pipe")
    start = time.perf_counter()
    child.stdin.write(b"x\n")
    child.stdin.flush()
    child.stdout.readline()
    return (time.perf_counter() - start) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--e2e", action="store_true", help="through a supervisor, real tmux")
    parser.add_argument(
        "--host-agents", type=int, default=0, help="--e2e through a Fleet: agents on a host"
    )
    parser.add_argument("--sweeper", action="store_true", help="--e2e through the TUI's sweeper")
    args = parser.parse_args(argv)
    if args.e2e:
        return end_to_end(args.agents, args.rounds, args.host_agents, sweeper=args.sweeper)
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
        base, idle, busy, listed, woken = [], [], [], [], []
        time.sleep(UNSETTLED_S)  # the channels just made settle (as in a running fleet)
        wake = Woken(root, ports)
        marks = []
        pipe, taken, confirmed = [], [], []
        target = wirings[args.agents // 2]
        port = ports[args.agents // 2]
        cat = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        loads = [os.getloadavg()[0]]
        try:
            for _ in range(args.rounds):
                base.append(timed(floor, empty))
                idle.append(timed(sweep, ports))
                hook = start_hook(target)
                try:
                    listed.append(listed_after(ports, target))
                    base.append(timed(floor, empty))
                    busy.append(timed(sweep, ports))
                    pipe.append(pipe_round_trip(cat))
                    got, done = decide(port, hook)
                    taken.append(got)
                    confirmed.append(done)
                finally:
                    end(hook)
                clear(target)
                marks.append(timed(wake.look))
                wake.event.clear()
                hook = start_hook(target)
                try:
                    woken.append(wake.listed_after(target))
                finally:
                    end(hook)
                clear(target)
                loads.append(os.getloadavg()[0])
        finally:
            cat.terminate()
            cat.wait()
            wake.listener.close()
        floor_p50 = statistics.median(base)
        ratio = statistics.median(woken) / statistics.median(listed)
        pipe_p50 = statistics.median(pipe)
        print(f"{args.agents} agents, {args.rounds} rounds (ms; ratio to the floor named)")
        print(f"  load average (1 min) {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} cpus")
        print(f"  floor: one scandir per agent   p50 {floor_p50:7.2f}  p95 {p95(base):7.2f}")
        print(f"  floor: pipe round trip         p50 {pipe_p50:7.2f}  p95 {p95(pipe):7.2f}")
        for name, values, under in (
            ("idle sweep (no request)", idle, floor_p50),
            ("sweep with one pending", busy, floor_p50),
            ("every channel marked (wake)", marks, floor_p50),
            ("pending -> listed", listed, floor_p50),
            ("pending -> listed (wake)", woken, floor_p50),
            ("  of which landed -> poke read", wake.woken, floor_p50),
            ("decision -> taken (hook)", taken, pipe_p50),
            ("decision -> confirmed (paw)", confirmed, pipe_p50),
        ):
            mid = statistics.median(values)
            which = "scandir" if under == floor_p50 else "pipe"
            print(
                f"  {name:<29} p50 {mid:7.2f}  p95 {p95(values):7.2f}  "
                f"x{mid / under:.1f} of the {which} floor  max {max(values):7.2f}"
            )
        print(f"  pending -> listed, wake / back-to-back sweeps: x{ratio:.2f} at p50, "
              f"x{p95(woken) / p95(listed):.2f} at p95")  # fmt: skip
    return 0


def end(hook: subprocess.Popen[bytes]) -> None:
    """Stop the hook's shell and the hook program it started, and wait until both are gone (the
    hook writes its outcome as it ends: the round's files are removed after that)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(hook.pid, signal.SIGTERM)
    hook.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.killpg(hook.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.01)


def clear(wiring: ClaudeWiring) -> None:
    for sub in ("req", "ans", "done"):
        for path in (wiring.directory / sub).glob("*.json"):
            path.unlink()


# The stand-in Qwen Code of ``--e2e``: ready, then for each go file ``<GO>.<n>`` runs its hook
# as Qwen 0.24.4 does (the command from the settings file paw named), drawing nothing.
FAKE_QWEN = """\
import json, os, subprocess, time
print("qwen (a stand-in): ready", flush=True)
with open(os.environ["QWEN_CODE_SYSTEM_DEFAULTS_PATH"], encoding="utf-8") as f:
    command = json.load(f)["hooks"]["PermissionRequest"][0]["hooks"][0]["command"]
n = 0
while True:
    go = f"{os.environ['FAKE_QWEN_GO']}.{n}"
    while not os.path.exists(go):
        time.sleep(0.01)
    with open(go, encoding="utf-8") as f:
        event = f.read()
    subprocess.run(["bash", "-c", command], input=event.encode(), stdout=subprocess.DEVNULL)
    n += 1
"""
QWEN_EVENT = {
    "session_id": "s", "transcript_path": "", "cwd": ".",
    "hook_event_name": "PermissionRequest", "timestamp": "2026-12-04T00:00:00Z",
    "permission_mode": "default", "prompt_id": "p1", "tool_name": "run_shell_command",
    "tool_input": {"command": EVENT["tool_input"]["command"], "description": "bench"},  # type: ignore[index]
}  # fmt: skip


def with_host(repo: Path, root: Path, socket: str) -> tuple[Sshd, str]:
    """Add host ``box`` (a private sshd on 127.0.0.1, a clone of ``repo``, tmux socket
    ``<socket>-host``) to ``repo``; the sshd and the host's socket, to end them."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support.sshd
    from tests.support.sshd import Sshd

    from paw.cli import main as paw_main

    clone, host_socket = root / "clone", f"{socket}-host"
    subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
    sshd = Sshd(root / "sshd")
    sshd.prepare()
    sshd.start()
    code = paw_main([
        "host", "add", "box", sshd.url, "-C", str(repo), "--repo", str(clone),
        "--socket", host_socket, "--python", sys.executable,
        "--ssh-config", str(sshd.client_config),
    ])  # fmt: skip
    if code != 0:
        raise SystemExit("paw host add failed")
    return sshd, host_socket


@dataclasses.dataclass
class Rounds:
    """What the rounds measured (ms), and the load average after each."""

    fast: list[float]
    whole: list[float]
    sweeps_ms: list[float]
    loads: list[float]
    unpoked: list[bool]


def end_hooks(launched: int, req: Path) -> None:
    """End the stand-in's hook and clear its channel's records (the round is over)."""
    import psutil

    hooks = [h for h in psutil.Process(launched).children(recursive=True)
             if "paw.channel_hook" in " ".join(h.cmdline())]  # fmt: skip
    for hook in hooks:
        hook.terminate()
    psutil.wait_procs(hooks, timeout=30)
    for sub in ("req", "ans", "done"):
        for path in (req.parent / sub).glob("*.json"):
            path.unlink()


def sweeper_rounds(  # noqa: C901 - the rounds' one story
    sup: Supervisor,
    repo: Path,
    socket: str,
    req: Path,
    launched: int,
    rounds: int,
    settled: Callable[[], None],
    out: Rounds,
) -> int:
    """``--sweeper``: see the module's docstring. Returns the rounds whose first picture
    listing the request was not the look's. ``settled`` sweeps here until every agent's prompt
    is listed and the stand-in's none (this process's channel mark settled): once before the
    sweeper starts; after, a round waits for the sweeper's pictures to show that."""
    from paw.cli.tui import start_sweeper
    from paw.supervisor.feed import Feed, FeedEvent, Picture

    subject = QWEN_EVENT["tool_input"]["command"]  # type: ignore[index]
    settled()
    expected = len(sup.poll_once().prompts)
    child = start_sweeper(sup, str(repo), socket)
    if child is None or not child.wait_ready(120):
        raise SystemExit("the sweeper did not start")
    feed = Feed(sup, safety_interval=600.0, poll_interval=600.0)
    seen: list[tuple[float, bool]] = []  # (when, early) of each picture listing the request
    arrived = threading.Condition()

    def took(event: FeedEvent) -> None:
        if not isinstance(event, Picture):
            return
        if any(p.prompt.subject == subject for p in event.snapshot.prompts):
            with arrived:
                seen.append((time.time(), event.early))
                arrived.notify_all()
        if not event.early:  # as the TUI's main screen does
            feed.handled()

    feed.subscribe(took)
    feed.use(sup, pushes=child)
    missed = 0
    try:
        for n in range(rounds):
            deadline = time.monotonic() + 300
            while len(sup.poll_once().prompts) != expected:  # (the sweeper's requested sweeps)
                if time.monotonic() > deadline:
                    raise SystemExit("timed out waiting for the agents to settle")
                time.sleep(0.1)
            out.sweeps_ms.append(timed(sup.poll_once))
            with arrived:
                seen.clear()
            (repo.parent / f"go.{n}").write_text(json.dumps(QWEN_EVENT), encoding="utf-8")
            deadline = time.monotonic() + 60
            with arrived:
                while not any(not early for _, early in seen) and time.monotonic() < deadline:
                    arrived.wait(1)
                got = list(seen)
            if not got:
                out.unpoked.append(any(req.glob("[!.]*.json")))  # (the round is left out)
            else:
                at = landed(req)
                looks = [t for t, early in got if early]
                sweeps = [t for t, early in got if not early]
                missed += not looks or (bool(sweeps) and sweeps[0] < looks[0])
                if looks:
                    out.fast.append((looks[0] - at) * 1000)
                if sweeps:
                    out.whole.append((sweeps[0] - at) * 1000)
            end_hooks(launched, req)
            print(f"  round {n}: through the sweeper", file=sys.stderr)
            out.loads.append(os.getloadavg()[0])
    finally:
        feed.stop()
        child.close()
        sup.sweep_elsewhere = None
    return missed


def end_to_end(  # noqa: C901 - one measured story
    agents: int, rounds: int, host_agents: int = 0, *, sweeper: bool = False
) -> int:
    """``--e2e``: see the module's docstring."""

    from paw.cli.compose import build_fleet
    from paw.cli.demo import render_demo_config
    from paw.supervisor.fleet import Fleet
    from paw.supervisor.records import load_agents
    from paw.supervisor.service import Supervisor

    socket = f"paw-bench-channel-{os.getpid()}"
    subject = QWEN_EVENT["tool_input"]["command"]  # type: ignore[index]
    with tempfile.TemporaryDirectory(prefix="paw-bench-channel-") as tmp:
        root = Path(tmp)
        repo, stand_in, go = root / "repo", root / "qwen", root / "go"
        repo.mkdir()
        ident = ["-c", "user.name=paw bench", "-c", "user.email=bench@paw.invalid"]
        subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
        subprocess.run(["git", *ident, "commit", "-q", "--allow-empty", "-m", "i"], cwd=repo,
                       check=True)  # fmt: skip
        stand_in.write_text(f"#!{sys.executable}\n{FAKE_QWEN}", encoding="utf-8")
        stand_in.chmod(0o755)
        config = render_demo_config(socket) + "\n".join([
            "[agents.qwen-code]", f"command = [{json.dumps(str(stand_in))}]",
            'match = { interpreters = ["python"], scripts = ["qwen"] }',
            f"env = {{ FAKE_QWEN_GO = {json.dumps(str(go))} }}", "",
        ])  # fmt: skip
        (repo / "paw.toml").write_text(config, encoding="utf-8")
        sshd: Sshd | None = None
        host_socket = ""
        if host_agents:
            sshd, host_socket = with_host(repo, root, socket)
        sup = build_fleet(str(repo), socket, control=True)
        if not isinstance(sup, Fleet if host_agents else Supervisor):
            raise SystemExit("not the supervisor asked for")
        try:
            sup.spawn("qwen", "qwen-code", None)
            print("  spawning", file=sys.stderr)
            for n in range(agents - 1):
                sup.spawn(f"a{n:03d}", "demo-safe", "bench")
            for n in range(host_agents):
                assert isinstance(sup, Fleet)  # noqa: S101 - (host_agents: a Fleet)
                sup.spawn_agent(f"h{n:03d}", "demo-safe", "bench", host="box")
            record = load_agents(sup.ctx.state)["qwen"]
            if record.launched is None or not record.token:
                raise SystemExit("the stand-in was not launched")
            launched = record.launched.pid
            req = repo / ".paw" / "channels" / "qwen" / record.token / "req"
            poked = threading.Event()
            sup.listen_counts(poked.set)
            listed_at: list[float] = []

            def early(snapshot: object) -> None:
                if any(p.prompt.subject == subject for p in snapshot.prompts):  # type: ignore[attr-defined]
                    listed_at.append(time.time())

            def settled() -> None:  # every agent's prompt listed, the stand-in's none
                deadline = time.monotonic() + 300
                while time.monotonic() < deadline:
                    snap = sup.poll_once()
                    mark = sup.ctx.memory.channel_marks.get("qwen")
                    if len(snap.prompts) == agents - 1 + host_agents and isinstance(mark, tuple):
                        return
                    time.sleep(0.1)
                raise SystemExit("timed out waiting for the agents to settle")

            fast: list[float] = []
            whole: list[float] = []
            sweeps_ms: list[float] = []
            loads = [os.getloadavg()[0]]
            missed = 0
            unpoked: list[bool] = []  # rounds with no poke in 60 s: whether the record landed
            if sweeper:
                assert isinstance(sup, Supervisor)  # noqa: S101 - (no hosts with --sweeper)
                rounds_of = Rounds(fast, whole, sweeps_ms, loads, unpoked)
                missed = sweeper_rounds(
                    sup, repo, socket, req, launched, rounds, settled, rounds_of
                )
            for n in range(0 if sweeper else 2 * rounds):
                settled()
                sweeps_ms.append(timed(sup.poll_once))
                use_early = n % 2 == 0
                sup.publish_early = early if use_early else None
                listed_at.clear()
                poked.clear()
                (root / f"go.{n}").write_text(json.dumps(QWEN_EVENT), encoding="utf-8")
                found = False
                waited = time.monotonic()
                while not found:
                    if not poked.wait(1):
                        if time.monotonic() - waited < 60:
                            continue
                        unpoked.append(any(req.glob("[!.]*.json")))  # (the round is left out)
                        break
                    poked.clear()
                    snap = sup.poll_once()
                    ended = time.time()
                    if not any(req.glob("[!.]*.json")):
                        continue  # (a poke of the hook before: the record is not there yet)
                    if use_early and listed_at:
                        fast.append((listed_at[0] - landed(req)) * 1000)
                        found = True
                    elif any(p.prompt.subject == subject for p in snap.prompts):
                        (fast if use_early else whole).append((ended - landed(req)) * 1000)
                        missed += use_early  # (the early look did not list it: counted)
                        found = True
                end_hooks(launched, req)
                print(f"  round {n}: {'early' if use_early else 'whole'}", file=sys.stderr)
                loads.append(os.getloadavg()[0])
        finally:
            sup.publish_early = None
            sup.close()
            subprocess.run(["tmux", "-L", socket, "kill-server"], check=False,
                           stderr=subprocess.DEVNULL)  # fmt: skip
            if isinstance(sup, Fleet):
                sup.remotes["box"].link.disconnect()
            if sshd is not None:
                sshd.ssh("tmux", "-L", host_socket, "kill-server")
                sshd.stop_listener()
    print(f"{agents} agents (1 stand-in Qwen, {agents - 1} demo-safe with a live prompt), "
          f"{rounds} rounds per path (ms)")  # fmt: skip
    if sweeper:
        print("  through the TUI's sweeper process: its pictures as the TUI's feed posts them")
    if host_agents:
        print(f"  through a Fleet: {host_agents} demo-safe with a live prompt on host box, "
              "over ssh (127.0.0.1), swept beside this machine")  # fmt: skip
    print(f"  early rounds the screen sweep listed instead: {missed}")
    print(f"  rounds left out, no poke in 60 s (the record landed?): {unpoked}")
    print(f"  load average (1 min) {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} cpus")
    for name, values in (
        ("steady screen sweep (no request)", sweeps_ms),
        ("landed -> listed (whole sweep)", whole),
        ("landed -> listed (early)", fast),
    ):
        print(f"  {name:<33} p50 {statistics.median(values):7.2f}  p95 {p95(values):7.2f}  "
              f"max {max(values):7.2f}")  # fmt: skip
    print(f"  early / whole sweep: x{statistics.median(fast) / statistics.median(whole):.2f} "
          f"at p50, x{p95(fast) / p95(whole):.2f} at p95")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
