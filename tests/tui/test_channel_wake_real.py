"""A hook channel's request wakes the TUI's sweeper (issue 32): over real tmux and git, the TUI's
own loop (its :class:`~paw.supervisor.feed.Feed` following the sweeper process,
``python -m paw.cli.sweeper``, with a safety sweep of 600 s and no timer), and paw's real hook
program run as Qwen Code runs it (``bash -c <command>`` by the agent's own process, which here is
a script named ``qwen`` that draws nothing while its hook waits, as Qwen draws no dialog).

Nothing on the pane changes when the record lands, so only the hook's poke can start the sweep
that lists it, and only the channel's changed mark can make that sweep read the channel of an
agent whose screen it would otherwise keep."""

from __future__ import annotations

import contextlib
import json
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest
from libtmux.server import Server

from paw.cli.compose import build_supervisor
from paw.cli.tui import start_sweeper
from paw.supervisor.feed import Feed, FeedEvent, Picture
from paw.supervisor.records import load_agents
from tests.support.budget import budget

pytestmark = [pytest.mark.tmux, pytest.mark.git]

COMMAND = "touch waked.txt && echo " + "word " * 30
EVENT = {
    "session_id": "s",
    "transcript_path": "",
    "cwd": "/tmp",
    "hook_event_name": "PermissionRequest",
    "timestamp": "2026-12-04T00:00:00Z",
    "permission_mode": "default",
    "prompt_id": "p1",
    "tool_name": "run_shell_command",
    "tool_input": {"command": COMMAND, "description": "make a file"},
}
# The agent: prints one line, then waits silently for the test's go and runs its hook the way
# Qwen 0.24.4 does (the command from the settings file paw named in its environment).
FAKE_QWEN = """\
import json, os, subprocess, sys, time
print("qwen (a stand-in): ready", flush=True)
go = os.environ["FAKE_QWEN_GO"]
while not os.path.exists(go):
    time.sleep(0.05)
with open(os.environ["QWEN_CODE_SYSTEM_DEFAULTS_PATH"], encoding="utf-8") as f:
    command = json.load(f)["hooks"]["PermissionRequest"][0]["hooks"][0]["command"]
with open(go, encoding="utf-8") as f:
    event = f.read()
subprocess.run(["bash", "-c", command], input=event.encode(), stdout=subprocess.DEVNULL)
time.sleep(3600)
"""


def _config(socket: str, agent: Path, go: Path) -> str:
    return "\n".join(
        [
            "[tmux]",
            f'socket_name = "{socket}"',
            "[agents.qwen-code]",
            f"command = [{json.dumps(str(agent))}]",
            'match = { interpreters = ["python"], scripts = ["qwen"] }',
            f"env = {{ FAKE_QWEN_GO = {json.dumps(str(go))} }}",
            "",
        ]
    )


def _hooks(pid: int) -> list[psutil.Process]:
    try:
        return [p for p in psutil.Process(pid).children(recursive=True) if "paw.channel_hook" in
                " ".join(p.cmdline())]  # fmt: skip
    except psutil.Error:
        return []


def test_a_channel_only_request_is_listed_by_the_hooks_poke_not_the_safety_sweep(
    git_repo: Path, server: Server, tmp_path: Path
) -> None:
    socket = server.socket_name or ""
    agent, go = tmp_path / "bin" / "qwen", tmp_path / "go.json"
    agent.parent.mkdir()
    agent.write_text(f"#!{sys.executable}\n{FAKE_QWEN}", encoding="utf-8")
    agent.chmod(0o755)
    (git_repo / "paw.toml").write_text(_config(socket, agent, go), encoding="utf-8")
    supervisor = build_supervisor(str(git_repo), socket_name=socket, control=True)
    supervisor.spawn("alice", "qwen-code", None)
    record = load_agents(supervisor.ctx.state)["alice"]
    assert record.launched is not None
    pid = record.launched.pid
    child = start_sweeper(supervisor, str(git_repo), None)
    assert child is not None
    feed = Feed(supervisor, safety_interval=600.0, poll_interval=600.0)
    pictures: list[Picture] = []
    arrived = threading.Condition()

    def took(event: FeedEvent) -> None:
        if isinstance(event, Picture):
            with arrived:
                pictures.append(event)
                arrived.notify_all()
            feed.handled()

    def waited(check: Callable[[], bool], seconds: float) -> bool:
        end = time.monotonic() + budget(seconds)
        with arrived:
            while not check():
                left = end - time.monotonic()
                if left <= 0:
                    return False
                arrived.wait(left)
            return True

    def listed() -> bool:
        return any(
            p.prompt.subject == COMMAND for pic in pictures[-1:] for p in pic.snapshot.prompts
        )

    def idle() -> bool:  # the agent is seen, proven and asking nothing
        if not pictures:
            return False
        [view] = [v for v in pictures[-1].snapshot.agents if v.name == "alice"]
        return view.status.value != "starting" and not pictures[-1].snapshot.prompts

    try:
        assert child.wait_ready(budget(60)), child.why_gone
        feed.subscribe(took)
        feed.use(supervisor, pushes=child)
        assert feed.following
        feed.request()  # the TUI's first sweep
        assert waited(idle, 60), pictures[-1:]
        # Land the request. The pane draws nothing more: a picture that lists it can only come
        # from a sweep the hook's poke started (or one a count beside the sweeps asked for,
        # which without the channel's changed mark keeps the agent's idle observation).
        before = len(pictures)
        go.write_text(json.dumps(EVENT), encoding="utf-8")
        landed = time.monotonic()
        assert waited(listed, 30), [p.snapshot.prompts for p in pictures[before:]]
        took_s = time.monotonic() - landed
        [prompt] = [p for p in pictures[-1].snapshot.prompts if p.prompt.subject == COMMAND]
        assert prompt.source.name == "channel-only"
        assert took_s < 60  # far below the 600 s safety sweep
        # the sweeper's FIFO is the only one, and it goes with the sweeper
        wake = git_repo / ".paw" / "channels" / ".wake"
        assert len(list(wake.glob("*.fifo"))) == 1
    finally:
        feed.stop()
        child.close()
        for hook in _hooks(pid):
            with contextlib.suppress(psutil.Error):
                hook.send_signal(signal.SIGTERM)
        supervisor.close()
    assert not list((git_repo / ".paw" / "channels" / ".wake").glob("*.fifo"))
