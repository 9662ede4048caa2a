"""Wave runner cost: CPU with N parallel tasks all waiting on a parked prompt, and how fast a
parked prompt's notification leaves (real tmux on a private socket, real git, real apprise to a
local receiver).

    python scripts/bench_wave.py [--tasks 20] [--seconds 30] [--poll 1.0] [--idle-poll 5.0] [--json]

CPU is the runner process's own user+system time over the measuring window (its git and tmux
children are reported apart), as a percentage of one core. Latency is from the sweep that saw
the prompt (its ``first_seen``) to the message arriving at the receiver.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.receiver import Receiver  # noqa: E402

AGENT = """[agents.demo-wait]
command = ["{python}", "-m", "paw.demo.agent", "busy 0.5", "shell git push origin feature"]
detector = "scripted"
task_flag = "--task"
match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }
"""


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def _wave(n: int, url: str, poll: float, idle_poll: float) -> str:
    tasks = "".join(
        f'[[tasks]]\nname = "t{i:02d}"\ntask = "wait"\ncheck = "true"\n\n' for i in range(n)
    )
    return (
        f'name = "bench"\nagent = "demo-wait"\nmax_parallel = {n}\npoll_s = {poll}\n'
        f"idle_poll_s = {idle_poll}\n"
        f'stuck_after_s = 3600\n\n[notify]\nurls = ["{url}"]\nbell = false\n'
        f"digest_over = {n + 1}\n\n{tasks}"
    )


def main() -> int:
    """Run the benchmark; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--poll", type=float, default=1.0, help="the wave's poll_s")
    parser.add_argument("--idle-poll", type=float, default=5.0, help="the wave's idle_poll_s")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    receiver = Receiver()
    socket = f"paw-bench-wave-{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="paw-bench-wave-") as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        env = {
            **os.environ, "PAW_TMUX_SOCKET": socket, "GIT_AUTHOR_NAME": "bench",
            "GIT_AUTHOR_EMAIL": "bench@example.invalid", "GIT_COMMITTER_NAME": "bench",
            "GIT_COMMITTER_EMAIL": "bench@example.invalid",
        }  # fmt: skip
        os.environ.update(env)
        _git(repo, "init", "-q", "-b", "main")
        (repo / "README.md").write_text("bench\n", encoding="utf-8")
        _git(repo, "add", ".")
        _git(repo, "commit", "-qm", "init")
        (repo / "paw.toml").write_text(AGENT, encoding="utf-8")
        wave = Path(tmp) / "bench.toml"
        wave.write_text(
            _wave(args.tasks, receiver.url, args.poll, args.idle_poll), encoding="utf-8"
        )
        runner = subprocess.Popen(
            [sys.executable, "-m", "paw", "wave", "run", str(wave), "--quiet"], cwd=repo, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            figures = _measure(args, repo, runner, receiver)
        finally:
            runner.kill()
            runner.wait()
            subprocess.run(["tmux", "-L", socket, "kill-server"], check=False, capture_output=True)
            receiver.close()
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0


def _measure(
    args: argparse.Namespace, repo: Path, runner: subprocess.Popen[bytes], receiver: Receiver
) -> dict[str, object]:
    state_file = repo / ".paw" / "waves" / "bench.json"
    deadline = time.monotonic() + 60 + 3 * args.tasks
    parked: list[dict[str, object]] = []
    while time.monotonic() < deadline:
        if runner.poll() is not None:
            raise SystemExit(
                f"runner ended: {runner.stderr.read().decode() if runner.stderr else ''}"
            )
        try:
            state = json.loads(state_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            state = {"tasks": []}
        parked = [p for t in state["tasks"] for p in t["prompts"] if p.get("notified_at")]
        if len(parked) >= args.tasks and len(receiver.messages) >= args.tasks:
            break
        time.sleep(0.5)
    else:
        raise SystemExit(f"only {len(parked)} of {args.tasks} prompts parked in time")
    latencies = _latencies(parked, receiver)
    proc = psutil.Process(runner.pid)
    time.sleep(2.0)  # let the last notifications and badge updates settle
    before, kids_before, start = proc.cpu_times(), _children_cpu(proc), time.monotonic()
    time.sleep(args.seconds)
    after, kids_after, wall = proc.cpu_times(), _children_cpu(proc), time.monotonic() - start
    own = (after.user + after.system) - (before.user + before.system)
    kids = (
        (after.children_user + after.children_system)
        - (before.children_user + before.children_system)
        + max(0.0, kids_after - kids_before)
    )
    return {
        "tasks_waiting": args.tasks,
        "poll_s": args.poll,
        "idle_poll_s": args.idle_poll,
        "window_s": round(wall, 1),
        "runner_cpu_percent_of_a_core": round(100 * own / wall, 2),
        "children_cpu_percent_of_a_core": round(100 * kids / wall, 2),
        "notify_latency_s_max": round(max(latencies), 3),
        "notify_latency_s_median": round(sorted(latencies)[len(latencies) // 2], 3),
        "messages": len(receiver.messages),
    }


def _children_cpu(proc: psutil.Process) -> float:
    total = 0.0
    for child in proc.children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def _latencies(parked: list[dict[str, object]], receiver: Receiver) -> list[float]:
    """first_seen (epoch, the detecting sweep) → arrival at the receiver (epoch)."""
    arrivals: dict[str, float] = {}
    offset = time.time() - time.monotonic()
    for message, arrived in zip(receiver.messages, receiver.arrived, strict=True):
        body = str(message.get("message", ""))
        for p in parked:
            if f"paw approve {p['id']}" in body:
                arrivals[str(p["id"])] = arrived + offset
    return [
        arrivals[str(p["id"])] - float(str(p["first_seen"]))
        for p in parked
        if str(p["id"]) in arrivals
    ]


if __name__ == "__main__":
    sys.exit(main())
