"""Claude Code's PermissionRequest hook as paw's channel: the real pinned CLI, spawned by paw,
against the stub model, in real tmux at 80x24 (issue 32).

- a long command that wraps is listed with the channel's exact input, judged ``allow`` and
  approved through the channel: no key is sent, the dialog is answered once;
- a denial goes through the channel;
- with ``[channels] enabled = false`` the screen path answers with keys, as before;
- a hook record forged by the agent's own shell tool (it runs paw's hook program itself) is
  refused: never listed, never answerable.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import channel_case, channel_figure, paw_run, scenarios
from tests.e2e.channel_case import LONG_COMMAND, LONG_FILE, channel_dir
from tests.e2e.pane import wait_until
from tests.e2e.scenarios import Action
from tests.support.budget import budget

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(900)))]

AGENT = "claude-code"
PROMPT_TIMEOUT = budget(240.0)
EFFECT_TIMEOUT = budget(90.0)


@pytest.fixture
def run(installed_agents: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[paw_run.PawRun]:
    del installed_agents
    yield from channel_case.started(AGENT, monkeypatch)


def _occurrences(run: paw_run.PawRun) -> dict[str, dict[str, Any]]:
    stored = json.loads((run.ws.repo / ".paw" / "prompts.json").read_text(encoding="utf-8"))
    return {r["id"]: r for r in stored["prompts"]}


def test_a_wrapped_command_is_judged_exactly_and_approved_through_the_channel(
    run: paw_run.PawRun,
) -> None:
    paw_run.spawn(run, "SCENARIO shell_long")
    first = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    # Claude draws its dialog before its hook's record lands: a sweep in between lists the
    # screen's joined rows (confirm, as any wrapped command). Once the record lands, the same
    # prompt is judged on the channel's exact input.

    def from_the_channel() -> dict[str, Any] | None:
        listed = paw_run.prompts(run)
        return listed[0] if listed and listed[0]["verdict"] == "allow" else None

    assert wait_until(from_the_channel, PROMPT_TIMEOUT), first
    prompt = from_the_channel()
    assert prompt is not None
    screen = run.pane.capture()
    assert LONG_COMMAND not in screen.replace("\n", "")  # it wraps on screen
    assert prompt["subject"] == LONG_COMMAND  # the channel's exact input
    assert (prompt["source"], prompt["channel_subject"]) == ("agree", LONG_COMMAND)
    assert prompt["channel_request"]
    listed = paw_run.paw(run, "prompts")
    assert listed.stdout.splitlines()[1].split()[4] == "both", listed.stdout  # FROM
    decision = paw_run.decide(run, "approve", prompt["id"])
    assert decision["outcome"] == "sent", decision
    assert decision["keys"] == []
    assert (run.worktree / LONG_FILE).exists() or wait_until(
        lambda: (run.worktree / LONG_FILE).exists(), EFFECT_TIMEOUT
    )
    assert wait_until(
        lambda: "Allowed by PermissionRequest hook" in run.pane.capture(), EFFECT_TIMEOUT
    )
    sends = channel_case.sends(run)
    assert [(s.get("path"), s.get("keys")) for s in sends] == [("channel", None)]
    assert sends[0]["subject"] == LONG_COMMAND
    # the occurrence machine bound the occurrence to the request and closed it by the channel
    stored = _occurrences(run)[prompt["id"]]
    assert (stored["state"], stored["channel_request"], stored["source"]) == (
        "answered", prompt["channel_request"], "agree",
    )  # fmt: skip
    assert stored["channel_subject"] == LONG_COMMAND
    channel_figure.assert_answered_by_the_channel_alone(run, LONG_COMMAND)
    # the dialog was answered once: nothing more is listed, nothing typed into the input
    paw_run.wait_no_prompt(run, EFFECT_TIMEOUT)
    assert run.stub.results_for("shell_long")


def test_a_denial_goes_through_the_channel(run: paw_run.PawRun) -> None:
    paw_run.spawn(run, "SCENARIO shell_deny")
    prompt = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    decision = paw_run.decide(run, "deny", prompt["id"])
    assert decision["outcome"] == "sent", decision
    assert decision["keys"] == []
    assert wait_until(
        lambda: "Denied by PermissionRequest hook" in run.pane.capture(), EFFECT_TIMEOUT
    )
    assert not (run.worktree / "paw-shell-denied.txt").exists()
    assert [s.get("path") for s in channel_case.sends(run)] == ["channel"]
    channel_figure.assert_answered_by_the_channel_alone(run, "touch paw-shell-denied.txt")


def test_with_the_channel_off_the_screen_path_answers_with_keys(run: paw_run.PawRun) -> None:
    channel_case.turn_channels_off(run)
    paw_run.spawn(run, "SCENARIO shell")
    prompt = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    assert not (run.ws.repo / ".paw" / "channels").exists()  # nothing wired
    assert (prompt["source"], prompt["channel_request"]) == ("screen", None)
    channel_case.assert_approved_by_keys(run, prompt, EFFECT_TIMEOUT)


def test_a_record_forged_by_the_agents_shell_is_refused(
    run: paw_run.PawRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The model's Bash tool runs paw's hook program itself, with the spawn's real directory
    and secret at hand: its record verifies, but its writer is not Claude's hook runner."""
    event = {"hook_event_name": "PermissionRequest", "tool_name": "Bash",
             "tool_input": {"command": "rm -rf ~"}}  # fmt: skip
    channel_case.assert_a_forged_hook_run_is_refused(
        run, monkeypatch, (event, "/bin/sh"), (PROMPT_TIMEOUT, EFFECT_TIMEOUT)
    )


