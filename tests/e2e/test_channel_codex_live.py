"""Codex's PermissionRequest hook as a channel, live: the pinned CLI in a real tmux pane against
the stub model, the hook added *and trusted* for this launch only by two ``-c`` flags
(``paw.core.channels.codex.launch_flags``: no review screen, the user's ``~/.codex`` untouched).
The hook holds the request (Codex waits for it before drawing any dialog) and hands its stdin to
the test; the payload carries the exact input; an allow written back runs the command with no
dialog, a deny runs nothing and the model reads the message; no output lets Codex draw its own
dialog. No key is sent to a dialog.

Needs the CLIs from ``scripts/install-agents``; fails (never skips) without them.
"""

from __future__ import annotations

import json
import time
import tomllib
import uuid
from pathlib import Path

import pytest

from paw.core.channels import claude, codex
from paw.core.channels.qwen import render_decision
from paw.core.channels.request import ChannelAnswer, ChannelRequest
from paw.core.models import PromptKind
from tests.e2e import agents
from tests.e2e.driver import Run, send_scenario, stop_run, wait_ready
from tests.e2e.pane import POLL, Pane
from tests.e2e.stub_model import StubModel
from tests.support.budget import budget

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(900)))]

WAIT = budget(180.0)
DIALOG = "Would you like to"
# Codex's start-up screen for hooks it does not trust ("Hooks need review", "1 hook is new or
# changed", "Trust all and continue"); older builds said "1 hook needs review".
REVIEW = ("Hooks need review", "needs review")

# The hook: hand the request over, hold until an answer for this invocation exists, print it.
HOOK = """#!/bin/sh
dir="$(dirname "$0")"
cat > "$dir/req-$$.tmp" && mv "$dir/req-$$.tmp" "$dir/req-$$.json"
while [ ! -f "$dir/ans-$$.json" ]; do sleep 0.1; done
cat "$dir/ans-$$.json"
"""


def _reviewing(screen: str) -> bool:
    return any(mark in screen for mark in REVIEW)


def _start(hooks: Path) -> Run:
    ws = agents.make_workspace("codex")
    stub = StubModel(str(ws.repo)).start()
    hook = hooks / "hook.sh"
    hook.write_text(HOOK, encoding="utf-8")
    hook.chmod(0o755)
    argv = [*agents.launch_argv("codex", ws, stub.url), *codex.launch_flags(str(hook), 170)]
    try:
        pane = Pane.start(f"pawchan-codex-{uuid.uuid4().hex[:8]}", argv, ws.repo, 120, 40)
    except Exception:
        stub.stop()
        agents.remove_workspace(ws)
        raise
    return Run("codex", ws, stub, pane)


def _held_request(hooks: Path, seen: set[Path], run: Run) -> tuple[str, ChannelRequest]:
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        for path in sorted(hooks.glob("req-*.json")):
            if path not in seen:
                seen.add(path)
                hook_pid = path.stem.removeprefix("req-")
                payload = json.loads(path.read_text(encoding="utf-8"))
                assert payload["hook_event_name"] == "PermissionRequest", payload
                secret = b"k" * 32
                record = claude.make_record(
                    secret=secret, source=codex.SOURCE, agent="c1", spawn="s",
                    request_id=hook_pid, event=payload, hook_pid=int(hook_pid), written_at=0.0,
                )  # fmt: skip
                request = claude.parse_record(
                    record, secret=secret, agent="c1", spawn="s", request_id=hook_pid,
                    seen_at=0.0, source=codex.SOURCE, classify=codex.classify_tool,
                )  # fmt: skip
                assert isinstance(request, ChannelRequest), request
                return hook_pid, request
        time.sleep(POLL)
    raise AssertionError(f"the hook never ran; screen:\n{run.pane.capture()}")


def _answer(hooks: Path, hook_pid: str, text: str) -> None:
    tmp = hooks / f"ans-{hook_pid}.tmp"
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(hooks / f"ans-{hook_pid}.json")


def test_the_hook_carries_the_exact_input_and_takes_the_answer(
    installed_agents: Path, tmp_path: Path
) -> None:
    del installed_agents
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    run = _start(hooks)
    config = run.ws.home / ".codex" / "config.toml"
    seen: set[Path] = set()
    try:
        user_config = config.read_text(encoding="utf-8")
        assert not _reviewing(wait_ready(run))  # the flags trusted the hook: no review screen
        send_scenario(run, "shell")
        hook_pid, request = _held_request(hooks, seen, run)
        assert (request.kind, request.tool) == (PromptKind.SHELL, "Bash")
        assert request.subject == "touch paw-shell.txt"
        time.sleep(1.0)
        assert DIALOG not in run.pane.capture()  # held before any dialog is drawn
        assert not (run.ws.repo / "paw-shell.txt").exists()
        _answer(hooks, hook_pid, render_decision(ChannelAnswer.ALLOW))
        run.pane.wait_for(
            lambda _: (run.ws.repo / "paw-shell.txt").exists(), WAIT, "the command to run"
        )
        run.pane.wait_for(lambda s: "Finished scenario shell." in s, WAIT, "the agent to go on")

        send_scenario(run, "shell_deny")
        hook_pid, denied = _held_request(hooks, seen, run)
        assert denied.subject == "touch paw-shell-denied.txt"
        _answer(hooks, hook_pid, render_decision(ChannelAnswer.DENY, "denied by paw"))
        screen = run.pane.wait_for(
            lambda s: "Finished scenario shell_deny." in s, WAIT, "the agent to go on"
        )
        assert DIALOG not in screen
        assert "Blocked by hook" in screen
        assert not (run.ws.repo / "paw-shell-denied.txt").exists()
        (result,) = run.stub.gated_results("shell_deny")
        assert "denied by paw" in result, result

        send_scenario(run, "edit")
        hook_pid, edit = _held_request(hooks, seen, run)
        assert (edit.kind, edit.tool, edit.subject) == (PromptKind.EDIT, "apply_patch", "README.md")
        _answer(hooks, hook_pid, "")  # no decision: Codex draws its own dialog
        run.pane.wait_for(lambda s: DIALOG in s, WAIT, "Codex's own dialog")
        # Codex writes its own notes there (tui tables), never the hook nor its trust
        assert "hooks" not in tomllib.loads(config.read_text(encoding="utf-8"))
        assert "hooks" not in tomllib.loads(user_config)
    finally:
        for path in hooks.glob("req-*.json"):  # release any hook still held
            answer = hooks / f"ans-{path.stem.removeprefix('req-')}.json"
            if not answer.exists():
                answer.write_text("", encoding="utf-8")
        stop_run(run)


def test_without_the_trust_flag_codex_stops_on_its_review_screen(
    installed_agents: Path, tmp_path: Path
) -> None:
    """Why both flags: the hook alone is held for a human's review at start."""
    del installed_agents
    hook = tmp_path / "hook.sh"
    hook.write_text("#!/bin/sh\ncat >/dev/null\n", encoding="utf-8")
    hook.chmod(0o755)
    ws = agents.make_workspace("codex")
    stub = StubModel(str(ws.repo)).start()
    argv = [*agents.launch_argv("codex", ws, stub.url), *codex.launch_flags(str(hook))[:2]]
    run = Run(
        "codex",
        ws,
        stub,
        Pane.start(f"pawchan-codex-r-{uuid.uuid4().hex[:8]}", argv, ws.repo, 120, 40),
    )
    try:
        screen = run.pane.wait_for(_reviewing, WAIT, "the hook review screen")
        assert "1 hook is new or changed" in screen
    finally:
        stop_run(run)
