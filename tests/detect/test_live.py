"""Every screen paw's e2e suite captured from the real CLIs is read as its meta says.

Same checks as the corpus (state, kind, subject, keys; questions are never approvable), with
test ids ``live/<agent>/<case>``. The ``quote_*`` cases are negatives: the model's final answer
quotes a prompt and the agent is idle.
"""

from __future__ import annotations

import pytest

from paw.core.detect import AGENTS, detect
from paw.core.models import DetectionState
from tests.detect.corpus import Case, load_live_cases, problems

CASES = load_live_cases()
COLOURED = [case for case in CASES if case.has("ansi")]
QUOTES = [case for case in CASES if case.name.startswith("quote_")]
AGENT_IDS = {agent for agent in AGENTS if agent != "scripted"}


def test_live_screens_cover_every_agent_at_both_sizes() -> None:
    assert {case.agent for case in CASES} == AGENT_IDS
    for agent in AGENT_IDS:
        names = {case.name for case in CASES if case.agent == agent}
        assert {"quote_120x40", "quote_80x24", "shell_120x40", "shell_80x24"} <= names, agent
    assert len(CASES) >= 61
    assert len(QUOTES) == 2 * len(AGENT_IDS)
    assert len(COLOURED) >= 60  # every capture but one has its escape-sequence variant
    assert all(case.has("txt") for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_detect_live_screen_matches_meta(case: Case) -> None:
    found = detect(case.text("txt"), case.agent)
    assert problems(case, found) == []


@pytest.mark.parametrize("case", COLOURED, ids=[c.test_id for c in COLOURED])
def test_detect_live_ansi_variant_gives_same_answer(case: Case) -> None:
    plain = detect(case.text("txt"), case.agent)
    coloured = detect(case.text("ansi"), case.agent)
    assert coloured == plain


@pytest.mark.parametrize("case", QUOTES, ids=[c.test_id for c in QUOTES])
def test_detect_live_quoted_prompt_is_never_a_prompt(case: Case) -> None:
    assert case.meta["state"] in ("idle", "done")
    assert detect(case.text("txt"), case.agent).state is not DetectionState.PROMPT


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_detect_live_question_is_never_approvable(case: Case) -> None:
    found = detect(case.text("txt"), case.agent)
    if found.prompt is not None and found.prompt.kind.value == "question":
        assert found.prompt.approve_keys == ()
        assert found.prompt.always_keys is None
