"""Cline's ``PreToolUse`` hook file, live: what the pinned CLI (3.0.65) sends and what it waits
for, in a real tmux pane against the stub model.

Findings this test holds (docs/agents.md, "Structured channels"):
- ``--hooks-dir DIR`` loads nothing: a hook file there never runs (the flag only sets
  ``CLINE_HOOKS_DIR``, which the pinned binary never reads). A hook file named ``PreToolUse`` in
  ``$CLINE_DIR/hooks`` (``~/.cline/hooks``: the user's own config) runs.
- The hook runs for every tool call, asked or not (a ``read_files`` that no dialog asks for),
  as a direct child of the launched ``cline`` process, with the exact input in
  ``tool_call.input`` (and the model's ``tool_call.id``).
- Cline waits for the hook before it draws its dialog, and draws none while the hook runs:
  when the dialog is shown, the hook has exited, so no live writer holds the request.
- The hook's stdout cannot grant: an empty one, or ``{"context": …}`` (text the model reads
  with the next request), lets the dialog show; ``{"cancel": true, "errorMessage": …}`` ends
  the turn with no dialog and nothing run.

Set ``PAW_E2E_CAPTURE=1`` to refresh ``tests/fixtures/channels/cline/`` from this run.
Needs the CLIs from ``scripts/install-agents``; fails (never skips) without them.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from paw.core.channels.cline import parse_pre_tool_use
from paw.core.models import PromptKind
from tests.e2e import agents, scenarios, stub_model
from tests.e2e.driver import Run, send_scenario, stop_run, wait_ready
from tests.e2e.pane import POLL, Pane
from tests.e2e.scenarios import ToolCall
from tests.e2e.side import all_text
from tests.e2e.stub_model import StubModel
from tests.support.budget import budget

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(900)))]

WAIT = budget(180.0)
DIALOG = "Approve tool call?"
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "channels" / "cline"
STAND_IN = "/home/user/work"

# The hook: hand the payload over, hold until an answer for this invocation exists, print it.
HOOK = """#!/bin/sh
dir="{rec}"
cat > "$dir/req-$$.tmp" && mv "$dir/req-$$.tmp" "$dir/req-$$.json"
while [ ! -f "$dir/ans-$$.json" ]; do sleep 0.1; done
cat "$dir/ans-$$.json"
"""
# The same hook in the directory given to --hooks-dir: it would leave a marker if it ran.
STRAY = """#!/bin/sh
touch "{rec}/hooks-dir-ran"
"""
CANCEL = {"cancel": True, "errorMessage": "denied by paw"}
NOTE = {"context": "a note from paw for the model"}


def _plan(action: scenarios.Action, workdir: str, tools: dict[str, Any]) -> list[ToolCall]:
    """The stub's plan, with an edit reading its file first through Cline's ``read_files``
    (a read Cline runs without asking)."""
    steps = scenarios.plan(action, workdir, tools)
    if action.kind == "edit" and "read_files" in tools:
        path = f"{workdir.rstrip('/')}/{action.path}"
        steps.insert(0, ToolCall("read_files", {"files": [{"path": path}]}))
    return steps


def _start(rec: Path) -> Run:
    ws = agents.make_workspace("cline")
    stub = StubModel(str(ws.repo)).start()
    hooks = ws.home / ".cline" / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    (hooks / "PreToolUse").write_text(HOOK.format(rec=rec), encoding="utf-8")
    stray = ws.root / "hooks-dir"
    stray.mkdir()
    (stray / "PreToolUse").write_text(STRAY.format(rec=rec), encoding="utf-8")
    for path in (hooks / "PreToolUse", stray / "PreToolUse"):
        path.chmod(0o755)
    argv = [*agents.launch_argv("cline", ws, stub.url), "--hooks-dir", str(stray)]
    try:
        pane = Pane.start(f"pawchan-cline-{uuid.uuid4().hex[:8]}", argv, ws.repo, 120, 40)
    except Exception:
        stub.stop()
        agents.remove_workspace(ws)
        raise
    return Run("cline", ws, stub, pane)


def _held(rec: Path, seen: set[Path], run: Run) -> tuple[int, dict[str, Any]]:
    """The next payload a hook holds, and the hook's pid."""
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        for path in sorted(rec.glob("req-*.json")):
            if path not in seen:
                seen.add(path)
                payload: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
                return int(path.stem.removeprefix("req-")), payload
        time.sleep(POLL)
    raise AssertionError(f"the hook never ran; screen:\n{run.pane.capture()}")


def _answer(rec: Path, hook_pid: int, text: str = "") -> None:
    tmp = rec / f"ans-{hook_pid}.tmp"
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(rec / f"ans-{hook_pid}.json")


