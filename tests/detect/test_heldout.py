"""The held-out screens (issue 33): sizes and turns the detectors were not written against.

``tests/fixtures/heldout/<agent>/<case>_<cols>x<rows>/`` was recorded live from the pinned
agents by ``python -m tests.e2e.heldout`` (no paw) at sizes no other fixture uses (100x30, 72x22,
150x45) and with turns the other fixtures lack (a command with quotes and a pipe, a new file in a
subfolder, an edit of a file with a long path, a fetch, a question, a folder-trust gate, a busy
screen mid-turn, the input after a finished turn); each label was read off the screen. Every
screen is read as its meta says; a subject marked incomplete is a part of the labelled one and
never judged better than ``confirm``. A dialog (a trust gate, a question) is a prompt only a
human answers: never idle or busy, never answered by paw's keys.
"""

from __future__ import annotations

import re

import pytest

from paw.core.approval import INCOMPLETE_NOTE_PREFIX
from paw.core.detect import detect
from paw.core.detect.prompts import incomplete_notes, make_prompt
from paw.core.models import Action, Detection, DetectionState, PromptKind
from tests.detect.corpus import (
    FIXTURES,
    Case,
    is_question,
    load_cases,
    problems,
    subject_matches,
)
from tests.support.judging import judge

CASES = load_cases(FIXTURES / "heldout", "heldout/")
OTHER_SIZES = {(120, 40), (80, 24), (40, 15), (30, 20)}


def test_heldout_set_spans_agents_and_new_sizes() -> None:
    assert len({c.agent for c in CASES}) >= 6
    assert all((c.meta["cols"], c.meta["rows"]) not in OTHER_SIZES for c in CASES)
    states = {c.meta["state"] for c in CASES}
    assert {"permission_prompt", "dialog", "idle", "done", "busy"} <= states


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
@pytest.mark.parametrize("variant", ["txt", "ansi"])
def test_heldout_screen_is_read_as_labelled(case: Case, variant: str) -> None:
    assert wrong_reading(case, variant) == []


def wrong_reading(case: Case, variant: str) -> list[str]:
    """What paw reads wrong on a held-out screen (empty when it is read as labelled): the
    state; a dialog's being left to a human; a prompt's kind, subject and keys, where a subject
    marked incomplete must be a part of the labelled one and judged ``confirm`` at best."""
    found = detect(case.text(variant), case.agent)
    if case.meta["state"] == "dialog":  # a human answers it: paw lists it and sends nothing
        if found.state is not DetectionState.PROMPT or found.prompt is None:
            return [f"dialog read as {found.state.value}"]
        if not found.prompt.needs_human:
            return ["dialog not left to a human"]
        if is_question(case.meta) and found.prompt.approve_keys:
            return [f"question approvable by {found.prompt.approve_keys}"]
        return []
    wrong = problems(case, found)
    incomplete = [n for n in found.notes if n.startswith(INCOMPLETE_NOTE_PREFIX)]
    if not incomplete and _tail_of_path(case, found):  # "a.md" for "docs/a.md": a part
        wrong.append(f"subject {found.prompt and found.prompt.subject!r} is the path's tail")
    if incomplete and found.prompt is not None and found.prompt.subject:
        subject = str(case.meta["subject"])
        shown = re.split(r"\n|…|\.\.\.", found.prompt.subject)
        whole = subject_matches(case.meta, found.prompt.kind, found.prompt.subject)
        if not (whole or all(part.strip() in subject for part in shown)):
            return [f"incomplete subject {found.prompt.subject!r} not a part of {subject!r}"]
        wrong = [p for p in wrong if not p.startswith("subject ")]
        if judge(found, worktree="/home/u/src").action is Action.ALLOW:
            wrong.append("incomplete subject allowed")
    return wrong


def _tail_of_path(case: Case, found: Detection) -> bool:
    """The prompt names a file by the last part of its labelled path only, while the whole
    path is on screen (the suffix match of ``subject_matches`` lets an absolute path stand for
    a relative one, not this; an agent that draws only the file's name is read as drawn)."""
    prompt, want = found.prompt, case.meta.get("subject")
    if prompt is None or prompt.kind not in (PromptKind.EDIT, PromptKind.WRITE):
        return False
    if not (isinstance(want, str) and prompt.subject and want in case.text("txt")):
        return False
    return want.endswith(f"/{prompt.subject}")


@pytest.mark.parametrize("subject", [".../deeply/nested/module.md", "…/src/module.md"])
def test_path_shortened_from_the_left_is_incomplete(subject: str) -> None:
    edit = make_prompt(PromptKind.EDIT, subject, "Approve tool call?", approve=("y",), deny=())
    assert [n for n in incomplete_notes(edit) if n.startswith(INCOMPLETE_NOTE_PREFIX)]


def test_whole_path_and_command_are_not_marked() -> None:
    edit = make_prompt(PromptKind.EDIT, "src/a/b.md", "Edit?", approve=("y",), deny=())
    shell = make_prompt(PromptKind.SHELL, ".../run.sh", "Run?", approve=("y",), deny=())
    assert incomplete_notes(edit) == ()
    assert incomplete_notes(shell) == ()
