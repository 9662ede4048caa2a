"""Every screen of the real-agent corpus, plain and with escape sequences, matches its meta."""

from __future__ import annotations

import pytest

from paw.core.detect import detect
from paw.core.verified import verified_versions
from tests.detect.corpus import Case, load_cases, problems

CASES = load_cases()


def test_corpus_is_present() -> None:
    agents = {case.agent for case in CASES}
    assert set(verified_versions()) <= agents
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


LIVE_CASES = [c for c in CASES if c.meta.get("state") in ("dialog", "permission_prompt")]


@pytest.mark.parametrize("case", LIVE_CASES, ids=[c.test_id for c in LIVE_CASES])
def test_detect_corpus_dialogs_need_a_human_and_tool_permissions_do_not(case: Case) -> None:
    """A dialog (trust, sign-in, theme, a question) is `waiting`: never approved by a generic
    key; a tool permission (even of kind `other`, e.g. leaving plan mode) stays approvable."""
    found = detect(case.text("txt"), case.agent)
    assert found.prompt is not None
    assert found.prompt.needs_human is (case.meta["state"] == "dialog")


def test_detect_corpus_has_dialogs_of_kind_other_with_approve_keys() -> None:
    """The class the dialog classifier exists for: dialogs that offer a default choice."""
    keyed = [
        c.test_id for c in LIVE_CASES
        if c.meta["state"] == "dialog" and c.meta.get("prompt_kind") == "other"
        and c.meta.get("approve_keys")
    ]  # fmt: skip
    assert len(keyed) >= 5, keyed