def _parent(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    return int(stat[stat.rindex(")") + 2 :].split()[1])


def _alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


def _cline_pid(run: Run) -> int:
    return int(run.pane.info()["pane_pid"])  # `env -i … cline`: env runs cline in place


def _capture(name: str, payload: dict[str, Any], run: Run) -> None:
    if os.environ.get("PAW_E2E_CAPTURE", "") in ("", "0"):
        return
    text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
    text = text.replace(str(run.ws.root), STAND_IN)
    FIXTURES.mkdir(parents=True, exist_ok=True)
    (FIXTURES / name).write_text(text, encoding="utf-8")


def test_pre_tool_use_carries_the_exact_input_and_runs_before_any_dialog(
    installed_agents: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    del installed_agents
    monkeypatch.setattr(stub_model, "plan", _plan)
    rec = tmp_path / "rec"
    rec.mkdir()
    run = _start(rec)
    seen: set[Path] = set()
    try:
        wait_ready(run)
        cline = _cline_pid(run)

        # A shell command Cline asks for: held before any dialog, a child of cline.
        send_scenario(run, "shell")
        hook_pid, payload = _held(rec, seen, run)
        _capture("pre-tool-use-shell.json", payload, run)
        assert payload["hookName"] == "tool_call"
        assert payload["tool_call"]["name"] == "run_commands"
        assert payload["tool_call"]["input"] == {"commands": [scenarios.SHELL_COMMAND]}
        request = parse_pre_tool_use(payload, agent="c1", request_id="hook-1", now=0.0)
        assert request is not None
        assert (request.kind, request.subject) == (PromptKind.SHELL, scenarios.SHELL_COMMAND)
        assert _parent(hook_pid) == cline
        time.sleep(budget(2.0))  # the dialog does not come while the hook holds
        assert DIALOG not in run.pane.capture()
        _answer(rec, hook_pid, json.dumps(NOTE))  # context only: Cline still draws its dialog
        run.pane.wait_for(lambda s: DIALOG in s and scenarios.SHELL_COMMAND in s, WAIT, "dialog")
        assert not _alive(hook_pid)  # the dialog is up, the hook is gone
        assert not (run.ws.repo / scenarios.SHELL_FILE).exists()
        run.pane.send_keys("y")
        run.pane.wait_for(lambda s: "Finished scenario shell." in s, WAIT, "the agent to go on")
        assert (run.ws.repo / scenarios.SHELL_FILE).exists()
        assert any(NOTE["context"] in all_text(body) for _, body in run.stub.requests)

        # An edit: its read is not asked, yet the hook runs for it too.
        send_scenario(run, "edit")
        hook_pid, read = _held(rec, seen, run)
        _capture("pre-tool-use-read.json", read, run)
        readme = str(run.ws.repo / scenarios.EDIT_FILE)
        assert read["tool_call"]["name"] == "read_files"
        assert read["tool_call"]["input"] == {"files": [{"path": readme}]}
        _answer(rec, hook_pid)
        hook_pid, edit = _held(rec, seen, run)
        _capture("pre-tool-use-edit.json", edit, run)
        assert edit["tool_call"]["name"] == "editor"
        assert edit["tool_call"]["input"] == {
            "path": readme,
            "old_text": scenarios.EDIT_OLD,
            "new_text": scenarios.EDIT_NEW,
        }
        request = parse_pre_tool_use(edit, agent="c1", request_id="hook-2", now=0.0)
        assert request is not None
        assert (request.kind, request.subject) == (PromptKind.EDIT, readme)
        _answer(rec, hook_pid)
        run.pane.wait_for(lambda s: DIALOG in s and "README.md" in s, WAIT, "the edit dialog")
        run.pane.send_keys("y")
        run.pane.wait_for(lambda s: "Finished scenario edit." in s, WAIT, "the agent to go on")

        # The hook's cancel: no dialog, nothing runs, the turn ends.
        send_scenario(run, "shell_deny")
        hook_pid, denied = _held(rec, seen, run)
        _capture("pre-tool-use-shell-cancel.json", denied, run)
        _answer(rec, hook_pid, json.dumps(CANCEL))
        screen = run.pane.wait_for(
            lambda s: not _alive(hook_pid) and "esc to cancel" not in s, WAIT, "the turn to end"
        )
        assert DIALOG not in screen
        assert "Finished scenario shell_deny." not in screen
        assert not (run.ws.repo / "paw-shell-denied.txt").exists()
        assert not (rec / "hooks-dir-ran").exists()  # --hooks-dir loaded nothing
    finally:
        for path in rec.glob("req-*.json"):  # release any hook still held
            answer = rec / f"ans-{path.stem.removeprefix('req-')}.json"
            if not answer.exists():
                answer.write_text("", encoding="utf-8")
        stop_run(run)
