"""Qwen Code's hook channel over real processes and files: paw's hook program run exactly as Qwen
0.24.4 runs it (``bash -c <command>``, which bash replaces by the hook program itself, a child of
Qwen's node process; here the test process, or a copy of its own executable it started, plays
Qwen). The real CLI: tests/e2e/test_channel_qwen_paw_live.py."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from paw.adapters.channels.claude import ClaudeHookChannel, ClaudeWiring, wire_qwen
from paw.adapters.channels.hub import FileChannelHub
from paw.core.channels import claude, qwen
from paw.core.channels.request import ChannelAnswer, ChannelRequest, ChannelState
from paw.core.models import PromptKind
from paw.core.ports import Wired
from paw.errors import PawError
from tests.support.hook_runs import HookRuns, hook_output, one_request, wait_for
from tests.support.hook_stand_in import permission_request

COMMAND = "touch a.txt && echo " + "x" * 200
EVENT = permission_request(COMMAND)
BASH = shutil.which("bash") or "/bin/bash"


class Hooks(HookRuns):
    """paw's hook run as Qwen runs it (``bash -c <command>``)."""

    def __init__(self, wiring: ClaudeWiring) -> None:
        super().__init__(wiring, ("bash", "-c"), EVENT)


@pytest.fixture
def hooks(tmp_path: Path) -> Iterator[Hooks]:
    made = Hooks(wire_qwen(tmp_path, "alice", "tok1", sys.executable, wait_s=60))
    yield made
    made.end()


def _record(wiring: ClaudeWiring) -> dict[str, object]:
    path = wait_for(lambda: sorted((wiring.directory / "req").glob("*.json")), "the record")
    assert isinstance(path, list)
    doc: dict[str, object] = json.loads(path[0].read_text())
    return doc


def test_wired_by_the_environment_in_paws_state_dir(tmp_path: Path) -> None:
    hub = FileChannelHub(tmp_path, sys.executable)
    argv = ("/opt/bin/qwen", "--prompt-interactive=task")
    wired = hub.wire("alice", "qwen-code", "tok1", argv)
    settings = tmp_path / "channels" / "alice" / "tok1" / "settings.json"
    assert wired == Wired(argv, {"QWEN_CODE_SYSTEM_DEFAULTS_PATH": str(settings)})
    assert (settings.stat().st_mode & 0o777) == 0o600
    assert ((tmp_path / "channels" / "alice" / "tok1" / "secret").stat().st_mode & 0o777) == 0o600
    entry = json.loads(settings.read_text())["hooks"]["PermissionRequest"][0]
    hook = entry["hooks"][0]
    assert hook["type"] == "command"
    assert " -I -m paw.channel_hook " in hook["command"]  # the worktree cannot shadow paw
    assert hook["command"].endswith(" qwen")
    # Qwen reads 1000 or more as milliseconds; paw's hook gives up before Qwen ends it
    assert qwen.WAIT_S < hook["timeout"] < 1000
    assert f" {qwen.WAIT_S:g} " in hook["command"]
    # a custom command (a wrapper whose flags paw does not know) is launched as it is
    assert hub.wire("bob", "qwen-code", "t", ("my-wrapper",)) == Wired(("my-wrapper",))
    assert hub.port("bob", "qwen-code", "t", 1) is None  # never wired: no channel
    port = hub.port("alice", "qwen-code", "tok1", os.getpid())
    assert isinstance(port, ClaudeHookChannel)
    assert port.wiring.source == qwen.SOURCE


def test_the_exact_input_is_listed_and_allow_reaches_only_that_hook(hooks: Hooks) -> None:
    port = ClaudeHookChannel(hooks.wiring, os.getpid())
    proc = hooks.run()
    request = one_request(port)
    assert (request.source, request.tool, request.kind) == (
        qwen.SOURCE, "run_shell_command", PromptKind.SHELL,
    )  # fmt: skip
    assert request.subject == COMMAND
    assert request.can_answer
    # bash ran paw's hook in place: the writer is the hook program, a child of the agent
    assert _record(hooks.wiring)["hook_pid"] == proc.pid
    with pytest.raises(PawError, match="'always' is not offered"):
        port.answer(request.request_id, ChannelAnswer.ALWAYS)
    port.answer(request.request_id, ChannelAnswer.ALLOW)
    out = json.loads(hook_output(proc))
    assert out == {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                          "decision": {"behavior": "allow"}}}  # fmt: skip
    assert port.state(request.request_id) is ChannelState.RESOLVED
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


