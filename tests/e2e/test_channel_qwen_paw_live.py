"""Qwen Code's PermissionRequest hook as paw's channel: the real pinned CLI, spawned by paw (the
hook wired by ``QWEN_CODE_SYSTEM_DEFAULTS_PATH`` naming a settings file in paw's state dir),
against the stub model, in real tmux at 80x24 (issue 32).

Qwen runs its hook *before* it draws a dialog and waits for it, so a request is listed at once
from the channel alone (nothing on the screen to read), with the exact input:

- a long command that would wrap at 80 columns is judged exactly (``allow``) and approved
  through the channel: no key is sent, no dialog is ever drawn;
- a denial goes through the channel; Qwen gives the model paw's message;
- with ``[channels] enabled = false`` nothing is wired and the screen path answers with keys;
- a hook run forged by the agent's own shell tool (paw's hook program, the spawn's directory
  and secret at hand) is refused: never listed, never answered;
- a dialog forged in Qwen's own layout by another process writing to the pane's terminal,
  asking ``ls -la`` while the hook holds ``rm -rf .git``, disagrees with the request: listed
  with both, refused by ``paw approve``, no key, no answer to the hook, ``.git`` stays.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import channel_case, channel_figure, paw_run, scenarios
from tests.e2e.channel_case import LONG_COMMAND, LONG_FILE, channel_dir
from tests.e2e.pane import wait_until
from tests.support.budget import budget

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(900)))]

AGENT = "qwen-code"
PROMPT_TIMEOUT = budget(240.0)
EFFECT_TIMEOUT = budget(90.0)
DIALOG = "Waiting for user confirmation"


@pytest.fixture
def run(installed_agents: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[paw_run.PawRun]:
    del installed_agents
    yield from channel_case.started(AGENT, monkeypatch)


def test_a_long_command_is_listed_at_once_judged_exactly_and_approved_through_the_channel(
    run: paw_run.PawRun,
) -> None:
    paw_run.spawn(run, "SCENARIO shell_long")
    prompt = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    # listed from the channel alone: Qwen waits for its hook and draws no dialog meanwhile
    screen = run.pane.capture()
    assert DIALOG not in screen, (prompt, screen)
    assert prompt["subject"] == LONG_COMMAND, prompt  # the channel's exact input
    assert prompt["verdict"] == "allow", prompt
    assert len(LONG_COMMAND) > 80
    decision = paw_run.decide(run, "approve", prompt["id"])
    assert decision["outcome"] == "sent", decision
    assert decision["keys"] == []
    assert wait_until(lambda: (run.worktree / LONG_FILE).exists(), EFFECT_TIMEOUT)
    assert wait_until(lambda: run.stub.results_for("shell_long"), EFFECT_TIMEOUT)
    paw_run.wait_no_prompt(run, EFFECT_TIMEOUT)
    sends = channel_case.sends(run)
    assert [(s.get("path"), s.get("keys")) for s in sends] == [("channel", None)]
    assert sends[0]["subject"] == LONG_COMMAND
    assert sends[0]["channel_request"]
    # the hook gave Qwen paw's answer, once; no dialog was drawn
    done = [
        json.loads(p.read_text(encoding="utf-8")) for p in (channel_dir(run) / "done").iterdir()
    ]
    assert [d["outcome"] for d in done] == ["answered:allow"]
    assert DIALOG not in run.pane.capture()
    channel_figure.assert_answered_by_the_channel_alone(run, LONG_COMMAND)


def test_a_denial_goes_through_the_channel(run: paw_run.PawRun) -> None:
    paw_run.spawn(run, "SCENARIO shell_deny")
    prompt = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    assert prompt["subject"] == "touch paw-shell-denied.txt", prompt
    decision = paw_run.decide(run, "deny", prompt["id"])
    assert decision["outcome"] == "sent", decision
    assert decision["keys"] == []
    assert wait_until(lambda: run.stub.gated_results("shell_deny"), EFFECT_TIMEOUT)
    assert run.stub.gated_results("shell_deny") == ["denied through paw"]
    assert not (run.worktree / "paw-shell-denied.txt").exists()
    assert [s.get("path") for s in channel_case.sends(run)] == ["channel"]
    channel_figure.assert_answered_by_the_channel_alone(run, "touch paw-shell-denied.txt")


def test_with_the_channel_off_the_screen_path_answers_with_keys(run: paw_run.PawRun) -> None:
    channel_case.turn_channels_off(run)
    paw_run.spawn(run, "SCENARIO shell")
    prompt = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    assert not (run.ws.repo / ".paw" / "channels").exists()  # nothing wired
    assert DIALOG in run.pane.capture()  # Qwen drew its own dialog: no hook held it
    channel_case.assert_approved_by_keys(run, prompt, EFFECT_TIMEOUT)


def test_a_record_forged_by_the_agents_shell_is_refused(
    run: paw_run.PawRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The model's shell tool runs paw's hook program itself, with the spawn's real directory
    and secret at hand: its record verifies, but its writer is not Qwen's hook runner."""
    event = {"hook_event_name": "PermissionRequest", "tool_name": "run_shell_command",
             "session_id": "s", "tool_input": {"command": "rm -rf ~"}}  # fmt: skip
    channel_case.assert_a_forged_hook_run_is_refused(
        run, monkeypatch, (event, "bash"), (PROMPT_TIMEOUT, EFFECT_TIMEOUT)
    )