def test_an_answer_at_the_pane_leaves_nothing_listed(run: paw_run.PawRun) -> None:
    """A human answers the dialog at the pane while paw's hook waits: the hook sees the agent
    take it, and paw lists no stale channel-only prompt afterwards (nor answers anything)."""
    paw_run.spawn(run, "SCENARIO shell")
    paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    directory = channel_dir(run)
    run.pane.send_keys("1")  # the human, at the pane
    assert wait_until(lambda: (run.worktree / scenarios.SHELL_FILE).exists(), EFFECT_TIMEOUT)
    paw_run.wait_no_prompt(run, EFFECT_TIMEOUT)
    done = [json.loads(p.read_text(encoding="utf-8")) for p in (directory / "done").iterdir()]
    assert [d["outcome"] for d in done] == ["resolved-elsewhere"]
    assert channel_case.sends(run) == []


@pytest.mark.parametrize("step", ["approve:channel-recorded", "approve:channel-sent"])
def test_kill_9_while_answering_through_the_channel_answers_once(
    run: paw_run.PawRun, step: str
) -> None:
    """paw killed after recording (nothing written for the hook: the prompt is open again and a
    second approval answers it) or after writing the answer (the hook delivers it; nothing is
    ever answered twice, by the channel or by keys)."""
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
    answers = list((channel_dir(run) / "ans").iterdir())
    assert len(answers) == 1
    assert all(s.get("path") == "channel" for s in channel_case.sends(run))
    channel_figure.assert_answered_by_the_channel_alone(run, scenarios.SHELL_COMMAND)
    assert run.stub.results_for("shell") == ["(Bash completed with no output)"]
    if step == "approve:channel-sent":
        # the sweep after the crash reconciles the occurrence once: the channel says the agent
        # took paw's answer (sent, confirmed by the channel) or, past the channel's grace, the
        # prompt is gone (interrupted); never "not sent", never open again
        outcomes = [
            r
            for r in channel_figure.audit(run)
            if r.get("event") == "outcome" and r["prompt_id"] == prompt["id"]
        ]
        assert len(outcomes) == 1, outcomes
        assert (outcomes[0]["outcome"], outcomes[0].get("confirmed")) in (
            ("sent", "channel"), ("interrupted", None),
        ), outcomes  # fmt: skip
        assert _occurrences(run)[prompt["id"]]["state"] == "answered"


BLOCKED = "rm -rf ~/projects"
SHOWN = "ls -la"


