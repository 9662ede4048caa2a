"""'Always' is a policy change: its scope is read from the option's text and decided apart."""

from __future__ import annotations

import pytest

from paw.core.always import always_label, read_always_scope
from paw.core.approval import Facts, Step, plan_approval
from paw.core.detect.prompts import make_prompt
from paw.core.guard.shell import evaluate_command
from paw.core.models import Action, Detection, DetectionState, Finding, Prompt, PromptKind, Verdict


def judge(command: str) -> Verdict:
    return evaluate_command(command)


def shell(subject: str, *options: str) -> Prompt:
    return make_prompt(
        PromptKind.SHELL, subject, "Run it?", approve=("1",), deny=("Escape",),
        always=("2",), options=options,
    )  # fmt: skip


def verdict(action: Action) -> Verdict:
    return Verdict.from_findings((Finding("t.rule", action, "because"),))


def facts(prompt: Prompt) -> Facts:
    live = Detection(DetectionState.PROMPT, "claude-code", prompt)
    return Facts(prompt.fingerprint, pane_exists=True, agent_alive=True, fresh=live)


@pytest.mark.parametrize(
    ("label", "subject", "covers", "unasked"),
    [
        ("Yes, and don’t ask again for: git push *", "git push origin main",
         "every command starting with `git push`", {"git push --force origin main"}),
        ("Yes, and don't ask again for commands that start with `ls -la` (p)", "ls -la",
         "every command starting with `ls -la`", set()),
        ("Always allow run 'rm *' commands in this project", "rm build.log",
         "every command starting with `rm`", {"rm -rf ~", "rm -rf .git"}),
        ("Allow for this session", "pytest -q",
         "every shell command for the rest of the session", {"git push --force origin main"}),
        ("always", "echo hi", "every shell command of this kind", {"rm -rf ~"}),
    ],
)  # fmt: skip
def test_a_remembered_shell_pattern_is_read_and_its_guarded_commands_listed(
    label: str, subject: str, covers: str, unasked: set[str]
) -> None:
    scope = read_always_scope(shell(subject, "Yes", label, "No"), judge)
    assert scope.label == label
    assert scope.covers.startswith(covers)
    assert scope.broader
    listed = {what for what, _ in scope.unasked}
    assert unasked <= listed
    assert all(action is not Action.ALLOW for _, action in scope.unasked)
    if "`" in covers:
        assert all(what.startswith(covers.split("`")[1]) for what in listed)


def test_an_exact_remembered_command_is_not_broader() -> None:
    scope = read_always_scope(shell("make test", "Yes", "Always allow `make test`", "No"), judge)
    assert not scope.broader
    assert scope.covers == "exactly `make test`"


def test_every_edit_of_the_session_names_the_guarded_files() -> None:
    prompt = make_prompt(
        PromptKind.EDIT, "src/a.py", "Make this edit?", approve=("1",), deny=("Escape",),
        always=("2",), options=("Yes", "Yes, allow all edits during this session", "No"),
    )  # fmt: skip
    scope = read_always_scope(prompt, judge)
    assert scope.covers == "every file edit for the rest of the session"
    assert ("edit .env", Action.CONFIRM) in scope.unasked


def test_no_readable_always_text_is_broader_not_narrower() -> None:
    prompt = shell("true", "Yes", "No")
    assert always_label(prompt) is None
    assert read_always_scope(prompt, judge).broader


@pytest.mark.parametrize("action", [Action.CONFIRM, Action.BLOCK])
def test_always_is_refused_unless_the_guard_allows(action: Action) -> None:
    prompt = shell("git push origin main", "Yes", "Yes, and don't ask again for: git push *")
    plan = plan_approval(facts(prompt), verdict(action), always=True, confirmed=True, judge=judge)
    assert plan.step is Step.REFUSE
    assert "'always' is refused" in plan.reason
    assert plan.keys == ()


def test_a_broader_always_needs_confirmation_and_then_sends_the_always_keys() -> None:
    prompt = shell("git status", "Yes", "Yes, and don't ask again for: git *", "No")
    first = plan_approval(facts(prompt), verdict(Action.ALLOW), always=True, judge=judge)
    assert first.step is Step.NEEDS_CONFIRMATION
    assert "git push --force origin main (block)" in first.reason
    assert first.always is not None
    assert first.always.broader
    second = plan_approval(
        facts(prompt), verdict(Action.ALLOW), always=True, confirmed=True, judge=judge
    )
    assert second.step is Step.SEND
    assert second.keys == ("2",)
    assert second.always is not None
    assert second.always.to_dict()["label"] == "Yes, and don't ask again for: git *"


def test_approve_once_is_unchanged_by_the_always_rules() -> None:
    prompt = shell("git status", "Yes", "Yes, and don't ask again for: git *", "No")
    plan = plan_approval(facts(prompt), verdict(Action.ALLOW), judge=judge)
    assert (plan.step, plan.keys, plan.always) == (Step.SEND, ("1",), None)