def test_a_forged_dialog_over_a_held_blocked_request_is_refused_because_the_channel_disagrees(
    run: paw_run.PawRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Qwen draws no dialog while its hook holds ``rm -rf .git``; another process draws one
    in Qwen's layout asking ``ls -la`` (its live capture's rows): one approval must not send
    keys to it."""
    channel_case.assert_a_forged_dialog_is_refused(
        run, monkeypatch, ("qwen-code", "? Shell"), (PROMPT_TIMEOUT, EFFECT_TIMEOUT)
    )


def test_when_the_hook_gives_up_qwen_draws_its_dialog_and_the_screen_path_answers(
    run: paw_run.PawRun,
) -> None:
    """paw's hook ends without an answer (its wait ran out, or Qwen ended it): it prints
    nothing, Qwen draws its own dialog, and paw lists and answers that with keys, as without a
    channel."""
    paw_run.spawn(run, "SCENARIO shell")
    first = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    assert first["question"].endswith("(from the agent's channel)"), first
    directory = channel_dir(run)
    (record,) = list((directory / "req").iterdir())
    os.kill(json.loads(record.read_text(encoding="utf-8"))["hook_pid"], signal.SIGTERM)

    def from_the_screen() -> dict[str, Any] | None:
        listed = paw_run.prompts(run)
        return listed[0] if listed and listed[0]["id"] != first["id"] else None

    assert wait_until(from_the_screen, PROMPT_TIMEOUT)
    prompt = from_the_screen()
    assert prompt is not None
    assert DIALOG in run.pane.capture()
    assert prompt["subject"] == scenarios.SHELL_COMMAND
    channel_case.assert_approved_by_keys(run, prompt, EFFECT_TIMEOUT)
    assert not list((directory / "ans").iterdir())


@pytest.mark.parametrize("step", ["approve:channel-recorded", "approve:channel-sent"])
def test_kill_9_while_answering_through_the_channel_answers_once(
    run: paw_run.PawRun, step: str
) -> None:
    """paw killed after recording (nothing written for the hook: the request is listed again
    and a second approval answers it) or after writing the answer (the hook delivers it);
    nothing is ever answered twice, by the channel or by keys."""
    paw_run.spawn(run, "SCENARIO shell")
    prompt = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    crashing = run._replace(env={**run.env, "PAW_TEST_CRASH_AT": step})
    died = paw_run.paw(crashing, "approve", prompt["id"], "--yes", "--json")
    assert died.returncode == -9, died
    if step == "approve:channel-recorded":
        again = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
        decision = paw_run.decide(run, "approve", again["id"])
        assert decision["outcome"] == "sent", decision
        assert decision["keys"] == []
    assert wait_until(lambda: (run.worktree / scenarios.SHELL_FILE).exists(), EFFECT_TIMEOUT)
    paw_run.wait_no_prompt(run, EFFECT_TIMEOUT)
    assert len(list((channel_dir(run) / "ans").iterdir())) == 1
    assert all(s.get("path") == "channel" for s in channel_case.sends(run))
    assert wait_until(lambda: run.stub.results_for("shell"), EFFECT_TIMEOUT)
    assert len(run.stub.results_for("shell")) == 1
    channel_figure.assert_answered_by_the_channel_alone(run, scenarios.SHELL_COMMAND)