def test_a_repainted_blocked_prompt_is_refused_because_the_channel_disagrees(
    run: paw_run.PawRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that writes to the agent's terminal repaints a blocked command as ``ls -la``
    (tests/adversarial/test_terminal_repaint.py: the screen alone is fooled). The channel
    carries the exact input: paw lists the prompt with both claims, judges nothing ``allow``
    and answers it neither by keys nor through the channel."""
    monkeypatch.setitem(scenarios.SCENARIOS, "blocked", Action("shell", command=BLOCKED))
    paw_run.spawn(run, "SCENARIO blocked")
    prompt = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    assert (prompt["subject"], prompt["verdict"]) == (BLOCKED, "block")
    pane = run.pane
    row = channel_case.repaint(run, BLOCKED, SHOWN)  # the dialog's row
    assert wait_until(lambda: SHOWN in pane.capture().splitlines()[row], EFFECT_TIMEOUT)

    def disagreeing() -> dict[str, Any] | None:
        listed = paw_run.prompts(run)
        return listed[0] if listed and "channel disagrees" in listed[0]["question"] else None

    assert wait_until(disagreeing, EFFECT_TIMEOUT)
    shown = disagreeing()
    assert shown is not None
    assert shown["subject"] is None
    assert shown["verdict"] != "allow"
    assert BLOCKED in shown["question"]
    # where it came from, with both subjects: what the channel asks and what the screen draws
    assert (shown["source"], shown["channel_subject"]) == ("disagree", BLOCKED)
    assert shown["screen_subject"] is not None
    assert SHOWN in shown["screen_subject"]
    assert BLOCKED not in shown["screen_subject"]
    table = paw_run.paw(run, "prompts").stdout
    assert table.splitlines()[1].split()[4] == "DISAGREE", table
    said = next(line for line in table.splitlines() if "disagree" in line)
    assert BLOCKED in said
    assert SHOWN in said
    refused = paw_run.decide(run, "approve", shown["id"])
    assert refused["outcome"] == "refused", refused
    assert "disagree" in refused["reason"]
    assert channel_case.sends(run) == []
    assert not list((channel_dir(run) / "ans").iterdir())
    assert BLOCKED not in "".join(run.stub.results_for("blocked"))


def test_a_screen_paw_cannot_read_becomes_a_prompt_answerable_through_the_channel(
    run: paw_run.PawRun,
) -> None:
    """Claude's screen read with a detector that does not know its layout (as a newer release
    or a narrow tile would be): without the channel the agent would wait unseen; with it, the
    request is listed with its exact input and answered through the channel, never by keys."""
    toml = run.ws.repo / "paw.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + 'detector = "aider"\n', "utf-8")
    paw_run.spawn(run, "SCENARIO shell")
    first = paw_run.wait_prompt(run, PROMPT_TIMEOUT)
    # Claude draws its dialog while its hook program starts: on a loaded machine a sweep in
    # between lists the screen's dialog alone, which this detector cannot read (no subject,
    # never better than confirm). Once the hook's record lands, the same prompt rests on the
    # channel (a run at load 12 listed the screen's first).
    assert first["verdict"] != "allow" or first["source"] == "channel-only", first

    def from_the_channel() -> dict[str, Any] | None:
        listed = paw_run.prompts(run)
        return listed[0] if listed and listed[0]["source"] == "channel-only" else None

    assert wait_until(from_the_channel, PROMPT_TIMEOUT), first
    prompt = from_the_channel()
    assert prompt is not None
    assert (prompt["subject"], prompt["verdict"]) == (scenarios.SHELL_COMMAND, "allow")
    assert prompt["screen_subject"] is None
    decision = paw_run.decide(run, "approve", prompt["id"])
    assert decision["outcome"] == "sent", decision
    assert decision["keys"] == []
    assert wait_until(lambda: (run.worktree / scenarios.SHELL_FILE).exists(), EFFECT_TIMEOUT)
    assert [s.get("path") for s in channel_case.sends(run)] == ["channel"]
    channel_figure.assert_answered_by_the_channel_alone(run, scenarios.SHELL_COMMAND)
