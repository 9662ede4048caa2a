"""The `waiting` state: a dialog only a human can answer (folder trust, a question) is shown as
such by `paw ls`, `paw prompts` and `--json`, and paw never answers it with a generic approve,
whatever its verdict; the scripted agent draws the dialogs on a real tmux server."""

from __future__ import annotations

import pytest

from tests.adversarial.ident_support import (
    Env,
    answers,
    configure,
    events,
    listed,
    paw,
    screen,
    wait_for,
    wait_prompt,
)

pytestmark = [pytest.mark.tmux, pytest.mark.git]


@pytest.mark.parametrize(
    ("step", "kind"), [("trust .", "trust"), ("question pick one", "question")]
)
def test_a_dialog_is_waiting_and_never_approved_by_a_generic_key(
    env: Env, step: str, kind: str
) -> None:
    configure(env, step, "shell ls")
    assert paw("spawn", "alice", "--agent", "scripted").returncode in (0, 5)
    subject = step.split(" ", 1)[1]
    prompt = wait_prompt(env, subject)
    agent = listed("ls")[0]
    assert (agent["status"], agent["note"]) == ("waiting", f"waits on a {kind} dialog: "
                                                + prompt.prompt.question)  # fmt: skip
    human = paw("ls")
    assert "waiting" in human.stdout
    assert "paw attach alice" in human.stdout
    shown = listed("prompts")
    assert [(p["prompt_kind"], p["waiting"]) for p in shown] == [(kind, True)]
    assert "answer it in the pane" in paw("prompts").stdout
    before = screen(env, agent["pane_id"])
    for extra in ([], ["--yes"], ["--override", "I know"]):
        done = paw("approve", prompt.id, *extra)
        assert done.returncode != 0, done.stdout
        assert "not a tool permission" in done.stdout + done.stderr
    assert answers(env) == []
    assert screen(env, agent["pane_id"]) == before
    assert not events(env, "approve", decision="send")


def test_a_tool_permission_is_not_waiting(env: Env) -> None:
    configure(env, "shell ls")
    assert paw("spawn", "bob", "--agent", "scripted").returncode in (0, 5)
    wait_prompt(env, "ls")
    assert wait_for(lambda: listed("ls")[0]["status"] == "prompt")
    assert [p["waiting"] for p in listed("prompts")] == [False]
