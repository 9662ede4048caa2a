"""Codex's hook channel over real processes and files: paw's hook program run exactly as Codex
0.171.0 runs it (``/bin/bash -c <command>``, which bash replaces by the hook program itself, a
child of Codex's native program; here the test process, or a copy of its own executable named
``codex`` that it started, plays Codex). The real CLI: tests/e2e/test_channel_codex_paw_live.py."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from paw.adapters.channels.claude import ClaudeHookChannel, ClaudeWiring, wire_codex
from paw.adapters.channels.hub import FileChannelHub
from paw.core.channels import codex
from paw.core.channels.request import ChannelAnswer, ChannelState
from paw.core.models import PromptKind
from paw.core.ports import Wired
from paw.errors import PawError
from tests.support.hook_runs import HookRuns, hook_output, one_request, wait_for

COMMAND = "touch a.txt && echo " + "x" * 200
EVENT = {
    "session_id": "s", "turn_id": "t", "transcript_path": "", "cwd": "/tmp",
    "hook_event_name": "PermissionRequest", "model": "m", "permission_mode": "default",
    "tool_name": "Bash", "tool_input": {"command": COMMAND, "description": "make a file"},
}  # fmt: skip
BASH = "/bin/bash" if Path("/bin/bash").exists() else (shutil.which("bash") or "bash")


class Hooks(HookRuns):
    """paw's hook run as Codex runs it (``/bin/bash -c <command>``)."""

    def __init__(self, wiring: ClaudeWiring) -> None:
        super().__init__(wiring, (BASH, "-c"), EVENT)


@pytest.fixture
def hooks(tmp_path: Path) -> Iterator[Hooks]:
    made = Hooks(wire_codex(tmp_path, "alice", "tok1", sys.executable, wait_s=60))
    yield made
    made.end()


def test_wired_by_flags_that_trust_exactly_paws_hook(tmp_path: Path) -> None:
    hub = FileChannelHub(tmp_path, sys.executable)
    argv = ("/opt/bin/codex", "--no-alt-screen", "the task")
    wired = hub.wire("alice", "codex", "tok1", argv)
    directory = tmp_path / "channels" / "alice" / "tok1"
    settings = json.loads((directory / "settings.json").read_text())
    command = settings["hooks"]["PermissionRequest"][0]["hooks"][0]["command"]
    assert wired == Wired(("/opt/bin/codex", *codex.launch_flags(command), *argv[1:]))
    assert wired.env == {}  # nothing in the agent's environment
    assert " -I -m paw.channel_hook " in command  # the worktree cannot shadow paw
    assert command.endswith(f" {codex.WAIT_S:g} codex")
    secret = (directory / "secret").read_bytes()
    assert ((directory / "secret").stat().st_mode & 0o777) == 0o600
    # the secret is in no argv: only the directory it is read from
    assert all(secret.hex() not in arg and str(secret) not in arg for arg in wired.argv)
    # a custom command (a wrapper whose flags paw does not know) is launched as it is
    assert hub.wire("bob", "codex", "t", ("my-codex-wrapper", "x")) == Wired(
        ("my-codex-wrapper", "x")
    )
    assert hub.port("bob", "codex", "t", 1) is None  # never wired: no channel
    port = hub.port("alice", "codex", "tok1", os.getpid())
    assert isinstance(port, ClaudeHookChannel)
    assert port.wiring.source == codex.SOURCE


def test_the_exact_input_is_listed_and_allow_reaches_only_that_hook(hooks: Hooks) -> None:
    port = ClaudeHookChannel(hooks.wiring, os.getpid())
    proc = hooks.run()
    request = one_request(port)
    assert (request.source, request.tool, request.kind) == (codex.SOURCE, "Bash", PromptKind.SHELL)
    assert request.subject == COMMAND
    assert request.can_answer
    port.answer(request.request_id, ChannelAnswer.ALLOW)
    out = json.loads(hook_output(proc))
    assert out == {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                          "decision": {"behavior": "allow"}}}  # fmt: skip
    assert port.taken(request.request_id) == "answered:allow"
    with pytest.raises(PawError, match="cannot be answered"):
        port.answer(request.request_id, ChannelAnswer.DENY)


def test_deny_carries_a_message_and_is_given_once(hooks: Hooks) -> None:
    port = ClaudeHookChannel(hooks.wiring, os.getpid())
    other = ClaudeHookChannel(hooks.wiring, os.getpid())  # a second paw process
    proc = hooks.run()
    request = one_request(port)
    port.answer(request.request_id, ChannelAnswer.DENY)
    with pytest.raises(PawError):
        other.answer(request.request_id, ChannelAnswer.ALLOW)
    decision = json.loads(hook_output(proc))["hookSpecificOutput"]["decision"]
    assert decision == {"behavior": "deny", "message": "denied through paw"}


def test_a_hook_run_by_the_native_codex_the_launcher_started_is_the_agents(
    hooks: Hooks, tmp_path: Path
) -> None:
    """npm's ``codex`` (node) starts the native ``codex``, whose child the hook runner is."""
    native = tmp_path / "bin" / "codex"
    native.parent.mkdir()
    shutil.copy(Path(sys.executable).resolve(), native)
    port = ClaudeHookChannel(hooks.wiring, os.getpid())
    script = (
        "import subprocess, sys; "
        f"subprocess.run([{BASH!r}, '-c', {hooks.wiring.command!r}], stdin=sys.stdin, check=False)"
    )
    proc = hooks.run([str(native), "-c", script])
    request = one_request(port)
    assert request.subject == COMMAND
    port.answer(request.request_id, ChannelAnswer.ALLOW)
    assert json.loads(hook_output(proc))["hookSpecificOutput"]["decision"]["behavior"] == "allow"


def test_a_hook_run_by_the_agents_shell_tool_is_refused(hooks: Hooks, tmp_path: Path) -> None:
    """The model's shell tool runs paw's hook program itself (in a pipeline or a script: a
    shell that is not Codex's hook runner), or the exact ``bash -c CMD`` from a program that is
    neither the agent nor a ``codex`` it started: its record verifies (same secret) but names a
    writer Codex did not start."""
    port = ClaudeHookChannel(hooks.wiring, os.getpid())
    hooks.run([BASH, "-c", hooks.wiring.command + "; true"])
    hooks.run(["/bin/sh", "-c", f"{BASH} -c {json.dumps(hooks.wiring.command)}; true"])
    script = f"printf '%s' {json.dumps(json.dumps(EVENT))} | {hooks.wiring.command}"
    piped = hooks.run([BASH, "-c", script], event={})
    wait_for(lambda: port.pending() == [] and len(port.refused) == 3, "the refusals")
    assert all("not the agent's" in why for why in port.refused.values()), port.refused
    assert piped.poll() is None  # it waits for an answer no one gives
    for rid in port.refused:
        with pytest.raises(PawError, match="cannot be answered"):
            port.answer(rid, ChannelAnswer.ALLOW)


def test_on_paws_silence_the_hook_prints_nothing_and_codex_draws_its_dialog(
    tmp_path: Path,
) -> None:
    hooks = Hooks(wire_codex(tmp_path, "alice", "tok1", sys.executable, wait_s=0.5))
    proc = hooks.run()
    assert hook_output(proc) == b""  # Codex then shows its own dialog: the screen path
    (path,) = (hooks.wiring.directory / "req").glob("*.json")
    port = ClaudeHookChannel(hooks.wiring, os.getpid())
    assert port.state(path.stem) is ChannelState.TIMED_OUT
    assert port.pending() == []
