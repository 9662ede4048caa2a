"""docs/guardrails.md is the spec: each rule id in its tables is produced by some test case."""

from __future__ import annotations

import re
from pathlib import Path

from tests.core.guard.rule_cases import DEDICATED_RULES, RULE_CASES

DOC = Path(__file__).resolve().parents[3] / "docs" / "guardrails.md"
_ROW_RE = re.compile(r"^\| `((?:shell|git|gh|agents|files)\.[a-z-]+)` \|", re.MULTILINE)
_OWNED = ("## Shell rules", "## Agent and guard rules", "## Git rules")


def _documented_ids() -> set[str]:
    text = DOC.read_text(encoding="utf-8")
    owned = text.split("## File rules", 1)[0]
    assert all(heading in owned for heading in _OWNED)
    return set(_ROW_RE.findall(owned))


def test_guardrails_doc_every_rule_has_a_case() -> None:
    tested = {case.rule for case in RULE_CASES} | DEDICATED_RULES
    missing = _documented_ids() - tested
    assert not missing, f"documented rules without a test case: {sorted(missing)}"


def test_guardrails_doc_every_tested_rule_is_documented() -> None:
    tested = {case.rule for case in RULE_CASES} | DEDICATED_RULES
    undocumented = tested - _documented_ids()
    assert not undocumented, f"rules missing from docs/guardrails.md: {sorted(undocumented)}"


def test_guardrails_doc_keeps_the_file_rules_section() -> None:
    assert "\n## File rules\n" in DOC.read_text(encoding="utf-8")
