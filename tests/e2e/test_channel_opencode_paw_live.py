"""opencode's and Kilo Code's server as paw's channel, wired by paw itself at spawn: the real
pinned CLI, spawned by ``paw spawn``, against the stub model, in real tmux at 80x24 (issue 32).

A long command that wraps on the screen is listed by ``paw prompts --json`` with the channel's
exact input (judged ``allow`` on it), ``paw approve`` answers it through the agent's server bound
to the request id (the audit says ``path: "channel"``; no key is sent), and the agent runs it.
The lower-level live test of the server itself: tests/e2e/test_channel_opencode_live.py.

Many one-shot paw commands at once (``paw prompts``, ``paw ls``) leave the agent's screen alone:
none holds an event stream, so the server never passes Node's ten-listener warning, which it
printed over its TUI when each held one (paw then rightly refused to type into it).

Needs the CLIs from ``scripts/install-agents``; fails (never skips) without them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import paw_run, scenarios
from tests.e2e.pane import POLL
from tests.e2e.scenarios import Action
from tests.support.budget import budget

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(900)))]

PROMPT_TIMEOUT = budget(300.0)
EFFECT_TIMEOUT = budget(90.0)
LONG_FILE = "paw-long.txt"
STORM = 18  # one-shot paw commands at once (opencode warned past ten event streams)
# Harmless and long: wraps at 80 columns; the guard allows it (judged on the exact input).
LONG_COMMAND = (
    f"touch {LONG_FILE} && echo the quick brown fox jumps over the lazy dog and keeps on "
    "running across the long wide field until the evening comes"
)


def _wait(predicate: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(POLL)
    return True


@pytest.fixture(params=["opencode", "kilocode"])
def run(
    request: pytest.FixtureRequest, installed_agents: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[paw_run.PawRun]:
    del installed_agents
    monkeypatch.setitem(scenarios.SCENARIOS, "shell_long", Action("shell", command=LONG_COMMAND))
    started = paw_run.start(str(request.param), 80, 24)
    try:
        yield started
    finally:
        paw_run.stop(started)


def _audit(run: paw_run.PawRun) -> list[dict[str, Any]]:
    path = run.ws.repo / ".paw" / "audit.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def test_paw_wires_the_server_lists_the_exact_input_and_approves_through_it(
    run: paw_run.PawRun,
) -> None:
    paw_run.spawn(run, "SCENARIO shell_long")
    # paw wired the spawn's server: a record in its state dir, none in the worktree
    records = list((run.ws.repo / ".paw" / "channels").glob("*.opencode.json"))
    assert [r.name for r in records] == [f"{paw_run.AGENT_NAME}.opencode.json"]
    assert not list(run.worktree.rglob("*.opencode.json"))

    prompt = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    screen = run.pane.capture()
    assert LONG_COMMAND not in screen.replace("\n", "")  # it wraps (or is cut) on screen
    assert prompt["prompt_kind"] == "shell", prompt
    assert prompt["subject"] == LONG_COMMAND, prompt  # the channel's exact input
    assert prompt["verdict"] == "allow", prompt  # a wrapped field no longer forces confirm
    assert not (run.worktree / LONG_FILE).exists()

    decision = paw_run.decide(run, "approve", prompt["id"])
    assert decision["outcome"] == "sent", decision
    assert decision["keys"] == []
    assert _wait(lambda: (run.worktree / LONG_FILE).exists(), EFFECT_TIMEOUT)
    assert _wait(lambda: run.stub.gated_results("shell_long"), EFFECT_TIMEOUT)

    audit = _audit(run)
    sends = [r for r in audit if r.get("decision") == "send"]
    assert [(s.get("path"), s.get("keys")) for s in sends] == [("channel", None)]
    assert sends[0]["subject"] == LONG_COMMAND
    assert str(sends[0]["channel_request"]).startswith("per_")
    outcomes = [r for r in audit if r.get("event") == "outcome"]
    assert [(o.get("path"), o.get("outcome")) for o in outcomes] == [("channel", "sent")]
    # answered once: nothing more is listed
    paw_run.wait_no_prompt(run, EFFECT_TIMEOUT)


def _history(run: paw_run.PawRun) -> str:
    """The pane's whole history and screen (a warning scrolled away or drawn over stays)."""
    return subprocess.run(
        ["tmux", "-L", run.socket, "capture-pane", "-p", "-S", "-", "-t", run.pane.target],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip


def test_many_one_shot_commands_at_once_leave_the_agents_screen_alone(
    run: paw_run.PawRun,
) -> None:
    paw_run.spawn(run, "SCENARIO shell")
    prompt = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    assert prompt["subject"] == scenarios.SHELL_COMMAND, prompt
    verbs = [("prompts", "ls")[i % 2] for i in range(STORM)]
    started = [
        subprocess.Popen(
            [sys.executable, "-m", "paw", verb, "--json"],
            cwd=run.ws.repo,
            env=run.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for verb in verbs
    ]
    screens = []
    deadline = time.monotonic() + paw_run.PAW_TIMEOUT
    while any(p.poll() is None for p in started) and time.monotonic() < deadline:
        screens.append(run.pane.capture())
        time.sleep(POLL)
    outputs = [p.communicate(timeout=paw_run.PAW_TIMEOUT) for p in started]
    assert [p.returncode for p in started] == [0] * STORM, [err for _, err in outputs]
    screens.append(_history(run))
    warned = [s for s in screens if "MaxListeners" in s]
    assert not warned, warned[0]
    # every paw prompts listed the pending request, with its channel's input
    for verb, (out, _) in zip(verbs, outputs, strict=True):
        if verb == "prompts":
            listed = json.loads(out)["prompts"]
            assert [(p["id"], p["subject"]) for p in listed] == [
                (prompt["id"], prompt["subject"])
            ], listed
    # still listed and approvable, through the channel
    again = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    assert again["id"] == prompt["id"]
    decision = paw_run.decide(run, "approve", again["id"])
    assert decision["outcome"] == "sent", decision
    assert decision["keys"] == []
    assert _wait(lambda: run.stub.gated_results("shell"), EFFECT_TIMEOUT)
    assert "MaxListeners" not in _history(run)
