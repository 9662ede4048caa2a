"""Claude's hook channel over real processes and files: paw's hook program run exactly as Claude
runs it (``/bin/sh -c <command>`` by the agent's process: here, the test itself)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from paw.adapters.channels.claude import ClaudeHookChannel, ClaudeWiring, wire_claude
from paw.adapters.channels.hub import FileChannelHub
from paw.core.channels.request import ChannelAnswer, ChannelState
from paw.core.ports import Wired
from paw.errors import PawError
from tests.support.hook_runs import HookRuns, hook_output, one_request, wait_for

EVENT = {
    "hook_event_name": "PermissionRequest",
    "tool_name": "Bash",
    "tool_input": {"command": "touch a.txt && echo " + "x" * 200},
    "session_id": "s",
}


class Hooks(HookRuns):
    """paw's hook run as Claude runs it (``/bin/sh -c <command>``)."""

    def __init__(self, wiring: ClaudeWiring) -> None:
        super().__init__(wiring, ("/bin/sh", "-c"), EVENT)


@pytest.fixture
def hooks(tmp_path: Path) -> Iterator[Hooks]:
    made = Hooks(wire_claude(tmp_path, "alice", "tok1", sys.executable, wait_s=60))
    yield made
    made.end()


def _records(wiring: ClaudeWiring) -> list[Path]:
    return sorted((wiring.directory / "req").glob("*.json"))


def test_wiring_stays_in_paws_state_dir_and_is_private(tmp_path: Path) -> None:
    argv = ("/opt/bin/claude", "--", "task")
    hub = FileChannelHub(tmp_path, sys.executable)
    wired = hub.wire("alice", "claude-code", "tok1", argv).argv
    settings = tmp_path / "channels" / "alice" / "tok1" / "settings.json"
    assert wired == ("/opt/bin/claude", "--settings", str(settings), "--", "task")
    assert (settings.stat().st_mode & 0o777) == 0o600
    assert ((tmp_path / "channels" / "alice" / "tok1" / "secret").stat().st_mode & 0o777) == 0o600
    command = json.loads(settings.read_text())["hooks"]["PermissionRequest"][0]["hooks"][0]
    assert " -I -m paw.channel_hook " in command["command"]  # the worktree cannot shadow paw
    # other agents and custom commands are launched as they are
    assert hub.wire("bob", "aider", "t", ("aider",)) == Wired(("aider",))
    assert hub.wire("bob", "claude-code", "t", ("my-wrapper",)) == Wired(("my-wrapper",))
    assert hub.port("bob", "claude-code", "t", 1) is None  # never wired: no channel
    assert hub.port("alice", "claude-code", "tok1", os.getpid()) is not None


def test_allow_through_the_channel_reaches_only_that_request(hooks: Hooks) -> None:
    port = ClaudeHookChannel(hooks.wiring, os.getpid())
    proc = hooks.run()
    request = one_request(port)
    assert request.subject == EVENT["tool_input"]["command"]  # type: ignore[index]
    assert port.state(request.request_id) is ChannelState.PENDING
    port.answer(request.request_id, ChannelAnswer.ALLOW)
    out = hook_output(proc)
    decision = json.loads(out)["hookSpecificOutput"]["decision"]
    assert decision == {"behavior": "allow"}
    assert port.state(request.request_id) is ChannelState.RESOLVED
    # listed as answered for a moment (a lingering dialog is never answered again), then gone
    assert [r.state for r in port.pending()] == [ChannelState.RESOLVED]
    with pytest.raises(PawError, match="cannot be answered"):
        port.answer(request.request_id, ChannelAnswer.DENY)


def test_deny_and_never_twice(hooks: Hooks) -> None:
    port = ClaudeHookChannel(hooks.wiring, os.getpid())
    other = ClaudeHookChannel(hooks.wiring, os.getpid())  # a second paw process
    proc = hooks.run()
    request = one_request(port)
    other.pending()
    port.answer(request.request_id, ChannelAnswer.DENY)
    with pytest.raises(PawError):
        other.answer(request.request_id, ChannelAnswer.ALLOW)
    out = hook_output(proc)
    assert json.loads(out)["hookSpecificOutput"]["decision"]["behavior"] == "deny"


def test_no_decision_leaves_the_dialog_to_the_screen(tmp_path: Path) -> None:
    wiring = wire_claude(tmp_path, "alice", "tok1", sys.executable, wait_s=0.5)
    hooks = Hooks(wiring)
    proc = hooks.run()
    out = hook_output(proc)
    assert out == b""  # nothing: Claude keeps its dialog
    rid = json.loads(_records(wiring)[0].read_text())["id"]
    port = ClaudeHookChannel(wiring, os.getpid())
    assert port.state(rid) is ChannelState.TIMED_OUT
    assert port.pending() == []


