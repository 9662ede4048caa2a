"""Part of a command is never judged as the whole (issue 33).

A subject an agent shortened on screen (an ellipsis ends one of its lines: Continue cuts long
commands that way) is listed with a note that says it is incomplete, and the guard's verdict on
it is never better than ``confirm`` (a standing rule, which needs ``allow``, never matches it).
Built from every agent's real shell prompt: its command, shortened the way agents shorten it.
"""

from __future__ import annotations

import pytest

from paw.core.approval import INCOMPLETE_NOTE_PREFIX
from paw.core.detect import AGENTS, detect
from paw.core.models import Action, DetectionState, Prompt, PromptKind
from tests.detect.corpus import FIXTURES, Case, load_cases, load_live_cases
from tests.support.judging import judge_prompt, marked_incomplete


def _judge(prompt: Prompt, notes: tuple[str, ...]) -> tuple[Action, tuple[str, ...]]:
    verdict = judge_prompt(prompt, notes)
    return verdict.action, verdict.rules


def test_incomplete_subject_is_never_better_than_confirm() -> None:
    prompt = Prompt(PromptKind.SHELL, "ls -la", "Run ls?", ("y",), ("Escape",), "f1")
    assert _judge(prompt, ())[0] is Action.ALLOW
    action, rules = _judge(prompt, (INCOMPLETE_NOTE_PREFIX + ": 5 lines not shown",))
    assert action is Action.CONFIRM
    assert "approve.incomplete-subject" in rules


def _one_line_shell(case: Case) -> bool:
    subject = case.meta.get("subject")
    found = detect(case.text(), case.agent)
    return (
        case.meta["state"] == "permission_prompt"
        and case.meta.get("prompt_kind") == "shell"
        and isinstance(subject, str)
        and "\n" not in subject
        and len(subject) > 8
        and any(subject in line for line in case.text().split("\n"))
        and found.state is DetectionState.PROMPT
    )


SHELLS = [c for c in [*load_cases(), *load_live_cases()] if _one_line_shell(c)]


def test_shell_prompts_of_many_agents_are_present() -> None:
    assert len({c.agent for c in SHELLS}) >= 5


@pytest.mark.parametrize("case", SHELLS, ids=[c.test_id for c in SHELLS])
def test_command_shortened_with_an_ellipsis_is_marked_incomplete(case: Case) -> None:
    subject = case.meta["subject"]
    shortened = (subject[: len(subject) // 2] + "…").ljust(len(subject))  # a box keeps its edge
    lines = [line.replace(subject, shortened) for line in case.text().split("\n")]
    found = detect("\n".join(lines), case.agent)
    if found.state is not DetectionState.PROMPT:
        assert found.state is DetectionState.UNKNOWN, found
        return
    assert found.prompt is not None
    if found.prompt.subject is None:
        return  # listed without a subject: the guard confirms (approve.no-subject)
    assert marked_incomplete(found), found
    action, rules = _judge(found.prompt, found.notes)
    assert action is not Action.ALLOW
    assert "approve.incomplete-subject" in rules


INCOMPLETE = load_cases(FIXTURES / "incomplete", "incomplete/")


WHOLE = [c for c in INCOMPLETE if not c.meta["incomplete"]]
INCOMPLETE = [c for c in INCOMPLETE if c.meta["incomplete"]]


def test_multiline_captures_are_present() -> None:
    assert len({c.agent for c in INCOMPLETE}) >= 2
    assert len({c.agent for c in WHOLE}) >= 5


def test_multiline_command_is_captured_for_every_agent_at_both_sizes() -> None:
    """The seven-line command of every agent at 120x40 and 80x24, captured live: each is read
    whole or marked incomplete (and confirms), by the two tests below."""
    agents = {agent for agent in AGENTS if agent != "scripted"}
    for agent in agents:
        sizes = {(c.meta["cols"], c.meta["rows"]) for c in WHOLE + INCOMPLETE if c.agent == agent}
        assert {(120, 40), (80, 24)} <= sizes, agent


@pytest.mark.parametrize("case", WHOLE, ids=[c.test_id for c in WHOLE])
def test_multiline_command_drawn_whole_is_read_whole(case: Case) -> None:
    """The agents that draw all seven lines: the subject is the command, nothing said missing."""
    found = detect(case.text(), case.agent)
    assert found.prompt is not None, found
    assert found.prompt.subject == case.meta["command"]
    marked = marked_incomplete(found)
    # A screen that cannot be told from one of a longer command cut short (its meta says why)
    # is marked, and confirms.
    assert marked is bool(case.meta.get("may_be_cut")), found
    if marked:
        assert _judge(found.prompt, found.notes)[0] is not Action.ALLOW


@pytest.mark.parametrize("case", INCOMPLETE, ids=[c.test_id for c in INCOMPLETE])
@pytest.mark.parametrize("variant", ["txt", "ansi"])
def test_command_shown_in_part_is_listed_as_incomplete_and_confirms(
    case: Case, variant: str
) -> None:
    """Cline draws 2 of a command's 7 lines, no mark for the rest: listed with what it shows,
    said to be incomplete, and the verdict is never better than confirm."""
    found = detect(case.text(variant), case.agent)
    if found.state is DetectionState.UNKNOWN:
        return
    assert found.state is DetectionState.PROMPT, found
    assert found.prompt is not None
    assert found.prompt.subject is not None
    shown = [line.strip().rstrip(".…") for line in found.prompt.subject.split("\n")]
    command = case.meta["command"].split("\n")
    assert all(c.startswith(s) for s, c in zip(shown, command, strict=False)), shown  # in order
    assert len(shown) < len(command)
    assert marked_incomplete(found), found
    action, rules = _judge(found.prompt, found.notes)
    assert action is not Action.ALLOW
    assert "approve.incomplete-subject" in rules