def test_a_hook_run_by_qwens_relaunched_copy_is_the_agents(hooks: Hooks) -> None:
    """The launched ``qwen`` starts a copy of its node program, which starts another; the hook
    is a child of the last: same executable, each a child of the one before."""
    port = ClaudeHookChannel(hooks.wiring, os.getpid())
    script = (
        "import subprocess, sys; "
        f"subprocess.run(['bash', '-c', {hooks.wiring.command!r}], stdin=sys.stdin, check=False)"
    )
    proc = hooks.run([sys.executable, "-c", script])
    request = one_request(port)
    assert request.subject == COMMAND
    port.answer(request.request_id, ChannelAnswer.ALLOW)
    assert json.loads(hook_output(proc))["hookSpecificOutput"]["decision"]["behavior"] == "allow"


def test_a_hook_run_by_the_agents_shell_tool_is_refused(hooks: Hooks) -> None:
    """The model's shell tool runs paw's hook program itself (in a pipeline or a script: a bash
    that is not Qwen's hook runner), or the exact ``bash -c CMD`` from another program than the
    agent: its record verifies (same secret) but names a writer Qwen did not start."""
    port = ClaudeHookChannel(hooks.wiring, os.getpid())
    hooks.run([BASH, "-c", hooks.wiring.command + "; true"])
    hooks.run(["/bin/sh", "-c", f"bash -c {json.dumps(hooks.wiring.command)}; true"])
    script = f"printf '%s' {json.dumps(json.dumps(EVENT))} | {hooks.wiring.command}"
    piped = hooks.run([BASH, "-c", script], event={})
    wait_for(lambda: port.pending() == [] and len(port.refused) == 3, "the refusals")
    assert all("not the agent's" in why for why in port.refused.values()), port.refused
    assert piped.poll() is None  # it waits for an answer no one gives
    for rid in port.refused:
        with pytest.raises(PawError, match="cannot be answered"):
            port.answer(rid, ChannelAnswer.ALLOW)


def test_on_paws_silence_the_hook_prints_nothing_and_qwen_draws_its_dialog(
    tmp_path: Path,
) -> None:
    hooks = Hooks(wire_qwen(tmp_path, "alice", "tok1", sys.executable, wait_s=0.5))
    proc = hooks.run()
    assert hook_output(proc) == b""  # Qwen then shows its own dialog: the screen path
    rid = str(_record(hooks.wiring)["id"])
    port = ClaudeHookChannel(hooks.wiring, os.getpid())
    assert port.state(rid) is ChannelState.TIMED_OUT
    assert port.pending() == []
    # an answer that lands after the hook gave up never reached Qwen: the dialog it draws now
    # is the screen's to list (not hidden as "answered")
    secret = (hooks.wiring.directory / "secret").read_bytes()
    late = claude.make_answer(secret, agent="alice", spawn="tok1", request_id=rid, answer="allow")
    (hooks.wiring.directory / "ans" / f"{rid}.json").write_text(json.dumps(late))
    assert port.pending() == []


def test_qwens_timeout_signal_ends_the_hook_quietly(hooks: Hooks) -> None:
    port = ClaudeHookChannel(hooks.wiring, os.getpid())
    proc = hooks.run()
    request = one_request(port)
    os.kill(proc.pid, 15)  # Qwen ends the hook's process group on its timeout or on Esc
    assert hook_output(proc) == b""
    assert port.state(request.request_id) is ChannelState.TIMED_OUT
    assert port.pending() == []


def test_a_claude_record_is_not_a_qwen_request(tmp_path: Path) -> None:
    """Records are bound to their hook's agent: one signed as Claude's does not parse as Qwen's
    (another wiring of the same directory, a copy)."""
    secret = b"k" * 32
    record = claude.make_record(
        secret=secret, agent="a", spawn="s", request_id="r", event=EVENT, hook_pid=2,
        written_at=0.0,
    )  # fmt: skip
    why = claude.parse_record(
        record, secret=secret, agent="a", spawn="s", request_id="r", seen_at=0.0,
        source=qwen.SOURCE, classify=qwen.classify_tool,
    )  # fmt: skip
    assert why == "it is a 'claude-hook' record, not a 'qwen-hook' one"
    ours = claude.make_record(
        secret=secret, source=qwen.SOURCE, agent="a", spawn="s", request_id="r", event=EVENT,
        hook_pid=2, written_at=0.0,
    )  # fmt: skip
    parsed = claude.parse_record(
        ours, secret=secret, agent="a", spawn="s", request_id="r", seen_at=0.0,
        source=qwen.SOURCE, classify=qwen.classify_tool,
    )  # fmt: skip
    assert isinstance(parsed, ChannelRequest)
    assert (parsed.kind, parsed.subject) == (PromptKind.SHELL, COMMAND)
