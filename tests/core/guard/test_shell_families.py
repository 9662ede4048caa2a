"""Wrappers, quoting, nesting, interpreters and false-positive traps beyond the corpus."""

from __future__ import annotations

from collections import Counter

import pytest

from paw.core.guard.shell import evaluate_command
from tests.core.guard.family_cases import FAMILY_CASES, FamilyCase


@pytest.mark.parametrize("case", FAMILY_CASES, ids=[c.test_id for c in FAMILY_CASES])
def test_evaluate_command_family_case(case: FamilyCase) -> None:
    verdict = evaluate_command(case.command)
    assert verdict.action.value == case.expected, (case.command, verdict)
    assert "shell.internal-error" not in verdict.rules, verdict


def test_family_cases_cover_every_verdict() -> None:
    counts = Counter(case.expected for case in FAMILY_CASES)
    assert counts["allow"] >= 60
    assert counts["block"] >= 60
    assert counts["confirm"] >= 30
