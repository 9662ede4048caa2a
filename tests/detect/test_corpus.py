"""Every screen of the real-agent corpus, plain and with escape sequences, matches its meta."""

from __future__ import annotations

import pytest

from paw.core.detect import detect
from paw.core.verified import VERIFIED_VERSIONS
from tests.detect.corpus import Case, load_cases, problems

CASES = load_cases()


def test_corpus_is_present() -> None:
    agents = {case.agent for case in CASES}
    assert set(VERIFIED_VERSIONS) <= agents
    assert len(CASES) >= 90


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_detect_corpus_screen_matches_meta(case: Case) -> None:
    found = detect(case.text("txt"), case.agent)
    assert problems(case, found) == []


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_detect_corpus_ansi_variant_gives_same_answer(case: Case) -> None:
    plain = detect(case.text("txt"), case.agent)
    coloured = detect(case.text("ansi"), case.agent)
    assert coloured == plain


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_detect_corpus_question_is_never_approvable(case: Case) -> None:
    found = detect(case.text("txt"), case.agent)
    if found.prompt is not None and found.prompt.kind.value == "question":
        assert found.prompt.approve_keys == ()
        assert found.prompt.always_keys is None
