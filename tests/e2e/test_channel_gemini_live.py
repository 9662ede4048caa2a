"""Gemini CLI's ``Notification`` hook (type ``ToolPermission``) as an observe-only channel, live:
the pinned CLI in a real tmux pane against the stub model, the hook wired for this launch only
(``GEMINI_CLI_SYSTEM_DEFAULTS_PATH`` naming a settings file outside the worktree and the user's
settings). Gemini runs the hook, and waits for it, before it draws its dialog; the payload
carries the exact input (a command that wraps at 80 columns, whole); the hook's output cannot
answer: the dialog is drawn and answered by keys, as without a hook.

Needs the CLIs from ``scripts/install-agents``; fails (never skips) without them.
"""

from __future__ import annotations

import json
import shutil
import stat
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import agents, scenarios
from tests.e2e.driver import Run, send_scenario, stop_run, wait_ready
from tests.e2e.pane import POLL, Pane
from tests.e2e.scenarios import Action
from tests.e2e.stub_model import StubModel
from tests.support.budget import budget

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(900)))]

WAIT = budget(180.0)
LONG_FILE = "paw-long.txt"
LONG_COMMAND = (
    f"touch {LONG_FILE} && echo the quick brown fox jumps over the lazy dog and keeps on "
    "running across the long wide field until the evening comes"
)
# The hook: hand the event over and exit at once (Gemini waits for it before its dialog); it
# prints an allow decision, which Gemini must ignore for a notification.
ALLOW = {"hookSpecificOutput": {"hookEventName": "Notification", "decision": "allow"}}
HOOK = f"""#!/bin/sh
dir="$(dirname "$0")"
cat > "$dir/note-$$.tmp" && mv "$dir/note-$$.tmp" "$dir/note-$$.json"
echo '{json.dumps(ALLOW)}'
"""


def _insecure_ancestor(path: Path) -> Path | None:
    """The first directory above ``path`` that group or others may write to (as Gemini checks)."""
    for parent in path.resolve().parents:
        if parent.exists() and parent.stat().st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return parent
    return None


def _hooks_dir(ws_root: Path) -> Path:
    """Where the settings file can live: Gemini skips one under a directory others may write
    to (``/tmp``, where a CI machine may put HOME and so the agents' cache). The workspace first
    (as paw's state dir is beside the user's repository), then the checkout; else the workspace,
    and the test proves Gemini's refusal instead."""
    checkout = Path(__file__).resolve().parents[2] / ".pytest-e2e-hooks"
    for hooks in (ws_root / "hooks", checkout / ws_root.name):
        if _insecure_ancestor(hooks) is None:
            hooks.mkdir(mode=0o700, parents=True)
            return hooks
    hooks = ws_root / "hooks"
    hooks.mkdir(mode=0o700)
    return hooks


def _start() -> tuple[Run, Path]:
    ws = agents.make_workspace("gemini-cli")
    stub = StubModel(str(ws.repo)).start()
    hooks = _hooks_dir(ws.root)
    hook = hooks / "hook.sh"
    hook.write_text(HOOK, encoding="utf-8")
    hook.chmod(0o755)
    entry = {"matcher": "*", "hooks": [{"type": "command", "command": str(hook)}]}
    defaults = hooks / "system-defaults.json"
    settings = {"hooksConfig": {"enabled": True}, "hooks": {"Notification": [entry]}}
    defaults.write_text(json.dumps(settings), encoding="utf-8")
    argv = agents.launch_argv("gemini-cli", ws, stub.url)
    argv.insert(argv.index("-i") + 1, f"GEMINI_CLI_SYSTEM_DEFAULTS_PATH={defaults}")
    try:
        pane = Pane.start(f"pawchan-gemini-{uuid.uuid4().hex[:8]}", argv, ws.repo, 80, 24)
    except Exception:
        stub.stop()
        agents.remove_workspace(ws)
        raise
    return Run("gemini-cli", ws, stub, pane), hooks


def _note(hooks: Path, run: Run) -> dict[str, Any]:
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        for path in sorted(hooks.glob("note-*.json")):
            payload: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            return payload
        time.sleep(POLL)
    raise AssertionError(f"the hook never ran; screen:\n{run.pane.capture()}")


def test_the_notification_carries_the_exact_input_and_cannot_answer(
    installed_agents: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    del installed_agents
    monkeypatch.setitem(scenarios.SCENARIOS, "shell_long", Action("shell", command=LONG_COMMAND))
    del tmp_path
    run, hooks = _start()
    try:
        wait_ready(run)
        send_scenario(run, "shell_long")
        if _insecure_ancestor(hooks) is not None:
            # Nowhere safe on this machine: Gemini must refuse the file and say so, and draw its
            # dialog as without a hook (paw wires no Gemini hook: this is why).
            screen = run.pane.wait_for(lambda s: "Allow" in s, WAIT, "the dialog")
            assert "insecure" in screen, screen
            assert not list(hooks.glob("note-*.json"))
            return
        note = _note(hooks, run)
        assert note["hook_event_name"] == "Notification"
        assert note["notification_type"] == "ToolPermission"
        assert note["details"]["command"] == LONG_COMMAND
        screen = run.pane.wait_for(lambda s: "Allow" in s, WAIT, "the dialog")
        assert LONG_COMMAND not in screen.replace("\n", "")  # it wraps on screen
        assert not (run.ws.repo / LONG_FILE).exists()  # the hook's "allow" answered nothing
    finally:
        stop_run(run)
        if not hooks.is_relative_to(run.ws.root):
            shutil.rmtree(hooks, ignore_errors=True)
