"""Gemini CLI's notification hook as paw's observe-only channel: the real pinned CLI, spawned by
paw (the hook wired by ``GEMINI_CLI_SYSTEM_DEFAULTS_PATH`` naming a settings file in paw's state
dir), against the stub model, in real tmux at 80x24 (issue 32).

Gemini runs the hook and waits for it before drawing its dialog, and takes no answer from it:
paw's hook records the exact input and exits at once. paw lists the dialog the screen shows,
its subject the whole command the hook recorded (the dialog wraps it), marked ``observed``; the
claim is unproven, so the verdict stays ``confirm`` and the approval goes by keys with the
screen's proof.

Where the scratch space sits below a directory group or others may write to (a HOME under a
shared ``/tmp``), Gemini would skip the settings file: paw wires nothing and says why, and the
same dialog is then listed from the screen alone and approved by keys; the test checks that
path instead (it is the one a user there gets).

Needs the CLIs from ``scripts/install-agents``; fails (never skips) without them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paw.adapters.channels.gemini import insecure_ancestor
from tests.e2e import channel_case, paw_run
from tests.e2e.channel_case import LONG_COMMAND, LONG_FILE
from tests.e2e.pane import POLL
from tests.support.budget import budget

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(900)))]

AGENT = "gemini-cli"
PROMPT_TIMEOUT = budget(240.0)
EFFECT_TIMEOUT = budget(90.0)


def _wait(predicate: Any, timeout: float) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = predicate()
        if found or time.monotonic() > deadline:
            return found
        time.sleep(POLL)


@pytest.fixture
def run(installed_agents: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[paw_run.PawRun]:
    del installed_agents
    yield from channel_case.started(AGENT, monkeypatch)


def _unwired_below_a_shared_directory(run: paw_run.PawRun) -> None:
    """paw wires nothing, says why, and the screen's dialog is listed and approved by keys."""
    done = paw_run.paw(
        run, "spawn", paw_run.AGENT_NAME, "--agent", run.agent, "--task", "SCENARIO shell_long",
        "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr + done.stdout
    notes = json.loads(done.stdout)["startup"]["notes"]
    assert any("gemini-cli's channel is off" in n for n in notes), notes
    assert not (run.ws.repo / ".paw" / "channels" / paw_run.AGENT_NAME).exists()
    prompt = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    assert prompt["source"] != "observed", prompt
    assert prompt["verdict"] == "confirm", prompt  # joined from wrapped rows: confirm at best
    decision = paw_run.decide(run, "approve", prompt["id"])
    assert decision["outcome"] in ("sent", "sent-unconfirmed"), decision
    assert _wait(lambda: (run.worktree / LONG_FILE).exists(), EFFECT_TIMEOUT)


def test_a_wrapped_command_is_listed_whole_from_the_hook_and_approved_by_keys(
    run: paw_run.PawRun,
) -> None:
    if insecure_ancestor(run.ws.repo / ".paw" / "channels") is not None:
        _unwired_below_a_shared_directory(run)
        return
    paw_run.spawn(run, "SCENARIO shell_long")
    first = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    screen = run.pane.capture()
    assert LONG_COMMAND not in screen.replace("\n", ""), screen  # the dialog wraps it
    (channel,) = list((run.ws.repo / ".paw" / "channels" / paw_run.AGENT_NAME).iterdir())
    settings = json.loads((channel / "settings.json").read_text(encoding="utf-8"))
    assert list(settings["hooks"]) == ["Notification"]
    prompt = _wait(
        lambda: next((p for p in paw_run.prompts(run) if p["source"] == "observed"), None),
        PROMPT_TIMEOUT,
    )
    assert prompt is not None, (first, screen)
    assert prompt["subject"] == LONG_COMMAND, prompt  # whole, as the hook recorded it
    assert prompt["channel_subject"] == LONG_COMMAND, prompt
    assert prompt["screen_subject"] != LONG_COMMAND, prompt
    assert prompt["channel_request"], prompt
    # the claim is unproven (its writer exited before the dialog was drawn): never better than
    # confirm, though the guard allows the command itself
    assert prompt["verdict"] == "confirm", prompt
    decision = paw_run.decide(run, "approve", prompt["id"])
    assert decision["outcome"] in ("sent", "sent-unconfirmed"), decision
    assert decision["keys"] != []  # the screen's path: the channel cannot answer
    assert _wait(lambda: (run.worktree / LONG_FILE).exists(), EFFECT_TIMEOUT)
    sends = channel_case.sends(run)
    assert [(s.get("path"), s.get("source")) for s in sends] == [("keys", "observed")], sends
    assert sends[0]["subject"] == LONG_COMMAND
