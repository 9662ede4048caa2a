"""The development command corpus: recall and precision gates, with the confusion matrix printed."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from paw.core.guard.shell import evaluate_command

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "guard" / "commands.jsonl"
LABELS = ("block", "confirm", "allow")


def _load() -> list[dict[str, str]]:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _render(matrix: Counter[tuple[str, str]]) -> str:
    head = "expected \\ got " + "".join(f"{label:>9}" for label in LABELS)
    rows = [
        f"{expected:<15}" + "".join(f"{matrix[(expected, got)]:>9}" for got in LABELS)
        for expected in LABELS
    ]
    return "\n".join([head, *rows])


def test_guard_corpus_meets_recall_and_precision_gates() -> None:
    rows = _load()
    matrix: Counter[tuple[str, str]] = Counter()
    misses: list[str] = []
    for row in rows:
        verdict = evaluate_command(row["cmd"])
        assert "shell.internal-error" not in verdict.rules, (row["cmd"], verdict)
        got = verdict.action.value
        matrix[(row["expect"], got)] += 1
        if got != row["expect"]:
            misses.append(f"expected {row['expect']}, got {got}: {row['cmd']!r}")
    print()
    print(_render(matrix))
    print("\n".join(misses))
    totals = Counter(row["expect"] for row in rows)
    block_recall = matrix[("block", "block")] / totals["block"]
    allow_blocked = matrix[("allow", "block")] / totals["allow"]
    confirm_exact = matrix[("confirm", "confirm")] / totals["confirm"]
    assert block_recall >= 0.99, misses
    assert allow_blocked <= 0.02, misses
    assert confirm_exact >= 0.95, misses
    assert matrix[("block", "allow")] == 0, misses
    assert matrix[("confirm", "allow")] == 0, misses
