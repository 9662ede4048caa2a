"""One decision answers one prompt occurrence, once (issue scenarios 2 and 8): racing decisions
send once, a question asked again is a new occurrence, paw killed mid-approval never leaves an
audit or stats that overstate, and prompts answered outside paw are recorded as such."""

from __future__ import annotations

import signal
import subprocess
import time

import pytest

from paw.adapters.crash_switch import CRASH_ENV
from tests.adversarial.ident_support import (
    PAW,
    Env,
    answers,
    configure,
    events,
    listed,
    paw,
    stats,
    tmux,
    wait_for,
    wait_prompt,
)

pytestmark = [pytest.mark.tmux, pytest.mark.git]
ASK_TWICE = ("shell touch approved.txt", "shell touch approved.txt")


def test_racing_approvals_while_the_agent_asks_again_send_once(env: Env) -> None:
    configure(env, *ASK_TWICE)
    assert paw("spawn", "alice", "--agent", "scripted").returncode == 0
    first = wait_prompt(env, "touch approved.txt")
    # paw approve ID & (sleep 0.3; paw approve ID)
    racing = subprocess.Popen(
        [str(PAW), "approve", first.id, "--yes"], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    time.sleep(0.3)  # the issue's own timing, not a wait for a condition
    second = paw("approve", first.id, "--yes")
    racing.communicate(timeout=60)
    assert sorted([racing.returncode, second.returncode]) == [0, 1]
    # the agent asks the same question again: a new occurrence, not answered by either
    again = wait_prompt(env, "touch approved.txt", other_than={first.id})
    assert [a["key"] for a in answers(env)] == ["y"]
    assert len(events(env, "approve", decision="send", prompt_id=first.id)) == 1
    assert len(events(env, "outcome", prompt_id=first.id)) == 1
    assert [r["prompt_id"] for r in events(env, "prompt-seen")] == [first.id, again.id]
    # the new occurrence needs (and gets) its own decision
    assert paw("approve", again.id, "--yes").returncode == 0
    assert wait_for(lambda: len(answers(env)) == 2)
    assert [a["step"] for a in answers(env)] == [1, 2]
    assert stats(env)["all"]["approved"] == 2


def test_prompt_answered_in_the_pane_is_ended_outside_paw(env: Env) -> None:
    configure(env, "shell touch approved.txt", "busy 600")
    assert paw("spawn", "alice", "--agent", "scripted").returncode == 0
    prompt = wait_prompt(env, "touch approved.txt")
    tmux(env, "send-keys", "-t", prompt.pane_id, "y")  # someone answers behind paw's back
    assert wait_for(lambda: len(answers(env)) == 1)
    assert wait_for(lambda: listed("prompts") == [])
    [ended] = events(env, "prompt-ended", prompt_id=prompt.id)
    assert ended["outside"] is True
    assert ended["client_attached"] is False
    refused = paw("approve", prompt.id, "--yes")
    assert refused.returncode == 1
    assert "sent nothing" in refused.stderr
    row = stats(env)["all"]
    assert (row["approved"], row["ended_outside"]) == (0, 1)
    assert events(env, "approve", decision="send") == []
    assert len(answers(env)) == 1


def test_killed_after_the_record_before_sending_is_reconciled_as_not_sent(env: Env) -> None:
    configure(env, "shell touch approved.txt")
    assert paw("spawn", "alice", "--agent", "scripted").returncode == 0
    prompt = wait_prompt(env, "touch approved.txt")
    crashed = paw("approve", prompt.id, "--yes", extra_env={CRASH_ENV: "approve:recorded"})
    assert crashed.returncode == -signal.SIGKILL  # as kill -9 would
    assert len(events(env, "approve", decision="send", prompt_id=prompt.id)) == 1
    assert events(env, "outcome") == []
    assert stats(env)["all"]["approved"] == 0  # a recorded decision is not an approval
    # the next sweep reconciles: nothing was sent, the prompt is still there to decide
    shown = listed("prompts")
    assert [p["id"] for p in shown] == [prompt.id]
    [outcome] = events(env, "outcome", prompt_id=prompt.id)
    assert outcome["outcome"] == "not-sent"
    assert answers(env) == []
    assert stats(env)["all"]["approved"] == 0
    assert paw("approve", prompt.id, "--yes").returncode == 0
    assert wait_for(lambda: len(answers(env)) == 1)
    assert [a["key"] for a in answers(env)] == ["y"]
    assert stats(env)["all"]["approved"] == 1


def test_killed_after_recording_a_denial_is_reconciled_and_denied_once(env: Env) -> None:
    configure(env, "shell touch denied.txt", "busy 600")
    assert paw("spawn", "alice", "--agent", "scripted").returncode == 0
    prompt = wait_prompt(env, "touch denied.txt")
    crashed = paw("deny", prompt.id, extra_env={CRASH_ENV: "deny:recorded"})
    assert crashed.returncode == -signal.SIGKILL
    assert answers(env) == []
    assert [p["id"] for p in listed("prompts")] == [prompt.id]  # a sweep: reconciles
    [outcome] = events(env, "outcome", prompt_id=prompt.id)
    assert outcome["outcome"] == "not-sent"
    crashed = paw("deny", prompt.id, extra_env={CRASH_ENV: "deny:sent"})
    assert crashed.returncode == -signal.SIGKILL
    assert wait_for(lambda: len(answers(env)) == 1)
    assert paw("prompts", "--json").returncode == 0
    assert [e["outcome"] for e in events(env, "outcome", prompt_id=prompt.id)] == [
        "not-sent", "interrupted",
    ]  # fmt: skip
    assert paw("deny", prompt.id).returncode != 0  # already answered: nothing sent again
    assert [a["key"] for a in answers(env)] == ["n"]


def test_killed_after_sending_is_never_sent_again_nor_counted_approved(env: Env) -> None:
    configure(env, "shell touch approved.txt", "busy 600")
    assert paw("spawn", "alice", "--agent", "scripted").returncode == 0
    prompt = wait_prompt(env, "touch approved.txt")
    crashed = paw("approve", prompt.id, "--yes", extra_env={CRASH_ENV: "approve:sent"})
    assert crashed.returncode == -signal.SIGKILL  # as kill -9 would
    assert wait_for(lambda: len(answers(env)) == 1)
    assert paw("prompts", "--json").returncode == 0  # a sweep: reconciles
    [outcome] = events(env, "outcome", prompt_id=prompt.id)
    assert outcome["outcome"] == "interrupted"
    again = paw("approve", prompt.id, "--yes")
    assert again.returncode == 1
    assert "already answered" in again.stderr
    assert [a["key"] for a in answers(env)] == ["y"]  # exactly one key reached the agent
    assert stats(env)["all"]["approved"] == 0
    assert events(env, "prompt-ended") == []  # paw sent it: not "outside paw"
