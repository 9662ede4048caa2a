"""The path corpus (tests/fixtures/guard/paths.jsonl): recall on secrets and instruction files.

Prints the confusion matrix. Targets: sensitive and instruction recall 100 %, ordinary paths
flagged <= 3 %. The corpus is a sample; the rules are written for the families, not the lines.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import pytest

from paw.core.guard.files import PathClass, classify_entry, parse_porcelain

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "guard" / "paths.jsonl"


class PathCase(NamedTuple):
    test_id: str
    line: str
    expect: str


def _cases() -> list[PathCase]:
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line]
    return [
        PathCase(f"{i:02d}-{r['path'][:40]}", r["path"], r["expect"]) for i, r in enumerate(rows)
    ]


CASES = _cases()


def _classify(line: str) -> PathClass:
    entries = parse_porcelain(line)
    assert entries, f"no path parsed from {line!r}"
    return max((classify_entry(e) for e in entries), key=lambda c: c.severity)


def test_paths_corpus_matrix_meets_targets() -> None:
    matrix: Counter[tuple[str, str]] = Counter()
    for case in CASES:
        matrix[case.expect, _classify(case.line).value] += 1
    classes = [c.value for c in PathClass]
    print("\nexpected \\ got " + " ".join(f"{c:>12}" for c in classes))
    for expect in classes:
        print(f"{expect:>14} " + " ".join(f"{matrix[expect, got]:>12}" for got in classes))
    totals = Counter(case.expect for case in CASES)
    assert matrix["sensitive", "sensitive"] == totals["sensitive"]
    assert matrix["instruction", "instruction"] == totals["instruction"]
    misflagged = totals["ordinary"] - matrix["ordinary", "ordinary"]
    assert misflagged <= 0.03 * totals["ordinary"]


@pytest.mark.parametrize(
    "case", [c for c in CASES if c.expect != "ordinary"], ids=lambda c: c.test_id
)
def test_paths_corpus_flags_each_sensitive_and_instruction_case(case: PathCase) -> None:
    assert _classify(case.line).value == case.expect