def test_claudes_timeout_signal_ends_the_hook_quietly(hooks: Hooks) -> None:
    port = ClaudeHookChannel(hooks.wiring, os.getpid())
    proc = hooks.run()
    request = one_request(port)
    hook_pid = json.loads(_records(hooks.wiring)[0].read_text())["hook_pid"]
    os.kill(hook_pid, 15)  # Claude ends the hook itself on its timeout
    out = hook_output(proc)
    assert out == b""
    assert port.state(request.request_id) is ChannelState.TIMED_OUT


def test_a_forged_hook_run_by_the_agents_shell_is_refused(hooks: Hooks) -> None:
    """The agent's shell tool runs paw's hook program itself (bash, not Claude's hook runner):
    its record verifies (same secret) but names a writer Claude did not start."""
    port = ClaudeHookChannel(hooks.wiring, os.getpid())
    bash = shutil.which("bash") or "/bin/bash"
    hooks.run([bash, "-c", hooks.wiring.command + "; true"])
    wait_for(lambda: _records(hooks.wiring), "the forged record")
    wait_for(lambda: port.pending() == [] and port.refused, "the refusal")
    assert "not started by Claude's hook runner" in next(iter(port.refused.values()))
    # even the exact `sh -c <command>`, started by another process than the agent's
    deep = hooks.run([bash, "-c", f"/bin/sh -c {json.dumps(hooks.wiring.command)}; true"])
    wait_for(lambda: port.pending() == [] and len(port.refused) == 2, "the second refusal")
    assert any("not the agent's" in why for why in port.refused.values())
    assert deep.poll() is None


def test_replayed_and_copied_records_are_refused(hooks: Hooks) -> None:
    port = ClaudeHookChannel(hooks.wiring, os.getpid())
    proc = hooks.run()
    request = one_request(port)
    path = _records(hooks.wiring)[0]
    port.answer(request.request_id, ChannelAnswer.ALLOW)
    hook_output(proc)
    # a replay: the old record written again under its name after its hook ended
    (hooks.wiring.directory / "done" / path.name).unlink()
    (hooks.wiring.directory / "ans" / path.name).unlink()
    assert port.pending() == []
    assert "does not hold it open" in port.refused[request.request_id]
    # a live hook's record copied under another name
    live = hooks.run()
    wait_for(lambda: len(_records(hooks.wiring)) == 2, "the second record")
    copy = hooks.wiring.directory / "req" / "feedfacefeedface.json"
    newest = next(p for p in _records(hooks.wiring) if p != path)
    copy.write_text(newest.read_text())
    listed = [r.request_id for r in port.pending()]
    assert listed == [newest.stem]
    assert "copy" in port.refused["feedfacefeedface"]
    live.terminate()


def test_another_agents_record_is_refused(tmp_path: Path) -> None:
    alice = wire_claude(tmp_path, "alice", "tok1", sys.executable, wait_s=60)
    bob = wire_claude(tmp_path, "bob", "tok2", sys.executable, wait_s=60)
    hooks = Hooks(bob)
    try:
        hooks.run()
        wait_for(lambda: _records(bob), "bob's record")
        stolen = _records(bob)[0]
        (alice.directory / "req" / stolen.name).write_text(stolen.read_text())
        port = ClaudeHookChannel(alice, os.getpid())
        assert port.pending() == []
        assert "signature" in port.refused[stolen.stem]
    finally:
        hooks.end()


def test_an_answer_at_the_pane_ends_the_request(tmp_path: Path) -> None:
    """The hook follows the agent's transcript: once the call's result is there (a human
    answered the dialog), it stops waiting, prints nothing, and paw lists the request no more."""
    wiring = wire_claude(tmp_path, "alice", "tok1", sys.executable, wait_s=60)
    transcript = tmp_path / "transcript.jsonl"
    call = {"type": "tool_use", "id": "call_1", "name": "Bash", "input": EVENT["tool_input"]}
    other = {"type": "tool_use", "id": "call_0", "name": "Bash", "input": {"command": "ls"}}
    lines = [{"message": {"content": [other]}}, {"message": {"content": [call]}}]
    transcript.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    hooks = Hooks(wiring)
    try:
        proc = hooks.run(event={**EVENT, "transcript_path": str(transcript)})
        port = ClaudeHookChannel(wiring, os.getpid())
        request = one_request(port)
        result = {"type": "tool_result", "tool_use_id": "call_0", "content": "x"}
        with transcript.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps({"message": {"content": [result]}}) + "\n")  # another call's
            handle.flush()
            time.sleep(0.5)
            assert port.pending() != []
            handle.write(
                json.dumps({"message": {"content": [{**result, "tool_use_id": "call_1"}]}})
            )
            handle.write("\n")
        assert hook_output(proc) == b""
        assert port.state(request.request_id) is ChannelState.RESOLVED
        assert port.pending() == []
    finally:
        hooks.end()
