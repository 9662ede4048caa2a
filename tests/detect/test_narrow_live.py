"""Live prompts the real agents drew on narrow panes (40x15, 30x20), captured by
tests/e2e/narrow.py and proven live there (the approve keys made them take effect).

On such panes a dialog's top scrolls off and its options wrap, so a detector may not be able to
prove the prompt: it must then say ``unknown``. What it must never do is read the screen as
idle or busy, or as another prompt: when it reports a prompt, the kind and keys are the verified
ones and the subject is the real one (or a piece of it, marked as cut with an ellipsis).
"""

from __future__ import annotations

import re

import pytest

from paw.core.detect import AGENTS, detect
from paw.core.detect.screen import collapse_whitespace
from paw.core.models import DetectionState, PromptKind
from tests.detect.corpus import Case, load_narrow_cases, subject_matches

CASES = load_narrow_cases()
SIZES = {(40, 15), (30, 20)}
FILE_KINDS = {PromptKind.EDIT, PromptKind.WRITE}
_ELLIPSIS = re.compile(r"…|\.\.\.")


# Sizes at which an agent cannot draw its prompts at all, so nothing could be captured.
CANNOT_DRAW = {
    ("opencode", 30, 20): "opencode 1.18.33 crashes at start-up on a 30x20 pane (its Bun "
    "runtime dies with SIGILL, 'oh no: Bun has crashed'), twice out of two tries",
}


def test_narrow_captures_cover_every_agent_at_both_sizes() -> None:
    agents = {agent for agent in AGENTS if agent != "scripted"}
    assert {case.agent for case in CASES} == agents
    for agent in agents:
        for cols, rows in SIZES:
            if (agent, cols, rows) in CANNOT_DRAW:
                continue
            names = {c.name for c in CASES if c.agent == agent}
            assert f"shell_{cols}x{rows}" in names, (agent, cols, rows)
            file_case = "write" if agent == "aider" else "edit"
            assert f"{file_case}_{cols}x{rows}" in names, (agent, cols, rows)
    assert all(case.meta["state"] == "permission_prompt" for case in CASES)
    assert all(case.has("txt") and case.has("ansi") for case in CASES)


def _cut_subject_matches(case: Case, got: str) -> bool:
    """``got`` shows the subject cut short, marked with an ellipsis: every piece it shows is a
    piece of the real subject (for a file, of its full path as the screen showed it)."""
    pieces = [p.strip() for p in _ELLIPSIS.split(got) if p.strip()]
    if not _ELLIPSIS.search(got) or not pieces:
        return False
    whole = str(case.meta.get("subject_path") or case.meta["subject"])
    return all(piece in whole for piece in pieces)


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_narrow_live_prompt_is_read_right_or_unknown(case: Case) -> None:
    found = detect(case.text("txt"), case.agent)
    assert found.state in (DetectionState.PROMPT, DetectionState.UNKNOWN), found
    if found.state is DetectionState.UNKNOWN:
        assert found.prompt is None
        return
    prompt = found.prompt
    assert prompt is not None
    want_kind = PromptKind(case.meta["prompt_kind"])
    # The tool line that tells a new file from an edit may have scrolled off a short pane.
    assert prompt.kind is want_kind or {prompt.kind, want_kind} == FILE_KINDS, found
    assert list(prompt.approve_keys) == case.meta["approve_keys"], found
    assert list(prompt.deny_keys) == case.meta["deny_keys"], found
    got = collapse_whitespace(prompt.subject or "")
    assert subject_matches(case.meta, prompt.kind, got) or _cut_subject_matches(case, got), found


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_narrow_live_ansi_variant_gives_same_answer(case: Case) -> None:
    assert detect(case.text("ansi"), case.agent) == detect(case.text("txt"), case.agent)
