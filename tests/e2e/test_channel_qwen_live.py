"""Qwen Code's PermissionRequest hook as a channel, live: the pinned CLI in a real tmux pane
against the stub model, the hook wired for this launch only (``QWEN_CODE_SYSTEM_DEFAULTS_PATH``
naming a settings file outside the worktree and the user's settings). The hook holds the
request (Qwen waits for it before drawing any dialog) and hands its stdin to the test; the
payload parses to the exact input; an allow written back runs the command with no dialog, a
deny runs nothing and the model reads the message. No key is sent to a dialog.

Needs the CLIs from ``scripts/install-agents``; fails (never skips) without them.
"""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path

import pytest

from paw.core.channels.qwen import parse_permission_request, render_decision
from paw.core.channels.request import ChannelAnswer, ChannelRequest
from paw.core.models import PromptKind
from tests.e2e import agents
from tests.e2e.driver import Run, send_scenario, stop_run, wait_ready
from tests.e2e.pane import POLL, Pane
from tests.e2e.stub_model import StubModel
from tests.support.budget import budget

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(900)))]

WAIT = budget(180.0)
DIALOG = "Waiting for user confirmation"

# The hook: hand the request over, hold until an answer for this invocation exists, print it.
HOOK = """#!/bin/sh
dir="$(dirname "$0")"
cat > "$dir/req-$$.tmp" && mv "$dir/req-$$.tmp" "$dir/req-$$.json"
while [ ! -f "$dir/ans-$$.json" ]; do sleep 0.1; done
cat "$dir/ans-$$.json"
"""


def _start(hooks: Path) -> Run:
    ws = agents.make_workspace("qwen-code")
    stub = StubModel(str(ws.repo)).start()
    hook = hooks / "hook.sh"
    hook.write_text(HOOK, encoding="utf-8")
    hook.chmod(0o755)
    entry = {"matcher": "", "hooks": [{"type": "command", "command": str(hook), "timeout": 170}]}
    defaults = hooks / "system-defaults.json"
    defaults.write_text(json.dumps({"hooks": {"PermissionRequest": [entry]}}), encoding="utf-8")
    argv = agents.launch_argv("qwen-code", ws, stub.url)
    argv.insert(argv.index("-i") + 1, f"QWEN_CODE_SYSTEM_DEFAULTS_PATH={defaults}")
    try:
        pane = Pane.start(f"pawchan-qwen-{uuid.uuid4().hex[:8]}", argv, ws.repo, 120, 40)
    except Exception:
        stub.stop()
        agents.remove_workspace(ws)
        raise
    return Run("qwen-code", ws, stub, pane)


def _held_request(hooks: Path, seen: set[Path], run: Run) -> tuple[str, ChannelRequest]:
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        for path in sorted(hooks.glob("req-*.json")):
            if path not in seen:
                seen.add(path)
                hook_pid = path.stem.removeprefix("req-")
                payload = json.loads(path.read_text(encoding="utf-8"))
                request = parse_permission_request(
                    payload, agent="q1", request_id=f"hook-{hook_pid}", now=0.0, can_answer=True
                )
                assert request is not None, payload
                return hook_pid, request
        time.sleep(POLL)
    raise AssertionError(f"the hook never ran; screen:\n{run.pane.capture()}")


def _answer(hooks: Path, hook_pid: str, answer: ChannelAnswer, message: str = "") -> None:
    tmp = hooks / f"ans-{hook_pid}.tmp"
    tmp.write_text(render_decision(answer, message), encoding="utf-8")
    tmp.replace(hooks / f"ans-{hook_pid}.json")


def test_the_hook_carries_the_exact_input_and_takes_the_answer(
    installed_agents: Path, tmp_path: Path
) -> None:
    del installed_agents
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    run = _start(hooks)
    seen: set[Path] = set()
    try:
        wait_ready(run)
        send_scenario(run, "shell")
        hook_pid, request = _held_request(hooks, seen, run)
        assert request.kind is PromptKind.SHELL
        assert request.subject == "touch paw-shell.txt"
        assert request.tool == "run_shell_command"
        assert DIALOG not in run.pane.capture()  # held before any dialog is drawn
        assert not (run.ws.repo / "paw-shell.txt").exists()
        _answer(hooks, hook_pid, ChannelAnswer.ALLOW)
        run.pane.wait_for(
            lambda _: (run.ws.repo / "paw-shell.txt").exists(), WAIT, "the command to run"
        )
        run.pane.wait_for(lambda s: "Finished scenario shell." in s, WAIT, "the agent to go on")

        send_scenario(run, "shell_deny")
        hook_pid, denied = _held_request(hooks, seen, run)
        assert denied.subject == "touch paw-shell-denied.txt"
        _answer(hooks, hook_pid, ChannelAnswer.DENY, "denied by paw")
        screen = run.pane.wait_for(
            lambda s: "Finished scenario shell_deny." in s, WAIT, "the agent to go on"
        )
        assert DIALOG not in screen
        assert not (run.ws.repo / "paw-shell-denied.txt").exists()
        assert run.stub.gated_results("shell_deny") == ["denied by paw"]
    finally:
        for path in hooks.glob("req-*.json"):  # release any hook still held
            answer = hooks / f"ans-{path.stem.removeprefix('req-')}.json"
            if not answer.exists():
                answer.write_text("", encoding="utf-8")
        stop_run(run)
