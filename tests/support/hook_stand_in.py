"""A stand-in for an agent whose hook channel paw wires (issue 32), for tests over real tmux and
git: a script named ``qwen`` that prints one line, then waits silently for the test's go and runs
paw's real hook program the way Qwen Code 0.24.4 runs it (``bash -c <command>`` by the agent's
own process, the command from the settings file paw named in its environment). It draws nothing
while its hook waits, as Qwen draws no dialog.

Beside it, what the tests that drive it share: the screen sweep held at its first tmux call,
and the pictures a feed posts, for a test thread to wait on."""

from __future__ import annotations

import contextlib
import json
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

import psutil

from paw.supervisor.feed import FeedEvent, Picture
from paw.supervisor.records import StateStore, load_agents
from tests.support.budget import budget


def permission_request(command: str) -> dict[str, object]:
    """The event Qwen Code 0.24.4 hands its ``PermissionRequest`` hook for shell ``command``."""
    return {
        "session_id": "s",
        "transcript_path": "",
        "cwd": "/tmp",
        "hook_event_name": "PermissionRequest",
        "timestamp": "2026-12-04T00:00:00Z",
        "permission_mode": "default",
        "prompt_id": "p1",
        "tool_name": "run_shell_command",
        "tool_input": {"command": command, "description": "make a file"},
    }


COMMAND = "touch waked.txt && echo " + "word " * 30
EVENT = permission_request(COMMAND)
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


def channel_files(root: Path) -> list[str]:
    """Every file under the repository's ``.paw/channels`` (records, answers, wake FIFOs), with
    its size: what a hook left and which paw processes listen, for a failure's message."""
    channels = root / ".paw" / "channels"
    if not channels.exists():
        return ["(no .paw/channels)"]
    return [
        f"{p.relative_to(channels)} {p.lstat().st_size}"
        for p in sorted(channels.rglob("*"))
        if not p.is_dir()
    ]


def install_stand_in(tmp_path: Path) -> tuple[Path, Path]:
    """The stand-in's script (``<tmp_path>/bin/qwen``) and the go file it waits for (written by
    the test: the hook event it hands its hook)."""
    agent, go = tmp_path / "bin" / "qwen", tmp_path / "go.json"
    agent.parent.mkdir()
    agent.write_text(f"#!{sys.executable}\n{FAKE_QWEN}", encoding="utf-8")
    agent.chmod(0o755)
    return agent, go


def agent_table(agent: Path, go: Path) -> list[str]:
    """The lines of paw.toml's ``[agents.qwen-code]`` that launch the stand-in."""
    return [
        "[agents.qwen-code]",
        f"command = [{json.dumps(str(agent))}]",
        'match = { interpreters = ["python"], scripts = ["qwen"] }',
        f"env = {{ FAKE_QWEN_GO = {json.dumps(str(go))} }}",
    ]


def stand_in_config(socket: str, agent: Path, go: Path) -> str:
    """A paw.toml on tmux socket ``socket`` whose ``qwen-code`` is the stand-in."""
    return "\n".join(["[tmux]", f'socket_name = "{socket}"', *agent_table(agent, go), ""])


def configure_stand_in(repo: Path, socket: str, tmp_path: Path) -> Path:
    """Install the stand-in below ``tmp_path`` and write ``repo``'s paw.toml with it as
    ``qwen-code`` (tmux socket ``socket``); the go file."""
    agent, go = install_stand_in(tmp_path)
    (repo / "paw.toml").write_text(stand_in_config(socket, agent, go), encoding="utf-8")
    return go


def launched_pid(state: StateStore, name: str = "alice") -> int:
    """The process paw launched as agent ``name``."""
    record = load_agents(state)[name]
    assert record.launched is not None
    return record.launched.pid


def hooks(pid: int) -> list[psutil.Process]:
    """paw's hook programs the agent process ``pid`` runs."""
    try:
        return [p for p in psutil.Process(pid).children(recursive=True) if "paw.channel_hook" in
                " ".join(p.cmdline())]  # fmt: skip
    except psutil.Error:
        return []


def stop_hooks(pid: int) -> None:
    """End the hook programs a stand-in left waiting (SIGTERM)."""
    for hook in hooks(pid):
        with contextlib.suppress(psutil.Error):
            hook.send_signal(signal.SIGTERM)


class HeldSurvey:
    """The screen sweep over ``terminal``, held at its first tmux call (its survey) while
    ``hold`` is set: ``entered`` says a sweep reached it, ``held`` lets it go."""

    def __init__(self, terminal: Any) -> None:
        self.hold, self.held, self.entered = threading.Event(), threading.Event(), threading.Event()
        survey = terminal.survey

        def gated(*args: object, **kwargs: object) -> object:
            if self.hold.is_set():
                self.entered.set()
                self.held.wait(budget(120))
            return survey(*args, **kwargs)

        terminal.survey = gated


T = TypeVar("T")


class Arrivals(Generic[T]):
    """What a feed posted (``items``, in order), for a test thread to wait on."""

    def __init__(self) -> None:
        self.items: list[T] = []
        self._arrived = threading.Condition()

    def add(self, item: T) -> None:
        with self._arrived:
            self.items.append(item)
            self._arrived.notify_all()

    def waited(self, check: Callable[[], bool], seconds: float) -> bool:
        """Whether ``check()`` held within ``seconds`` (a budget), looked at on each arrival."""
        end = time.monotonic() + budget(seconds)
        with self._arrived:
            while not check():
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._arrived.wait(min(left, 1.0))
            return True


def listed(picture: Picture) -> list[str]:
    """The ids of the prompts in ``picture`` that ask for the stand-in's :data:`COMMAND`."""
    return [p.id for p in picture.snapshot.prompts if p.prompt.subject == COMMAND]


class Pictures(Arrivals[Picture]):
    """The pictures a feed posts (subscribe :meth:`took`)."""

    def took(self, event: FeedEvent) -> None:
        if isinstance(event, Picture):
            self.add(event)

    def first_listing(
        self, since: int, explain: Callable[[], str] = lambda: ""
    ) -> tuple[Picture, str]:
        """The first picture after the first ``since`` that lists the stand-in's request
        (waited for), and the request's occurrence id: it must be an early look's picture (not
        the screen sweep's), the prompt channel-only. ``explain`` says, on a failure, what the
        caller can see of the feed and the channel (a flake must say where it stopped)."""
        items = self.items
        assert self.waited(lambda: any(listed(p) for p in items[since:]), 60), (
            [(p.early, p.snapshot.prompts) for p in items[since:]],
            explain(),
        )
        [first] = [p for p in items[since:] if listed(p)][:1]
        assert first.early
        [oid] = listed(first)
        [prompt] = [p for p in first.snapshot.prompts if p.id == oid]
        assert prompt.source.name == "channel-only"
        return first, oid
